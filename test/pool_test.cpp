// Copyright 2026 The Boost.ForkJoin developers.
// Distributed under the Boost Software License, Version 1.0.
// (See accompanying file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)

// Building pools: options, bad input, the global pool, thread queries, yielding.

#define BOOST_TEST_MODULE pool
#include <boost/test/unit_test.hpp>

#include "policies.hpp"

#include <pthread.h>

#include <atomic>
#include <cstdlib>
#include <mutex>
#include <set>
#include <string>
#include <thread>

namespace fj = boost::forkjoin;
using namespace std::chrono_literals;

// rayon: check_config_build, check_thread_pool_new, default_pool.
BOOST_AUTO_TEST_CASE_TEMPLATE(one_thread_pool_works, Policy, test::api_policies)
{
    test::pool<Policy> pool(test::threads(1));
    BOOST_TEST(pool.num_threads() == 1u);
    auto [a, b] = pool.install([] { return fj::join([] { return 1; }, [] { return 2; }); });
    BOOST_TEST(a + b == 3);
}

BOOST_AUTO_TEST_CASE_TEMPLATE(absurd_thread_count_is_a_clear_error, Policy, test::api_policies)
{
    for (std::size_t n : {std::size_t{1} << 20, static_cast<std::size_t>(-1)}) {
        try {
            test::pool<Policy> pool(test::threads(n));
            BOOST_FAIL("a pool of " << n << " threads was built");
        } catch (fj::too_many_threads const& e) {
            BOOST_TEST(std::string(e.what()).find("threads requested") != std::string::npos);
        }
    }
}

BOOST_AUTO_TEST_CASE(jec_enforces_its_counter_width)
{
    BOOST_TEST(fj::sleep::jec::max_threads == (sizeof(std::size_t) >= 8 ? 0xFFFFu : 0xFFu));
    BOOST_CHECK_THROW(fj::basic_thread_pool<fj::sleep::jec>(test::threads(fj::sleep::jec::max_threads + 1)),
                      fj::too_many_threads);
}

// rayon: init_zero_threads.
BOOST_AUTO_TEST_CASE(zero_threads_means_the_environment_then_the_hardware)
{
    ::setenv("FORKJOIN_NUM_THREADS", "3", 1);
    {
        fj::thread_pool pool;
        BOOST_TEST(pool.num_threads() == 3u);
    }
    ::unsetenv("FORKJOIN_NUM_THREADS");
    {
        fj::thread_pool pool;
        BOOST_TEST(pool.num_threads() == std::max(1u, std::thread::hardware_concurrency()));
    }
    // Malformed values are errors: lifecycle_test.
}

namespace {
// A policy that supports one worker (a user policy with a small counter).
struct one_worker : fj::sleep::spin {
    using fj::sleep::spin::spin;
    static constexpr std::size_t max_threads = 1;
};
} // namespace

// The hardware's count is a default: it gives way to the policy's limit, as
// rayon's gives way to max_num_threads. A count that was asked for does not.
BOOST_AUTO_TEST_CASE(the_default_count_gives_way_to_the_policys_limit)
{
    ::unsetenv("FORKJOIN_NUM_THREADS");
    {
        fj::basic_thread_pool<one_worker> pool;
        BOOST_TEST(pool.num_threads() == 1u);
        BOOST_TEST(pool.install([] { return 7; }) == 7);
    }
    ::setenv("FORKJOIN_NUM_THREADS", "2", 1);
    try {
        fj::basic_thread_pool<one_worker> pool;
        BOOST_FAIL("built a pool of 2 threads with a one-thread policy");
    } catch (fj::too_many_threads const& e) {
        BOOST_TEST(std::string(e.what()).find("(by FORKJOIN_NUM_THREADS)") != std::string::npos, e.what());
    }
    ::unsetenv("FORKJOIN_NUM_THREADS");
    BOOST_CHECK_THROW(fj::basic_thread_pool<one_worker>(test::threads(2)), fj::too_many_threads);
}

