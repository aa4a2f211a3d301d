// Copyright 2026 The Boost.ForkJoin developers.
// Distributed under the Boost Software License, Version 1.0.
// (See accompanying file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)

#define BOOST_TEST_MODULE broadcast
#include <boost/test/unit_test.hpp>

#include "channel.hpp"
#include "policies.hpp"
#include "watchdog.hpp"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <set>
#include <stdexcept>
#include <string>
#include <thread>
#include <tuple>
#include <vector>

namespace fj = boost::forkjoin;
using namespace std::chrono_literals;

// rayon: broadcast_pool.
BOOST_AUTO_TEST_CASE_TEMPLATE(broadcast_reaches_every_index_once, Policy, test::api_policies)
{
    for (std::size_t n : {1u, 2u, 4u}) {
        test::pool<Policy> pool(test::threads(n));
        if (n == 4)
            std::this_thread::sleep_for(20ms); // everyone asleep: the broadcast must wake each
        // Boost.Test is not thread-safe: gather on the workers, check here.
        struct seen {
            std::size_t index, thread_index, num_threads, current_num_threads;
        };
        std::vector<seen> const results = pool.broadcast([](fj::broadcast_context ctx) {
            return seen{ctx.index(), fj::current_thread_index().value(), ctx.num_threads(), fj::current_num_threads()};
        });
        BOOST_REQUIRE(results.size() == n);
        for (std::size_t i = 0; i < n; ++i) {
            BOOST_TEST(results[i].index == i);
            BOOST_TEST(results[i].thread_index == i);
            BOOST_TEST(results[i].num_threads == n);
            BOOST_TEST(results[i].current_num_threads == n);
        }
    }
}

BOOST_AUTO_TEST_CASE_TEMPLATE(broadcast_runs_on_distinct_threads, Policy, test::api_policies)
{
    test::pool<Policy> pool(test::threads(3));
    auto const ids = pool.broadcast([](fj::broadcast_context) { return std::this_thread::get_id(); });
    BOOST_TEST(std::set<std::thread::id>(ids.begin(), ids.end()).size() == 3u);
}

BOOST_AUTO_TEST_CASE_TEMPLATE(broadcast_from_inside_the_pool, Policy, test::api_policies)
{
    test::pool<Policy> pool(test::threads(2));
    std::atomic<int> calls{0};
    pool.install([&] { pool.broadcast([&](fj::broadcast_context) { ++calls; }); });
    BOOST_TEST(calls.load() == 2);
}

// rayon: broadcast_panic_one.
BOOST_AUTO_TEST_CASE_TEMPLATE(broadcast_rethrows_after_all_ran, Policy, test::api_policies)
{
    test::pool<Policy> pool(test::threads(3));
    std::atomic<int> calls{0};
    BOOST_CHECK_THROW(pool.broadcast([&](fj::broadcast_context ctx) {
        ++calls;
        if (ctx.index() == 1)
            throw std::runtime_error("one");
    }),
                      std::runtime_error);
    BOOST_TEST(calls.load() == 3);
}

// Ported from rayon-core 1.10.1 src/broadcast/test.rs, with shorter sleeps.

// rayon: broadcast_mutual. Regression (issue 10, bug 2): a worker of pool 1
// waiting for pool2.broadcast blocked its thread, while pool 2's workers,
// inside pool1.broadcast, waited for the broadcast job only that blocked
// worker could run.
BOOST_AUTO_TEST_CASE_TEMPLATE(broadcast_mutual, Policy, test::api_policies)
{
    test::watchdog const hang_guard("broadcast_mutual");
    std::atomic<int> count{0};
    test::pool<Policy> pool1(test::threads(3));
    test::pool<Policy> pool2(test::threads(7));
    pool1.install([&] {
        pool2.broadcast([&](fj::broadcast_context) { pool1.broadcast([&](fj::broadcast_context) { ++count; }); });
    });
    BOOST_TEST(count.load() == 3 * 7);
}

// rayon: broadcast_mutual_sleepy. As above, with every worker asleep before
// each broadcast reaches it.
BOOST_AUTO_TEST_CASE_TEMPLATE(broadcast_mutual_sleepy, Policy, test::api_policies)
{
    test::watchdog const hang_guard("broadcast_mutual_sleepy");
    std::atomic<int> count{0};
    test::pool<Policy> pool1(test::threads(3));
    test::pool<Policy> pool2(test::threads(7));
    pool1.install([&] {
        std::this_thread::sleep_for(100ms);
        pool2.broadcast([&](fj::broadcast_context) {
            std::this_thread::sleep_for(100ms);
            pool1.broadcast([&](fj::broadcast_context) {
                std::this_thread::sleep_for(10ms);
                ++count;
            });
        });
    });
    BOOST_TEST(count.load() == 3 * 7);
}

