// Copyright 2026 The Boost.ForkJoin developers.
// Distributed under the Boost Software License, Version 1.0.
// (See accompanying file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)

#define BOOST_TEST_MODULE future
#include <boost/test/unit_test.hpp>

#include "policies.hpp"

#include <boost/forkjoin/future.hpp>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <functional>
#include <future>
#include <memory>
#include <numeric>
#include <random>
#include <set>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include <sys/resource.h>

namespace fj = boost::forkjoin;
using namespace std::chrono_literals;

namespace {

// Sets a flag when destroyed: shows that a fiber's stack was unwound, or
// that a task's callable was destroyed.
struct set_on_destruction {
    std::atomic<bool>* flag;
    explicit set_on_destruction(std::atomic<bool>& f) : flag(&f) {}
    set_on_destruction(set_on_destruction&& other) noexcept : flag(std::exchange(other.flag, nullptr)) {}
    set_on_destruction& operator=(set_on_destruction&&) = delete;
    ~set_on_destruction()
    {
        if (flag != nullptr)
            flag->store(true);
    }
};

template <class Predicate>
void spin_until(Predicate p)
{
    while (!p())
        std::this_thread::yield();
}

long peak_rss_kib()
{
    rusage usage{};
    getrusage(RUSAGE_SELF, &usage);
    return usage.ru_maxrss; // KiB on Linux
}

} // namespace

// --- Basics: the three places get() is called from ------------------------------

BOOST_AUTO_TEST_CASE_TEMPLATE(get_from_outside_blocks, Policy, test::all_policies)
{
    test::pool<Policy> pool(test::threads(2));
    auto f = pool.spawn_future([] { return std::string("outside"); });
    BOOST_TEST(f.valid());
    BOOST_TEST(f.get() == "outside");
    BOOST_TEST(!f.valid());

    // A future that becomes ready only after the outside thread blocked.
    fj::promise<int> p;
    auto late = pool.spawn_future([pf = p.get_future()]() mutable { return fj::await(pf) * 2; });
    std::thread setter([&] {
        std::this_thread::sleep_for(20ms);
        p.set_value(21);
    });
    BOOST_TEST(late.get() == 42);
    setter.join();
}

BOOST_AUTO_TEST_CASE_TEMPLATE(get_from_a_worker_runs_other_jobs, Policy, test::all_policies)
{
    test::pool<Policy> pool(test::threads(1));
    // One worker: the future's task can only run if the waiting worker runs
    // it while it waits.
    int const result = pool.install([&] {
        auto f = pool.spawn_future([] { return 7; });
        return f.get() + 1;
    });
    BOOST_TEST(result == 8);

    // A future of another pool, waited for by a worker of this one, and
    // completed by an outside thread while the worker waits.
    test::pool<Policy> other(test::threads(1));
    fj::promise<int> p;
    auto f = other.spawn_future([pf = p.get_future()]() mutable { return fj::await(pf) + 1; });
    std::thread setter([&] {
        std::this_thread::sleep_for(20ms);
        p.set_value(1);
    });
    BOOST_TEST(pool.install([&] { return f.get(); }) == 2);
    setter.join();
}

BOOST_AUTO_TEST_CASE_TEMPLATE(get_from_a_fiber_parks_it, Policy, test::all_policies)
{
    test::pool<Policy> pool(test::threads(1));
    fj::promise<int> p;
    std::atomic<bool> other_ran{false};
    // On a one-thread pool, the second future can only run if the first
    // one's fiber parks in get() and frees the worker.
    auto waiting = pool.spawn_future([pf = p.get_future()]() mutable { return pf.get() + 1; });
    auto other = pool.spawn_future([&] {
        other_ran = true;
        return 5;
    });
    BOOST_TEST(other.get() == 5);
    BOOST_TEST(other_ran.load());
    BOOST_TEST(!waiting.poll());
    p.set_value(41);
    BOOST_TEST(waiting.get() == 42);

    // A fiber waiting for another fiber, wait() then get().
    // (No Boost.Test call on a fiber: Boost.Test is not thread-safe.)
    auto outer = pool.spawn_future([&pool] {
        auto inner = pool.spawn_future([] { return 3; });
        inner.wait();
        bool const ready = inner.poll();
        return ready ? inner.get() * 3 : -1;
    });
    BOOST_TEST(outer.get() == 9);
}

