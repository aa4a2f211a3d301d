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
