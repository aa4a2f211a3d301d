// Copyright 2026 The Boost.ForkJoin developers.
// Distributed under the Boost Software License, Version 1.0.
// (See accompanying file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)

#define BOOST_TEST_MODULE future
#include <boost/test/unit_test.hpp>

#include "child_process.hpp"
#include "policies.hpp"
#include "wait_until.hpp"
#include "watchdog.hpp"

#include <boost/forkjoin/future.hpp>
#include <boost/forkjoin/spawn.hpp>
#include <boost/forkjoin/when_all.hpp>
#include <boost/forkjoin/when_any.hpp>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <fstream>
#include <functional>
#include <future>
#include <iterator>
#include <memory>
#include <mutex>
#include <new>
#include <numeric>
#include <random>
#include <set>
#include <sstream>
#include <stdexcept>
#include <string>
#include <system_error>
#include <thread>
#include <vector>

#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

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

std::uintptr_t address_of(void const* p) { return reinterpret_cast<std::uintptr_t>(p); }

long peak_rss_kib()
{
    rusage usage{};
    getrusage(RUSAGE_SELF, &usage);
    return usage.ru_maxrss; // KiB on Linux
}

} // namespace

// --- Basics: the three places get() is called from ------------------------------

BOOST_AUTO_TEST_CASE_TEMPLATE(get_from_outside_blocks, Policy, test::api_policies)
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

BOOST_AUTO_TEST_CASE_TEMPLATE(get_from_a_worker_runs_other_jobs, Policy, test::api_policies)
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

// A lazy join (lazy_joins.hpp) whose a waits inside the pool for what its
// b provides: the wait publishes b first, so the worker (or a thief) runs
// it, on one thread as on two; on a worker's stack (the wait runs jobs) and
// on a fiber (the fiber parks, and its unpublished b goes on the deque).
// Deeper, a fiber parks under unpublished joins of its own and resumes.
namespace {
int a_waits_for_b()
{
    fj::promise<int> p;
    fj::future<int> f = p.get_future();
    auto [x, y] = fj::join([&] { return f.get(); },
                           [&] {
                               p.set_value(7);
                               return 1;
                           });
    return x + y;
}

template <class Pool>
int parks_under_lazy_joins(Pool& pool, int depth)
{
    if (depth == 0)
        return pool.spawn_future([] { return 1; }).get();
    auto [x, y] = fj::join([&] { return parks_under_lazy_joins(pool, depth - 1); },
                           [&] { return parks_under_lazy_joins(pool, depth - 1); });
    return x + y;
}
} // namespace

BOOST_AUTO_TEST_CASE(a_lazy_join_whose_a_waits_for_b_inside_the_pool)
{
    test::watchdog const hang_guard("a_lazy_join_whose_a_waits_for_b_inside_the_pool");
    for (std::size_t n : {1u, 2u}) {
        test::pool<test::lazy<fj::sleep::jec>> pool(test::threads(n));
        BOOST_TEST(pool.install([] { return a_waits_for_b(); }) == 8);
        BOOST_TEST(pool.spawn_future([] { return a_waits_for_b(); }).get() == 8);
        BOOST_TEST(pool.spawn_future([&] { return parks_under_lazy_joins(pool, 6); }).get() == 64);
        BOOST_TEST(pool.install([&] { return parks_under_lazy_joins(pool, 6); }) == 64);
    }
}

// The free spawn_future runs on the caller's pool, or on the global pool
// from outside every pool, as the free spawn does.
BOOST_AUTO_TEST_CASE_TEMPLATE(free_spawn_future_uses_the_current_pool, Policy, test::api_policies)
{
    test::pool<Policy> pool(test::threads(2));
    auto const [same_pool, value] = pool.install([&] {
        auto f = fj::spawn_future([&] { return std::pair(pool.current_thread_index().has_value(), 5); });
        return f.get();
    });
    BOOST_TEST(same_pool);
    BOOST_TEST(value == 5);
    auto outside = fj::spawn_future([] { return fj::current_thread_index().has_value(); });
    BOOST_TEST(outside.get()); // a worker of the global pool
}

namespace {

struct input_error : std::runtime_error {
    explicit input_error(std::string what) : std::runtime_error(std::move(what)) {}
};

// A task that parks on `gate` and records that it started and whether it
// was cancelled (a task cancelled before it starts never runs).
template <class Pool>
fj::future<int> gated(Pool& pool, fj::promise<int>& gate, std::atomic<int>& cancelled, std::atomic<int>& started)
{
    return pool.spawn_future([&cancelled, &started, g = gate.get_future()]() mutable {
        started.fetch_add(1);
        try {
            return fj::await(g);
        } catch (fj::future_cancelled const&) {
            cancelled.fetch_add(1);
            throw;
        }
    });
}

} // namespace

// when_all, awaited from the only worker's fiber: the worker is never
// blocked (with one worker, a blocked one would deadlock), the values come
// in argument order, and it is ready only once every input is.
BOOST_AUTO_TEST_CASE_TEMPLATE(when_all_collects_every_value_and_the_first_exception, Policy, test::api_policies)
{
    test::pool<Policy> pool(test::threads(1));
    fj::promise<int> late;
    auto all = pool.install([&] {
        return fj::when_all(pool.spawn_future([] { return 1; }), pool.spawn_future([] {}),
                            pool.spawn_future([] { return std::string("two"); }), late.get_future());
    });
    BOOST_TEST(!all.poll());
    late.set_value(3);
    auto const [one, nothing, two, three] = pool.spawn_future([&] { return fj::await(all); }).get();
    BOOST_TEST(one == 1);
    BOOST_TEST(two == "two");
    BOOST_TEST(three == 3);
    static_assert(std::is_same_v<std::remove_cvref_t<decltype(nothing)>, std::monostate>);

    // Failures: the first in argument order, once all are done.
    fj::promise<int> last;
    auto failing = fj::when_all(pool.spawn_future([] { return 0; }),
                                pool.spawn_future([]() -> int { throw input_error("first"); }),
                                pool.spawn_future([]() -> int { throw input_error("second"); }), last.get_future());
    BOOST_TEST(!failing.poll());
    last.set_value(1);
    try {
        failing.get();
        BOOST_TEST(false);
    } catch (input_error const& e) {
        BOOST_TEST(std::string(e.what()) == "first");
    }

    // The vector form, empty too; an invalid input is refused at once.
    std::vector<fj::future<int>> inputs;
    for (int i = 0; i < 100; ++i)
        inputs.push_back(pool.spawn_future([i] { return i * i; }));
    auto squares = fj::when_all(std::move(inputs)).get();
    BOOST_TEST(squares.size() == 100u);
    BOOST_TEST(squares[9] == 81);
    BOOST_TEST(fj::when_all(std::vector<fj::future<int>>()).get().empty());
    BOOST_CHECK_THROW(fj::when_all(fj::future<int>()), std::future_error);
}

