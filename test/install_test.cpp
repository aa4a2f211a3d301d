// Copyright 2026 The Boost.ForkJoin developers.
// Distributed under the Boost Software License, Version 1.0.
// (See accompanying file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)

#define BOOST_TEST_MODULE install
#include <boost/test/unit_test.hpp>

#include "policies.hpp"
#include "wait_until.hpp"
#include "watchdog.hpp"

#include <atomic>
#include <chrono>
#include <optional>
#include <stdexcept>
#include <thread>
#include <tuple>
#include <type_traits>
#include <utility>
#include <variant>
#include <vector>

namespace fj = boost::forkjoin;

namespace {
long fib(int n)
{
    if (n < 2)
        return n;
    auto [a, b] = fj::join([n] { return fib(n - 1); }, [n] { return fib(n - 2); });
    return a + b;
}
} // namespace

BOOST_AUTO_TEST_CASE_TEMPLATE(install_runs_on_a_worker_and_returns, Policy, test::api_policies)
{
    test::pool<Policy> pool(test::threads(2));
    auto const index = pool.install([] { return fj::current_thread_index(); });
    BOOST_REQUIRE(index.has_value());
    BOOST_TEST(*index < 2u);
    BOOST_TEST(!pool.current_thread_index()); // we are not one of its workers
    pool.install([] {}); // void
}

// What returns a reference returns it, as std::invoke does: install, join
// (its second half run in place, or stolen and waited for), the scopes. A
// result that is an rvalue reference stays one.
BOOST_AUTO_TEST_CASE_TEMPLATE(results_by_reference_are_the_objects_referred_to, Policy, test::api_policies)
{
    test::pool<Policy> pool(test::threads(2));
    int x = 0, y = 0;
    int& from_install = pool.install([&]() -> int& { return x; });
    BOOST_TEST(&from_install == &x);
    int&& moved = pool.install([&]() -> int&& { return std::move(y); });
    BOOST_TEST(&moved == &y);

    auto [a, b] = pool.join([&]() -> int& { return x; }, [&]() -> int const& { return y; });
    static_assert(std::is_same_v<decltype(pool.join([&]() -> int& { return x; }, [] {})),
                                 std::pair<int&, std::monostate>>);
    BOOST_TEST(&a == &x);
    BOOST_TEST(&b == &y);
    // The first half waits until the second is stolen, so the second comes
    // back through the stolen job's result.
    std::atomic<bool> second_ran{false};
    auto [c, d] = pool.join(
        [&]() -> int& {
            test::wait_until([&] { return second_ran.load(); });
            return y;
        },
        [&]() -> int& {
            second_ran = true;
            return x;
        });
    BOOST_TEST(&c == &y);
    BOOST_TEST(&d == &x);

    int& from_scope = pool.scope([&](fj::lifo_scope&) -> int& { return x; });
    BOOST_TEST(&from_scope == &x);
    int& in_place = pool.in_place_scope([&](fj::lifo_scope& s) -> int& {
        s.spawn([&] { ++y; });
        return x;
    });
    BOOST_TEST(&in_place == &x);
    int& fifo_in_place = pool.install([&]() -> int& {
        return fj::in_place_scope_fifo([&](fj::fifo_scope&) -> int& { return y; });
    });
    BOOST_TEST(&fifo_in_place == &y);
    BOOST_TEST(y == 1);
}

BOOST_AUTO_TEST_CASE_TEMPLATE(install_from_eight_outside_threads_at_once, Policy, test::api_policies)
{
    test::pool<Policy> pool(test::threads(2));
    std::vector<long> results(8);
    std::vector<std::thread> callers;
    for (int t = 0; t < 8; ++t)
        callers.emplace_back([&, t] {
            for (int rep = 0; rep < 20; ++rep)
                results[static_cast<std::size_t>(t)] += pool.install([t] { return fib(12 + t % 4); });
        });
    for (auto& c : callers)
        c.join();
    for (int t = 0; t < 8; ++t) {
        long const expected = 20 * std::vector<long>{144, 233, 377, 610}[static_cast<std::size_t>(t % 4)];
        BOOST_TEST(results[static_cast<std::size_t>(t)] == expected);
    }
}