BOOST_AUTO_TEST_CASE_TEMPLATE(poll_never_blocks_and_void_futures_work, Policy, test::all_policies)
{
    test::pool<Policy> pool(test::threads(2));
    fj::promise<void> p;
    std::atomic<int> steps{0};
    auto f = pool.spawn_future([&, pf = p.get_future()]() mutable {
        ++steps;
        fj::await(pf);
        ++steps;
    });
    spin_until([&] { return steps.load() == 1; });
    BOOST_TEST(!f.poll());
    p.set_value();
    f.wait();
    BOOST_TEST(f.poll());
    BOOST_TEST(steps.load() == 2);
    f.get();
    BOOST_CHECK_THROW(f.get(), std::future_error); // consumed
}

// --- Exceptions ----------------------------------------------------------------

BOOST_AUTO_TEST_CASE_TEMPLATE(exceptions_travel_through_get, Policy, test::all_policies)
{
    test::pool<Policy> pool(test::threads(2));
    auto thrower = pool.spawn_future([]() -> int { throw std::runtime_error("task"); });
    BOOST_CHECK_EXCEPTION(thrower.get(), std::runtime_error,
                          [](std::runtime_error const& e) { return std::string(e.what()) == "task"; });

    // From a promise, through an await in one fiber, out of another's get().
    fj::promise<int> p;
    auto middle = pool.spawn_future([pf = p.get_future()]() mutable { return fj::await(pf); });
    auto top = pool.spawn_future([&middle] { return fj::await(middle) + 1; });
    p.set_exception(std::make_exception_ptr(std::logic_error("promise")));
    BOOST_CHECK_EXCEPTION(top.get(), std::logic_error,
                          [](std::logic_error const& e) { return std::string(e.what()) == "promise"; });

    // A promise destroyed unsatisfied breaks its future.
    fj::future<int> orphan;
    {
        fj::promise<int> dropped;
        orphan = dropped.get_future();
    }
    BOOST_CHECK_EXCEPTION(orphan.get(), std::future_error, [](std::future_error const& e) {
        return e.code() == std::make_error_code(std::future_errc::broken_promise);
    });

    fj::promise<int> twice;
    twice.set_value(1);
    BOOST_CHECK_THROW(twice.set_value(2), std::future_error);
    auto tf = twice.get_future();
    BOOST_CHECK_THROW(twice.get_future(), std::future_error);
    BOOST_TEST(tf.get() == 1);
}

// --- Scale: many parked fibers -------------------------------------------------

BOOST_AUTO_TEST_CASE_TEMPLATE(hundred_thousand_futures_parked_on_promises, Policy, test::all_policies)
{
    constexpr int n = 100'000;
    auto const start = std::chrono::steady_clock::now();
    std::vector<fj::promise<int>> promises(n);
    std::vector<fj::future<int>> futures;
    futures.reserve(n);
    std::atomic<int> arrived{0};
    {
        test::pool<Policy> pool(test::threads(2));
        for (int i = 0; i < n; ++i)
            futures.push_back(pool.spawn_future([&arrived, i, pf = promises[std::size_t(i)].get_future()]() mutable {
                arrived.fetch_add(1, std::memory_order_relaxed);
                return fj::await(pf) + i;
            }));
        spin_until([&] { return arrived.load() == n; });
        auto const parked = std::chrono::steady_clock::now();

        // An outside thread fulfils them in random order while this thread
        // collects the results.
        std::thread io([&] {
            std::vector<int> order(n);
            std::iota(order.begin(), order.end(), 0);
            std::shuffle(order.begin(), order.end(), std::mt19937(42));
            for (int i : order)
                promises[std::size_t(i)].set_value(1);
        });
        long long sum = 0;
        for (auto& f : futures)
            sum += f.get();
        io.join();
        BOOST_TEST(sum == static_cast<long long>(n) * (n - 1) / 2 + n);
        auto const done = std::chrono::steady_clock::now();
        using ms = std::chrono::duration<double, std::milli>;
        double const park_ms = ms(parked - start).count();
        double const complete_ms = ms(done - parked).count();
        BOOST_TEST_MESSAGE(boost::core::demangle(typeid(Policy).name())
                           << ": " << n << " futures parked in " << park_ms << " ms, completed in " << complete_ms
                           << " ms; peak RSS of the process so far " << peak_rss_kib() / 1024 << " MiB");
    }
}