// rayon: broadcast_global.
BOOST_AUTO_TEST_CASE(broadcast_global)
{
    std::vector<std::size_t> const indices = fj::broadcast([](fj::broadcast_context ctx) { return ctx.index(); });
    BOOST_REQUIRE(indices.size() == fj::current_num_threads());
    for (std::size_t i = 0; i < indices.size(); ++i)
        BOOST_TEST(indices[i] == i);
}

namespace {
// The indices a spawn_broadcast reported, sorted: every worker's, once.
void check_every_index_once(std::vector<std::size_t> indices, std::size_t num_threads)
{
    std::sort(indices.begin(), indices.end());
    BOOST_REQUIRE(indices.size() == num_threads);
    for (std::size_t i = 0; i < num_threads; ++i)
        BOOST_TEST(indices[i] == i);
}
} // namespace

// rayon: spawn_broadcast_global.
BOOST_AUTO_TEST_CASE(spawn_broadcast_global)
{
    test::watchdog const hang_guard("spawn_broadcast_global");
    test::channel<std::size_t> channel;
    fj::spawn_broadcast([&](fj::broadcast_context ctx) { channel.send(ctx.index()); });
    std::size_t const n = fj::current_num_threads();
    check_every_index_once(channel.receive(n), n);
}

// rayon: spawn_broadcast_pool. The pool's destructor waits for the jobs.
BOOST_AUTO_TEST_CASE_TEMPLATE(spawn_broadcast_pool, Policy, test::api_policies)
{
    test::channel<std::size_t> channel;
    {
        test::pool<Policy> pool(test::threads(7));
        pool.spawn_broadcast([&](fj::broadcast_context ctx) { channel.send(ctx.index()); });
    }
    check_every_index_once(channel.received(), 7);
}

// rayon: broadcast_self. The free broadcast from a worker uses its pool.
BOOST_AUTO_TEST_CASE_TEMPLATE(broadcast_self, Policy, test::api_policies)
{
    test::pool<Policy> pool(test::threads(7));
    auto const indices = pool.install([] { return fj::broadcast([](fj::broadcast_context ctx) { return ctx.index(); }); });
    BOOST_REQUIRE(indices.size() == 7u);
    for (std::size_t i = 0; i < 7; ++i)
        BOOST_TEST(indices[i] == i);
}

// rayon: spawn_broadcast_self.
BOOST_AUTO_TEST_CASE_TEMPLATE(spawn_broadcast_self, Policy, test::api_policies)
{
    test::channel<std::size_t> channel;
    {
        test::pool<Policy> pool(test::threads(7));
        pool.spawn([&] { fj::spawn_broadcast([&](fj::broadcast_context ctx) { channel.send(ctx.index()); }); });
    }
    check_every_index_once(channel.received(), 7);
}

// rayon: spawn_broadcast_mutual.
BOOST_AUTO_TEST_CASE_TEMPLATE(spawn_broadcast_mutual, Policy, test::api_policies)
{
    test::watchdog const hang_guard("spawn_broadcast_mutual");
    test::channel<int> channel;
    {
        test::pool<Policy> pool1(test::threads(3));
        test::pool<Policy> pool2(test::threads(7));
        pool1.spawn([&] {
            pool2.spawn_broadcast([&](fj::broadcast_context) {
                pool1.spawn_broadcast([&](fj::broadcast_context) { channel.send(1); });
            });
        });
        channel.receive(3 * 7); // before the pools go: pool2's jobs spawn into pool1
    }
    BOOST_TEST(channel.received().size() == 3u * 7u);
}

// rayon: spawn_broadcast_mutual_sleepy.
BOOST_AUTO_TEST_CASE_TEMPLATE(spawn_broadcast_mutual_sleepy, Policy, test::api_policies)
{
    test::watchdog const hang_guard("spawn_broadcast_mutual_sleepy");
    test::channel<int> channel;
    {
        test::pool<Policy> pool1(test::threads(3));
        test::pool<Policy> pool2(test::threads(7));
        pool1.spawn([&] {
            std::this_thread::sleep_for(100ms);
            pool2.spawn_broadcast([&](fj::broadcast_context) {
                std::this_thread::sleep_for(100ms);
                pool1.spawn_broadcast([&](fj::broadcast_context) {
                    std::this_thread::sleep_for(10ms);
                    channel.send(1);
                });
            });
        });
        channel.receive(3 * 7);
    }
    BOOST_TEST(channel.received().size() == 3u * 7u);
}