BOOST_AUTO_TEST_CASE_TEMPLATE(install_from_own_worker_runs_in_place, Policy, test::api_policies)
{
    test::pool<Policy> pool(test::threads(2));
    bool same = pool.install([&] {
        auto const outer = std::this_thread::get_id();
        return pool.install([&] { return std::this_thread::get_id() == outer; });
    });
    BOOST_TEST(same);
}

BOOST_AUTO_TEST_CASE_TEMPLATE(cross_pool_install_keeps_the_caller_working, Policy, test::api_policies)
{
    test::pool<Policy> a(test::threads(2));
    fj::basic_thread_pool<fj::sleep::legacy> b(test::threads(2));
    std::atomic<int> side_jobs{0};
    long const r = a.install([&] {
        // While a's worker waits for b, a job it spawned in a can still run
        // (possibly on the waiting worker itself).
        for (int i = 0; i < 10; ++i)
            fj::spawn([&] { ++side_jobs; });
        return b.install([] { return fj::current_thread_index().has_value() ? fib(20) : -1L; });
    });
    BOOST_TEST(r == 6765); // and it ran on one of b's workers
    while (side_jobs.load() < 10)
        std::this_thread::yield();
}

BOOST_AUTO_TEST_CASE_TEMPLATE(exception_from_install_reaches_the_caller, Policy, test::api_policies)
{
    test::pool<Policy> pool(test::threads(2));
    test::pool<Policy> other(test::threads(1));
    BOOST_CHECK_THROW(pool.install([]() -> int { throw std::out_of_range("x"); }), std::out_of_range);
    BOOST_CHECK_THROW(pool.install([&] { other.install([] { throw std::out_of_range("y"); }); }), std::out_of_range);
}

// --- Ported from rayon-core 1.10.1, src/thread_pool/test.rs --------------------
// panic_propagate and self_install are exception_from_install_reaches_the_caller
// and install_from_own_worker_runs_in_place above.

// rayon: mutual_install, mutual_install_sleepy. Two one-thread pools install
// into each other: each waiting worker must run the other's install.
BOOST_AUTO_TEST_CASE_TEMPLATE(mutual_install, Policy, test::api_policies)
{
    test::watchdog const hang_guard("mutual_install");
    for (bool sleepy : {false, true}) {
        test::pool<Policy> pool1(test::threads(1));
        test::pool<Policy> pool2(test::threads(1));
        bool const ok = pool1.install([&] {
            return pool2.install([&] {
                if (sleepy) // let pool1's worker fall asleep
                    std::this_thread::sleep_for(std::chrono::milliseconds(100));
                return pool1.install([&] {
                    if (sleepy)
                        std::this_thread::sleep_for(std::chrono::milliseconds(100));
                    return true;
                });
            });
        });
        BOOST_TEST(ok);
    }
}

// --- pool_options::caller_slot: worker 0's place, taken by a caller -------------

namespace {
fj::pool_options with_caller_slot(std::size_t n)
{
    fj::pool_options options = test::threads(n);
    options.caller_slot = true;
    return options;
}
} // namespace

// install from outside runs in place as worker 0, which has no thread of its
// own; the pool made the others; the place is free again afterwards.
BOOST_AUTO_TEST_CASE_TEMPLATE(a_caller_slot_install_runs_on_the_caller_as_worker_0, Policy, test::api_policies)
{
    std::vector<std::thread> threads;
    std::vector<std::size_t> handed_out;
    fj::pool_options options = with_caller_slot(3);
    options.spawn_handler = [&](fj::thread_builder worker) {
        handed_out.push_back(worker.index());
        threads.emplace_back([w = std::move(worker)]() mutable { w.run(); });
    };
    {
        test::pool<Policy> pool(options);
        BOOST_TEST(pool.num_threads() == 3u);
        BOOST_TEST((handed_out == std::vector<std::size_t>{1, 2}));
        auto const me = std::this_thread::get_id();
        for (int rep = 0; rep < 50; ++rep) {
            auto const [index, here, sum] = pool.install([&] {
                return std::tuple(fj::current_thread_index(), std::this_thread::get_id() == me, fib(18));
            });
            BOOST_TEST((index == std::optional<std::size_t>(0)));
            BOOST_TEST(here);
            BOOST_TEST(sum == 2584);
            BOOST_TEST(!fj::current_thread_index()); // no worker outside install
        }
        // The other entries that install: join and scope from outside.
        BOOST_TEST((pool.join([] { return fj::current_thread_index(); }, [] { return 1; }).first ==
                    std::optional<std::size_t>(0)));
        BOOST_TEST((pool.scope([](fj::lifo_scope&) { return fj::current_thread_index(); }) ==
                    std::optional<std::size_t>(0)));
        // An exception leaves through install and gives the place back.
        BOOST_CHECK_THROW(pool.install([] { throw std::out_of_range("x"); }), std::out_of_range);
        BOOST_TEST((pool.install([] { return fj::current_thread_index(); }) == std::optional<std::size_t>(0)));
        // A worker of the pool installs in place, as without a slot.
        auto const from_worker = pool.install([&] {
            std::optional<std::size_t> inner;
            fj::scope([&](fj::lifo_scope& s) {
                s.spawn([&] {
                    if (fj::current_thread_index() != std::optional<std::size_t>(0))
                        inner = pool.install([] { return fj::current_thread_index(); });
                });
            });
            return inner;
        });
        if (from_worker) // the spawn was stolen by a made thread
            BOOST_TEST(*from_worker != 0u);
    }
    for (auto& t : threads)
        t.join();
}