// rayon: start_callback_called, exit_callback_called, configuration, and
// workers_stop (every worker has left: its exit handler ran).
BOOST_AUTO_TEST_CASE_TEMPLATE(handlers_and_names, Policy, test::api_policies)
{
    std::mutex m;
    std::set<std::size_t> started, exited;
    std::set<std::string> names;
    fj::pool_options options = test::threads(3);
    options.thread_name = [](std::size_t i) { return "fj-test-" + std::to_string(i); };
    options.start_handler = [&](std::size_t i) {
        char name[16] = {};
        pthread_getname_np(pthread_self(), name, sizeof name);
        std::lock_guard lock(m);
        started.insert(i);
        names.insert(name);
    };
    options.exit_handler = [&](std::size_t i) {
        std::lock_guard lock(m);
        exited.insert(i);
    };
    options.stack_size = 1 << 20;
    {
        test::pool<Policy> pool(options);
        pool.broadcast([](fj::broadcast_context) {}); // all have started
    }
    BOOST_TEST(started == (std::set<std::size_t>{0, 1, 2}));
    BOOST_TEST(exited == (std::set<std::size_t>{0, 1, 2}));
    BOOST_TEST(names == (std::set<std::string>{"fj-test-0", "fj-test-1", "fj-test-2"}));
}

BOOST_AUTO_TEST_CASE(invalid_stack_size_is_reported_and_nothing_leaks)
{
    fj::pool_options options = test::threads(2);
    options.stack_size = 1; // below PTHREAD_STACK_MIN
    BOOST_CHECK_THROW(fj::thread_pool pool(options), std::system_error);
}

// rayon: double_init_fail.
BOOST_AUTO_TEST_CASE(build_global_twice_throws)
{
    fj::pool_options options = test::threads(2);
    fj::build_global(options);
    BOOST_TEST(fj::current_num_threads() == 2u);
    BOOST_CHECK_THROW(fj::build_global(options), fj::global_pool_already_initialized);
    BOOST_TEST(fj::global_pool().num_threads() == 2u);
}

// rayon: worker_thread_index.
BOOST_AUTO_TEST_CASE_TEMPLATE(thread_queries, Policy, test::api_policies)
{
    test::pool<Policy> pool(test::threads(3));
    BOOST_TEST(!fj::current_thread_index());
    BOOST_TEST(!fj::yield_now());
    BOOST_TEST(!fj::yield_local());
    pool.install([] {
        BOOST_TEST(fj::current_num_threads() == 3u);
        BOOST_TEST(fj::current_thread_index().value() < 3u);
        BOOST_TEST(fj::max_num_threads() >= 3u);
    });
}

BOOST_AUTO_TEST_CASE_TEMPLATE(yield_runs_pending_jobs, Policy, test::api_policies)
{
    test::pool<Policy> pool(test::threads(1));
    pool.install([] {
        bool ran = false;
        fj::spawn([&ran] { ran = true; }); // on our own deque: nobody else can take it
        BOOST_TEST((fj::yield_local() == fj::yield_result::executed));
        BOOST_TEST(ran);
        BOOST_TEST((fj::yield_local() == fj::yield_result::idle));
        BOOST_TEST((fj::yield_now() == fj::yield_result::idle));
    });
}

BOOST_AUTO_TEST_CASE_TEMPLATE(breadth_first_takes_own_jobs_oldest_first, Policy, test::api_policies)
{
    fj::pool_options options = test::threads(1);
    options.breadth_first = true;
    std::vector<int> order;
    {
        test::pool<Policy> pool(options);
        pool.install([&] {
            for (int i = 0; i < 10; ++i)
                fj::spawn([&order, i] { order.push_back(i); });
        });
    }
    BOOST_REQUIRE(order.size() == 10u);
    for (int i = 0; i < 10; ++i)
        BOOST_TEST(order[static_cast<std::size_t>(i)] == i);
}

BOOST_AUTO_TEST_CASE(compile_time_options)
{
    using pool_type = fj::basic_thread_pool<fj::sleep::jec, fj::deque_capacity<4>, fj::injector_capacity<8>>;
    static_assert(pool_type::initial_deque_capacity == 4);
    static_assert(pool_type::initial_injector_capacity == 8);
    pool_type pool(test::threads(2));
    // A deep chain of joins on a tiny deque makes it grow from 4 slots to
    // 1,024. (5,000 levels overflowed a worker's default 8 MiB stack at -O0 under
    // ASan, whose frames are the largest: the chain's depth is the test's
    // point, not the stack's.)
    auto depth = [](auto& self, int n) -> int {
        if (n == 0)
            return 0;
        auto [a, b] = fj::join([&] { return self(self, n - 1); }, [] { return 1; });
        return a + b;
    };
    BOOST_TEST(pool.install([&] { return depth(depth, 1000); }) == 1000);
}

BOOST_AUTO_TEST_CASE(moved_pool_keeps_working)
{
    fj::thread_pool a(test::threads(2));
    fj::thread_pool b(std::move(a));
    BOOST_TEST(b.install([] { return 5; }) == 5);
}
