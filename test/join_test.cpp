// Copyright 2026 The Boost.ForkJoin developers.
// Distributed under the Boost Software License, Version 1.0.
// (See accompanying file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)

#define BOOST_TEST_MODULE join
#include <boost/test/unit_test.hpp>

#include "policies.hpp"
#include "quick_sort.hpp"
#include "wait_until.hpp"
#include "watchdog.hpp"

#include <algorithm>
#include <atomic>
#include <barrier>
#include <chrono>
#include <cstdint>
#include <mutex>
#include <random>
#include <span>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

namespace fj = boost::forkjoin;

namespace {

long fib_serial(int n) { return n < 2 ? n : fib_serial(n - 1) + fib_serial(n - 2); }

long fib(int n)
{
    if (n < 2)
        return n;
    auto [a, b] = fj::join([n] { return fib(n - 1); }, [n] { return fib(n - 2); });
    return a + b;
}

struct left_error : std::runtime_error {
    left_error() : std::runtime_error("left") {}
};
struct right_error : std::runtime_error {
    right_error() : std::runtime_error("right") {}
};

} // namespace

BOOST_AUTO_TEST_CASE_TEMPLATE(fib_matches_serial, Policy, test::join_policies)
{
    for (std::size_t n : {1u, 2u, 3u}) {
        test::pool<Policy> pool(test::threads(n));
        BOOST_TEST(pool.install([] { return fib(25); }) == fib_serial(25));
    }
}

BOOST_AUTO_TEST_CASE_TEMPLATE(results_of_both_sides_and_void, Policy, test::join_policies)
{
    test::pool<Policy> pool(test::threads(2));
    auto [text, number] = pool.install([] {
        return fj::join([] { return std::string("left"); }, [] { return 42; });
    });
    BOOST_TEST(text == "left");
    BOOST_TEST(number == 42);

    std::atomic<int> ran{0};
    auto units = pool.install([&] { return fj::join([&] { ++ran; }, [&] { ++ran; }); });
    static_assert(std::is_same_v<decltype(units), std::pair<std::monostate, std::monostate>>);
    BOOST_TEST(ran.load() == 2);
}

BOOST_AUTO_TEST_CASE_TEMPLATE(join_borrows_and_mutates_locals, Policy, test::join_policies)
{
    test::pool<Policy> pool(test::threads(2));
    std::vector<int> left(1000, 1), right(1000, 2);
    pool.install([&] {
        fj::join([&] { for (int& x : left) x *= 3; }, [&] { for (int& x : right) x *= 5; });
    });
    BOOST_TEST(left[999] == 3);
    BOOST_TEST(right[0] == 10);
}

BOOST_AUTO_TEST_CASE(join_outside_every_pool_uses_the_global_pool)
{
    BOOST_TEST(!fj::current_thread_index());
    auto [index_a, index_b] = fj::join([] { return fj::current_thread_index(); },
                                       [] { return fj::current_thread_index(); });
    BOOST_TEST(index_a.has_value());
    BOOST_TEST(index_b.has_value());
    BOOST_TEST(fib(20) == fib_serial(20));
}

BOOST_AUTO_TEST_CASE_TEMPLATE(nested_joins_across_pools, Policy, test::join_policies)
{
    test::pool<Policy> outer(test::threads(2));
    fj::basic_thread_pool<fj::sleep::jec> inner(test::threads(2));
    // Each join on the outer pool installs into the inner pool, which joins
    // again; the outer workers keep working in their own pool meanwhile.
    long const total = outer.install([&] {
        auto [a, b] = fj::join([&] { return inner.install([] { return fib(18); }); },
                               [&] { return inner.install([] { return fib(17); }) + fib(16); });
        return a + b;
    });
    BOOST_TEST(total == fib_serial(18) + fib_serial(17) + fib_serial(16));
}

BOOST_AUTO_TEST_CASE_TEMPLATE(exception_on_the_left, Policy, test::join_policies)
{
    test::pool<Policy> pool(test::threads(2));
    std::atomic<bool> right_ran{false};
    BOOST_CHECK_THROW(pool.install([&] {
        fj::join([]() -> int { throw left_error(); }, [&] { right_ran = true; return 1; });
    }),
                      left_error);
    BOOST_TEST(right_ran.load()); // both sides finish before the rethrow
}

BOOST_AUTO_TEST_CASE_TEMPLATE(exception_on_the_right, Policy, test::join_policies)
{
    test::pool<Policy> pool(test::threads(2));
    std::atomic<bool> left_ran{false};
    BOOST_CHECK_THROW(pool.install([&] {
        fj::join([&] { left_ran = true; }, [] { throw right_error(); });
    }),
                      right_error);
    BOOST_TEST(left_ran.load());
}