BOOST_AUTO_TEST_CASE_TEMPLATE(a_fiber_awaits_another_fibers_future_1000_deep, Policy, test::all_policies)
{
    test::pool<Policy> pool(test::threads(2));
    fj::promise<int> leaf;
    auto leaf_future = leaf.get_future();
    std::atomic<int> parked{0};
    std::function<fj::future<int>(int)> chain = [&](int depth) {
        return pool.spawn_future([&, depth]() -> int {
            ++parked;
            if (depth == 0)
                return fj::await(leaf_future);
            return fj::await(chain(depth - 1)) + 1;
        });
    };
    auto top = chain(1000);
    spin_until([&] { return parked.load() == 1001; });
    BOOST_TEST(!top.poll());
    leaf.set_value(0);
    BOOST_TEST(top.get() == 1000);
}

// --- Cancellation --------------------------------------------------------------

BOOST_AUTO_TEST_CASE_TEMPLATE(cancel_while_parked_unwinds_the_fiber, Policy, test::all_policies)
{
    test::pool<Policy> pool(test::threads(2));
    fj::promise<int> p;
    std::atomic<bool> about_to_park{false}, unwound{false}, after_await{false};
    auto f = pool.spawn_future([&, pf = p.get_future()]() mutable {
        set_on_destruction guard(unwound);
        about_to_park = true;
        int const v = fj::await(pf);
        after_await = true;
        return v;
    });
    spin_until([&] { return about_to_park.load(); });
    std::this_thread::sleep_for(10ms); // parked by now, most likely; either way await throws
    f.cancel();
    BOOST_CHECK_THROW(f.get(), fj::future_cancelled);
    BOOST_TEST(unwound.load());
    BOOST_TEST(!after_await.load());
    // The fiber took its registration back: completing the promise now
    // touches nothing of it.
    p.set_value(1);

    // Dropping the handle of a parked future cancels it too; the pool's
    // destructor waits for the unwinding.
    std::atomic<bool> dropped_unwound{false};
    {
        test::pool<Policy> pool2(test::threads(2));
        fj::promise<int> never;
        std::atomic<bool> started{false};
        {
            auto g = pool2.spawn_future([&, pf = never.get_future()]() mutable {
                set_on_destruction guard(dropped_unwound);
                started = true;
                return fj::await(pf);
            });
            spin_until([&] { return started.load(); });
        }
    }
    BOOST_TEST(dropped_unwound.load());
}

BOOST_AUTO_TEST_CASE_TEMPLATE(cancel_while_queued_never_runs_the_task, Policy, test::all_policies)
{
    test::pool<Policy> pool(test::threads(1));
    std::atomic<bool> release{false}, ran{false}, callable_destroyed{false};
    pool.spawn([&] { spin_until([&] { return release.load(); }); }); // occupies the only worker
    auto f = pool.spawn_future([&ran, guard = set_on_destruction(callable_destroyed)] { ran = true; });
    f.cancel();
    release = true;
    BOOST_CHECK_THROW(f.get(), fj::future_cancelled);
    BOOST_TEST(!ran.load());
    BOOST_TEST(callable_destroyed.load());
}

BOOST_AUTO_TEST_CASE_TEMPLATE(cancel_while_running_throws_at_the_next_await, Policy, test::all_policies)
{
    test::pool<Policy> pool(test::threads(2));
    fj::promise<int> p;
    p.set_value(1); // even a ready future: every await is a cancellation point
    std::atomic<bool> started{false}, go{false}, unwound{false}, after_await{false};
    auto f = pool.spawn_future([&, pf = p.get_future()]() mutable {
        set_on_destruction guard(unwound);
        started = true;
        spin_until([&] { return go.load(); });
        int const v = fj::await(pf);
        after_await = true;
        return v;
    });
    spin_until([&] { return started.load(); });
    f.cancel();
    go = true;
    BOOST_CHECK_THROW(f.get(), fj::future_cancelled);
    BOOST_TEST(unwound.load());
    BOOST_TEST(!after_await.load());

    // A running task that never suspends again is not stopped.
    std::atomic<bool> go2{false}, started2{false};
    auto g = pool.spawn_future([&] {
        started2 = true;
        spin_until([&] { return go2.load(); });
        return 5;
    });
    spin_until([&] { return started2.load(); });
    g.cancel();
    go2 = true;
    BOOST_TEST(g.get() == 5);
}

BOOST_AUTO_TEST_CASE_TEMPLATE(cancelling_a_complete_future_does_nothing, Policy, test::all_policies)
{
    test::pool<Policy> pool(test::threads(2));
    auto f = pool.spawn_future([] { return 11; });
    f.wait();
    f.cancel();
    f.cancel();
    BOOST_TEST(f.get() == 11);

    fj::promise<int> p;
    auto pf = p.get_future();
    pf.cancel(); // nothing to stop behind a promise
    p.set_value(3);
    BOOST_TEST(pf.get() == 3);
}