BOOST_AUTO_TEST_CASE_TEMPLATE(when_any_takes_the_first_done_and_cancels_the_losers, Policy, test::api_policies)
{
    test::pool<Policy> pool(test::threads(1));
    std::atomic<int> cancelled{0}, started{0};
    fj::promise<int> gate0, gate1, gate2;
    auto first = fj::when_any(gated(pool, gate0, cancelled, started), gated(pool, gate1, cancelled, started),
                              gated(pool, gate2, cancelled, started));
    BOOST_TEST(test::wait_until([&] { return started.load() == 3; }));
    BOOST_TEST(!first.poll());
    gate1.set_value(11);
    // Awaited on the only worker's fiber: it parks, it does not block.
    auto const [index, value] = pool.spawn_future([&] { return fj::await(first); }).get();
    BOOST_TEST(index == 1u);
    BOOST_TEST(value == 11);
    // The two losers, parked on their gates, are cancelled.
    BOOST_TEST(test::wait_until([&] { return cancelled.load() == 2; }), cancelled.load() << " cancelled");

    // The first done failed: its exception.
    std::vector<fj::future<int>> inputs;
    fj::promise<int> never;
    inputs.push_back(never.get_future());
    inputs.push_back(pool.spawn_future([]() -> int { throw input_error("fast"); }));
    try {
        fj::when_any(std::move(inputs)).get();
        BOOST_TEST(false);
    } catch (input_error const& e) {
        BOOST_TEST(std::string(e.what()) == "fast");
    }

    // Cancelling when_any's own future cancels every input.
    fj::promise<int> g0, g1;
    std::atomic<int> dropped{0}, parked{0};
    {
        auto abandoned = fj::when_any(gated(pool, g0, dropped, parked), gated(pool, g1, dropped, parked));
        BOOST_TEST(test::wait_until([&] { return parked.load() == 2; }));
        abandoned.cancel();
    }
    BOOST_TEST(test::wait_until([&] { return dropped.load() == 2; }), dropped.load() << " cancelled");

    BOOST_CHECK_THROW(fj::when_any(std::vector<fj::future<int>>()), std::invalid_argument);
    BOOST_CHECK_THROW(fj::when_any(fj::future<void>()), std::future_error);
}

BOOST_AUTO_TEST_CASE_TEMPLATE(get_from_a_fiber_parks_it, Policy, test::api_policies)
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

BOOST_AUTO_TEST_CASE_TEMPLATE(poll_never_blocks_and_void_futures_work, Policy, test::api_policies)
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

BOOST_AUTO_TEST_CASE_TEMPLATE(exceptions_travel_through_get, Policy, test::api_policies)
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

    // A null exception would leave the future ready with nothing in it: an
    // error, and the promise stays unsatisfied.
    fj::promise<int> null_error;
    BOOST_CHECK_THROW(null_error.set_exception(nullptr), std::invalid_argument);
    null_error.set_value(3);
    BOOST_TEST(null_error.get_future().get() == 3);
}

// --- Exceptions held across a suspension ---------------------------------------

namespace {
struct tagged_error {
    int tag;
};

// Awaits in its destructor, which runs while an exception unwinds the
// fiber's stack, and records std::uncaught_exceptions() on both sides.
struct awaits_when_destroyed {
    fj::future<int>* awaited;
    int* before;
    int* after;
    ~awaits_when_destroyed()
    {
        *before = std::uncaught_exceptions();
        fj::await(*awaited);
        *after = std::uncaught_exceptions();
    }
};
} // namespace

// The exception a catch block handles, and the count of exceptions in
// flight, belong to the fiber (detail/fiber_exceptions.hpp): 2,000 tasks
// park inside their catch blocks (or, every third, in a destructor run by
// the unwinding), two workers interleave them, and each rethrows its own.
// Before the fix the thread's single caught-exception stack was shared by
// the fibers on it: 417 of 2,000 rethrew their own exception.
BOOST_AUTO_TEST_CASE_TEMPLATE(awaiting_inside_a_catch_block_keeps_the_fibers_own_exception, Policy,
                              test::api_policies)
{
    constexpr int n = 2'000;
    std::vector<fj::promise<int>> promises(n);
    std::vector<fj::future<int>> futures;
    futures.reserve(n);
    std::atomic<int> arrived{0};
    test::pool<Policy> pool(test::threads(2));
    for (int i = 0; i < n; ++i) {
        futures.push_back(pool.spawn_future([&arrived, i, pf = promises[std::size_t(i)].get_future()]() mutable {
            if (i % 3 == 2) {
                // In a destructor during unwinding: one exception in flight,
                // before and after the park, whatever the thread ran meanwhile.
                int before = -1, after = -1;
                try {
                    awaits_when_destroyed guard{&pf, &before, &after};
                    arrived.fetch_add(1, std::memory_order_relaxed);
                    throw tagged_error{i};
                } catch (tagged_error const& e) {
                    if (before != 1 || after != 1 || e.tag != i || std::uncaught_exceptions() != 0)
                        return -1 - i;
                    throw;
                }
            }
            try {
                throw tagged_error{i};
            } catch (tagged_error const& e) {
                // Arrive whatever the checks say, or the test waits forever.
                bool right = std::uncaught_exceptions() == 0;
                arrived.fetch_add(1, std::memory_order_relaxed);
                fj::await(pf); // parks; the other tasks enter their catch blocks on this thread meanwhile
                right = right && std::uncaught_exceptions() == 0 && e.tag == i;
                if (!right)
                    return -1 - i;
                if (i % 3 == 1) {
                    // Through std::current_exception as well as `throw;`.
                    std::exception_ptr const mine = std::current_exception();
                    std::rethrow_exception(mine);
                }
                throw;
            }
        }));
    }
    spin_until([&] { return arrived.load() == n; });
    std::vector<int> order(n);
    std::iota(order.begin(), order.end(), 0);
    std::shuffle(order.begin(), order.end(), std::mt19937(7));
    for (int i : order)
        promises[std::size_t(i)].set_value(1);
    int own = 0, other = 0, none = 0;
    for (int i = 0; i < n; ++i) {
        try {
            futures[std::size_t(i)].get();
            ++none;
        } catch (tagged_error const& e) {
            ++(e.tag == i ? own : other);
        } catch (...) {
            ++other;
        }
    }
    BOOST_TEST(own == n);
    BOOST_TEST(other == 0);
    BOOST_TEST(none == 0);
    BOOST_TEST(std::uncaught_exceptions() == 0);
}

// --- Scale: many parked fibers -------------------------------------------------