BOOST_AUTO_TEST_CASE_TEMPLATE(exceptions_on_both_sides_rethrow_the_left_one, Policy, test::join_policies)
{
    test::pool<Policy> pool(test::threads(2));
    for (int i = 0; i < 100; ++i)
        BOOST_CHECK_THROW(pool.install([] { fj::join([] { throw left_error(); }, [] { throw right_error(); }); }),
                          left_error);
}

BOOST_AUTO_TEST_CASE_TEMPLATE(nested_exception_unwinds_every_level, Policy, test::join_policies)
{
    test::pool<Policy> pool(test::threads(3));
    std::atomic<int> finished{0};
    // A tree of joins of depth 10 where one leaf throws: every other leaf
    // still runs, and the exception reaches the top.
    auto tree = [&](auto& self, int depth, int path) -> void {
        if (depth == 0) {
            if (path == 0b1011011011)
                throw right_error();
            ++finished;
            return;
        }
        fj::join([&] { self(self, depth - 1, path << 1); }, [&] { self(self, depth - 1, (path << 1) | 1); });
    };
    BOOST_CHECK_THROW(pool.install([&] { tree(tree, 10, 0); }), right_error);
    BOOST_TEST(finished.load() == 1023);
}

BOOST_AUTO_TEST_CASE_TEMPLATE(a_stolen_job_that_throws_reaches_its_owner, Policy, test::join_policies)
{
    test::pool<Policy> pool(test::threads(2));
    // The left side waits until the right side has been stolen and has run,
    // so the exception crosses threads through the job's result.
    for (int i = 0; i < 50; ++i) {
        std::atomic<bool> right_started{false};
        BOOST_CHECK_THROW(pool.install([&] {
            fj::join(
                [&] {
                    auto const deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(200);
                    while (!right_started && std::chrono::steady_clock::now() < deadline)
                        std::this_thread::yield();
                },
                [&] {
                    right_started = true;
                    throw right_error();
                });
        }),
                          right_error);
    }
}

// Regression (issue 10, bug 3): with breadth_first, a join waiting for its
// second half took the oldest job of its deque, whose joins took the oldest
// again, nesting one job per frame until fib(22) overflowed the worker's
// stack (~78,000 nested frames).
BOOST_AUTO_TEST_CASE_TEMPLATE(breadth_first_join_keeps_the_stack_bounded, Policy, test::join_policies)
{
    for (std::size_t n : {1u, 2u}) {
        fj::pool_options options = test::threads(n);
        options.breadth_first = true;
        test::pool<Policy> pool(options);
        BOOST_TEST(pool.install([] { return fib(24); }) == fib_serial(24));
    }
}

// rayon-core's join returns as soon as b is done. A waiting a lets its
// worker run jobs, b among them; the top of the deque is then a job older
// than the join, which the join must leave: run there, it would make the
// join wait for it, and it may be waiting for the join's return.
BOOST_AUTO_TEST_CASE_TEMPLATE(a_join_whose_b_ran_while_a_waited_returns_at_once, Policy, test::join_policies)
{
    test::pool<Policy> pool(test::threads(1));
    std::mutex mutex;
    std::vector<std::string> order;
    auto const log = [&](char const* what) {
        std::lock_guard const lock(mutex);
        order.emplace_back(what);
    };
    std::atomic<bool> joined{false};
    std::atomic<bool> saw_the_join_return{false};
    pool.install([&] {
        fj::spawn([&] {
            saw_the_join_return = test::wait_until([&] { return joined.load(); }, std::chrono::seconds(2));
            log("spawned");
        });
        fj::join(
            [&] {
                fj::yield_local(); // the only job on top of the spawned one is b
                log("a");
            },
            [&] { log("b"); });
        log("join returned");
        joined = true;
    });
    BOOST_TEST_REQUIRE(test::wait_until([&] {
        std::lock_guard const lock(mutex);
        return order.size() == 4;
    }));
    BOOST_TEST(saw_the_join_return.load());
    std::vector<std::string> const expected{"b", "a", "join returned", "spawned"};
    BOOST_TEST(order == expected, boost::test_tools::per_element());
}

// --- Ported from rayon-core 1.10.1, src/join/test.rs --------------------------
// panic_propagate_a/b/both, panic_b_still_executes and tests/simple_panic.rs
// are the exception_* cases above; the others follow.

namespace {

template <class T>
void quick_sort(std::span<T> v)
{
    test::quick_sort(v, [](auto&& a, auto&& b) { fj::join(a, b); });
}

std::vector<std::uint32_t> seeded_random(std::size_t count)
{
    std::mt19937 rng(12345);
    std::vector<std::uint32_t> v(count);
    for (auto& x : v)
        x = static_cast<std::uint32_t>(rng());
    return v;
}

} // namespace

