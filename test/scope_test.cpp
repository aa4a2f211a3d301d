// Copyright 2026 The Boost.ForkJoin developers.
// Distributed under the Boost Software License, Version 1.0.
// (See accompanying file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)

#define BOOST_TEST_MODULE scope
#include <boost/test/unit_test.hpp>

#include "channel.hpp"
#include "policies.hpp"
#include "quick_sort.hpp"
#include "spawn_order.hpp"
#include "watchdog.hpp"

#include <algorithm>
#include <atomic>
#include <barrier>
#include <chrono>
#include <cstdlib>
#include <memory>
#include <mutex>
#include <random>
#include <span>
#include <stdexcept>
#include <thread>
#include <type_traits>
#include <utility>
#include <vector>

namespace fj = boost::forkjoin;

BOOST_AUTO_TEST_CASE_TEMPLATE(ten_thousand_spawns_all_finish_before_the_scope_returns, Policy, test::api_policies)
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

BOOST_AUTO_TEST_CASE_TEMPLATE(spawns_can_spawn_and_the_scope_waits_for_all, Policy, test::api_policies)
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

BOOST_AUTO_TEST_CASE_TEMPLATE(scope_returns_the_body_result, Policy, test::api_policies)
{
    test::pool<Policy> pool(test::threads(2));
    int const r = pool.install([] { return fj::scope([](fj::lifo_scope&) { return 7; }); });
    BOOST_TEST(r == 7);
}

BOOST_AUTO_TEST_CASE_TEMPLATE(scope_fifo_runs_one_threads_spawns_in_order, Policy, test::api_policies)
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

BOOST_AUTO_TEST_CASE_TEMPLATE(lifo_scope_on_one_thread_runs_newest_first, Policy, test::api_policies)
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

BOOST_AUTO_TEST_CASE_TEMPLATE(in_place_scope_runs_the_body_on_the_caller, Policy, test::api_policies)
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

BOOST_AUTO_TEST_CASE_TEMPLATE(exception_in_a_spawned_job_is_rethrown_after_all_finish, Policy, test::api_policies)
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

BOOST_AUTO_TEST_CASE_TEMPLATE(exception_in_the_body_waits_for_the_jobs, Policy, test::api_policies)
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
BOOST_AUTO_TEST_CASE_TEMPLATE(spawned_closures_are_destroyed_before_the_scope_returns, Policy, test::api_policies)
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

// --- Ported from rayon-core 1.10.1, src/scope/test.rs -------------------------
// Each runs inside a pool of every policy (rayon's use the global pool).
// scope_result, panic_propagate_scope and panic_propagate_spawn are the cases
// above (scope_returns_the_body_result, exception_in_the_body_waits_for_the_jobs,
// exception_in_a_spawned_job_is_rethrown_after_all_finish). static_scope(_fifo)
// and mixed_lifetime_scope(_fifo) check Rust lifetimes, which C++ has not.

namespace {
struct hello : std::runtime_error {
    hello() : std::runtime_error("Hello, world!") {}
};
} // namespace

// rayon: scope_empty.
BOOST_AUTO_TEST_CASE_TEMPLATE(scope_empty, Policy, test::api_policies)
{
    test::pool<Policy> pool(test::threads(2));
    pool.install([] { fj::scope([](fj::lifo_scope&) {}); });
    BOOST_TEST(true);
}

// rayon: scope_two.
BOOST_AUTO_TEST_CASE_TEMPLATE(scope_two, Policy, test::api_policies)
{
    test::pool<Policy> pool(test::threads(2));
    std::atomic<int> counter{0};
    pool.install([&] {
        fj::scope([&](fj::lifo_scope& s) {
            s.spawn([&] { counter += 1; });
            s.spawn([&] { counter += 10; });
        });
    });
    BOOST_TEST(counter.load() == 11);
}

namespace {
void divide_and_conquer(fj::lifo_scope& s, std::atomic<int>& counter, int size)
{
    if (size > 1) {
        s.spawn([&counter, size](fj::lifo_scope& inner) { divide_and_conquer(inner, counter, size / 2); });
        s.spawn([&counter, size](fj::lifo_scope& inner) { divide_and_conquer(inner, counter, size / 2); });
    } else {
        ++counter; // count the leaves
    }
}
} // namespace

