// Copyright 2026 The Boost.ForkJoin developers.
// Distributed under the Boost Software License, Version 1.0.
// (See accompanying file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)

#define BOOST_TEST_MODULE spawn
#include <boost/test/unit_test.hpp>

#include "channel.hpp"
#include "panics.hpp"
#include "policies.hpp"
#include "spawn_order.hpp"
#include "watchdog.hpp"

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <latch>
#include <mutex>
#include <stdexcept>
#include <string>
#include <thread>
#include <utility>
#include <vector>

namespace fj = boost::forkjoin;
using namespace std::chrono_literals;

BOOST_AUTO_TEST_CASE_TEMPLATE(spawn_fifo_runs_in_order_on_a_one_thread_pool, Policy, test::api_policies)
{
    std::vector<int> order;
    {
        test::pool<Policy> pool(test::threads(1));
        // From inside the pool (the worker's FIFO queue)...
        pool.install([&] {
            for (int i = 0; i < 100; ++i)
                fj::spawn_fifo([&order, i] { order.push_back(i); });
        });
        // ...and from outside (the injector).
        for (int i = 100; i < 200; ++i)
            pool.spawn_fifo([&order, i] { order.push_back(i); });
    } // the destructor waits for spawned jobs
    BOOST_REQUIRE(order.size() == 200u);
    for (int i = 0; i < 200; ++i)
        BOOST_TEST(order[static_cast<std::size_t>(i)] == i);
}

BOOST_AUTO_TEST_CASE_TEMPLATE(destroying_a_busy_pool_waits_for_spawned_jobs, Policy, test::api_policies)
{
    std::atomic<int> done{0};
    {
        test::pool<Policy> pool(test::threads(2));
        for (int i = 0; i < 200; ++i)
            pool.spawn([&] {
                std::this_thread::sleep_for(100us);
                // Jobs spawned by spawned jobs are waited for too.
                fj::spawn([&] { ++done; });
                ++done;
            });
    }
    BOOST_TEST(done.load() == 400);
}

// rayon: sleeper_stop.
BOOST_AUTO_TEST_CASE_TEMPLATE(destroying_an_idle_pool_joins_quickly, Policy, test::api_policies)
{
    for (int i = 0; i < 20; ++i) {
        test::pool<Policy> pool(test::threads(3));
        if (i % 2)
            std::this_thread::sleep_for(5ms); // let workers fall asleep first
    }
    BOOST_TEST(true);
}

BOOST_AUTO_TEST_CASE_TEMPLATE(exception_in_a_spawned_job_goes_to_the_panic_handler, Policy, test::api_policies)
{
    std::atomic<int> panics{0};
    fj::pool_options options = test::threads(2);
    options.panic_handler = test::count_panics(panics, "spawned");
    {
        test::pool<Policy> pool(options);
        for (int i = 0; i < 10; ++i)
            pool.spawn([] { throw std::runtime_error("spawned"); });
        pool.install([] { fj::spawn([] { throw std::runtime_error("spawned"); }); });
    }
    BOOST_TEST(panics.load() == 11);
}

BOOST_AUTO_TEST_CASE_TEMPLATE(spawn_from_a_job_running_during_destruction_is_accepted, Policy, test::api_policies)
{
    std::atomic<int> done{0};
    {
        test::pool<Policy> pool(test::threads(2));
        pool.spawn([&] {
            std::this_thread::sleep_for(20ms); // the destructor has started by now
            for (int i = 0; i < 10; ++i)
                fj::spawn([&] { ++done; });
        });
    }
    BOOST_TEST(done.load() == 10);
}

namespace {
// A capture whose destructor spawns one more job, as a handle that schedules
// its own clean-up does.
class spawns_on_destruction {
public:
    explicit spawns_on_destruction(std::atomic<int>& done) : done_(&done) {}
    spawns_on_destruction(spawns_on_destruction&& other) noexcept : done_(std::exchange(other.done_, nullptr)) {}
    spawns_on_destruction& operator=(spawns_on_destruction&&) = delete;
    ~spawns_on_destruction()
    {
        if (done_ != nullptr)
            fj::spawn([done = done_] { ++*done; });
    }

private:
    std::atomic<int>* done_;
};
} // namespace

// A spawned closure is destroyed before its job counts as finished (issue
// 10, bug 1, for spawn): its destructor still runs inside the pool's
// lifetime, so it may use the pool. Before, the job released the pool first,
// and a spawn from the destructor of a pool being destroyed terminated.
BOOST_AUTO_TEST_CASE_TEMPLATE(a_spawned_closure_is_destroyed_before_its_job_finishes, Policy, test::api_policies)
{
    std::atomic<int> done{0};
    {
        test::pool<Policy> pool(test::threads(2));
        for (int i = 0; i < 10; ++i)
            pool.spawn([guard = spawns_on_destruction(done)] {
                std::this_thread::sleep_for(20ms); // the destructor has started by now
            });
    }
    BOOST_TEST(done.load() == 10);
}

// --- Ported from rayon-core 1.10.1, src/spawn/test.rs --------------------------
// panic_fwd and custom_panic_handler_and_spawn are
// exception_in_a_spawned_job_goes_to_the_panic_handler above;
// termination_while_things_are_executing is
// spawn_from_a_job_running_during_destruction_is_accepted.