// rayon: sort (the global pool).
BOOST_AUTO_TEST_CASE(sort)
{
    auto data = seeded_random(6 * 1024);
    auto sorted = data;
    std::sort(sorted.begin(), sorted.end());
    quick_sort(std::span(data));
    BOOST_TEST(data == sorted);
}

// rayon: sort_in_pool.
BOOST_AUTO_TEST_CASE_TEMPLATE(sort_in_pool, Policy, test::join_policies)
{
    auto data = seeded_random(12 * 1024);
    auto sorted = data;
    std::sort(sorted.begin(), sorted.end());
    test::pool<Policy> pool;
    pool.install([&] { quick_sort(std::span(data)); });
    BOOST_TEST(data == sorted);
}

// rayon: join_context_both. Outside every pool both closures are injected
// into the global pool: both migrated.
BOOST_AUTO_TEST_CASE(join_context_both)
{
    auto [a_migrated, b_migrated] =
        fj::join_context([](fj::fn_context a) { return a.migrated(); }, [](fj::fn_context b) { return b.migrated(); });
    BOOST_TEST(a_migrated);
    BOOST_TEST(b_migrated);
}

// rayon: join_context_neither. On a one-thread pool nothing can be stolen.
BOOST_AUTO_TEST_CASE_TEMPLATE(join_context_neither, Policy, test::join_policies)
{
    test::pool<Policy> pool(test::threads(1));
    auto [a_migrated, b_migrated] = pool.install([] {
        return fj::join_context([](fj::fn_context a) { return a.migrated(); },
                                [](fj::fn_context b) { return b.migrated(); });
    });
    BOOST_TEST(!a_migrated);
    BOOST_TEST(!b_migrated);
}

// rayon: join_context_second. Both closures wait for each other at a
// barrier, so b must have been stolen by the other worker. Eager pools only:
// a lazy join publishes b at a join or a wait inside the pool, and a waits
// for b outside it (the lazy counterpart is
// a_lazy_join_publishes_b_for_an_idle_worker below).
BOOST_AUTO_TEST_CASE_TEMPLATE(join_context_second, Policy, test::all_policies)
{
    test::watchdog const hang_guard("join_context_second");
    std::barrier<> barrier(2);
    test::pool<Policy> pool(test::threads(2));
    auto [a_migrated, b_migrated] = pool.install([&] {
        return fj::join_context(
            [&](fj::fn_context a) {
                barrier.arrive_and_wait();
                return a.migrated();
            },
            [&](fj::fn_context b) {
                barrier.arrive_and_wait();
                return b.migrated();
            });
    });
    BOOST_TEST(!a_migrated);
    BOOST_TEST(b_migrated);
}

// rayon: join_counter_overflow (rayon-rs/rayon#797: JEC's counters overflowed
// on 32-bit targets). Joins from outside, through pool.join: 100,000 rather
// than rayon's 500,000 to keep the suite short, still past 2^16 of each of
// the counters the policies bump per injected job.
BOOST_AUTO_TEST_CASE_TEMPLATE(join_counter_overflow, Policy, test::join_policies)
{
    constexpr int max = 100'000;
    int i = 0;
    int j = 0;
    test::pool<Policy> pool(test::threads(2));
    for (int k = 0; k < max; ++k)
        pool.join([&] { ++i; }, [&] { ++j; });
    BOOST_TEST(i == max);
    BOOST_TEST(j == max);
}

// join_context's results and exceptions are join's.
BOOST_AUTO_TEST_CASE_TEMPLATE(join_context_results_and_exceptions, Policy, test::join_policies)
{
    test::pool<Policy> pool(test::threads(2));
    auto [text, number] = pool.install([] {
        return fj::join_context([](fj::fn_context) { return std::string("left"); }, [](fj::fn_context) { return 42; });
    });
    BOOST_TEST(text == "left");
    BOOST_TEST(number == 42);
    std::atomic<bool> right_ran{false};
    BOOST_CHECK_THROW(pool.install([&] {
        fj::join_context([](fj::fn_context) { throw left_error(); }, [&](fj::fn_context) { right_ran = true; });
    }),
                      left_error);
    BOOST_TEST(right_ran.load());
    auto [x, y] = pool.join([] { return 1; }, [] { return 2; });
    BOOST_TEST(x + y == 3);
}

// --- Lazy joins (lazy_joins.hpp) ----------------------------------------------

using lazy_policies = std::tuple<test::lazy<fj::sleep::jec>, test::lazy<fj::sleep::legacy>, test::lazy<fj::sleep::spin>>;