// rayon: scope_divide_and_conquer.
BOOST_AUTO_TEST_CASE_TEMPLATE(scope_divide_and_conquer, Policy, test::api_policies)
{
    test::pool<Policy> pool(test::threads(3));
    std::atomic<int> counter{0};
    pool.install([&] {
        fj::scope([&](fj::lifo_scope& s) {
            s.spawn([&](fj::lifo_scope& inner) { divide_and_conquer(inner, counter, 1024); });
        });
    });
    BOOST_TEST(counter.load() == 1024);
}

namespace {
struct tree {
    unsigned value;
    std::vector<tree> children;

    void collect(std::vector<unsigned>& out) const
    {
        out.push_back(value);
        for (tree const& child : children)
            child.collect(out);
    }

    // Each node's children are spawned by a job, while the node's own value
    // is updated in place (rayon's update_in_scope).
    template <class Op>
    void update_in_scope(Op const& op, fj::lifo_scope& s)
    {
        s.spawn([this, &op](fj::lifo_scope& inner) {
            for (tree& child : children)
                inner.spawn([&child, &op](fj::lifo_scope& innermost) { child.update_in_scope(op, innermost); });
        });
        op(value);
    }
};

tree random_tree(int depth, std::mt19937& rng)
{
    tree t{static_cast<unsigned>(rng() % 1'000'000), {}};
    if (depth > 0) {
        unsigned const children = rng() % 4; // 0 to 3 children at each level
        for (unsigned i = 0; i < children; ++i)
            t.children.push_back(random_tree(depth - 1, rng));
    }
    return t;
}
} // namespace

// rayon: update_tree.
BOOST_AUTO_TEST_CASE_TEMPLATE(update_tree, Policy, test::api_policies)
{
    std::mt19937 rng(12345);
    tree t = random_tree(10, rng);
    std::vector<unsigned> before, after;
    t.collect(before);
    test::pool<Policy> pool(test::threads(3));
    pool.install([&] {
        auto const increment = [](unsigned& v) { ++v; };
        fj::scope([&](fj::lifo_scope& s) { t.update_in_scope(increment, s); });
    });
    t.collect(after);
    BOOST_REQUIRE(before.size() == after.size());
    for (std::size_t i = 0; i < before.size(); ++i)
        BOOST_TEST(before[i] + 1 == after[i]);
}

namespace {
// Records the largest distance between `bottom` and this frame, then spawns
// the next link of the chain.
void the_final_countdown(fj::lifo_scope& s, char const* bottom, std::atomic<std::ptrdiff_t>& max_depth, int n)
{
    char const top = 0;
    std::ptrdiff_t const depth = std::abs(bottom - &top);
    std::ptrdiff_t seen = max_depth.load();
    while (depth > seen && !max_depth.compare_exchange_weak(seen, depth)) {
    }
    if (n > 0)
        s.spawn([bottom, &max_depth, n](fj::lifo_scope& inner) { the_final_countdown(inner, bottom, max_depth, n - 1); });
}
} // namespace

// rayon: linear_stack_growth. A chain of jobs each spawning the next must not
// nest on the stack: 500 links use the stack 5 links do (rayon allows 10%).
BOOST_AUTO_TEST_CASE_TEMPLATE(linear_stack_growth, Policy, test::api_policies)
{
    test::pool<Policy> pool(test::threads(1));
    auto const [depth_5, depth_500] = pool.install([] {
        char const bottom = 0;
        std::atomic<std::ptrdiff_t> max_depth{0};
        fj::scope([&](fj::lifo_scope& s) { the_final_countdown(s, &bottom, max_depth, 5); });
        std::ptrdiff_t const d5 = max_depth.load();
        fj::scope([&](fj::lifo_scope& s) { the_final_countdown(s, &bottom, max_depth, 500); });
        return std::pair{d5, max_depth.load()};
    });
    double const ratio = static_cast<double>(depth_5) / static_cast<double>(depth_500);
    BOOST_TEST(ratio > 0.9);
    BOOST_TEST(ratio < 1.1);
}

// rayon: panic_propagate_nested_spawn.
BOOST_AUTO_TEST_CASE_TEMPLATE(panic_propagate_nested_spawn, Policy, test::api_policies)
{
    test::pool<Policy> pool(test::threads(2));
    BOOST_CHECK_THROW(pool.install([] {
        fj::scope([](fj::lifo_scope& s) {
            s.spawn([](fj::lifo_scope& s1) {
                s1.spawn([](fj::lifo_scope& s2) { s2.spawn([] { throw hello(); }); });
            });
        });
    }),
                      hello);
}