namespace {
// A panic handler that counts what it receives.
fj::pool_options counting_panics(std::size_t num_threads, std::atomic<int>& panics)
{
    fj::pool_options options = test::threads(num_threads);
    options.panic_handler = [&panics](std::exception_ptr) { ++panics; };
    return options;
}
} // namespace

// rayon: spawn_broadcast_panic_one.
BOOST_AUTO_TEST_CASE_TEMPLATE(spawn_broadcast_panic_one, Policy, test::api_policies)
{
    std::atomic<int> calls{0};
    std::atomic<int> panics{0};
    {
        test::pool<Policy> pool(counting_panics(7, panics));
        pool.spawn_broadcast([&](fj::broadcast_context ctx) {
            ++calls;
            if (ctx.index() == 3)
                throw std::runtime_error("Hello, world!");
        });
    }
    BOOST_TEST(calls.load() == 7);
    BOOST_TEST(panics.load() == 1);
}

// rayon: broadcast_panic_many.
BOOST_AUTO_TEST_CASE_TEMPLATE(broadcast_panic_many, Policy, test::api_policies)
{
    std::atomic<int> calls{0};
    test::pool<Policy> pool(test::threads(7));
    try {
        pool.broadcast([&](fj::broadcast_context ctx) {
            ++calls;
            if (ctx.index() % 2 == 0)
                throw std::out_of_range(std::to_string(ctx.index()));
        });
        BOOST_FAIL("broadcast panic should propagate");
    } catch (std::out_of_range const& e) {
        BOOST_TEST(std::string(e.what()) == "0"); // the lowest-indexed worker's
    }
    BOOST_TEST(calls.load() == 7);
}

// rayon: spawn_broadcast_panic_many.
BOOST_AUTO_TEST_CASE_TEMPLATE(spawn_broadcast_panic_many, Policy, test::api_policies)
{
    std::atomic<int> calls{0};
    std::atomic<int> panics{0};
    {
        test::pool<Policy> pool(counting_panics(7, panics));
        pool.spawn_broadcast([&](fj::broadcast_context ctx) {
            ++calls;
            if (ctx.index() % 2 == 0)
                throw std::runtime_error("Hello, world!");
        });
    }
    BOOST_TEST(calls.load() == 7);
    BOOST_TEST(panics.load() == 4);
}

// rayon: broadcast_sleep_race. Slightly different durations make workers
// race into their idle sleep right after each broadcast. rayon repeats for a
// second; a fixed count keeps the test free of timing.
BOOST_AUTO_TEST_CASE_TEMPLATE(broadcast_sleep_race, Policy, test::api_policies)
{
    test::watchdog const hang_guard("broadcast_sleep_race");
    test::pool<Policy> pool(test::threads(7));
    for (int round = 0; round < 200; ++round)
        pool.broadcast([](fj::broadcast_context ctx) {
            std::this_thread::sleep_for(std::chrono::microseconds(ctx.index()));
        });
    BOOST_TEST(true);
}

// A broadcast into another pool from a worker that is itself inside a
// broadcast of its own pool, the other way round, and back: every waiting
// worker keeps running its own pool's broadcast jobs.
BOOST_AUTO_TEST_CASE_TEMPLATE(broadcast_ping_pong_across_pools, Policy, test::api_policies)
{
    test::watchdog const hang_guard("broadcast_ping_pong_across_pools");
    std::atomic<int> count{0};
    test::pool<Policy> pool1(test::threads(2));
    fj::basic_thread_pool<fj::sleep::legacy> pool2(test::threads(3));
    pool1.broadcast([&](fj::broadcast_context) {
        pool2.broadcast([&](fj::broadcast_context) { pool1.broadcast([&](fj::broadcast_context) { ++count; }); });
    });
    BOOST_TEST(count.load() == 2 * 3 * 2);
}

// Results come back by worker index from a broadcast into another pool.
BOOST_AUTO_TEST_CASE_TEMPLATE(broadcast_into_another_pool_returns_its_results, Policy, test::api_policies)
{
    test::pool<Policy> pool1(test::threads(2));
    test::pool<Policy> pool2(test::threads(3));
    auto const indices =
        pool1.install([&] { return pool2.broadcast([](fj::broadcast_context ctx) { return ctx.index() * 10; }); });
    BOOST_TEST(indices == (std::vector<std::size_t>{0, 10, 20}));
}

// --- What f may be ------------------------------------------------------------

