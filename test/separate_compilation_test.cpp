// Copyright 2026 The Boost.ForkJoin developers.
// Distributed under the Boost Software License, Version 1.0.
// (See accompanying file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
//
// The library built with BOOST_FORKJOIN_SEPARATE_COMPILATION (every unit
// of this program defines it; test/Jamfile): the pool's cold code comes
// from separate_compilation_src.cpp, and the units that use the library
// link against it. Each case runs a part whose code the user's unit no
// longer generates: starting and stopping pools, the global pool, the
// injector, the caller slot, a worker's search, futures, the algorithms.

#define BOOST_TEST_MODULE separate_compilation
#include <boost/test/unit_test.hpp>

#include "separate_compilation_other.hpp"
#include "watchdog.hpp"

#include <boost/forkjoin.hpp>

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <numeric>
#include <stdexcept>
#include <vector>

#if !defined(BOOST_FORKJOIN_SEPARATE_COMPILATION)
#  error "separate_compilation_test is built with BOOST_FORKJOIN_SEPARATE_COMPILATION (test/Jamfile)"
#endif

namespace fj = boost::forkjoin;

BOOST_AUTO_TEST_CASE(both_units_see_one_global_pool)
{
    test::watchdog const guard("both_units_see_one_global_pool");
    BOOST_TEST(global_pool_seen_elsewhere() == &fj::global_pool());
    BOOST_TEST(fib_elsewhere(20) == 6765);
}

BOOST_AUTO_TEST_CASE(a_pool_starts_joins_and_stops)
{
    test::watchdog const guard("a_pool_starts_joins_and_stops");
    for (int round = 0; round < 20; ++round) {
        fj::thread_pool pool({.num_threads = 2});
        BOOST_TEST(pool.install([] { return fib_elsewhere(18); }) == 2584);
    }
}

BOOST_AUTO_TEST_CASE(a_pool_of_another_policy_works_on_the_compiled_part)
{
    test::watchdog const guard("a_pool_of_another_policy_works_on_the_compiled_part");
    BOOST_TEST(fib_in_a_legacy_pool(18) == 2584);
}

BOOST_AUTO_TEST_CASE(jobs_from_outside_go_through_the_injector)
{
    test::watchdog const guard("jobs_from_outside_go_through_the_injector");
    std::atomic<int> ran{0};
    {
        fj::thread_pool pool({.num_threads = 2});
        for (int i = 0; i < 1000; ++i)
            pool.spawn([&] { ran.fetch_add(1, std::memory_order_relaxed); });
    } // the destructor waits for every job
    BOOST_TEST(ran.load() == 1000);
}

BOOST_AUTO_TEST_CASE(the_caller_slot_and_broadcasts_work)
{
    test::watchdog const guard("the_caller_slot_and_broadcasts_work");
    fj::thread_pool pool({.num_threads = 2, .caller_slot = true});
    for (int i = 0; i < 100; ++i)
        BOOST_TEST(pool.install([] { return fib_elsewhere(10); }) == 55);
    std::vector<std::size_t> const indices = pool.broadcast([](fj::broadcast_context ctx) { return ctx.index(); });
    BOOST_TEST(indices == (std::vector<std::size_t>{0, 1}));
}

BOOST_AUTO_TEST_CASE(futures_and_algorithms_work)
{
    test::watchdog const guard("futures_and_algorithms_work");
    fj::thread_pool pool({.num_threads = 2});
    auto future = pool.spawn_future([] {
        std::vector<int> v(100000);
        std::iota(v.rbegin(), v.rend(), 0);
        fj::sort(v);
        return fj::reduce(v.begin(), v.end(), 0L) + (std::is_sorted(v.begin(), v.end()) ? 0 : 1);
    });
    BOOST_TEST(future.get() == 99999L * 100000 / 2);
}

BOOST_AUTO_TEST_CASE(an_exception_reaches_the_caller)
{
    test::watchdog const guard("an_exception_reaches_the_caller");
    fj::thread_pool pool({.num_threads = 2});
    BOOST_CHECK_THROW(pool.install([] { fj::join([] { throw std::runtime_error("a"); }, [] {}); }),
                      std::runtime_error);
    BOOST_TEST(pool.install([] { return 7; }) == 7);
}
