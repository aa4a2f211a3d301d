// Copyright 2026 The Boost.ForkJoin developers.
// Distributed under the Boost Software License, Version 1.0.
// (See accompanying file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)

#define BOOST_TEST_MODULE spawn
#include <boost/test/unit_test.hpp>

#include "policies.hpp"

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <latch>
#include <mutex>
#include <stdexcept>
#include <thread>
#include <utility>
#include <vector>

namespace fj = boost::forkjoin;
using namespace std::chrono_literals;

BOOST_AUTO_TEST_CASE_TEMPLATE(spawn_fifo_runs_in_order_on_a_one_thread_pool, Policy, test::all_policies)
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

BOOST_AUTO_TEST_CASE_TEMPLATE(destroying_a_busy_pool_waits_for_spawned_jobs, Policy, test::all_policies)
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

BOOST_AUTO_TEST_CASE_TEMPLATE(destroying_an_idle_pool_joins_quickly, Policy, test::all_policies)
{
    for (int i = 0; i < 20; ++i) {
        test::pool<Policy> pool(test::threads(3));
        if (i % 2)
            std::this_thread::sleep_for(5ms); // let workers fall asleep first
    }
    BOOST_TEST(true);
}

BOOST_AUTO_TEST_CASE_TEMPLATE(exception_in_a_spawned_job_goes_to_the_panic_handler, Policy, test::all_policies)
{
    std::atomic<int> panics{0};
    fj::pool_options options = test::threads(2);
    options.panic_handler = [&](std::exception_ptr e) {
        try {
            std::rethrow_exception(e);
        } catch (std::runtime_error const& error) {
            if (std::string(error.what()) == "spawned")
                ++panics;
        }
    };
    {
        test::pool<Policy> pool(options);
        for (int i = 0; i < 10; ++i)
            pool.spawn([] { throw std::runtime_error("spawned"); });
        pool.install([] { fj::spawn([] { throw std::runtime_error("spawned"); }); });
    }
    BOOST_TEST(panics.load() == 11);
}

BOOST_AUTO_TEST_CASE_TEMPLATE(spawn_from_a_job_running_during_destruction_is_accepted, Policy, test::all_policies)
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
BOOST_AUTO_TEST_CASE_TEMPLATE(a_spawned_closure_is_destroyed_before_its_job_finishes, Policy, test::all_policies)
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