// While a runs joins of its own, the heartbeat publishes b for the idle
// worker, which steals it: b migrates. (A join nobody asks for runs b inline,
// so one try may not migrate; the loop ends at the first that does.)
BOOST_AUTO_TEST_CASE_TEMPLATE(a_lazy_join_publishes_b_for_an_idle_worker, Policy, lazy_policies)
{
    test::watchdog const hang_guard("a_lazy_join_publishes_b_for_an_idle_worker");
    test::pool<Policy> pool(test::threads(2));
    auto const deadline = std::chrono::steady_clock::now() + std::chrono::seconds(20);
    bool migrated = false;
    while (!migrated && std::chrono::steady_clock::now() < deadline) {
        auto const [a, b_migrated] = pool.install([] {
            return fj::join_context([](fj::fn_context) { return fib(22); },
                                    [](fj::fn_context b) { return b.migrated(); });
        });
        BOOST_TEST_REQUIRE(a == fib_serial(22));
        migrated = b_migrated;
    }
    BOOST_TEST(migrated);
}

// A worker that yields runs its pending jobs: an unpublished second half is
// one, as it would be on an eager join's deque. On one thread nothing else
// could run b.
BOOST_AUTO_TEST_CASE_TEMPLATE(a_lazy_join_s_b_runs_when_a_yields, Policy, lazy_policies)
{
    test::watchdog const hang_guard("a_lazy_join_s_b_runs_when_a_yields");
    test::pool<Policy> pool(test::threads(1));
    bool b_ran = false;
    int yields = 0;
    pool.install([&] {
        fj::join(
            [&] {
                while (!b_ran) {
                    fj::yield_local();
                    ++yields;
                }
            },
            [&] { b_ran = true; });
    });
    BOOST_TEST(b_ran);
    BOOST_TEST(yields == 1);
}

// a throws after its b was published and while b may still run: the join
// ends off its usual path, waits for b, and only then rethrows a's
// exception. On one thread a waits inside the pool (an install into another
// pool publishes every pending join, and b may run inside the wait); on
// two, mark_blocked publishes b and hands it to the other worker, and a
// throws once b has started there.
BOOST_AUTO_TEST_CASE_TEMPLATE(a_lazy_join_whose_a_throws_after_b_was_published_waits_for_b, Policy, lazy_policies)
{
    test::watchdog const hang_guard("a_lazy_join_whose_a_throws_after_b_was_published_waits_for_b");
    test::pool<fj::sleep::jec> other(test::threads(1));
    for (std::size_t n : {1u, 2u}) {
        test::pool<Policy> pool(test::threads(n));
        for (int i = 0; i < 20; ++i) {
            std::atomic<bool> b_started{false};
            std::atomic<int> b_finished{0};
            BOOST_CHECK_THROW(pool.install([&] {
                fj::join(
                    [&]() -> int {
                        if (n == 1) {
                            other.install([] {});
                        } else {
                            fj::mark_blocked();
                            while (!b_started.load())
                                std::this_thread::yield();
                            fj::mark_unblocked();
                        }
                        throw left_error();
                    },
                    [&] {
                        b_started = true;
                        std::this_thread::sleep_for(std::chrono::milliseconds(2));
                        b_finished.fetch_add(1);
                        return 1;
                    });
            }),
                              left_error);
            BOOST_TEST(b_finished.load() == 1);
        }
        // The pool is still usable.
        BOOST_TEST(pool.install([] { return fj::join([] { return fib(18); }, [] { return 1; }).first; }) ==
                   fib_serial(18));
    }
}

// scope and spawn inside a lazy join's closures, and lazy joins inside
// spawned jobs: every job runs once, whatever publishes what.
BOOST_AUTO_TEST_CASE_TEMPLATE(scopes_and_spawns_inside_lazy_joins, Policy, lazy_policies)
{
    for (std::size_t n : {1u, 2u}) {
        test::pool<Policy> pool(test::threads(n));
        std::atomic<int> spawned{0};
        auto const [a, b] = pool.install([&] {
            return fj::join(
                [&] {
                    fj::scope([&](fj::lifo_scope& s) {
                        for (int i = 0; i < 100; ++i)
                            s.spawn([&](fj::lifo_scope&) {
                                if (fib(12) == 144)
                                    ++spawned;
                            });
                    });
                    return fib(20);
                },
                [&] { return fib(21); });
        });
        BOOST_TEST(spawned.load() == 100);
        BOOST_TEST(a == fib_serial(20));
        BOOST_TEST(b == fib_serial(21));
    }
}

BOOST_AUTO_TEST_CASE(a_negative_heartbeat_is_refused)
{
    fj::pool_options options = test::threads(1);
    options.heartbeat = std::chrono::microseconds(-1);
    BOOST_CHECK_THROW((test::pool<test::lazy<fj::sleep::jec>>(options)), std::invalid_argument);
    options.heartbeat = std::chrono::nanoseconds::zero(); // publish at every join while a worker idles
    test::pool<test::lazy<fj::sleep::jec>> pool(options);
    BOOST_TEST(pool.install([] { return fib(20); }) == fib_serial(20));
}