// --- The EXECUTING_UNPARKED race ----------------------------------------------

// The completion of what a fiber awaits lands between the fiber registering
// itself as the waiter and the worker parking it. The unpark then finds
// EXECUTING, moves it to EXECUTING_UNPARKED, and the worker resumes the
// fiber instead of parking it; a lost wake-up here would hang get().
//
// Left alone the window is a few tens of nanoseconds and a plain stress loop
// hits it about once in 20,000 rounds. The test hook in that window waits
// until an outside thread has started completing this fiber's promise, then
// spins for a random while, so that the completion lands sometimes before the
// park (the race) and sometimes after it (a plain unpark).
namespace {
thread_local std::size_t current_ticket = 0;
thread_local std::uint32_t hook_rng = 12345;
std::unique_ptr<std::atomic<bool>[]> ticket_taken;
} // namespace

BOOST_AUTO_TEST_CASE_TEMPLATE(executing_unparked_race, Policy, test::all_policies)
{
    constexpr std::size_t n = 5000;
    std::vector<fj::promise<int>> promises(n);
    std::unique_ptr<std::atomic<fj::promise<int>*>[]> slots(new std::atomic<fj::promise<int>*>[n]);
    ticket_taken.reset(new std::atomic<bool>[n]);
    for (std::size_t i = 0; i < n; ++i) {
        slots[i] = nullptr;
        ticket_taken[i] = false;
    }
    std::atomic<std::size_t> tickets{0};
    std::uint64_t const reruns_before = fj::detail::fiber_stats::reruns.load();
    fj::detail::fiber_stats::before_park = +[] {
        std::size_t const t = current_ticket;
        while (!ticket_taken[t].load(std::memory_order_acquire))
            ;
        hook_rng = hook_rng * 1103515245u + 12345u;
        for (std::uint32_t i = 0, d = (hook_rng >> 16) % 64; i < d; ++i)
            asm volatile("");
    };
    {
        test::pool<Policy> pool(test::threads(2));
        // Completes the promises in the order the fibers armed them, so
        // that no fiber waits in the hook for one that has not run yet.
        std::thread setter([&] {
            for (std::size_t t = 0; t < n; ++t) {
                fj::promise<int>* p;
                while ((p = slots[t].load(std::memory_order_acquire)) == nullptr)
                    ;
                ticket_taken[t].store(true, std::memory_order_release);
                p->set_value(1);
            }
        });
        std::vector<fj::future<int>> futures;
        futures.reserve(n);
        for (std::size_t i = 0; i < n; ++i)
            futures.push_back(pool.spawn_future([&, i, pf = promises[i].get_future()]() mutable {
                std::size_t const t = tickets.fetch_add(1);
                current_ticket = t; // read by the hook before any suspension
                slots[t].store(&promises[i], std::memory_order_release);
                return fj::await(pf);
            }));
        std::size_t sum = 0;
        for (auto& f : futures)
            sum += static_cast<std::size_t>(f.get());
        setter.join();
        BOOST_TEST(sum == n);
    }
    fj::detail::fiber_stats::before_park = nullptr;
    std::uint64_t const reruns = fj::detail::fiber_stats::reruns.load() - reruns_before;
    BOOST_TEST_MESSAGE(boost::core::demangle(typeid(Policy).name())
                       << ": EXECUTING_UNPARKED taken " << reruns << " times in " << n << " awaits");
    BOOST_TEST(reruns > 0u);
}

// --- Scopes and lifetimes ------------------------------------------------------