// The options that give worker 0 away are exclusive; one thread leaves no
// place to give: the pool makes its thread and install waits for it.
BOOST_AUTO_TEST_CASE(a_caller_slot_needs_two_threads_and_no_use_current_thread)
{
    fj::pool_options both = with_caller_slot(2);
    both.use_current_thread = true;
    BOOST_CHECK_THROW(fj::thread_pool{both}, std::invalid_argument);
    BOOST_TEST(!fj::current_thread_index()); // and this thread did not become a worker

    fj::thread_pool one(with_caller_slot(1));
    auto const me = std::this_thread::get_id();
    BOOST_TEST(one.install([] { return std::this_thread::get_id(); }) != me);
    BOOST_TEST((one.install([] { return fj::current_thread_index(); }) == std::optional<std::size_t>(0)));
}

// Outside callers take turns: one holds the place, the others' jobs are
// injected as without a slot; never two at a time. Every caller spawns a
// job that its install does not wait for: the holder leaves it on worker
// 0's deque, where only the pool's threads can find it once the holder
// has gone (give_back_caller_slot hands it over). A lost hand-over leaves
// a job for ever (the watchdog).
BOOST_AUTO_TEST_CASE_TEMPLATE(callers_take_turns_and_leave_no_job_behind, Policy, test::api_policies)
{
    test::watchdog const hang_guard("callers_take_turns_and_leave_no_job_behind");
    test::pool<Policy> pool(with_caller_slot(2));
    constexpr int callers = 4, reps = 300;
    std::atomic<int> holders{0}, most_holders{0}, held{0};
    std::vector<std::atomic<int>> spawned_ran(callers);
    std::vector<long> sums(callers);
    std::vector<std::thread> threads;
    for (int t = 0; t < callers; ++t)
        threads.emplace_back([&, t] {
            auto const me = static_cast<std::size_t>(t);
            for (int rep = 0; rep < reps; ++rep) {
                sums[me] += pool.install([&] {
                    // Counted once per thread: the holder may run another
                    // caller's injected job nested in its own, while it
                    // waits as worker 0.
                    static thread_local int nested = 0;
                    bool const holder = fj::current_thread_index() == std::optional<std::size_t>(0) && nested++ == 0;
                    if (holder) {
                        int const now = ++holders;
                        for (int m = most_holders.load(); now > m && !most_holders.compare_exchange_weak(m, now);)
                            ;
                        ++held;
                    }
                    pool.spawn([&spawned_ran, me] { ++spawned_ran[me]; });
                    long const r = fib(10);
                    if (fj::current_thread_index() == std::optional<std::size_t>(0))
                        --nested;
                    if (holder)
                        --holders;
                    return r;
                });
                // One spawned job at a time per caller: the next install
                // waits until this one ran, so a job left behind must be
                // found while the pool may be asleep.
                while (spawned_ran[me].load() != rep + 1)
                    std::this_thread::yield();
            }
        });
    for (auto& t : threads)
        t.join();
    for (long const s : sums)
        BOOST_TEST(s == 55 * reps);
    BOOST_TEST(most_holders.load() == 1);
    BOOST_TEST(held.load() > 0);
}