// rayon: panic_propagate_nested_scope_spawn.
BOOST_AUTO_TEST_CASE_TEMPLATE(panic_propagate_nested_scope_spawn, Policy, test::api_policies)
{
    test::pool<Policy> pool(test::threads(2));
    BOOST_CHECK_THROW(pool.install([] {
        fj::scope([](fj::lifo_scope& s) {
            s.spawn([] { fj::scope([](fj::lifo_scope& inner) { inner.spawn([] { throw hello(); }); }); });
        });
    }),
                      hello);
}

// rayon: panic_propagate_still_execute_1 to _4: an exception, from a job or
// from the body, does not stop the other jobs nor the rest of the body.
BOOST_AUTO_TEST_CASE_TEMPLATE(panic_propagate_still_execute, Policy, test::api_policies)
{
    test::pool<Policy> pool(test::threads(2));
    for (int variant = 1; variant <= 4; ++variant) {
        std::atomic<bool> x{false};
        BOOST_CHECK_THROW(pool.install([&] {
            fj::scope([&](fj::lifo_scope& s) {
                switch (variant) {
                case 1: // job A throws, job B still runs
                    s.spawn([] { throw hello(); });
                    s.spawn([&] { x = true; });
                    break;
                case 2: // the same, spawned the other way round
                    s.spawn([&] { x = true; });
                    s.spawn([] { throw hello(); });
                    break;
                case 3: // the body throws after spawning
                    s.spawn([&] { x = true; });
                    throw hello();
                case 4: // a job throws, the body goes on
                    s.spawn([] { throw hello(); });
                    x = true;
                    break;
                }
            });
        }),
                          hello);
        BOOST_TEST(x.load(), "variant " << variant);
    }
}

namespace {

// The two kinds of scope, as callables that run body(scope&) in a new one.
auto const lifo = [](auto&& body) { return fj::scope(body); };
auto const fifo = [](auto&& body) { return fj::scope_fifo(body); };

std::vector<int> counting(int from, int to, int step = 1)
{
    std::vector<int> v;
    for (int i = from; i != to; i += step)
        v.push_back(i);
    return v;
}

// rayon's test_order!: on a one-thread pool, 10 jobs each spawn 10 more into
// the same scope; the order in which the inner ones ran.
template <class Policy, class Scope>
std::vector<int> nested_spawn_order(Scope run_scope)
{
    test::pool<Policy> pool(test::threads(1));
    std::vector<int> order; // one worker: no lock needed
    pool.install([&] {
        run_scope([&](auto& s) {
            for (int i = 0; i < 10; ++i)
                s.spawn([&order, i](auto& inner) {
                    for (int j = 0; j < 10; ++j)
                        inner.spawn([&order, i, j] { order.push_back(i * 10 + j); });
                });
        });
    });
    return order;
}

// rayon's test_nested_order!: 10 jobs of the outer scope each run an inner
// scope of 10 jobs.
template <class Policy, class Outer, class Inner>
std::vector<int> nested_scope_order(Outer run_outer, Inner run_inner)
{
    test::pool<Policy> pool(test::threads(1));
    std::vector<int> order;
    pool.install([&] {
        run_outer([&](auto& s) {
            for (int i = 0; i < 10; ++i)
                s.spawn([&order, i, run_inner] {
                    run_inner([&order, i](auto& inner) {
                        for (int j = 0; j < 10; ++j)
                            inner.spawn([&order, i, j] { order.push_back(i * 10 + j); });
                    });
                });
        });
    });
    return order;
}

// rayon's test_mixed_order!: spawns into an outer scope (0..3) and an inner
// one (-1..-3), interleaved.
template <class Policy, class Outer, class Inner>
std::vector<int> mixed_scope_order(Outer run_outer, Inner run_inner)
{
    test::pool<Policy> pool(test::threads(1));
    std::vector<int> order;
    pool.install([&] {
        run_outer([&](auto& outer) {
            auto push = [&order](auto& s, int value) { s.spawn([&order, value] { order.push_back(value); }); };
            push(outer, 0);
            run_inner([&](auto& inner) {
                push(inner, -1);
                push(outer, 1);
                push(inner, -2);
                push(outer, 2);
                push(inner, -3);
            });
            push(outer, 3);
        });
    });
    return order;
}

} // namespace