BOOST_AUTO_TEST_CASE_TEMPLATE(hundred_thousand_futures_parked_on_promises, Policy, test::api_policies)
{
#if defined(BOOST_FORKJOIN_TSAN)
    constexpr int n = 2'000; // ThreadSanitizer counts each live fiber as a thread (at most 8,128), slowly
#else
    constexpr int n = 100'000;
#endif
    auto const start = std::chrono::steady_clock::now();
    std::vector<fj::promise<int>> promises(n);
    std::vector<fj::future<int>> futures;
    futures.reserve(n);
    std::atomic<int> arrived{0};
    {
        // Without guard pages: two mappings per guarded stack, and 100,000
        // of them exceed Linux's default vm.max_map_count (65530).
        fj::pool_options options = test::threads(2);
        options.fiber_guard_pages = false;
        test::pool<Policy> pool(options);
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

BOOST_AUTO_TEST_CASE_TEMPLATE(a_fiber_awaits_another_fibers_future_1000_deep, Policy, test::api_policies)
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

BOOST_AUTO_TEST_CASE_TEMPLATE(cancel_while_parked_unwinds_the_fiber, Policy, test::api_policies)
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

BOOST_AUTO_TEST_CASE_TEMPLATE(cancel_while_queued_never_runs_the_task, Policy, test::api_policies)
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

BOOST_AUTO_TEST_CASE_TEMPLATE(cancel_while_running_throws_at_the_next_await, Policy, test::api_policies)
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

BOOST_AUTO_TEST_CASE_TEMPLATE(cancelling_a_complete_future_does_nothing, Policy, test::api_policies)
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

BOOST_AUTO_TEST_CASE_TEMPLATE(executing_unparked_race, Policy, test::api_policies)
{
#if defined(BOOST_FORKJOIN_TSAN)
    constexpr std::size_t n = 500; // its busy waits are slow under ThreadSanitizer; still hundreds of reruns
#else
    constexpr std::size_t n = 5000;
#endif
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
                              test::api_policies)
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

BOOST_AUTO_TEST_CASE_TEMPLATE(the_pool_destructor_waits_for_pending_futures, Policy, test::api_policies)
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

// The global pool's tasks hold a tracked unit while parked on a future (it
// is the one pool whose exit handler forgives them): each park converts the
// task's work unit, each wake converts it back, and none is lost or left
// behind (a unit left would keep has_work_in_flight true for ever; one lost
// would let the workers go while tasks still run).
BOOST_AUTO_TEST_CASE(global_pool_tasks_park_and_wake_without_losing_a_unit)
{
    fj::thread_pool& pool = fj::global_pool();
    constexpr int n = 200;
    std::vector<fj::promise<int>> promises(n);
    std::vector<fj::future<int>> results;
    for (int i = 0; i < n; ++i)
        results.push_back(pool.spawn_future([f = promises[i].get_future()]() mutable { return fj::await(f) + 1; }));
    fj::future<int> sum = pool.spawn_future([&results] {
        int total = 0;
        for (fj::future<int>& r : results)
            total += fj::await(r); // parks on a task that parks on a promise
        return total;
    });
    std::this_thread::sleep_for(5ms); // most of them parked
    for (int i = 0; i < n; ++i)
        promises[i].set_value(i);
    BOOST_TEST(sum.get() == n * (n - 1) / 2 + n);
    BOOST_TEST(test::wait_until([&] { return !pool.registry().has_work_in_flight(); }));
    BOOST_TEST(pool.install([] { return 42; }) == 42); // the workers are still there
}

// --- Fibers and workers ---------------------------------------------------------

BOOST_AUTO_TEST_CASE_TEMPLATE(fiber_stacks_are_reused, Policy, test::api_policies)
{
    test::pool<Policy> pool(test::threads(1));
    std::set<std::uintptr_t> stacks;
    for (int i = 0; i < 200; ++i) {
        auto f = pool.spawn_future([] {
            int local = 0;
            return address_of(&local); // a number, never dereferenced
        });
        stacks.insert(f.get());
    }
    // One worker, one fiber at a time: the same stack every time.
    BOOST_TEST(stacks.size() == 1u);
}

BOOST_AUTO_TEST_CASE_TEMPLATE(guard_pages_and_custom_stack_size, Policy, test::api_policies)
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

// --- Stack overflow: reported, not a bare SIGSEGV ---------------------------------

#if !defined(BOOST_FORKJOIN_ASAN) && !defined(BOOST_FORKJOIN_TSAN)
namespace {
// A 72 KB frame on the default 64 KiB stack: its bottom lies 8 KiB below
// the stack, past a one-page guard (a bare SIGSEGV, or worse, before the
// guard region and the handler of detail/stack_overflow.hpp).
[[gnu::noinline]] int big_frame(int seed)
{
    volatile char big[72 * 1024];
    for (std::size_t i = 0; i < sizeof big; i += 512)
        big[i] = static_cast<char>(seed + static_cast<int>(i));
    return big[0];
}

// Unbounded recursion: the overflow creeps down one frame at a time.
[[gnu::noinline]] int deep(int n)
{
    volatile char frame[256];
    frame[0] = static_cast<char>(n);
    return n == -1 ? 0 : deep(n + 1) + frame[0];
}
} // namespace

// Every policy runs the same fibers and handler; one is enough.
BOOST_AUTO_TEST_CASE(a_fiber_stack_overflow_is_reported_with_the_option_to_raise)
{
    for (int (*overflow)(int) : {&big_frame, &deep}) {
        test::child_result const r = test::run_in_child([overflow] {
            test::pool<fj::sleep::jec> pool(test::threads(2));
            (void)pool.spawn_future([overflow] { return overflow(1); }).get();
            test::child_require(false, "the overflow went unnoticed");
        });
        BOOST_TEST(r.aborted(), r);
        BOOST_TEST(r.says("boost::forkjoin: a future's fiber overflowed its stack of 65536 bytes; "
                          "raise pool_options::fiber_stack_size"),
                   r);
    }
    // With a larger stack the same frame fits.
    test::child_result const fits = test::run_in_child([] {
        fj::pool_options options = test::threads(2);
        options.fiber_stack_size = 128 * 1024;
        test::pool<fj::sleep::jec> pool(options);
        test::child_require(pool.spawn_future([] { return big_frame(1); }).get() == 1, "the frame's value");
    });
    BOOST_TEST(fits.succeeded(), fits);
}

// Any other fault is not ours: a null pointer on a fiber still dies of a
// plain SIGSEGV, and one on a worker's own stack (a job) too.
BOOST_AUTO_TEST_CASE(other_faults_on_a_fiber_stay_plain_segmentation_faults)
{
    for (bool on_fiber : {true, false}) {
        test::child_result const r = test::run_in_child([on_fiber] {
            test::pool<fj::sleep::jec> pool(test::threads(2));
            // A guarded stack mapped first, so the handler is installed.
            test::child_require(pool.spawn_future([] { return 1; }).get() == 1, "a first future");
            auto crash = [] {
                int volatile* volatile null = nullptr; // volatile: GCC drops a plain store through it
                *null = 1;
            };
            if (on_fiber)
                pool.spawn_future(crash).get();
            else
                pool.install(crash);
            test::child_require(false, "no fault");
        });
        BOOST_TEST(r.signal == SIGSEGV, r);
        BOOST_TEST(!r.says("overflowed"), r);
    }
}

// The handler chains to the one installed before it: that one sees a fault
// that is not an overflow, with its siginfo.
namespace {
volatile sig_atomic_t chained_signal = 0;
} // namespace

BOOST_AUTO_TEST_CASE(a_fault_that_is_no_overflow_reaches_the_previous_handler)
{
    test::child_result const r = test::run_in_child([] {
        struct sigaction previous{};
        previous.sa_flags = SA_SIGINFO | SA_RESETHAND;
        previous.sa_sigaction = [](int signal, siginfo_t* info, void*) {
            if (info != nullptr && info->si_addr == nullptr) {
                static char const said[] = "previous handler saw the null fault\n";
                (void)::write(STDERR_FILENO, said, sizeof said - 1);
                std::_Exit(3);
            }
            chained_signal = signal;
        };
        sigemptyset(&previous.sa_mask);
        sigaction(SIGSEGV, &previous, nullptr);
        test::pool<fj::sleep::jec> pool(test::threads(2));
        test::child_require(pool.spawn_future([] { return 1; }).get() == 1, "a first future");
        pool.spawn_future([] {
            int volatile* volatile null = nullptr; // volatile: GCC drops a plain store through it
            *null = 1;
        }).get();
    });
    BOOST_TEST((r.exited && r.exit_code == 3), r);
    BOOST_TEST(r.says("previous handler saw the null fault"), r);
}
#endif

// A fiber resumes on the worker it first ran on (its home), whoever
// completes what it waits for; join and yield work from it.
BOOST_AUTO_TEST_CASE_TEMPLATE(fibers_stay_on_their_home_worker, Policy, test::api_policies)
{
    test::pool<Policy> pool(test::threads(2));
    std::vector<fj::promise<int>> promises(200);
    std::vector<fj::future<int>> futures;
    for (auto& p : promises)
        futures.push_back(pool.spawn_future([&pool, pf = p.get_future()]() mutable {
            auto const before = pool.current_thread_index();
            auto [a, b] = fj::join([] { return 1; }, [] { return 2; });
            int const v = fj::await(pf);
            auto const after = pool.current_thread_index();
            auto [c, d] = fj::join([] { return 3; }, [] { return 4; });
            fj::yield_now();
            bool const same = before && before == after && after == pool.current_thread_index();
            return same ? a + b + c + d + v : -1000;
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

namespace {
// `Policy`, counting the idle periods its workers begin.
template <class Policy>
struct counting_idle_periods : Policy {
    using Policy::Policy;
    static inline std::atomic<std::size_t> periods{0};

    typename Policy::idle_state start_looking(std::size_t index)
    {
        // Relaxed: the test's pool has one worker, which both counts here
        // and reads the count (in fiber A): one thread, nothing to order.
        periods.fetch_add(1, std::memory_order_relaxed);
        return Policy::start_looking(index);
    }
};
} // namespace

// A fiber that parks when the fiber it unparked waits on the same worker's
// resume queue hands the worker straight to that one: the worker takes what
// only it may run (its deque, broadcasts, fibers to resume) before it tells
// the policy that it is idle. Each hand-off used to begin an idle period,
// whose bookkeeping tripled a park/unpark cycle under jec and legacy (the
// benchmark's park-unpark, with its kernel of that time: 111 and 133 ns,
// then 36 for both).
BOOST_AUTO_TEST_CASE_TEMPLATE(a_hand_off_between_fibers_begins_no_idle_period, Policy, test::api_policies)
{
    using counted = counting_idle_periods<Policy>;
    constexpr std::size_t rounds = 1000;
    std::vector<fj::promise<void>> to_a(rounds), to_b(rounds);
    test::pool<counted> pool(test::threads(1));
    std::size_t const periods = pool.install([&] {
        // B parks at once; each turn of A unparks B, then parks until B
        // unparks it: on one worker, 2 * rounds hand-offs.
        auto b = pool.spawn_future([&] {
            for (std::size_t i = 0; i < rounds; ++i) {
                fj::await(to_b[i].get_future());
                to_a[i].set_value();
            }
        });
        auto a = pool.spawn_future([&] {
            std::size_t const before = counted::periods.load();
            for (std::size_t i = 0; i < rounds; ++i) {
                to_b[i].set_value();
                fj::await(to_a[i].get_future());
            }
            return counted::periods.load() - before;
        });
        b.get();
        return a.get();
    });
    BOOST_TEST(periods == 0u);
}

// --- Suspending inside join and scope (issue 10, bug 4) -------------------------

// A fiber that awaits inside a closure that join runs, or inside a scope's
// body, resumes on the worker the join or scope started on: join's second
// half sits on that worker's deque and only that worker may pop it. Before
// fibers had a home, 10 to 206 of 400 such fibers resumed elsewhere, and
// join then popped the first worker's deque from the wrong thread.
BOOST_AUTO_TEST_CASE_TEMPLATE(awaiting_inside_join_and_scope_keeps_the_worker, Policy, test::api_policies)
{
    constexpr std::size_t n = 400;
    test::pool<Policy> pool(test::threads(2));
    std::vector<fj::promise<int>> in_join(n), in_scope(n);
    std::vector<fj::future<int>> futures;
    futures.reserve(n);
    for (std::size_t i = 0; i < n; ++i)
        futures.push_back(pool.spawn_future(
            [&pool, jf = in_join[i].get_future(), sf = in_scope[i].get_future()]() mutable {
                auto const start = pool.current_thread_index();
                auto const [a, b] = fj::join(
                    [&] {
                        int const v = fj::await(jf);
                        return pool.current_thread_index() == start ? v : -1000;
                    },
                    [] { return 2; });
                std::atomic<int> spawned{0}; // outlives the scope's jobs, not just its body
                int const s = fj::scope([&](fj::lifo_scope& scope) {
                    scope.spawn([&spawned] { ++spawned; });
                    int const v = fj::await(sf);
                    return pool.current_thread_index() == start ? v : -1000;
                });
                return spawned.load() == 1 ? a + b + s : -1000;
            }));
    // Completed from outside, with the workers busy with each other's
    // fibers, in an order unrelated to the fibers' homes.
    std::thread io([&] {
        std::vector<std::size_t> order(n);
        std::iota(order.begin(), order.end(), std::size_t{0});
        std::shuffle(order.begin(), order.end(), std::mt19937(7));
        for (std::size_t i : order)
            in_join[i].set_value(1);
        std::shuffle(order.begin(), order.end(), std::mt19937(8));
        for (std::size_t i : order)
            in_scope[i].set_value(3);
    });
    int sum = 0;
    for (auto& f : futures)
        sum += f.get();
    io.join();
    BOOST_TEST(sum == static_cast<int>(n) * 6);
}

// --- Jobs never run on a fiber's stack (issue 13, item 4) ------------------------

namespace {
// About 256 KiB of stack: fine on a worker's stack, four times a fiber's.
[[gnu::noinline]] int deep_recursion(int depth)
{
    volatile char frame[1024];
    frame[0] = static_cast<char>(depth);
    if (depth == 0)
        return frame[0];
    return deep_recursion(depth - 1) + frame[0] - frame[0] + 1;
}
} // namespace

// A fiber's join whose other half was stolen waits for it; the worker runs
// other jobs meanwhile, and a job left behind on the deque by the join's
// first half is run by the join itself. Both kinds of job are ordinary
// deep jobs: they must run on the worker's stack, which stack_size sizes,
// not on the fiber's 64 KiB (guard pages on: an overflow would fault).
BOOST_AUTO_TEST_CASE_TEMPLATE(jobs_taken_while_a_fiber_waits_run_on_the_worker_stack, Policy, test::api_policies)
{
    fj::pool_options options = test::threads(2);
    options.fiber_guard_pages = true;
    test::pool<Policy> pool(options);
    for (int round = 0; round < 2; ++round) {
        bool const leave_one_behind = round == 0;
        std::atomic<bool> b_started{false}, deep_done{false};
        auto f = pool.spawn_future([&] {
            auto const [x, y] = fj::join(
                [&] {
                    spin_until([&] { return b_started.load(); }); // b is stolen
                    if (leave_one_behind) // on our deque: the join runs it
                        fj::spawn([&] { deep_done = deep_recursion(256) == 256; });
                    return 1;
                },
                [&] {
                    b_started = true;
                    spin_until([&] { return deep_done.load(); });
                    return 2;
                });
            return x + y;
        });
        if (!leave_one_behind) {
            // The other worker spins in b: only the fiber's worker, waiting
            // in the join, can take this one.
            spin_until([&] { return b_started.load(); });
            pool.spawn([&] { deep_done = deep_recursion(256) == 256; });
        }
        BOOST_TEST(f.get() == 3);
        BOOST_TEST(deep_done.load());
    }
}

// --- A fiber waits for a latch parked, never above the job it waits for ---------
//
// A fiber that parks inside a join's first half leaves the second half on its
// home's deque, and the home may take it as ordinary work. If that job waits
// in turn (for a promise, a stolen join half), the home resumes the parked
// fiber inside the job's wait; the fiber's join then finds its second half
// taken and must wait for it. Were that wait run on the worker's stack, above
// the job's own frame, it would wait for itself. The fiber parks instead, and
// the job's end unparks it. The same for a scope whose job the home took.
// (Found by review; each of these hung for good before.)

namespace {
// Completes `first`, then `second`, each once the fibers and jobs before it
// had time to park and wait; the order only makes the case likely, any
// order must end.
template <class First, class Second>
void complete_in_turn(std::atomic<bool> const& waiting, First first, Second second)
{
    spin_until([&] { return waiting.load(); });
    std::this_thread::sleep_for(50ms);
    first();
    std::this_thread::sleep_for(50ms);
    second();
}
} // namespace

BOOST_AUTO_TEST_CASE_TEMPLATE(a_fiber_resumed_inside_its_joins_other_half_parks_for_it, Policy, test::api_policies)
{
    test::runs_without_hanging([] {
        test::pool<Policy> pool(test::threads(1));
        fj::promise<int> for_a, for_b;
        std::atomic<bool> b_waiting{false};
        auto f = pool.spawn_future([&, af = for_a.get_future(), bf = for_b.get_future()]() mutable {
            auto const [a, b] = fj::join([&] { return fj::await(af); }, // parks: the home takes b
                                         [&] {
                                             b_waiting = true;
                                             return bf.get(); // resumes the fiber in here
                                         });
            return a + b;
        });
        complete_in_turn(b_waiting, [&] { for_a.set_value(1); }, [&] { for_b.set_value(2); });
        test::child_require(f.get() == 3, "the join's result");
    }, 120s);
}

BOOST_AUTO_TEST_CASE_TEMPLATE(a_fiber_resumed_inside_its_scopes_job_parks_for_it, Policy, test::api_policies)
{
    test::runs_without_hanging([] {
        test::pool<Policy> pool(test::threads(1));
        fj::promise<int> for_body, for_job;
        std::atomic<bool> job_waiting{false};
        auto f = pool.spawn_future([&, body = for_body.get_future(), job = for_job.get_future()]() mutable {
            return fj::scope([&](fj::lifo_scope& scope) {
                scope.spawn([&] {
                    job_waiting = true;
                    (void)job.get(); // resumes the fiber in here
                });
                return fj::await(body);
            });
        });
        complete_in_turn(job_waiting, [&] { for_body.set_value(1); }, [&] { for_job.set_value(2); });
        test::child_require(f.get() == 1, "the scope's result");
    }, 120s);
}

namespace {
long parallel_sum(long lo, long hi)
{
    if (hi - lo < 64) {
        long sum = 0;
        for (long i = lo; i < hi; ++i)
            sum += i;
        return sum;
    }
    long const mid = lo + (hi - lo) / 2;
    auto const [a, b] = fj::join([&] { return parallel_sum(lo, mid); }, [&] { return parallel_sum(mid, hi); });
    return a + b;
}
} // namespace

// No job that blocks: plain joins beside an await are enough, with 2 workers.
BOOST_AUTO_TEST_CASE_TEMPLATE(awaits_beside_parallel_joins_do_not_deadlock, Policy, test::api_policies)
{
    test::runs_without_hanging([] {
        test::pool<Policy> pool(test::threads(2));
        constexpr long n = 200'000;
        for (int round = 0; round < 10; ++round) {
            constexpr std::size_t tasks = 50;
            std::vector<fj::promise<long>> promises(tasks);
            std::vector<fj::future<long>> futures;
            for (auto& p : promises)
                futures.push_back(pool.spawn_future([pf = p.get_future()]() mutable {
                    auto const [a, b] = fj::join([&] { return fj::await(pf); }, [] { return parallel_sum(0, n); });
                    return a + b;
                }));
            std::thread io([&] {
                for (auto& p : promises) {
                    p.set_value(1);
                    std::this_thread::sleep_for(200us);
                }
            });
            long total = 0;
            for (auto& f : futures)
                total += f.get();
            io.join();
            test::child_require(total == static_cast<long>(tasks) * (1 + n * (n - 1) / 2), "the sums");
        }
    }, 120s);
}

// --- Fiber stacks: size and guard pages (issue 13, item 5) ------------------------

BOOST_AUTO_TEST_CASE_TEMPLATE(fiber_stack_size_below_the_minimum_is_rejected, Policy, test::api_policies)
{
    for (std::size_t size : {std::size_t{0}, std::size_t{1}, std::size_t{256}, fj::pool_options::min_fiber_stack_size - 1}) {
        fj::pool_options options = test::threads(1);
        options.fiber_stack_size = size;
        BOOST_CHECK_EXCEPTION(test::pool<Policy>{options}, std::invalid_argument, [](std::invalid_argument const& e) {
            return std::string(e.what()).find("fiber_stack_size") != std::string::npos;
        });
    }
    // The minimum itself holds the library's frames: a value, an exception,
    // a cancelled await, a join whose other half is stolen.
    for (bool guard : {false, true}) {
        fj::pool_options options = test::threads(2);
        options.fiber_stack_size = fj::pool_options::min_fiber_stack_size;
        options.fiber_guard_pages = guard;
        test::pool<Policy> pool(options);
        BOOST_TEST(pool.spawn_future([] { return 1; }).get() == 1);
        BOOST_CHECK_THROW(pool.spawn_future([]() -> int { throw std::runtime_error("small"); }).get(),
                          std::runtime_error);
        fj::promise<int> never;
        std::atomic<bool> started{false};
        auto parked = pool.spawn_future([&, pf = never.get_future()]() mutable {
            started = true;
            return fj::await(pf);
        });
        spin_until([&] { return started.load(); });
        parked.cancel();
        BOOST_CHECK_THROW(parked.get(), fj::future_cancelled);
        std::atomic<bool> stolen{false};
        auto joined = pool.spawn_future([&] {
            auto const [a, b] = fj::join(
                [&] {
                    spin_until([&] { return stolen.load(); });
                    return 1;
                },
                [&] {
                    stolen = true;
                    std::this_thread::sleep_for(1ms);
                    return 2;
                });
            return a + b;
        });
        BOOST_TEST(joined.get() == 3);
    }
}

namespace {
// Fault injection: the library's guarded stacks call ::mprotect, which this
// definition replaces for the whole program. While armed, making a page
// PROT_NONE fails as it does once vm.max_map_count mappings exist.
std::atomic<bool> fail_guard_pages{false};
} // namespace

extern "C" int mprotect(void* address, std::size_t length, int protection) noexcept
{
    // The allocator reserves stack and guard PROT_NONE, then makes the
    // stack (64 KiB here) writable: that split is what fails at the limit.
    if (protection == (PROT_READ | PROT_WRITE) && length == fj::pool_options().fiber_stack_size
        && fail_guard_pages.load()) {
        errno = ENOMEM;
        return -1;
    }
    return static_cast<int>(::syscall(SYS_mprotect, address, length, protection));
}

// protected_fixedsize_stack ignored a failed mprotect (with NDEBUG) and
// handed out the stack without its guard page. Now the allocation fails and
// the future says why; the pool goes on.
BOOST_AUTO_TEST_CASE_TEMPLATE(a_guard_page_that_cannot_be_made_fails_the_allocation, Policy, test::api_policies)
{
    fj::pool_options options = test::threads(1);
    options.fiber_guard_pages = true;
    test::pool<Policy> pool(options);
    std::atomic<bool> ran{false};
    fail_guard_pages = true;
    auto f = pool.spawn_future([&] {
        ran = true;
        return 1;
    });
    f.wait();
    fail_guard_pages = false;
    BOOST_CHECK_EXCEPTION(f.get(), std::system_error, [](std::system_error const& e) {
        return e.code() == std::errc::not_enough_memory
               && std::string(e.what()).find("guard page") != std::string::npos;
    });
    BOOST_TEST(!ran.load());
    BOOST_TEST(pool.spawn_future([] { return 2; }).get() == 2);
}

#if !defined(BOOST_FORKJOIN_ASAN) && !defined(BOOST_FORKJOIN_TSAN)
namespace {
struct mapping {
    std::uintptr_t start, end;
    bool inaccessible;
};

std::vector<mapping> read_mappings()
{
    std::vector<mapping> maps;
    std::ifstream in("/proc/self/maps");
    std::string line;
    while (std::getline(in, line)) {
        mapping m{};
        char dash = 0;
        std::string perms;
        std::istringstream fields(line);
        fields >> std::hex >> m.start >> dash >> m.end >> perms;
        m.inaccessible = perms.compare(0, 3, "---") == 0;
        maps.push_back(m);
    }
    return maps; // sorted by address, as the kernel lists them
}
} // namespace

// The real thing, once (the allocator does not depend on the policy): more
// guarded fibers parked at once than vm.max_map_count allows. Some
// allocations fail with the guard-page error; every fiber that got a stack
// has its guard page right below it; nothing crashes, and the pool recovers.
BOOST_AUTO_TEST_CASE(guarded_fibers_beyond_the_mapping_limit)
{
    std::size_t max_maps = 0;
    std::ifstream("/proc/sys/vm/max_map_count") >> max_maps;
    if (max_maps == 0 || max_maps > 70'000) {
        BOOST_TEST_MESSAGE("vm.max_map_count is " << max_maps << ": too large to reach in a test, skipped");
        return;
    }
    std::size_t const n = max_maps / 2 + 5'000; // two mappings per guarded stack
    std::vector<fj::promise<int>> promises(n);
    std::vector<fj::future<int>> futures;
    futures.reserve(n);
    std::unique_ptr<std::atomic<std::uintptr_t>[]> stack_addresses(new std::atomic<std::uintptr_t>[n]);
    std::atomic<std::size_t> started{0};
    fj::pool_options options = test::threads(2);
    options.fiber_guard_pages = true;
    test::pool<fj::sleep::jec> pool(options);
    for (std::size_t i = 0; i < n; ++i) {
        stack_addresses[i] = 0;
        futures.push_back(pool.spawn_future([&, i, pf = promises[i].get_future()]() mutable {
            char on_the_stack = 0;
            stack_addresses[i] = reinterpret_cast<std::uintptr_t>(&on_the_stack);
            ++started;
            return fj::await(pf);
        }));
    }
    // Each task either got a stack and parked, or failed and is complete.
    // (A generous watchdog, not a timing check.)
    std::size_t failed = 0;
    bool settled = false;
    for (auto const give_up = std::chrono::steady_clock::now() + 120s;
         !settled && std::chrono::steady_clock::now() < give_up; std::this_thread::sleep_for(1ms)) {
        failed = static_cast<std::size_t>(std::count_if(futures.begin(), futures.end(), [](auto& f) { return f.poll(); }));
        settled = started.load() + failed == n;
    }
    BOOST_TEST(settled);
    std::vector<mapping> const maps = read_mappings();
    std::size_t unguarded = 0;
    for (std::size_t i = 0; i < n; ++i) {
        std::uintptr_t const address = stack_addresses[i].load();
        if (address == 0)
            continue;
        auto const it = std::upper_bound(maps.begin(), maps.end(), address,
                                         [](std::uintptr_t a, mapping const& m) { return a < m.end; });
        bool const guarded = it != maps.end() && it != maps.begin() && it->start <= address
                             && std::prev(it)->end == it->start && std::prev(it)->inaccessible;
        unguarded += guarded ? 0 : 1;
    }
    for (std::size_t i = 0; i < n; ++i)
        promises[i].set_value(1);
    std::size_t values = 0, guard_errors = 0;
    for (auto& f : futures) {
        try {
            values += static_cast<std::size_t>(f.get());
        } catch (std::system_error const&) {
            ++guard_errors;
        }
    }
    BOOST_TEST_MESSAGE(n << " guarded fibers, vm.max_map_count " << max_maps << ": " << failed
                          << " could not get a stack");
    BOOST_TEST(failed > 0u);
    BOOST_TEST(guard_errors == failed);
    BOOST_TEST(values == n - failed);
    BOOST_TEST(unguarded == 0u);
    BOOST_TEST(pool.spawn_future([] { return 2; }).get() == 2);
}
#endif

// --- Out of memory (issue 13, item 7) -------------------------------------------

namespace {
// Fault injection: this program's operator new fails once on request, on
// the thread that asked, after `allocations_before_failure` successful
// allocations (-1: never).
thread_local long allocations_before_failure = -1;
} // namespace

void* operator new(std::size_t size)
{
    if (allocations_before_failure >= 0 && allocations_before_failure-- == 0)
        throw std::bad_alloc();
    if (void* const memory = std::malloc(size == 0 ? 1 : size))
        return memory;
    throw std::bad_alloc();
}

// Over-aligned objects (none in the paths tested today; for completeness).
void* operator new(std::size_t size, std::align_val_t alignment)
{
    if (allocations_before_failure >= 0 && allocations_before_failure-- == 0)
        throw std::bad_alloc();
    std::size_t const align = static_cast<std::size_t>(alignment);
    if (void* const memory = std::aligned_alloc(align, (size + align - 1) / align * align))
        return memory;
    throw std::bad_alloc();
}

void operator delete(void* memory) noexcept { std::free(memory); }
void operator delete(void* memory, std::size_t) noexcept { std::free(memory); }
void operator delete(void* memory, std::align_val_t) noexcept { std::free(memory); }
void operator delete(void* memory, std::size_t, std::align_val_t) noexcept { std::free(memory); }

// The injector's lock-free queue takes its nodes from Boost.Align, which
// calls posix_memalign.
extern "C" int posix_memalign(void** memory, std::size_t alignment, std::size_t size) noexcept
{
    if (allocations_before_failure >= 0 && allocations_before_failure-- == 0)
        return ENOMEM;
    void* const p = std::aligned_alloc(alignment, (size + alignment - 1) / alignment * alignment);
    if (p == nullptr)
        return ENOMEM;
    *memory = p;
    return 0;
}

// spawn_future's first run goes into a queue that may have to grow: the
// injector (from outside; it allocates once its preallocated nodes are in
// use) or the worker's deque (from a worker; it doubles when full). That
// push used to run in a noexcept function, so a failure terminated. Now
// spawn_future throws, the task is complete and cancelled (its callable
// destroyed, never run), and nothing else changes.
BOOST_AUTO_TEST_CASE_TEMPLATE(out_of_memory_in_spawn_future_throws_and_cancels, Policy, test::api_policies)
{
    constexpr std::size_t attempts = 5000;
    for (bool from_worker : {false, true}) {
        std::atomic<bool> blocking{false}, release{false}; // outlive the pool's jobs
        test::pool<Policy> pool(test::threads(1));
        std::unique_ptr<std::atomic<bool>[]> ran(new std::atomic<bool>[attempts]);
        std::unique_ptr<std::atomic<bool>[]> destroyed(new std::atomic<bool>[attempts]);
        for (std::size_t i = 0; i < attempts; ++i)
            ran[i] = destroyed[i] = false;
        std::vector<fj::future<int>> pending;
        pending.reserve(attempts);
        std::size_t failed_at = attempts;
        auto const spawn_until_a_push_fails = [&] {
            for (std::size_t i = 0; i < attempts && failed_at == attempts; ++i) {
                fj::future<int> f;
                // The task object may be allocated; the next allocation,
                // the queue's if it needs one, fails.
                allocations_before_failure = 1;
                try {
                    f = pool.spawn_future([&ran, i, guard = set_on_destruction(destroyed[i])] {
                        ran[i] = true;
                        return 1;
                    });
                } catch (std::bad_alloc const&) {
                    failed_at = i;
                }
                allocations_before_failure = -1;
                if (f.valid())
                    pending.push_back(std::move(f));
            }
        };
        if (from_worker) {
            pool.install(spawn_until_a_push_fails); // nothing runs meanwhile: the worker is busy here
        } else {
            pool.spawn([&] {
                blocking = true;
                spin_until([&] { return release.load(); });
            });
            spin_until([&] { return blocking.load(); });
            spawn_until_a_push_fails();
            release = true;
        }
        int sum = 0;
        for (auto& f : pending)
            sum += f.get();
        BOOST_TEST(sum == static_cast<int>(pending.size()));
        BOOST_TEST_REQUIRE(failed_at < attempts);
        BOOST_TEST(destroyed[failed_at].load());
        BOOST_TEST(!ran[failed_at].load());
    }
}

// A fiber parked on a promise resumes through its home's intrusive queue:
// set_value allocates nothing after the value is built, so out of memory
// cannot strike between publishing the value and waking the fiber (it used
// to: the unpark injected the fiber's job, and the injector allocates).
BOOST_AUTO_TEST_CASE_TEMPLATE(set_value_wakes_a_parked_fiber_without_allocating, Policy, test::api_policies)
{
    test::pool<Policy> pool(test::threads(1));
    fj::promise<int> p;
    std::atomic<bool> about_to_park{false};
    auto f = pool.spawn_future([&, pf = p.get_future()]() mutable {
        about_to_park = true;
        return fj::await(pf) + 1;
    });
    spin_until([&] { return about_to_park.load(); });
    // The only worker takes this job only once the fiber has parked.
    std::atomic<bool> blocking{false}, release{false};
    pool.spawn([&] {
        blocking = true;
        spin_until([&] { return release.load(); });
    });
    spin_until([&] { return blocking.load(); });
    // Use up the injector's preallocated nodes: an injection now allocates.
    std::vector<fj::future<int>> filler;
    for (int i = 0; i < 300; ++i)
        filler.push_back(pool.spawn_future([] { return 0; }));
    allocations_before_failure = 0; // the next allocation on this thread fails
    p.set_value(41);
    bool const allocated = allocations_before_failure != 0;
    allocations_before_failure = -1;
    BOOST_TEST(!allocated);
    release = true;
    BOOST_TEST(f.get() == 42);
    for (auto& g : filler)
        BOOST_TEST(g.get() == 0);
}

namespace {
struct throws_on_copy {
    int value = 0;
    throws_on_copy() = default;
    explicit throws_on_copy(int v) : value(v) {}
    throws_on_copy(throws_on_copy const&) { throw std::runtime_error("copy"); }
    throws_on_copy(throws_on_copy&&) noexcept = default;
    throws_on_copy& operator=(throws_on_copy const&) = delete;
    throws_on_copy& operator=(throws_on_copy&&) = default;
};
} // namespace

// As std::promise: a value whose construction throws leaves the promise
// unsatisfied and its future not ready (it used to store the exception).
BOOST_AUTO_TEST_CASE(set_value_that_throws_leaves_the_promise_unchanged)
{
    fj::promise<throws_on_copy> p;
    auto f = p.get_future();
    throws_on_copy const original(7);
    BOOST_CHECK_THROW(p.set_value(original), std::runtime_error);
    BOOST_TEST(!f.poll());
    p.set_value(throws_on_copy(8));
    BOOST_TEST(f.get().value == 8);
    BOOST_CHECK_THROW(p.set_value(throws_on_copy(9)), std::future_error);
}

// --- Misuse: an empty future (issue 13, item 9) -----------------------------------

BOOST_AUTO_TEST_CASE(poll_on_an_empty_future_throws)
{
    fj::future<int> empty;
    auto const no_state = [](std::future_error const& e) {
        return e.code() == std::make_error_code(std::future_errc::no_state);
    };
    BOOST_CHECK_EXCEPTION((void)empty.poll(), std::future_error, no_state);
    BOOST_CHECK_EXCEPTION(empty.wait(), std::future_error, no_state);
    BOOST_CHECK_EXCEPTION(empty.get(), std::future_error, no_state);
    empty.cancel(); // nothing to cancel: allowed
}

// --- Callables whose destructor may throw (issue 13, item 13) ---------------------

namespace {
// Throws from its destructor when asked; a moved-from one never does.
struct throwing_destructor {
    bool armed;
    explicit throwing_destructor(bool throw_when_destroyed) : armed(throw_when_destroyed) {}
    throwing_destructor(throwing_destructor&& other) noexcept : armed(std::exchange(other.armed, false)) {}
    throwing_destructor& operator=(throwing_destructor&&) = delete;
    ~throwing_destructor() noexcept(false)
    {
        if (armed)
            throw std::runtime_error("destructor");
    }
};
} // namespace

// clang rejected these (the task's destructor overrode a noexcept one with a
// laxer specification); an exception from the callable's destructor becomes
// the future's.
BOOST_AUTO_TEST_CASE_TEMPLATE(callables_whose_destructor_may_throw, Policy, test::api_policies)
{
    test::pool<Policy> pool(test::threads(2));
    BOOST_TEST(pool.spawn_future([t = throwing_destructor(false)] { return 1; }).get() == 1);
    BOOST_CHECK_EXCEPTION(pool.spawn_future([t = throwing_destructor(true)] { return 1; }).get(),
                          std::runtime_error,
                          [](std::runtime_error const& e) { return std::string(e.what()) == "destructor"; });
    int const from_scope = pool.install([] {
        return fj::scope([](fj::lifo_scope& s) {
            return s.spawn_future([t = throwing_destructor(false)] { return 2; }).get();
        });
    });
    BOOST_TEST(from_scope == 2);
}

// --- fork() ----------------------------------------------------------------------

// In a child forked while futures are pending, their tasks belong to pools
// that have no threads there: waiting for one is a clear error at once, not
// a hang; a future that was ready before the fork still gives its result;
// cancelling, dropping, or completing a promise that a parent's fiber waits
// on touches nothing of the parent's pool (its locks may be held by threads
// that do not exist in the child). The parent's futures are unaffected.
//
// Not under TSan: this process has threads (the global pool, built by
// earlier tests) when it forks, and TSan ends a child of a threaded process
// that starts a thread.
#if !defined(BOOST_FORKJOIN_TSAN)
BOOST_AUTO_TEST_CASE_TEMPLATE(futures_in_a_forked_child, Policy, test::api_policies)
{
    test::child_result const r = test::run_in_child([] {
        test::pool<Policy> pool(test::threads(2));
        fj::promise<int> input;
        fj::future<int> waiting = pool.spawn_future([f = input.get_future()]() mutable { return fj::await(f) + 1; });
        fj::future<int> ready = pool.spawn_future([] { return 7; });
        spin_until([&] { return ready.poll(); });
        std::this_thread::sleep_for(50ms); // the fiber parks, the workers fall asleep
        test::child_result const child = test::run_in_child([&] {
            test::child_require(ready.get() == 7, "a future ready before the fork gives its value");
            test::child_require(!waiting.poll(), "poll in the child");
            test::child_require(test::refused_after_fork([&] { waiting.wait(); }), "wait in the child");
            test::child_require(test::refused_after_fork([&] { (void)waiting.get(); }), "get in the child");
            test::child_require(waiting.valid(), "a failed get leaves the future valid");
            // A worker of a pool built in the child waits for it: the same error.
            test::pool<Policy> child_pool(test::threads(2));
            test::child_require(child_pool.install([&] { return test::refused_after_fork([&] { waiting.wait(); }); }),
                                "wait on a worker of the child's own pool");
            input.set_value(1); // the parked fiber's unpark must not reach its pool
            waiting.cancel();
            waiting = fj::future<int>(); // dropped
            // Returning ends the child with _Exit: the parent's threads, and
            // what only they referred to, are gone here, which LeakSanitizer
            // would report at a normal exit.
        }, 20s);
        test::child_require(!child.timed_out, "the forked child hung");
        if (!child.succeeded())
            std::fprintf(stderr, "%s\n", child.output.c_str());
        test::child_require(child.succeeded(), "the forked child failed");
        input.set_value(41);
        test::child_require(waiting.get() == 42, "the parent's future");
    });
    BOOST_TEST(r.succeeded(), r);
}
#endif

// A use_current_thread pool's worker 0 is this thread, which goes on after
// the pool: the pool's destructor frees the fiber stacks cached here, so a
// later pool on this thread starts with an empty cache and its own settings.
// A spawn_handler's thread goes on after run() returns: the stacks it
// cached as a worker are freed then, not when the thread ends.
BOOST_AUTO_TEST_CASE_TEMPLATE(a_spawn_handlers_thread_keeps_no_stacks_after_run, Policy, test::api_policies)
{
    std::mutex mutex;
    std::size_t cached_at_exit_handlers = 0; // what the workers held as they stopped
    std::vector<std::size_t> cached_after_run;
    std::vector<std::thread> threads;
    {
        fj::pool_options options = test::threads(2);
        options.exit_handler = [&](std::size_t) {
            std::lock_guard const lock(mutex);
            cached_at_exit_handlers += fj::detail::this_thread_stacks().cached();
        };
        options.spawn_handler = [&](fj::thread_builder builder) {
            threads.emplace_back([&mutex, &cached_after_run, worker = std::move(builder)]() mutable {
                worker.run();
                std::lock_guard const lock(mutex);
                cached_after_run.push_back(fj::detail::this_thread_stacks().cached());
            });
        };
        test::pool<Policy> pool(options);
        for (int i = 0; i < 20; ++i)
            BOOST_TEST(pool.spawn_future([i] { return i; }).get() == i);
    }
    for (std::thread& t : threads)
        t.join();
    BOOST_TEST(cached_at_exit_handlers > 0u);
    std::vector<std::size_t> const none{0, 0};
    BOOST_TEST(cached_after_run == none, boost::test_tools::per_element());
}

BOOST_AUTO_TEST_CASE_TEMPLATE(a_use_current_thread_pool_frees_the_stacks_it_cached_here, Policy, test::api_policies)
{
    auto const& stacks = fj::detail::this_thread_stacks();
    BOOST_TEST(stacks.cached() == 0u);
    for (std::size_t const stack_size : {std::size_t{64} << 10, std::size_t{128} << 10}) {
        {
            fj::pool_options options = test::threads(1);
            options.use_current_thread = true;
            options.fiber_stack_size = stack_size;
            test::pool<Policy> pool(options);
            for (int i = 0; i < 10; ++i)
                BOOST_TEST(pool.spawn_future([i] { return i; }).get() == i);
            BOOST_TEST(stacks.cached() > 0u); // this pool's stacks, kept here
        }
        BOOST_TEST(stacks.cached() == 0u);
    }
}

// pool_options::caller_slot: a fiber resumes on the thread that started it,
// and the caller that holds worker 0's place leaves it when its install
// returns. So worker 0 starts no fiber: a future task spawned by the holder
// (or stolen by it) starts on a thread of the pool, which parks it and
// resumes it after the holder has gone. This thread caches no stack: it ran
// no fiber.
BOOST_AUTO_TEST_CASE_TEMPLATE(a_caller_slot_holder_starts_no_fiber, Policy, test::api_policies)
{
    auto const& stacks = fj::detail::this_thread_stacks();
    BOOST_TEST(stacks.cached() == 0u);
    fj::pool_options options = test::threads(2);
    options.caller_slot = true;
    test::pool<Policy> pool(options);
    auto const me = std::this_thread::get_id();
    constexpr int tasks = 50;
    std::vector<fj::promise<int>> promises(tasks);
    std::vector<fj::future<std::pair<int, bool>>> parked;
    long const done_inside = pool.install([&] {
        BOOST_TEST((fj::current_thread_index() == std::optional<std::size_t>(0)));
        for (int i = 0; i < tasks; ++i)
            parked.push_back(pool.spawn_future([i, pf = promises[static_cast<std::size_t>(i)].get_future()]() mutable {
                bool const on_worker_1 = fj::current_thread_index() == std::optional<std::size_t>(1);
                return std::pair(fj::await(pf) + i, on_worker_1 && fj::current_thread_index() == 1u);
            }));
        // The holder waits for a task as worker 0, running other jobs.
        long sum = 0;
        for (int i = 0; i < tasks; ++i)
            sum += pool.spawn_future([i] { return fj::current_thread_index() == 1u ? i : -1000; }).get();
        return sum;
    });
    BOOST_TEST(done_inside == tasks * (tasks - 1) / 2);
    for (int i = 0; i < tasks; ++i)
        promises[static_cast<std::size_t>(i)].set_value(1000);
    for (int i = 0; i < tasks; ++i) {
        auto const [value, on_worker_1] = parked[static_cast<std::size_t>(i)].get();
        BOOST_TEST(value == 1000 + i);
        BOOST_TEST(on_worker_1);
    }
    BOOST_TEST(stacks.cached() == 0u);
    BOOST_TEST(std::this_thread::get_id() == me);
}

// pool_options::caller_slot, with the place free: worker 0's share of a
// broadcast runs on a thread of the pool, as that thread's own worker. A
// share that waits for a future task starts the task's fiber there and
// runs it in its wait. When the thread wore worker 0's identity for the
// share, the task went (worker 0 starts no fiber) to worker 1's resume
// queue, which only worker 1 pops, and nobody was worker 1 meanwhile: with
// two threads this hung every run.
BOOST_AUTO_TEST_CASE_TEMPLATE(a_broadcast_share_waits_for_a_future_with_the_place_free, Policy, test::api_policies)
{
    test::watchdog const hang_guard("a_broadcast_share_waits_for_a_future_with_the_place_free");
    fj::pool_options options = test::threads(2);
    options.caller_slot = true;
    test::pool<Policy> pool(options);
    for (int round = 0; round < 20; ++round) {
        auto const results =
            pool.broadcast([&](fj::broadcast_context c) { return pool.spawn_future([c] { return c.index(); }).get(); });
        BOOST_TEST((results == std::vector<std::size_t>{0, 1}));
    }
}
