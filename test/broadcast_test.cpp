// Copyright 2026 The Boost.ForkJoin developers.
// Distributed under the Boost Software License, Version 1.0.
// (See accompanying file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)

#define BOOST_TEST_MODULE broadcast
#include <boost/test/unit_test.hpp>

#include "policies.hpp"

#include <atomic>
#include <set>
#include <stdexcept>
#include <thread>

namespace fj = boost::forkjoin;
using namespace std::chrono_literals;

BOOST_AUTO_TEST_CASE_TEMPLATE(broadcast_reaches_every_index_once, Policy, test::all_policies)
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

BOOST_AUTO_TEST_CASE_TEMPLATE(broadcast_runs_on_distinct_threads, Policy, test::all_policies)
{
    test::pool<Policy> pool(test::threads(3));
    auto const ids = pool.broadcast([](fj::broadcast_context) { return std::this_thread::get_id(); });
    BOOST_TEST(std::set<std::thread::id>(ids.begin(), ids.end()).size() == 3u);
}

BOOST_AUTO_TEST_CASE_TEMPLATE(broadcast_from_inside_the_pool, Policy, test::all_policies)
{
    test::pool<Policy> pool(test::threads(2));
    std::atomic<int> calls{0};
    pool.install([&] { pool.broadcast([&](fj::broadcast_context) { ++calls; }); });
    BOOST_TEST(calls.load() == 2);
}

BOOST_AUTO_TEST_CASE_TEMPLATE(broadcast_rethrows_after_all_ran, Policy, test::all_policies)
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