// rayon: lifo_order. Without stealing, a scope runs its jobs newest first.
BOOST_AUTO_TEST_CASE_TEMPLATE(lifo_order, Policy, test::api_policies)
{
    BOOST_TEST(nested_spawn_order<Policy>(lifo) == counting(99, -1, -1));
}

// rayon: fifo_order. Without stealing, a fifo scope runs its jobs oldest first.
BOOST_AUTO_TEST_CASE_TEMPLATE(fifo_order, Policy, test::api_policies)
{
    BOOST_TEST(nested_spawn_order<Policy>(fifo) == counting(0, 100));
}

// rayon: nested_lifo_order, nested_fifo_order, nested_lifo_fifo_order,
// nested_fifo_lifo_order.
BOOST_AUTO_TEST_CASE_TEMPLATE(nested_scope_orders, Policy, test::api_policies)
{
    BOOST_TEST(nested_scope_order<Policy>(lifo, lifo) == counting(99, -1, -1));
    BOOST_TEST(nested_scope_order<Policy>(fifo, fifo) == counting(0, 100));
    BOOST_TEST(nested_scope_order<Policy>(lifo, fifo) == test::tens_then_units(true, false));
    BOOST_TEST(nested_scope_order<Policy>(fifo, lifo) == test::tens_then_units(false, true));
}

// rayon: mixed_lifo_order, mixed_fifo_order, mixed_lifo_fifo_order,
// mixed_fifo_lifo_order. The end of the inner scope runs some of the outer
// scope's jobs before all are spawned, hence the interleaving.
BOOST_AUTO_TEST_CASE_TEMPLATE(mixed_scope_orders, Policy, test::api_policies)
{
    BOOST_TEST(mixed_scope_order<Policy>(lifo, lifo) == (std::vector<int>{-3, 2, -2, 1, -1, 3, 0}));
    BOOST_TEST(mixed_scope_order<Policy>(fifo, fifo) == (std::vector<int>{-1, 0, -2, 1, -3, 2, 3}));
    BOOST_TEST(mixed_scope_order<Policy>(lifo, fifo) == (std::vector<int>{-1, 2, -2, 1, -3, 3, 0}));
    BOOST_TEST(mixed_scope_order<Policy>(fifo, lifo) == (std::vector<int>{-3, 0, -2, 1, -1, 2, 3}));
}

namespace {
// The sum of the broadcast indices one spawn_broadcast reports: n(n-1)/2.
std::size_t triangle(std::size_t n) { return n * (n - 1) / 2; }
} // namespace

// rayon: scope_spawn_broadcast, scope_fifo_spawn_broadcast.
BOOST_AUTO_TEST_CASE_TEMPLATE(scope_spawn_broadcast, Policy, test::api_policies)
{
    test::pool<Policy> pool(test::threads(3));
    for (bool use_fifo : {false, true}) {
        std::atomic<std::size_t> sum{0};
        auto body = [&](auto& s) {
            s.spawn_broadcast([&](fj::broadcast_context ctx) { sum += ctx.index(); });
            return fj::current_num_threads();
        };
        std::size_t const n = pool.install([&] { return use_fifo ? fj::scope_fifo(body) : fj::scope(body); });
        BOOST_TEST(n == 3u);
        BOOST_TEST(sum.load() == triangle(n));
    }
}

// rayon: scope_spawn_broadcast_nested. Each worker's job broadcasts again.
BOOST_AUTO_TEST_CASE_TEMPLATE(scope_spawn_broadcast_nested, Policy, test::api_policies)
{
    test::pool<Policy> pool(test::threads(3));
    std::atomic<std::size_t> sum{0};
    std::size_t const n = pool.scope([&](fj::lifo_scope& s) {
        s.spawn_broadcast([&](fj::lifo_scope& inner, fj::broadcast_context) {
            inner.spawn_broadcast([&](fj::broadcast_context ctx) { sum += ctx.index(); });
        });
        return fj::current_num_threads();
    });
    BOOST_TEST(sum.load() == n * triangle(n));
}