// Every broadcast calls f as an lvalue, not a const one, as the reference
// says: a function object whose call operator is not const works with each
// (the pool's and the free spawn_broadcast did not compile with one, while
// broadcast and a scope's spawn_broadcast did). The pool's destructor waits
// for the spawned ones.
struct counting_call {
    std::atomic<int>* calls;
    void operator()(fj::broadcast_context) { ++*calls; } // not const
};

BOOST_AUTO_TEST_CASE_TEMPLATE(every_broadcast_calls_a_non_const_function_object, Policy, test::api_policies)
{
    std::atomic<int> calls{0};
    {
        test::pool<Policy> pool(test::threads(2));
        pool.broadcast(counting_call{&calls});
        pool.spawn_broadcast(counting_call{&calls});
        pool.install([&] {
            fj::broadcast(counting_call{&calls});
            fj::spawn_broadcast(counting_call{&calls});
        });
        pool.scope([&](fj::lifo_scope& s) { s.spawn_broadcast(counting_call{&calls}); });
    }
    BOOST_TEST(calls.load() == 5 * 2);
}

// A result type that is const comes back as a vector of the type without
// const (std::vector cannot hold `std::string const`: it did not compile).
BOOST_AUTO_TEST_CASE(broadcast_of_a_const_result_returns_a_vector_of_the_plain_type)
{
    fj::thread_pool pool(test::threads(2));
    auto const names = pool.broadcast([](fj::broadcast_context ctx) -> std::string const {
        return "worker " + std::to_string(ctx.index());
    });
    static_assert(std::is_same_v<decltype(names), std::vector<std::string> const>);
    BOOST_TEST(names == (std::vector<std::string>{"worker 0", "worker 1"}), boost::test_tools::per_element());
}

// pool_options::caller_slot: worker 0 has no thread of its own. Its share
// of a broadcast runs on whoever holds its place, the caller of install
// inside the job; while nobody holds it, on a thread of the pool, as that
// thread's own worker (it borrows the place only to take the share). The
// share must never be left in worker 0's queue with the place free
// (registry_base::free_caller_slot and inject_broadcast, a store-buffering
// pair): a broadcast that loses it never returns (the watchdog), while
// installs come and go on another thread.
BOOST_AUTO_TEST_CASE_TEMPLATE(a_broadcast_reaches_worker_0_whoever_holds_its_place, Policy, test::api_policies)
{
    test::watchdog const hang_guard("a_broadcast_reaches_worker_0_whoever_holds_its_place");
    fj::pool_options options;
    options.num_threads = 3;
    options.caller_slot = true;
    test::pool<Policy> pool(options);
    auto const me = std::this_thread::get_id();

    // Place free: a thread of the pool runs the share, as its own worker.
    // (Checked here: Boost.Test's checks are for the main thread only.)
    auto const outside = pool.broadcast([&](fj::broadcast_context c) {
        return std::tuple(c.index(), fj::current_thread_index(), std::this_thread::get_id() != me);
    });
    BOOST_TEST(outside.size() == 3u);
    for (std::size_t i = 0; i < outside.size(); ++i) {
        auto const [index, worker, elsewhere] = outside[i];
        BOOST_TEST(index == i);
        BOOST_TEST(worker.has_value());
        if (i == 0)
            BOOST_TEST((worker.has_value() && *worker != 0u)); // nobody is worker 0 meanwhile
        else
            BOOST_TEST((worker == std::optional<std::size_t>(i)));
        BOOST_TEST(elsewhere);
    }
    // Place held by this thread: it runs the share itself while it waits.
    // A thread of the pool never holds the place for longer than a pop, and
    // install waits that out: the only outside caller gets the place.
    auto const [held, inside] = pool.install([&] {
        bool const holder =
            fj::current_thread_index() == std::optional<std::size_t>(0) && std::this_thread::get_id() == me;
        return std::pair(holder, pool.broadcast([&](fj::broadcast_context) {
                             return std::this_thread::get_id() == me;
                         }));
    });
    BOOST_TEST(held);
    BOOST_TEST((inside == std::vector<bool>{true, false, false}));

    // Installs on one thread, broadcasts and spawned broadcasts on another.
    std::atomic<bool> done{false};
    std::atomic<long> installs{0};
    std::thread installer([&] {
        while (!done.load())
            installs += pool.install([] { return fj::current_thread_index().has_value(); });
    });
    while (installs.load() == 0)
        std::this_thread::yield();
    std::atomic<int> spawned_shares{0};
    constexpr int rounds = 300;
    for (int r = 0; r < rounds; ++r) {
        auto const shares = pool.broadcast([](fj::broadcast_context c) { return c.index(); });
        BOOST_TEST((shares == std::vector<std::size_t>{0, 1, 2}));
        pool.spawn_broadcast([&](fj::broadcast_context) { ++spawned_shares; });
    }
    done = true;
    installer.join();
    while (spawned_shares.load() != 3 * rounds)
        std::this_thread::yield();
}

