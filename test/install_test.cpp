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
#include <stdexcept>
#include <thread>
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

BOOST_AUTO_TEST_CASE_TEMPLATE(install_runs_on_a_worker_and_returns, Policy, test::all_policies)
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
BOOST_AUTO_TEST_CASE_TEMPLATE(results_by_reference_are_the_objects_referred_to, Policy, test::all_policies)
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

BOOST_AUTO_TEST_CASE_TEMPLATE(install_from_eight_outside_threads_at_once, Policy, test::all_policies)
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

BOOST_AUTO_TEST_CASE_TEMPLATE(install_from_own_worker_runs_in_place, Policy, test::all_policies)
{
    test::pool<Policy> pool(test::threads(2));
    bool same = pool.install([&] {
        auto const outer = std::this_thread::get_id();
        return pool.install([&] { return std::this_thread::get_id() == outer; });
    });
    BOOST_TEST(same);
}

BOOST_AUTO_TEST_CASE_TEMPLATE(cross_pool_install_keeps_the_caller_working, Policy, test::all_policies)
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

BOOST_AUTO_TEST_CASE_TEMPLATE(exception_from_install_reaches_the_caller, Policy, test::all_policies)
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
BOOST_AUTO_TEST_CASE_TEMPLATE(mutual_install, Policy, test::all_policies)
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