// rayon: scope_spawn_broadcast_barrier. The body, on a thread outside the
// pool, meets all 7 workers at a barrier: they run while the body runs.
BOOST_AUTO_TEST_CASE_TEMPLATE(scope_spawn_broadcast_barrier, Policy, test::api_policies)
{
    test::watchdog const hang_guard("scope_spawn_broadcast_barrier");
    std::barrier<> barrier(8);
    test::pool<Policy> pool(test::threads(7));
    pool.in_place_scope([&](fj::lifo_scope& s) {
        s.spawn_broadcast([&](fj::broadcast_context) { barrier.arrive_and_wait(); });
        barrier.arrive_and_wait();
    });
    BOOST_TEST(true);
}

// In an exit_handler the pool's other workers have left their loops: a
// scope's spawn_broadcast there is refused with pool_terminated, as the
// pool's own spawn_broadcast is, instead of queueing jobs that nobody will
// run (the scope waited for them for ever before).
BOOST_AUTO_TEST_CASE_TEMPLATE(scope_spawn_broadcast_in_an_exit_handler_throws_pool_terminated, Policy,
                              test::api_policies)
{
    test::watchdog const hang_guard("scope_spawn_broadcast_in_an_exit_handler");
    std::atomic<int> refused{0}, ran{0};
    fj::pool_options options = test::threads(2);
    options.exit_handler = [&](std::size_t index) {
        if (index != 0)
            return;
        try {
            fj::in_place_scope([&](fj::lifo_scope& s) { s.spawn_broadcast([&](fj::broadcast_context) { ++ran; }); });
        } catch (fj::pool_terminated const&) {
            ++refused;
        }
    };
    { test::pool<Policy> pool(options); }
    BOOST_TEST(refused.load() == 1);
    BOOST_TEST(ran.load() == 0);
}

// rayon: scope_spawn_broadcast_panic_one, scope_spawn_broadcast_panic_many.
BOOST_AUTO_TEST_CASE_TEMPLATE(scope_spawn_broadcast_panic, Policy, test::api_policies)
{
    test::pool<Policy> pool(test::threads(7));
    for (bool many : {false, true}) {
        std::atomic<int> calls{0};
        BOOST_CHECK_THROW(pool.scope([&](fj::lifo_scope& s) {
            s.spawn_broadcast([&](fj::broadcast_context ctx) {
                ++calls;
                if (many ? ctx.index() % 2 == 0 : ctx.index() == 3)
                    throw hello();
            });
        }),
                          hello);
        BOOST_TEST(calls.load() == 7);
    }
}

// Regression (issue 10, bug 1) for spawn_broadcast: the function is
// destroyed before the scope can end.
BOOST_AUTO_TEST_CASE_TEMPLATE(spawn_broadcast_function_is_destroyed_before_the_scope_returns, Policy,
                              test::api_policies)
{
    test::pool<Policy> pool(test::threads(3));
    for (int round = 0; round < 5; ++round) {
        auto destroyed = std::make_unique<std::atomic<int>>(0);
        pool.scope([&](fj::lifo_scope& s) {
            s.spawn_broadcast([guard = writes_back_on_destruction(*destroyed)](fj::broadcast_context) {});
        });
        BOOST_TEST(destroyed->load() == 1);
    }
}

// --- Ported from rayon-core 1.10.1, tests/scope_join.rs ------------------------

namespace {
// join emulated with a scope.
template <class F, class G>
void pseudo_join(F f, G g)
{
    fj::scope([&](fj::lifo_scope& s) {
        s.spawn([&] { g(); });
        f();
    });
}

void quick_sort(std::span<int> v)
{
    test::quick_sort(v, [](auto&& a, auto&& b) { pseudo_join(a, b); });
}
} // namespace

// rayon: scope_join.
BOOST_AUTO_TEST_CASE_TEMPLATE(scope_join, Policy, test::api_policies)
{
    std::vector<int> v = counting(255, -1, -1);
    test::pool<Policy> pool(test::threads(2));
    pool.install([&] { quick_sort(std::span(v)); });
    BOOST_TEST(std::is_sorted(v.begin(), v.end()));
}

// --- Ported from rayon-core 1.10.1, src/thread_pool/test.rs: the scopes of a pool

// rayon: scope_lifo_order, scope_fifo_order (pool.scope, pool.scope_fifo).
BOOST_AUTO_TEST_CASE_TEMPLATE(pool_scope_order, Policy, test::api_policies)
{
    test::pool<Policy> pool(test::threads(1));
    for (bool use_fifo : {false, true}) {
        std::vector<int> order;
        pool.install([&] {
            auto body = [&](auto& s) {
                for (int i = 0; i < 10; ++i)
                    s.spawn([&order, i] { order.push_back(i); });
            };
            if (use_fifo)
                pool.scope_fifo(body);
            else
                pool.scope(body);
        });
        BOOST_TEST(order == (use_fifo ? counting(0, 10) : counting(9, -1, -1)));
    }
}

