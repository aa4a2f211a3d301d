// Copyright 2026 The Boost.ForkJoin developers.
// Distributed under the Boost Software License, Version 1.0.
// (See accompanying file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)

#define BOOST_TEST_MODULE scope
#include <boost/test/unit_test.hpp>

#include "policies.hpp"

#include <atomic>
#include <chrono>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <thread>
#include <utility>
#include <vector>

namespace fj = boost::forkjoin;

BOOST_AUTO_TEST_CASE_TEMPLATE(ten_thousand_spawns_all_finish_before_the_scope_returns, Policy, test::all_policies)
{
    test::pool<Policy> pool(test::threads(2));
    std::vector<int> hits(10'000, 0);
    pool.install([&] {
        fj::scope([&](fj::lifo_scope& s) {
            for (int& h : hits)
                s.spawn([&h](fj::lifo_scope&) { ++h; });
        });
    });
    for (int h : hits)
        BOOST_REQUIRE(h == 1);
}

BOOST_AUTO_TEST_CASE_TEMPLATE(spawns_can_spawn_and_the_scope_waits_for_all, Policy, test::all_policies)
{
    test::pool<Policy> pool(test::threads(3));
    std::atomic<int> count{0};
    auto recurse = [&](auto& self, fj::lifo_scope& s, int depth) -> void {
        ++count;
        if (depth == 0)
            return;
        for (int i = 0; i < 3; ++i)
            s.spawn([&self, depth](fj::lifo_scope& inner) { self(self, inner, depth - 1); });
    };
    pool.install([&] { fj::scope([&](fj::lifo_scope& s) { recurse(recurse, s, 7); }); });
    BOOST_TEST(count.load() == (2187 * 3 - 1) / 2); // 1 + 3 + ... + 3^7
}

BOOST_AUTO_TEST_CASE_TEMPLATE(scope_returns_the_body_result, Policy, test::all_policies)
{
    test::pool<Policy> pool(test::threads(2));
    int const r = pool.install([] { return fj::scope([](fj::lifo_scope&) { return 7; }); });
    BOOST_TEST(r == 7);
}

BOOST_AUTO_TEST_CASE_TEMPLATE(scope_fifo_runs_one_threads_spawns_in_order, Policy, test::all_policies)
{
    test::pool<Policy> pool(test::threads(1));
    std::vector<int> order;
    pool.install([&] {
        fj::scope_fifo([&](fj::fifo_scope& s) {
            for (int i = 0; i < 100; ++i)
                s.spawn([&order, i](fj::fifo_scope&) { order.push_back(i); });
        });
    });
    BOOST_REQUIRE(order.size() == 100u);
    for (int i = 0; i < 100; ++i)
        BOOST_TEST(order[static_cast<std::size_t>(i)] == i);
}

BOOST_AUTO_TEST_CASE_TEMPLATE(lifo_scope_on_one_thread_runs_newest_first, Policy, test::all_policies)
{
    test::pool<Policy> pool(test::threads(1));
    std::vector<int> order;
    pool.install([&] {
        fj::scope([&](fj::lifo_scope& s) {
            for (int i = 0; i < 10; ++i)
                s.spawn([&order, i] { order.push_back(i); });
        });
    });
    BOOST_REQUIRE(order.size() == 10u);
    BOOST_TEST(order.front() == 9);
    BOOST_TEST(order.back() == 0);
}

BOOST_AUTO_TEST_CASE_TEMPLATE(in_place_scope_runs_the_body_on_the_caller, Policy, test::all_policies)
{
    test::pool<Policy> pool(test::threads(2));
    auto const caller = std::this_thread::get_id();
    std::atomic<int> done{0};
    pool.install([&] {
        auto const worker = std::this_thread::get_id();
        fj::in_place_scope([&](fj::lifo_scope& s) {
            BOOST_TEST((std::this_thread::get_id() == worker));
            for (int i = 0; i < 100; ++i)
                s.spawn([&] { ++done; });
        });
    });
    BOOST_TEST(done.load() == 100);
    // From outside every pool: the body runs here, the jobs in the global pool.
    fj::in_place_scope([&](fj::lifo_scope& s) {
        BOOST_TEST((std::this_thread::get_id() == caller));
        for (int i = 0; i < 100; ++i)
            s.spawn([&] { ++done; });
    });
    BOOST_TEST(done.load() == 200);
}

BOOST_AUTO_TEST_CASE_TEMPLATE(exception_in_a_spawned_job_is_rethrown_after_all_finish, Policy, test::all_policies)
{
    test::pool<Policy> pool(test::threads(2));
    std::atomic<int> finished{0};
    BOOST_CHECK_THROW(pool.install([&] {
        fj::scope([&](fj::lifo_scope& s) {
            for (int i = 0; i < 1000; ++i)
                s.spawn([&, i] {
                    if (i % 100 == 7)
                        throw std::runtime_error("job");
                    ++finished;
                });
        });
    }),
                      std::runtime_error);
    BOOST_TEST(finished.load() == 990);
}

BOOST_AUTO_TEST_CASE_TEMPLATE(exception_in_the_body_waits_for_the_jobs, Policy, test::all_policies)
{
    test::pool<Policy> pool(test::threads(2));
    std::atomic<int> finished{0};
    BOOST_CHECK_THROW(pool.install([&] {
        fj::scope([&](fj::lifo_scope& s) {
            for (int i = 0; i < 100; ++i)
                s.spawn([&] {
                    std::this_thread::sleep_for(std::chrono::microseconds(100));
                    ++finished;
                });
            throw std::logic_error("body");
        });
    }),
                      std::logic_error);
    BOOST_TEST(finished.load() == 100);
}

BOOST_AUTO_TEST_CASE(scope_outside_every_pool_runs_in_the_global_pool)
{
    std::atomic<int> on_workers{0};
    fj::scope([&](fj::lifo_scope& s) {
        for (int i = 0; i < 100; ++i)
            s.spawn([&] { on_workers += fj::current_thread_index().has_value(); });
    });
    BOOST_TEST(on_workers.load() == 100);
}

namespace {

// A capture that refers to memory owned by the scope's caller, as a lock
// guard, a span or a counted handle does: its destructor writes there. It
// takes a moment first, so that a scope which ended before its captures were
// destroyed is caught returning early (and ASan catches the write to the
// caller's freed memory).
class writes_back_on_destruction {
public:
    explicit writes_back_on_destruction(std::atomic<int>& target) : target_(&target) {}
    writes_back_on_destruction(writes_back_on_destruction&& other) noexcept
        : target_(std::exchange(other.target_, nullptr))
    {
    }
    writes_back_on_destruction& operator=(writes_back_on_destruction&&) = delete;
    ~writes_back_on_destruction()
    {
        if (target_ == nullptr)
            return; // moved from
        std::this_thread::sleep_for(std::chrono::milliseconds(1));
        target_->fetch_add(1);
    }

private:
    std::atomic<int>* target_;
};

template <class Scope>
void spawn_captures(Scope& s, std::atomic<int>& destroyed, int count)
{
    for (int i = 0; i < count; ++i)
        s.spawn([guard = writes_back_on_destruction(destroyed)] {});
}

} // namespace

// Regression (issue 10, bug 1): a spawned closure was destroyed after the
// scope's count dropped, so the scope could return and its caller free what
// the closure's captures refer to while they were still being destroyed.
BOOST_AUTO_TEST_CASE_TEMPLATE(spawned_closures_are_destroyed_before_the_scope_returns, Policy, test::all_policies)
{
    test::pool<Policy> pool(test::threads(2));
    constexpr int count = 8;
    for (int round = 0; round < 5; ++round) {
        auto destroyed = std::make_unique<std::atomic<int>>(0);
        pool.install([&] { fj::scope([&](fj::lifo_scope& s) { spawn_captures(s, *destroyed, count); }); });
        BOOST_TEST(destroyed->load() == count);

        destroyed = std::make_unique<std::atomic<int>>(0);
        pool.install([&] { fj::scope_fifo([&](fj::fifo_scope& s) { spawn_captures(s, *destroyed, count); }); });
        BOOST_TEST(destroyed->load() == count);

        // The owner blocks instead of running jobs (a lock latch).
        destroyed = std::make_unique<std::atomic<int>>(0);
        fj::in_place_scope([&](fj::lifo_scope& s) { spawn_captures(s, *destroyed, count); });
        BOOST_TEST(destroyed->load() == count);
    }
}