// The share that reaches worker 0 while its place is held, and that the
// holder never looks for (its job does not wait in the pool), is left in
// worker 0's queue when the holder gives the place back. By then the pool's
// threads have run their shares and gone to sleep: the holder's look at
// the queue after it gave the place back is all that wakes one of them to
// take the share and run it (as itself, worker 1). Without it the broadcast
// never returns.
//
// The holder's job waits outside the pool for share 1, which only worker 1
// runs: it relies on the holder getting the place. Each round's share 0
// runs on worker 1, which once held the place for the length of the share
// and gave it back only after the share's latch was set; the next round's
// install could find it still held, inject its job, and the job ran on
// worker 1 waiting for share 1 behind it (20 of 20 runs hung on 2 CPUs).
// A thread of the pool now holds the place only for a pop, which install
// waits out.
BOOST_AUTO_TEST_CASE_TEMPLATE(a_share_left_in_a_held_place_runs_once_the_place_is_free, Policy,
                              test::blocking_policies)
{
    test::watchdog const hang_guard("a_share_left_in_a_held_place_runs_once_the_place_is_free");
    fj::pool_options options;
    options.num_threads = 2;
    options.caller_slot = true;
    test::pool<Policy> pool(options);
    for (int round = 0; round < 3; ++round) {
        std::atomic<bool> holding{false}, share_1_ran{false}, share_0_waited{false};
        std::atomic<std::size_t> share_0_on{99};
        std::thread holder([&] {
            pool.install([&] {
                holding = true;
                while (!share_1_ran.load())
                    std::this_thread::yield();
                // The pool's thread goes to sleep meanwhile.
                std::this_thread::sleep_for(50ms);
                share_0_waited = share_0_on.load() == 99u; // still queued
            });
        });
        while (!holding.load())
            std::this_thread::yield();
        pool.broadcast([&](fj::broadcast_context c) {
            if (c.index() == 1)
                share_1_ran = true;
            else
                share_0_on = fj::current_thread_index().value_or(99);
        });
        BOOST_TEST(share_0_on.load() == 1u);
        holder.join();
        BOOST_TEST(share_0_waited.load());
    }
}

// A thread of the pool that runs worker 0's share while the place is free
// stays its own worker: a share that waits for work of the pool (a nested
// broadcast, whose share 1 only worker 1 runs) has that work run by the
// waiting thread itself. When the thread wore worker 0's identity for the
// share, nobody was worker 1 meanwhile, and with two threads this hung every
// run (it does not without caller_slot). The same for every share, each of
// them nesting, with the place held by an installer meanwhile.
BOOST_AUTO_TEST_CASE_TEMPLATE(a_share_that_waits_for_a_nested_broadcast_finishes, Policy, test::api_policies)
{
    test::watchdog const hang_guard("a_share_that_waits_for_a_nested_broadcast_finishes");
    for (std::size_t threads : {2u, 3u}) {
        fj::pool_options options;
        options.num_threads = threads;
        options.caller_slot = true;
        test::pool<Policy> pool(options);
        for (int round = 0; round < 20; ++round) {
            std::atomic<std::size_t> nested{0};
            pool.broadcast([&](fj::broadcast_context c) {
                if (c.index() == 0)
                    pool.broadcast([&](fj::broadcast_context) { ++nested; });
            });
            BOOST_TEST(nested.load() == threads);
            nested = 0;
            pool.broadcast([&](fj::broadcast_context) {
                pool.broadcast([&](fj::broadcast_context) { ++nested; });
            });
            BOOST_TEST(nested.load() == threads * threads);
        }
        // Nested broadcasts while an outside thread comes and goes in the
        // place.
        std::atomic<bool> done{false};
        std::thread installer([&] {
            while (!done.load())
                pool.install([&] { pool.broadcast([](fj::broadcast_context) {}); });
        });
        for (int round = 0; round < 50; ++round) {
            std::atomic<std::size_t> nested{0};
            pool.broadcast([&](fj::broadcast_context c) {
                if (c.index() == 0)
                    pool.broadcast([&](fj::broadcast_context) { ++nested; });
            });
            BOOST_TEST(nested.load() == threads);
        }
        done = true;
        installer.join();
    }
}