namespace {
// rayon's nested_scopes: a scope in each of `pools`, nested, then one job
// spawned into every one of them from the innermost.
template <class Pools, class Scopes>
void nest(Pools& pools, std::size_t next, Scopes& scopes, std::atomic<int>& counter)
{
    if (next == pools.size()) {
        for (auto* s : scopes)
            s->spawn([&counter] { ++counter; });
        return;
    }
    auto body = [&](auto& s) {
        scopes.push_back(&s);
        nest(pools, next + 1, scopes, counter);
    };
    if constexpr (std::is_same_v<typename Scopes::value_type, fj::fifo_scope*>)
        pools[next]->scope_fifo(body);
    else
        pools[next]->scope(body);
}
} // namespace

// rayon: nested_scopes, nested_fifo_scopes. Ten one-thread pools.
BOOST_AUTO_TEST_CASE_TEMPLATE(nested_scopes_of_ten_pools, Policy, test::api_policies)
{
    test::watchdog const hang_guard("nested_scopes_of_ten_pools");
    std::vector<std::unique_ptr<test::pool<Policy>>> pools;
    for (int i = 0; i < 10; ++i)
        pools.push_back(std::make_unique<test::pool<Policy>>(test::threads(1)));
    std::atomic<int> counter{0};
    std::vector<fj::lifo_scope*> lifo_scopes;
    nest(pools, 0, lifo_scopes, counter);
    BOOST_TEST(counter.load() == 10);
    std::vector<fj::fifo_scope*> fifo_scopes;
    nest(pools, 0, fifo_scopes, counter);
    BOOST_TEST(counter.load() == 20);
}

// rayon: in_place_scope_no_deadlock, in_place_scope_fifo_no_deadlock. The
// body runs here, not on the pool's only worker, which is free to run the
// job the body waits for.
BOOST_AUTO_TEST_CASE_TEMPLATE(in_place_scope_no_deadlock, Policy, test::api_policies)
{
    test::watchdog const hang_guard("in_place_scope_no_deadlock");
    test::pool<Policy> pool(test::threads(1));
    for (bool use_fifo : {false, true}) {
        test::channel<int> channel;
        auto body = [&](auto& s) {
            s.spawn([&] { channel.send(1); });
            channel.receive(1);
        };
        if (use_fifo)
            pool.in_place_scope_fifo(body);
        else
            pool.in_place_scope(body);
    }
    BOOST_TEST(true);
}

// pool.in_place_scope from a worker of another pool: the worker waits as a
// worker of its own pool, which may be the only one able to run what the
// scope's jobs wait for.
BOOST_AUTO_TEST_CASE_TEMPLATE(in_place_scope_from_another_pools_worker, Policy, test::api_policies)
{
    test::watchdog const hang_guard("in_place_scope_from_another_pools_worker");
    test::pool<Policy> pool1(test::threads(1));
    test::pool<Policy> pool2(test::threads(1));
    std::atomic<int> done{0};
    bool body_ran_here = false;
    pool1.install([&] {
        std::thread::id const outer = std::this_thread::get_id();
        pool2.in_place_scope_fifo([&](fj::fifo_scope& s) {
            body_ran_here = std::this_thread::get_id() == outer;
            for (int i = 0; i < 10; ++i)
                s.spawn([&] { pool1.install([&] { ++done; }); });
        });
    });
    BOOST_TEST(body_ran_here);
    BOOST_TEST(done.load() == 10);
}

// in_place_scope_fifo, free: the body runs on the caller, the jobs in order.
BOOST_AUTO_TEST_CASE_TEMPLATE(in_place_scope_fifo_runs_in_order, Policy, test::api_policies)
{
    test::pool<Policy> pool(test::threads(1));
    std::vector<int> order;
    pool.install([&] {
        fj::in_place_scope_fifo([&](fj::fifo_scope& s) {
            for (int i = 0; i < 10; ++i)
                s.spawn([&order, i] { order.push_back(i); });
        });
    });
    BOOST_TEST(order == counting(0, 10));
}