BOOST_AUTO_TEST_CASE_TEMPLATE(a_scope_waits_for_its_futures_and_the_result_outlives_it, Policy,
                              test::all_policies)
{
    test::pool<Policy> pool(test::threads(2));
    fj::future<std::string> escaped;
    std::atomic<bool> callable_destroyed{false};
    std::vector<int> borrowed{1, 2, 3};
    std::string const prefix = "sum=";
    fj::promise<int> p;
    std::thread setter;
    pool.install([&] {
        fj::scope([&](fj::lifo_scope& s) {
            // Borrows from this frame; its handle escapes the scope.
            escaped = s.spawn_future([&borrowed, &prefix, pf = p.get_future(),
                                      guard = set_on_destruction(callable_destroyed)]() mutable {
                int const extra = fj::await(pf); // parks: the scope must wait
                borrowed.push_back(extra);
                return prefix + std::to_string(std::accumulate(borrowed.begin(), borrowed.end(), 0));
            });
            // Takes the scope, as scope jobs may.
            s.spawn_future([](fj::lifo_scope& inner) { inner.spawn([] {}); }).get();
            setter = std::thread([&] {
                std::this_thread::sleep_for(20ms);
                p.set_value(4);
            });
        });
        // The scope ended only after the task completed and its callable
        // (and what it borrowed) was gone.
        BOOST_TEST(borrowed.size() == 4u);
        BOOST_TEST(callable_destroyed.load());
        BOOST_TEST(escaped.poll());
    });
    setter.join();
    BOOST_TEST(escaped.get() == "sum=10");

    // in_place_scope from an outside thread blocks for a parked future too.
    std::atomic<bool> done{false};
    fj::promise<void> q;
    std::thread setter2;
    fj::future<void> h;
    fj::in_place_scope([&](fj::lifo_scope& s) {
        h = s.spawn_future([&, qf = q.get_future()]() mutable {
            fj::await(qf);
            done = true;
        });
        setter2 = std::thread([&] {
            std::this_thread::sleep_for(10ms);
            q.set_value();
        });
    });
    BOOST_TEST(done.load());
    setter2.join();
}

BOOST_AUTO_TEST_CASE_TEMPLATE(the_pool_destructor_waits_for_pending_futures, Policy, test::all_policies)
{
    std::atomic<bool> finished{false};
    fj::future<int> kept;
    std::thread setter;
    fj::promise<int> p;
    {
        test::pool<Policy> pool(test::threads(2));
        kept = pool.spawn_future([&, pf = p.get_future()]() mutable {
            int const v = fj::await(pf);
            finished = true;
            return v;
        });
        setter = std::thread([&] {
            std::this_thread::sleep_for(20ms);
            p.set_value(9);
        });
    }
    BOOST_TEST(finished.load());
    BOOST_TEST(kept.poll());
    BOOST_TEST(kept.get() == 9); // the handle outlives the pool
    setter.join();
}

// --- Fibers and workers ---------------------------------------------------------

BOOST_AUTO_TEST_CASE_TEMPLATE(fiber_stacks_are_reused, Policy, test::all_policies)
{
    test::pool<Policy> pool(test::threads(1));
    std::set<std::uintptr_t> stacks;
    for (int i = 0; i < 200; ++i) {
        auto f = pool.spawn_future([] {
            int local = 0;
            return reinterpret_cast<std::uintptr_t>(&local);
        });
        stacks.insert(f.get());
    }
    // One worker, one fiber at a time: the same stack every time.
    BOOST_TEST(stacks.size() == 1u);
}

BOOST_AUTO_TEST_CASE_TEMPLATE(guard_pages_and_custom_stack_size, Policy, test::all_policies)
{
    fj::pool_options options = test::threads(2);
    options.fiber_guard_pages = true;
    options.fiber_stack_size = 256 * 1024;
    test::pool<Policy> pool(options);
    std::vector<fj::promise<int>> promises(500);
    std::vector<fj::future<int>> futures;
    for (auto& p : promises)
        futures.push_back(pool.spawn_future([pf = p.get_future()]() mutable {
            volatile char big[128 * 1024]; // fits in 256 KiB, not in the default 64 KiB
            big[0] = 1;
            return fj::await(pf) + big[0];
        }));
    for (auto& p : promises)
        p.set_value(1);
    int sum = 0;
    for (auto& f : futures)
        sum += f.get();
    BOOST_TEST(sum == 1000);
}

BOOST_AUTO_TEST_CASE_TEMPLATE(fibers_use_join_and_move_between_workers, Policy, test::all_policies)
{
    test::pool<Policy> pool(test::threads(2));
    std::vector<fj::promise<int>> promises(200);
    std::vector<fj::future<int>> futures;
    for (auto& p : promises)
        futures.push_back(pool.spawn_future([&pool, pf = p.get_future()]() mutable {
            auto const before = pool.current_thread_index();
            auto [a, b] = fj::join([] { return 1; }, [] { return 2; });
            int const v = fj::await(pf); // may resume on the other worker
            auto const after = pool.current_thread_index();
            auto [c, d] = fj::join([] { return 3; }, [] { return 4; });
            return (before && after) ? a + b + c + d + v : -1000;
        }));
    std::thread io([&] {
        for (auto& p : promises)
            p.set_value(0);
    });
    int sum = 0;
    for (auto& f : futures)
        sum += f.get();
    io.join();
    BOOST_TEST(sum == 200 * 10);
}