// rayon: spawn_then_join_in_worker. A free spawn inside a scope's body goes
// to the scope's pool, not the scope.
BOOST_AUTO_TEST_CASE(spawn_then_join_in_worker)
{
    test::watchdog const hang_guard("spawn_then_join_in_worker");
    test::channel<int> channel;
    fj::scope([&](fj::lifo_scope&) { fj::spawn([&] { channel.send(22); }); });
    BOOST_TEST(channel.receive(1).front() == 22);
}

// rayon: spawn_then_join_outside_worker.
BOOST_AUTO_TEST_CASE(spawn_then_join_outside_worker)
{
    test::watchdog const hang_guard("spawn_then_join_outside_worker");
    test::channel<int> channel;
    fj::spawn([&] { channel.send(22); });
    BOOST_TEST(channel.receive(1).front() == 22);
}

// rayon: custom_panic_handler_and_nested_spawn. Jobs spawned by a spawned
// job use its pool's panic handler.
BOOST_AUTO_TEST_CASE_TEMPLATE(custom_panic_handler_and_nested_spawn, Policy, test::api_policies)
{
    test::channel<std::string> panics;
    fj::pool_options options = test::threads(2);
    options.panic_handler = [&](std::exception_ptr e) {
        try {
            std::rethrow_exception(e);
        } catch (std::exception const& error) {
            panics.send(error.what());
        }
    };
    {
        test::pool<Policy> pool(options);
        pool.spawn([] {
            for (int i = 0; i < 3; ++i)
                fj::spawn([] { throw std::runtime_error("Hello, world!"); });
        });
    }
    BOOST_TEST(panics.received() == (std::vector<std::string>(3, "Hello, world!")));
}

namespace {
// rayon's test_order! and test_mixed_order! for free spawns: on a one-thread
// pool, run `body` in install and return what the jobs sent, in order.
template <class Policy, class Body>
std::vector<int> spawn_order(Body body)
{
    test::channel<int> channel;
    {
        test::pool<Policy> pool(test::threads(1));
        pool.install([&] { body(channel); });
    } // the jobs have run
    return channel.received();
}

// Outer jobs i spawn inner jobs j, each sending i * 10 + j.
template <class Policy, class OuterSpawn, class InnerSpawn>
std::vector<int> nested_order(OuterSpawn outer_spawn, InnerSpawn inner_spawn)
{
    return spawn_order<Policy>([&](test::channel<int>& channel) {
        for (int i = 0; i < 10; ++i)
            outer_spawn([&channel, i, inner_spawn] {
                for (int j = 0; j < 10; ++j)
                    inner_spawn([&channel, i, j] { channel.send(i * 10 + j); });
            });
    });
}

// Positive values with one kind of spawn, negative ones with the other.
template <class Policy, class PositiveSpawn, class NegativeSpawn>
std::vector<int> mixed_order(PositiveSpawn positive, NegativeSpawn negative)
{
    return spawn_order<Policy>([&](test::channel<int>& channel) {
        auto send = [&channel](auto spawn, int value) { spawn([&channel, value] { channel.send(value); }); };
        send(positive, 0);
        send(negative, -1);
        send(positive, 1);
        send(negative, -2);
        send(positive, 2);
        send(negative, -3);
        send(positive, 3);
    });
}

auto const lifo = [](auto job) { fj::spawn(std::move(job)); };
auto const fifo = [](auto job) { fj::spawn_fifo(std::move(job)); };

} // namespace

// rayon: lifo_order, fifo_order, lifo_fifo_order, fifo_lifo_order. Without
// stealing, a worker runs its spawns newest first, its spawn_fifos oldest
// first.
BOOST_AUTO_TEST_CASE_TEMPLATE(nested_spawn_orders, Policy, test::api_policies)
{
    BOOST_TEST(nested_order<Policy>(lifo, lifo) == test::tens_then_units(true, true));
    BOOST_TEST(nested_order<Policy>(fifo, fifo) == test::tens_then_units(false, false));
    BOOST_TEST(nested_order<Policy>(lifo, fifo) == test::tens_then_units(true, false));
    BOOST_TEST(nested_order<Policy>(fifo, lifo) == test::tens_then_units(false, true));
}

// rayon: mixed_lifo_fifo_order, mixed_fifo_lifo_order.
BOOST_AUTO_TEST_CASE_TEMPLATE(mixed_spawn_orders, Policy, test::api_policies)
{
    BOOST_TEST(mixed_order<Policy>(lifo, fifo) == (std::vector<int>{3, -1, 2, -2, 1, -3, 0}));
    BOOST_TEST(mixed_order<Policy>(fifo, lifo) == (std::vector<int>{0, -3, 1, -2, 2, -1, 3}));
}

// --- Ported from rayon-core 1.10.1, src/thread_pool/test.rs: a pool's spawns

// rayon: spawn_lifo_order, spawn_fifo_order (pool.spawn from its own worker).
BOOST_AUTO_TEST_CASE_TEMPLATE(pool_spawn_order, Policy, test::api_policies)
{
    for (bool use_fifo : {false, true}) {
        test::channel<int> channel;
        {
            test::pool<Policy> pool(test::threads(1));
            pool.install([&] {
                for (int i = 0; i < 10; ++i) {
                    auto job = [&channel, i] { channel.send(i); };
                    if (use_fifo)
                        pool.spawn_fifo(job);
                    else
                        pool.spawn(job);
                }
            });
        }
        std::vector<int> expected;
        for (int i = 0; i < 10; ++i)
            expected.push_back(use_fifo ? i : 9 - i);
        BOOST_TEST(channel.received() == expected);
    }
}
