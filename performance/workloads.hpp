// Copyright 2026 The Boost.ForkJoin developers.
// Distributed under the Boost Software License, Version 1.0.
// (See accompanying file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
#ifndef BOOST_FORKJOIN_PERFORMANCE_WORKLOADS_HPP
#define BOOST_FORKJOIN_PERFORMANCE_WORKLOADS_HPP

// The workloads of forkjoin_bench, each written once as a template over an
// executor (executors.hpp), and the registry that describes how to run and
// report them.
//
// Two layers:
//
//  * a *kernel* is code: a struct with a `name` and a `run(ex, ctx)`
//    template that prints one `rep key=value ...` line per repetition
//    (measure.hpp). Its Rust twin lives in rayon/src/main.rs under the same
//    name.
//  * a *workload* is a row of the report: a kernel plus the parameters it
//    runs with (full and --quick), the metric the table ranks by and the
//    extra columns. Two workloads may share a kernel (noop-spawn-1ms and
//    noop-spawn-10ms differ only in their period).
//
// Adding a workload: write the kernel here and in rayon/src/main.rs, append
// the kernel to `kernels`, append a row to `registry()`, give its parameters
// their ranges in `param_error()`, and document why it exists in README.md. Rows with an empty kernel are reserved: they show in
// --list and in the report, and are never run.

#include "algorithm_workloads.hpp"
#include "executors.hpp"
#include "futures_workloads.hpp"
#include "measure.hpp"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <memory>
#include <numbers>
#include <numeric>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <thread>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

namespace forkjoin_bench {

namespace detail {

// Keeps a computed value alive without letting the optimizer drop the
// computation that produced it.
template <class T>
inline void keep(T const& value)
{
    asm volatile("" : : "g"(&value) : "memory");
}

inline void sleep_until_ns(std::uint64_t t)
{
    std::this_thread::sleep_until(std::chrono::steady_clock::time_point(std::chrono::nanoseconds(t)));
}

inline void sleep_ms(std::uint64_t ms)
{
    std::this_thread::sleep_for(std::chrono::milliseconds(ms));
}

// State shared between the main thread and a detached job. Owned through a
// shared_ptr held by both, because the job still touches it (notify) after
// the main thread has seen its result and may have moved on.
struct handoff {
    std::atomic<std::uint64_t> started_at{0};

    void signal() noexcept
    {
        started_at.store(wall_ns(), std::memory_order_release);
        started_at.notify_one();
    }

    std::uint64_t wait() noexcept
    {
        std::uint64_t t;
        while ((t = started_at.load(std::memory_order_acquire)) == 0)
            started_at.wait(0, std::memory_order_acquire); // futex, not a spin
        return t;
    }
};

} // namespace detail

// ---------------------------------------------------------------------------
// fib: a join at every level, no cut-off. Pure join overhead.
// ---------------------------------------------------------------------------

// The empty asm makes n opaque to the optimizer at every call: without it
// GCC turns the serial twin's recursion into loops and folds most of it
// (fib(32) took 0.28 ms, 0.08 ns a call), and no "vs serial" ratio meant
// anything. It costs no instruction, and every row pays it alike.
template <class Ex>
std::uint64_t fib(Ex& ex, unsigned n)
{
    asm volatile("" : "+r"(n));
    if (n < 2)
        return n;
    auto [a, b] = ex.join([&ex, n] { return fib(ex, n - 1); }, [&ex, n] { return fib(ex, n - 2); });
    return a + b;
}

// fib(n) by a loop: what the `check` field of every fib run must say
// (workload::expected_check).
inline std::uint64_t fib_value(unsigned n)
{
    std::uint64_t a = 0, b = 1; // fib(0), fib(1)
    for (unsigned i = 0; i < n; ++i)
        a = std::exchange(b, a + b);
    return a;
}

// Number of join calls fib(n) makes: one per inner node, fib(n + 1) - 1.
inline std::uint64_t fib_joins(unsigned n)
{
    std::uint64_t a = 0, b = 1; // fib(0), fib(1)
    for (unsigned i = 0; i <= n; ++i)
        a = std::exchange(b, a + b);
    return a - 1;
}

struct fib_kernel {
    static constexpr std::string_view name = "fib";

    template <class Ex>
    static void run(Ex& ex, run_context const& ctx)
    {
        auto n = static_cast<unsigned>(ctx.args.get("n"));
        repeat(ctx, [&] {
            stopwatch sw;
            auto result = ex.install([&] { return fib(ex, n); });
            auto e = sw.stop();
            return fmt::format("wall_ns={} cpu_ns={} joins={} check={}", e.wall_ns, e.cpu_ns, fib_joins(n), result);
        });
    }
};

// ---------------------------------------------------------------------------
// increment-all: rayon-demo's join micro-benchmark, with a fixed leaf size.
// ---------------------------------------------------------------------------

template <class Ex>
void increment_all(Ex& ex, std::span<std::uint64_t> v, std::size_t grain)
{
    if (v.size() <= grain) {
        for (auto& x : v)
            ++x;
        return;
    }
    auto mid = v.size() / 2;
    ex.join([&] { increment_all(ex, v.first(mid), grain); }, [&] { increment_all(ex, v.subspan(mid), grain); });
}

inline std::uint64_t increment_joins(std::size_t len, std::size_t grain)
{
    return len <= grain ? 0 : 1 + increment_joins(len / 2, grain) + increment_joins(len - len / 2, grain);
}

struct increment_all_kernel {
    static constexpr std::string_view name = "increment-all";

    template <class Ex>
    static void run(Ex& ex, run_context const& ctx)
    {
        auto len = ctx.args.get("len");
        auto grain = ctx.args.get("grain");
        auto passes = ctx.args.get("passes");
        bool const inside = ctx.args.get("inside") != 0;
        std::vector<std::uint64_t> v(len, 0);
        std::uint64_t expected = 0;
        repeat(ctx, [&] {
            stopwatch sw;
            if (!inside) {
                // One install per pass: like rayon-demo's b.iter, every pass
                // is a fresh submission from the main thread, so the cost of
                // getting the workers going again is part of the measure.
                for (std::uint64_t p = 0; p < passes; ++p)
                    ex.install([&] { increment_all(ex, std::span(v), grain); });
            } else {
                // All passes inside one install: the same joins with no
                // thread outside the pool, so the difference between the two
                // rows is what the round trip from the main thread costs.
                ex.install([&] {
                    for (std::uint64_t p = 0; p < passes; ++p)
                        increment_all(ex, std::span(v), grain);
                });
            }
            auto e = sw.stop();
            expected += passes;
            for (auto x : v)
                if (x != expected)
                    throw std::logic_error("increment-all: wrong result");
            return fmt::format("wall_ns={} cpu_ns={} passes={} joins_per_pass={}", e.wall_ns, e.cpu_ns, passes,
                               increment_joins(len, grain));
        });
    }
};

// ---------------------------------------------------------------------------
// nbody: rayon-demo's tick_par_reduce. A parallel loop over the bodies, and
// inside it a parallel reduction over all bodies; both are recursive joins
// over index ranges. Compiled with -ffp-contract=off so that every
// implementation, the Rust one included, computes the same bits (the `check`
// column proves it).
// ---------------------------------------------------------------------------

namespace nbody {

struct vec3 {
    double x, y, z;

    friend vec3 operator+(vec3 a, vec3 b) noexcept { return {a.x + b.x, a.y + b.y, a.z + b.z}; }
    friend vec3 operator-(vec3 a, vec3 b) noexcept { return {a.x - b.x, a.y - b.y, a.z - b.z}; }
    friend vec3 operator*(vec3 a, double s) noexcept { return {a.x * s, a.y * s, a.z * s}; }
    friend vec3 operator/(vec3 a, double s) noexcept { return {a.x / s, a.y / s, a.z / s}; }
    friend bool operator==(vec3, vec3) = default;

    double magnitude2() const noexcept { return x * x + y * y + z * z; }
    double magnitude() const noexcept { return std::sqrt(magnitude2()); }
};

inline constexpr vec3 zero{0.0, 0.0, 0.0};

struct body {
    vec3 position, velocity, velocity2;
};

inline constexpr double initial_velocity = 8.0;

// rayon-demo's initial state, including its floor(): every body starts at the
// same point, so after the first tick they form one dense cluster and most
// pairs take the expensive interaction path.
inline std::vector<body> make_bodies(std::size_t n)
{
    splitmix64 rng(42);
    std::vector<body> bodies(n);
    for (auto& b : bodies) {
        b.position.x = std::floor(rng.next_f64()) * 40'000.0;
        b.position.y = std::floor(rng.next_f64()) * 20'000.0;
        b.position.z = (std::floor(rng.next_f64()) - 0.25) * 50'000.0;
        b.velocity.x = (rng.next_f64() - 0.5) * initial_velocity;
        b.velocity.y = (rng.next_f64() - 0.5) * initial_velocity;
        b.velocity.z = rng.next_f64() * initial_velocity + 10.0;
        b.velocity2.x = (rng.next_f64() - 0.5) * initial_velocity;
        b.velocity2.y = (rng.next_f64() - 0.5) * initial_velocity;
        b.velocity2.z = rng.next_f64() * initial_velocity;
    }
    return bodies;
}

struct zones {
    double zone_sqrd, repel, align, attract, attract_power;
};

struct pair_sum {
    vec3 diff, diff2;
};

// The fold body of rayon-demo's next_velocity_par. The sums live in locals,
// as in the Rust twin: accumulated in the returned pair_sum instead, GCC 12
// keeps them in the caller's return slot in memory, a load and a store per
// interacting pair, and the serial row took 5.1 ms a tick against 4.6.
inline pair_sum interact_serial(body const& prev, std::span<body const> bodies, zones const& z)
{
    constexpr double pi = std::numbers::pi;
    vec3 diff = zero, diff2 = zero;
    for (auto const& b : bodies) {
        vec3 r = b.position - prev.position;
        bool are_same = r == zero;
        double dist_sqrd = r.magnitude2();
        if (dist_sqrd < z.zone_sqrd && !are_same) {
            double length = std::sqrt(dist_sqrd);
            double percent = dist_sqrd / z.zone_sqrd;
            if (dist_sqrd < z.repel) {
                double f = (z.repel / percent - 1.0) * 0.025;
                vec3 normal = r / length * f;
                diff = diff + normal;
                diff2 = diff2 + normal;
            } else if (dist_sqrd < z.align) {
                double thresh_delta = z.align - z.repel;
                double adjusted_percent = (percent - z.repel) / thresh_delta;
                double q = (0.5 - std::cos(adjusted_percent * pi * 2.0) * 0.5 + 0.5) * 100.9;
                vec3 vel2 = b.velocity2 / b.velocity2.magnitude() * q;
                vec3 vel = prev.velocity / prev.velocity.magnitude() * q;
                diff = diff + vel2;
                diff2 = diff2 + vel;
            }
            if (dist_sqrd > z.attract) {
                double thresh_delta2 = 1.0 - z.attract;
                double adjusted_percent2 = (percent - z.attract) / thresh_delta2;
                double c = (1.0 - (std::cos(adjusted_percent2 * pi * 2.0) * 0.5 + 0.5)) * z.attract_power;
                vec3 d = r / length * c;
                diff = diff + d;
                diff2 = diff2 - d;
            }
        }
    }
    return {diff, diff2};
}

// The parallel reduction: recursive halving down to `grain` bodies. The tree
// shape depends only on the sizes, so the sum is the same on every run.
template <class Ex>
pair_sum interact(Ex& ex, body const& prev, std::span<body const> bodies, zones const& z, std::size_t grain)
{
    if (bodies.size() <= grain)
        return interact_serial(prev, bodies, z);
    auto mid = bodies.size() / 2;
    auto [a, b] = ex.join([&] { return interact(ex, prev, bodies.first(mid), z, grain); },
                          [&] { return interact(ex, prev, bodies.subspan(mid), z, grain); });
    return {a.diff + b.diff, a.diff2 + b.diff2};
}

// rayon-demo's next_velocity_par: returns (velocity, velocity2).
template <class Ex>
std::pair<vec3, vec3> next_velocity(Ex& ex, std::size_t tick, body const& prev, std::span<body const> bodies,
                                    std::size_t grain)
{
    double time = double(tick);
    vec3 center{std::cos(time / 22.0) * -4200.0, std::sin(time / 14.0) * 9200.0, std::sin(time / 27.0) * 6000.0};
    double max_distance = 3400.0;
    double pull_strength = 0.042;
    double zone = 400.0;
    double speed_limit = time < 500.0 ? 2000.0 : 0.2;
    double attract_power = time < 500.0 ? 100.9 : 20.9;
    zones z{3.0 * (zone * zone), 100.0, 300.0, 100.0, attract_power};

    vec3 acc = zero;
    vec3 acc2 = zero;
    vec3 dir_to_center = center - prev.position;
    double dist_to_center = dir_to_center.magnitude();
    if (dist_to_center > max_distance) {
        double velc = time < 200.0 ? 0.2 : (dist_to_center - max_distance) * pull_strength;
        acc = acc + dir_to_center / dist_to_center * velc;
    }

    auto [diff, diff2] = interact(ex, prev, bodies, z, grain);
    acc = acc + diff;
    acc2 = acc2 + diff2;

    if (time > 500.0) {
        if (acc.magnitude2() > speed_limit)
            acc = acc * 0.015;
        if (acc2.magnitude2() > speed_limit)
            acc2 = acc2 * 0.015;
    }
    vec3 next = prev.velocity + acc;
    vec3 next2 = prev.velocity2 + acc2;
    if (time < 500.0) {
        if (next2.magnitude2() > speed_limit)
            next2 = next2 * 0.15;
        if (next.magnitude2() > speed_limit)
            next = next * 0.15;
    }
    return {next, next2};
}

// The parallel loop over the output bodies, recursive halving down to
// `outer` bodies; out[0] is body number `first`.
template <class Ex>
void tick_range(Ex& ex, std::span<body> out, std::size_t first, std::span<body const> input, std::size_t tick,
                std::size_t outer, std::size_t inner)
{
    if (out.size() <= outer) {
        for (std::size_t i = 0; i < out.size(); ++i) {
            body const& prev = input[first + i];
            auto [vel, vel2] = next_velocity(ex, tick, prev, input, inner);
            out[i].velocity = vel;
            out[i].velocity2 = vel2;
            out[i].position = prev.position + (vel - vel2);
        }
        return;
    }
    auto mid = out.size() / 2;
    ex.join([&] { tick_range(ex, out.first(mid), first, input, tick, outer, inner); },
            [&] { tick_range(ex, out.subspan(mid), first + mid, input, tick, outer, inner); });
}

} // namespace nbody

struct nbody_kernel {
    static constexpr std::string_view name = "nbody";

    template <class Ex>
    static void run(Ex& ex, run_context const& ctx)
    {
        auto n = ctx.args.get("bodies");
        auto ticks = ctx.args.get("ticks");
        auto outer = ctx.args.get("outer_grain");
        auto inner = ctx.args.get("inner_grain");
        repeat(ctx, [&] {
            auto a = nbody::make_bodies(n);
            auto b = a;
            stopwatch sw;
            for (std::size_t t = 0; t < ticks; ++t) {
                auto& input = t % 2 == 0 ? a : b;
                auto& out = t % 2 == 0 ? b : a;
                // One submission per tick, as rayon-demo calls tick_par_reduce
                // from the main thread.
                ex.install([&] { nbody::tick_range(ex, std::span(out), 0, std::span<nbody::body const>(input), t, outer, inner); });
            }
            auto e = sw.stop();
            auto const& last = ticks % 2 == 1 ? b : a;
            double check = 0.0;
            for (auto const& body : last)
                check += body.position.x + body.position.y + body.position.z;
            return fmt::format("wall_ns={} cpu_ns={} ticks={} check={}", e.wall_ns, e.cpu_ns, ticks, check);
        });
    }
};

// ---------------------------------------------------------------------------
// quicksort: rayon-demo's quick_sort. Lomuto partition around the last
// element, join on the two sides, serial recursion below the cut-off.
// ---------------------------------------------------------------------------

inline std::size_t partition(std::span<std::uint32_t> v)
{
    std::size_t pivot = v.size() - 1;
    std::size_t i = 0;
    for (std::size_t j = 0; j < pivot; ++j) {
        if (v[j] <= v[pivot]) {
            std::swap(v[i], v[j]);
            ++i;
        }
    }
    std::swap(v[i], v[pivot]);
    return i;
}

inline void quick_sort_serial(std::span<std::uint32_t> v)
{
    if (v.size() <= 1)
        return;
    auto mid = partition(v);
    quick_sort_serial(v.first(mid));
    quick_sort_serial(v.subspan(mid));
}

template <class Ex>
void quick_sort(Ex& ex, std::span<std::uint32_t> v, std::size_t cutoff)
{
    if (v.size() <= cutoff)
        return quick_sort_serial(v);
    auto mid = partition(v);
    ex.join([&] { quick_sort(ex, v.first(mid), cutoff); }, [&] { quick_sort(ex, v.subspan(mid), cutoff); });
}

struct quicksort_kernel {
    static constexpr std::string_view name = "quicksort";

    template <class Ex>
    static void run(Ex& ex, run_context const& ctx)
    {
        auto len = ctx.args.get("len");
        auto cutoff = ctx.args.get("cutoff");
        using vec = std::vector<std::uint32_t>;
        vec const& input = kept<vec>(fmt::format("quicksort.input {}", len), [&] { return random_u32s(len, 7); });
        vec& v = kept<vec>(fmt::format("quicksort.v {}", len), [&] { return vec(len); });
        repeat(ctx, [&] {
            v = input;
            stopwatch sw;
            ex.install([&] { quick_sort(ex, std::span(v), cutoff); });
            auto e = sw.stop();
            if (!std::is_sorted(v.begin(), v.end()))
                throw std::logic_error("quicksort: not sorted");
            return fmt::format("wall_ns={} cpu_ns={}", e.wall_ns, e.cpu_ns);
        });
    }
};

// The idle-pool workloads submit from outside the pool; a main thread that is
// worker 0 has no outside to submit from.
inline constexpr std::string_view no_outside_spawn =
    "the main thread is worker 0: a spawn goes on its own deque, not into the pool from outside";

// ---------------------------------------------------------------------------
// noop-spawn: one tiny job every period_us for window_ms (rayon issue #642).
// ---------------------------------------------------------------------------

struct noop_spawn_kernel {
    static constexpr std::string_view name = "noop-spawn";

    template <class Ex>
    static void run(Ex& ex, run_context const& ctx)
    {
        if constexpr (Ex::spawn_mode == spawn_kind::own_deque) {
            skip(no_outside_spawn);
            return;
        }
        std::uint64_t period = ctx.args.get("period_us") * 1000;
        std::uint64_t window = ctx.args.get("window_ms") * 1'000'000;
        ex.install([] {}); // every worker has started before the window opens
        repeat(ctx, [&] {
            auto done = std::make_shared<std::atomic<std::uint64_t>>(0);
            stopwatch sw;
            std::uint64_t t0 = sw.started_at();
            std::uint64_t jobs = 0;
            for (;;) {
                std::uint64_t next = t0 + jobs * period;
                if (next >= t0 + window)
                    break;
                detail::sleep_until_ns(next);
                ex.spawn([done] { done->fetch_add(1, std::memory_order_release); });
                ++jobs;
            }
            detail::sleep_until_ns(t0 + window);
            auto e = sw.stop();
            while (done->load(std::memory_order_acquire) != jobs)
                std::this_thread::yield(); // a straggler; outside the window
            double pct = 100.0 * double(e.cpu_ns) / double(e.wall_ns);
            return fmt::format("wall_ns={} cpu_ns={} cpu_pct={:.3f} jobs={}", e.wall_ns, e.cpu_ns, pct, jobs);
        });
    }
};

// ---------------------------------------------------------------------------
// idle: process CPU during window_ms of idleness right after a burst of work.
// ---------------------------------------------------------------------------

struct idle_kernel {
    static constexpr std::string_view name = "idle";

    template <class Ex>
    static void run(Ex& ex, run_context const& ctx)
    {
        auto window = ctx.args.get("window_ms");
        auto burst_n = static_cast<unsigned>(ctx.args.get("burst_n"));
        repeat(ctx, [&] {
            auto r = ex.install([&] { return fib(ex, burst_n); });
            detail::keep(r);
            stopwatch sw;
            detail::sleep_ms(window);
            auto e = sw.stop();
            double pct = 100.0 * double(e.cpu_ns) / double(e.wall_ns);
            return fmt::format("wall_ns={} cpu_ns={} cpu_pct={:.3f}", e.wall_ns, e.cpu_ns, pct);
        });
    }
};

// ---------------------------------------------------------------------------
// wake-latency: spawn from the main thread into a pool whose workers have all
// fallen asleep; time from the call to the first instruction of the job.
// ---------------------------------------------------------------------------

struct wake_latency_kernel {
    static constexpr std::string_view name = "wake-latency";

    template <class Ex>
    static void run(Ex& ex, run_context const& ctx)
    {
        if constexpr (Ex::spawn_mode == spawn_kind::inline_call) {
            skip("no pool: a job runs inline on the caller");
        } else if constexpr (Ex::spawn_mode == spawn_kind::region) {
            skip("OpenMP cannot submit a job from outside a parallel region");
        } else if constexpr (Ex::spawn_mode == spawn_kind::own_deque) {
            skip(no_outside_spawn);
        } else {
            auto tries = ctx.args.get("tries");
            auto pause = ctx.args.get("sleep_ms");
            repeat(ctx, [&] {
                std::vector<std::uint64_t> lat;
                lat.reserve(tries);
                stopwatch sw;
                for (std::uint64_t i = 0; i < tries; ++i) {
                    detail::sleep_ms(pause); // long enough for every worker to fall asleep
                    auto h = std::make_shared<detail::handoff>();
                    std::uint64_t t0 = wall_ns();
                    ex.spawn([h] { h->signal(); });
                    lat.push_back(h->wait() - t0);
                }
                auto e = sw.stop();
                std::sort(lat.begin(), lat.end());
                return fmt::format("wall_ns={} cpu_ns={} p50_ns={} p99_ns={} max_ns={} tries={}", e.wall_ns, e.cpu_ns,
                                   percentile(lat, 50), percentile(lat, 99), percentile(lat, 100), tries);
            });
        }
    }
};

// ---------------------------------------------------------------------------
// wakeups: pool_stats() deltas per job injected into an all-asleep pool.
// ---------------------------------------------------------------------------

struct wakeups_kernel {
    static constexpr std::string_view name = "wakeups";

    template <class Ex>
    static void run(Ex& ex, run_context const& ctx)
    {
        if constexpr (!Ex::has_stats) {
            skip("no sleep/wake-up counters");
        } else if constexpr (Ex::spawn_mode == spawn_kind::own_deque) {
            skip(no_outside_spawn);
        } else {
            auto tries = ctx.args.get("tries");
            auto pause = ctx.args.get("sleep_ms");
            repeat(ctx, [&] {
                stopwatch sw;
                wake_stats s0 = ex.stats();
                for (std::uint64_t i = 0; i < tries; ++i) {
                    detail::sleep_ms(pause);
                    auto h = std::make_shared<detail::handoff>();
                    ex.spawn([h] { h->signal(); });
                    h->wait();
                }
                // Let the workers woken by the last job go back to sleep, so
                // its futile wake-ups are counted too.
                detail::sleep_ms(pause);
                wake_stats s1 = ex.stats();
                auto e = sw.stop();
                return fmt::format("wall_ns={} cpu_ns={} tries={} sleeps={} wakeups={} futile_wakeups={} injected={}",
                                   e.wall_ns, e.cpu_ns, tries, s1.sleeps - s0.sleeps, s1.wakeups - s0.wakeups,
                                   s1.futile_wakeups - s0.futile_wakeups, s1.injected - s0.injected);
            });
        }
    }
};

// ---------------------------------------------------------------------------
// Bursty work from a thread outside the pool (the main, GUI, game or request
// thread of an application): short parallel jobs submitted one after the
// other, each waited for. The cost of getting the workers going again and of
// telling the caller is the measure.
// ---------------------------------------------------------------------------

// install-roundtrip: an empty install from the main thread, timed one by one.
struct install_roundtrip_kernel {
    static constexpr std::string_view name = "install-roundtrip";

    template <class Ex>
    static void run(Ex& ex, run_context const& ctx)
    {
        auto rounds = ctx.args.get("rounds");
        ex.install([] {}); // every worker has started
        repeat(ctx, [&] {
            std::vector<std::uint64_t> lat;
            lat.reserve(rounds);
            stopwatch sw;
            for (std::uint64_t i = 0; i < rounds; ++i) {
                std::uint64_t const t0 = wall_ns();
                ex.install([] {});
                lat.push_back(wall_ns() - t0);
            }
            auto e = sw.stop();
            std::sort(lat.begin(), lat.end());
            return fmt::format("wall_ns={} cpu_ns={} rounds={} p50_ns={} p99_ns={}", e.wall_ns, e.cpu_ns, rounds,
                               percentile(lat, 50), percentile(lat, 99));
        });
    }
};

// tree-sum: the sum of a balanced binary tree with a join at every inner node
// (chili's benchmark: 1,023 nodes take about 2 us serially, so the install
// and the wake-ups around it are nearly all of the cost). The nodes sit in one
// vector in depth-first order, linked by pointers as a tree of boxes would be.
namespace tree {

struct node {
    std::uint64_t value;
    node const* left;
    node const* right;
};

// A complete tree of `count` = 2^k - 1 nodes, values 1..count in DFS order.
inline std::vector<node> make(std::uint64_t count)
{
    std::vector<node> nodes(count);
    std::uint64_t next = 0;
    auto build = [&](auto& self, std::uint64_t size) -> node const* {
        node& n = nodes[next];
        n.value = ++next;
        if (size == 1) {
            n.left = n.right = nullptr;
        } else {
            n.left = self(self, size / 2);
            n.right = self(self, size / 2);
        }
        return &n;
    };
    if (count == 0 || (count & (count + 1)) != 0)
        throw std::invalid_argument("tree-sum: nodes must be 2^k - 1, k > 0");
    build(build, count);
    return nodes;
}

template <class Ex>
std::uint64_t sum(Ex& ex, node const& n)
{
    if (n.left == nullptr)
        return n.value;
    auto [l, r] = ex.join([&] { return sum(ex, *n.left); }, [&] { return sum(ex, *n.right); });
    return n.value + l + r;
}

} // namespace tree

struct tree_sum_kernel {
    static constexpr std::string_view name = "tree-sum";

    template <class Ex>
    static void run(Ex& ex, run_context const& ctx)
    {
        auto count = ctx.args.get("nodes");
        auto sums = ctx.args.get("sums");
        std::vector<tree::node> const& nodes =
            kept<std::vector<tree::node>>(fmt::format("tree-sum.nodes {}", count), [&] { return tree::make(count); });
        std::uint64_t const expected = count * (count + 1) / 2;
        ex.install([] {});
        repeat(ctx, [&] {
            std::vector<std::uint64_t> lat;
            lat.reserve(sums);
            stopwatch sw;
            for (std::uint64_t i = 0; i < sums; ++i) {
                std::uint64_t const t0 = wall_ns();
                std::uint64_t const total = ex.install([&] { return tree::sum(ex, nodes.front()); });
                lat.push_back(wall_ns() - t0);
                if (total != expected)
                    throw std::logic_error("tree-sum: wrong sum");
            }
            auto e = sw.stop();
            std::sort(lat.begin(), lat.end());
            return fmt::format("wall_ns={} cpu_ns={} sums={} joins={} p50_ns={} p99_ns={}", e.wall_ns, e.cpu_ns, sums,
                               count / 2, percentile(lat, 50), percentile(lat, 99));
        });
    }
};

// frame-loop: rayon-demo life's play mode in spirit. Every period_us the main
// thread runs one parallel job (a join-split loop over an array, a fixed
// amount of integer work that takes about 2 ms serially) and sleeps until the
// next frame. The process CPU % over the window says what the pool burns
// between frames; the frame times say how fast it gets going.
//
// With `paired`, every other frame runs serially on the main thread instead,
// and the row reports what a pooled frame's period (from its start to the
// next frame's) costs in CPU above a serial frame's. The host can change the
// work's own speed by half from one second to the next (a virtual CPU shared
// with other guests), which moves the plain CPU % of a whole run by more than
// the pools' cost; neighbouring frames see the same host, so the difference
// keeps only what the pool adds: wake-ups, spinning, sleeping, stealing.
namespace frame {

// A few rounds of a 64-bit mixer per element: compute-bound, identical in
// Rust, and impossible to vectorise away across rounds.
//
// The rounds loop is unrolled by 4, as LLVM unrolls the Rust twin's: the
// row compares what the schedulers cost around the same work, so the work
// must cost the same in both languages. Without the pragma GCC 12's loop
// is 3% slower than rustc's (64 Ki elements x 13 rounds: 1.62 against 1.57
// ms, medians of 200 on the 2-vCPU EPYC VM; with it, 1.54-1.57 ms), and
// that 3% showed as the C++ rows' CPU % above Rayon's.
inline void work(std::span<std::uint64_t> v, std::uint64_t rounds) noexcept
{
    for (auto& x : v) {
        std::uint64_t z = x;
#pragma GCC unroll 4
        for (std::uint64_t r = 0; r < rounds; ++r) {
            z += 0x9E3779B97F4A7C15u;
            z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9u;
            z = (z ^ (z >> 27)) * 0x94D049BB133111EBu;
            z ^= z >> 31;
        }
        x = z;
    }
}

// With `leaf_ns`, each leaf adds its thread's CPU time to it: the paired row
// takes the leaves out of a frame's CPU to see what the scheduler burns
// around them. The thread's CPU clock, not the wall clock, though reading it
// is a system call (128 a frame, about 65 us of the frame's 2 ms on the
// reference VM): two workers the kernel put on one CPU both see the wall
// clock run while only one of them works. The reads cost as much in a
// serial frame as in a pooled one, so the difference the row reports keeps
// none of it.
template <class Ex>
void split(Ex& ex, std::span<std::uint64_t> v, std::size_t grain, std::uint64_t rounds,
           std::atomic<std::uint64_t>* leaf_ns)
{
    if (v.size() <= grain) {
        if (!leaf_ns)
            return work(v, rounds);
        std::uint64_t const start = thread_cpu_ns();
        work(v, rounds);
        // relaxed: a sum read by the main thread after the frame's join,
        // which already orders every leaf before it.
        leaf_ns->fetch_add(thread_cpu_ns() - start, std::memory_order_relaxed);
        return;
    }
    auto mid = v.size() / 2;
    ex.join([&] { split(ex, v.first(mid), grain, rounds, leaf_ns); },
            [&] { split(ex, v.subspan(mid), grain, rounds, leaf_ns); });
}

} // namespace frame

struct frame_loop_kernel {
    static constexpr std::string_view name = "frame-loop";

    template <class Ex>
    static void run(Ex& ex, run_context const& ctx)
    {
        std::uint64_t const period = ctx.args.get("period_us") * 1000;
        std::uint64_t const window = ctx.args.get("window_ms") * 1'000'000;
        auto const len = ctx.args.get("len");
        auto const grain = ctx.args.get("grain");
        auto const rounds = ctx.args.get("rounds");
        bool const paired = ctx.args.get("paired") != 0;
        std::vector<std::uint64_t> v(len);
        ex.install([] {});
        repeat(ctx, [&] {
            std::iota(v.begin(), v.end(), std::uint64_t{0});
            std::vector<std::uint64_t> frames;
            // paired: the CPU of the pooled frames' periods and of the serial
            // ones', and the same without the leaves' time; a period runs
            // from its frame's start to the next's.
            std::uint64_t pooled_cpu = 0, pooled_periods = 0, serial_cpu = 0, serial_periods = 0;
            // Signed: a period's CPU and its leaves' are read from different
            // clocks, and nothing but their rounding orders the two.
            std::int64_t pooled_outside = 0, serial_outside = 0;
            std::uint64_t period_start_cpu = 0, period_start_leaves = 0;
            std::atomic<std::uint64_t> leaf_ns{0};
            std::atomic<std::uint64_t>* const leaves = paired ? &leaf_ns : nullptr;
            serial_executor serial(1); // the paired row's serial frames: the same split on the main thread
            stopwatch sw;
            std::uint64_t const t0 = sw.started_at();
            std::uint64_t frame_index = 0;
            for (std::uint64_t next = t0; next < t0 + window; next += period, ++frame_index) {
                detail::sleep_until_ns(next);
                bool const pooled = !paired || frame_index % 2 == 1;
                if (paired) {
                    std::uint64_t const cpu = process_cpu_ns();
                    // Relaxed: the last frame's join ordered its leaves' adds
                    // before this load (see frame::split).
                    std::uint64_t const in_leaves = leaf_ns.load(std::memory_order_relaxed);
                    // The period that ends here is the previous frame's:
                    // pooled when this one is not.
                    if (frame_index > 0) {
                        std::uint64_t const period_cpu = cpu - period_start_cpu;
                        auto const outside = std::int64_t(period_cpu) - std::int64_t(in_leaves - period_start_leaves);
                        (pooled ? serial_cpu : pooled_cpu) += period_cpu;
                        (pooled ? serial_outside : pooled_outside) += outside;
                        ++(pooled ? serial_periods : pooled_periods);
                    }
                    period_start_cpu = cpu;
                    period_start_leaves = in_leaves;
                }
                std::uint64_t const start = wall_ns();
                if (pooled) {
                    ex.install([&] { frame::split(ex, std::span(v), grain, rounds, leaves); });
                    frames.push_back(wall_ns() - start);
                } else {
                    frame::split(serial, std::span(v), grain, rounds, leaves);
                }
            }
            detail::sleep_until_ns(t0 + window);
            auto e = sw.stop();
            std::uint64_t check = 0;
            for (auto x : v)
                check ^= x;
            std::sort(frames.begin(), frames.end());
            double const pct = 100.0 * double(e.cpu_ns) / double(e.wall_ns);
            std::string out = fmt::format("wall_ns={} cpu_ns={} cpu_pct={:.3f} frames={} p50_ns={} p99_ns={} check={}",
                                          e.wall_ns, e.cpu_ns, pct, frames.size(), percentile(frames, 50),
                                          percentile(frames, 99), check);
            if (paired) {
                auto const per_period = [](double sum, std::uint64_t periods) {
                    return sum / double(std::max<std::uint64_t>(1, periods));
                };
                double const pooled_mean = per_period(double(pooled_cpu), pooled_periods);
                double const serial_mean = per_period(double(serial_cpu), serial_periods);
                double const outside_above = per_period(double(pooled_outside), pooled_periods) -
                                             per_period(double(serial_outside), serial_periods);
                out += fmt::format(" pooled_frame_cpu_ns={:.0f} serial_frame_cpu_ns={:.0f} above_serial_ns={:.0f}"
                                   " outside_leaves_above_serial_ns={:.0f}",
                                   pooled_mean, serial_mean, pooled_mean - serial_mean, outside_above);
            }
            return out;
        });
    }
};

// ---------------------------------------------------------------------------
// park-unpark and spawn-future: the library's fibers (futures_workloads.hpp).
// Boost.ForkJoin only: no other implementation has a fiber to park, so the
// driver reports their rows as n/a without running them (workload::
// forkjoin_only), and a child asked anyway says so with `skip`. Both run on
// the executor's own pool, so that no second pool idles beside the measure.
// ---------------------------------------------------------------------------

struct park_unpark_kernel {
    static constexpr std::string_view name = "park-unpark";

    template <class Ex>
    static void run(Ex& ex, run_context const& ctx)
    {
        if constexpr (!Ex::has_fibers) {
            skip("Boost.ForkJoin only: no fibers to park and unpark");
        } else {
            auto rounds = ctx.args.get("rounds");
            repeat(ctx, [&] {
                stopwatch sw;
                auto r = futures::park_unpark(ex.pool(), rounds);
                auto e = sw.stop();
                // A round trip is two hand-offs (A -> B -> A); the bare
                // Boost.Context round trip is two switches (main -> f -> main).
                double const roundtrip = 2.0 * r.handoff_ns;
                double const ctx_roundtrip = 2.0 * r.context_switch_ns;
                // The unit is one park/unpark cycle (a hand-off: one
                // fiber parks, the unpark submits it as a job, a worker
                // resumes it), compared with one bare switch.
                return fmt::format("wall_ns={} cpu_ns={} rounds={} roundtrip_ns={:.2f} handoff_ns={:.2f} "
                                   "ctx_switch_ns={:.3f} ctx_roundtrip_ns={:.3f} handoff_per_switch={:.3f} "
                                   "reruns={} split_tries={}",
                                   e.wall_ns, e.cpu_ns, rounds, roundtrip, r.handoff_ns, r.context_switch_ns,
                                   ctx_roundtrip, r.handoff_ns / r.context_switch_ns, r.reruns, r.split_tries);
            });
        }
    }
};

struct spawn_future_kernel {
    static constexpr std::string_view name = "spawn-future";

    template <class Ex>
    static void run(Ex& ex, run_context const& ctx)
    {
        if constexpr (!Ex::has_fibers) {
            skip("Boost.ForkJoin only: no spawn_future");
        } else {
            auto tasks = ctx.args.get("tasks");
            auto inner = static_cast<int>(ctx.args.get("inner"));
            repeat(ctx, [&] {
                stopwatch sw;
                auto r = futures::spawn_future_vs_spawn(ex.pool(), tasks, inner);
                auto e = sw.stop();
                return fmt::format("wall_ns={} cpu_ns={} tasks={} inner={} spawn_future_ns={:.2f} spawn_ns={:.2f} "
                                   "future_per_spawn={:.3f}",
                                   e.wall_ns, e.cpu_ns, tasks, inner, r.spawn_future_ns, r.spawn_ns,
                                   r.spawn_future_ns / r.spawn_ns);
            });
        }
    }
};

// ---------------------------------------------------------------------------
// fence-modes: the deques' fence modes (pool_options::fences) on
// steal-heavy work. Boost.ForkJoin only. Each repetition builds three pools
// of the executor's size, asymmetric, symmetric and adaptive, and runs the
// same increment-all passes and the same quicksort on each, in an order
// that rotates from one repetition to the next (the `rotation` field: which
// pool went first). The executor's own pool stays idle meanwhile (asleep
// under jec and legacy); a spin pool would compete for the cores, so that
// row skips.
// ---------------------------------------------------------------------------

struct fence_modes_kernel {
    static constexpr std::string_view name = "fence-modes";

    template <class Ex>
    static void run(Ex& ex, run_context const& ctx)
    {
        if constexpr (!Ex::has_fibers) {
            skip("Boost.ForkJoin only: the fence mode is a pool option of the library");
        } else if constexpr (std::is_same_v<typename Ex::pool_type::sleep_policy_type, boost::forkjoin::sleep::spin>) {
            skip("the executor's own spin pool would compete with the three measured pools; see the jec/legacy "
                 "rows");
        } else {
            using pool_type = typename Ex::pool_type;
            std::size_t const threads = ex.pool().num_threads();
            auto const len = ctx.args.get("len");
            auto const grain = ctx.args.get("grain");
            auto const passes = ctx.args.get("passes");
            auto const sort_len = ctx.args.get("sort_len");
            auto const cutoff = ctx.args.get("cutoff");
            std::vector<std::uint32_t> const input = random_u32s(sort_len, 7);

            struct measure {
                std::uint64_t inc_ns = 0, sort_ns = 0, steals = 0;
                bool asymmetric = false;
            };
            auto measure_mode = [&](boost::forkjoin::fence_mode mode) {
                boost::forkjoin::pool_options o;
                o.num_threads = threads;
                o.fences = mode;
                pool_type pool(o);
                pool.install([] {}); // every worker has started
                // ex.join is boost::forkjoin::join, which inside
                // pool.install() forks into `pool`, not into ex's own pool.
                std::vector<std::uint64_t> v(len, 0);
                auto const steals0 = pool.stats().steals;
                stopwatch inc;
                for (std::uint64_t p = 0; p < passes; ++p)
                    pool.install([&] { increment_all(ex, std::span(v), grain); });
                auto const inc_ns = inc.stop().wall_ns;
                auto const inc_steals = pool.stats().steals - steals0;
                for (auto x : v)
                    if (x != passes)
                        throw std::logic_error("fence-modes: increment-all: wrong result");
                std::vector<std::uint32_t> w = input;
                stopwatch sort;
                pool.install([&] { quick_sort(ex, std::span(w), cutoff); });
                auto const sort_ns = sort.stop().wall_ns;
                if (!std::is_sorted(w.begin(), w.end()))
                    throw std::logic_error("fence-modes: quicksort: not sorted");
                return measure{inc_ns / passes, sort_ns, inc_steals,
                               pool.fences() == boost::forkjoin::fence_mode::asymmetric};
            };

            using boost::forkjoin::fence_mode;
            constexpr fence_mode modes[] = {fence_mode::asymmetric, fence_mode::symmetric, fence_mode::adaptive};
            // Static: compare_policies measures each repetition of a policy
            // with a call of its own (one rep, child.cpp), so a counter
            // local to this call would start every repetition with the
            // asymmetric pool. One counter per executor type, i.e. per
            // policy, so each policy's repetitions rotate through all three
            // orders. A child runs one kernel on one thread: no race.
            static int round = 0;
            repeat(ctx, [&] {
                stopwatch sw;
                measure m[3]; // by modes[], run in an order that rotates
                int const rotation = round++ % 3;
                for (int k = 0; k < 3; ++k) {
                    int const i = (rotation + k) % 3;
                    m[i] = measure_mode(modes[i]);
                }
                measure const& a = m[0];
                measure const& s = m[1];
                measure const& d = m[2];
                auto e = sw.stop();
                return fmt::format("wall_ns={} cpu_ns={} inc_asym_ns={} inc_sym_ns={} inc_adaptive_ns={} "
                                   "sort_asym_ns={} sort_sym_ns={} sort_adaptive_ns={} "
                                   "inc_sym_per_asym={:.4f} sort_sym_per_asym={:.4f} "
                                   "inc_adaptive_per_best={:.4f} sort_adaptive_per_best={:.4f} "
                                   "steals_asym={} steals_sym={} passes={} asymmetric_available={} rotation={}",
                                   e.wall_ns, e.cpu_ns, a.inc_ns, s.inc_ns, d.inc_ns, a.sort_ns, s.sort_ns, d.sort_ns,
                                   double(s.inc_ns) / double(a.inc_ns), double(s.sort_ns) / double(a.sort_ns),
                                   double(d.inc_ns) / double(std::min(a.inc_ns, s.inc_ns)),
                                   double(d.sort_ns) / double(std::min(a.sort_ns, s.sort_ns)), a.steals, s.steals,
                                   passes, a.asymmetric ? 1 : 0, rotation);
            });
        }
    }
};

// Why std-par has no row in the join workloads (the driver's note, and the
// child's skip when asked anyway).
inline constexpr std::string_view not_an_algorithm =
    "the standard library's parallel algorithms only: no join or spawn to run this workload on";

// Every kernel the C++ child can run, looked up by name, besides
// algorithm_kernels.
using kernels = std::tuple<fib_kernel, increment_all_kernel, nbody_kernel, quicksort_kernel, noop_spawn_kernel,
                           idle_kernel, wake_latency_kernel, wakeups_kernel, install_roundtrip_kernel,
                           tree_sum_kernel, frame_loop_kernel, park_unpark_kernel, spawn_future_kernel,
                           fence_modes_kernel>;

// Runs kernel `name` on `ex`, from `kernels` or from algorithm_kernels
// (algorithm_workloads.hpp); false when there is no such kernel. An
// executor with the parallel algorithms only (std-par) has no join to run
// the other kernels on: they say so with `skip` (the driver does not ask).
template <class Ex>
bool run_kernel(std::string_view name, Ex& ex, run_context const& ctx)
{
    auto const run_one_of = [&]<class... K>(std::tuple<K...>) {
        return ((K::name == name ? (K::run(ex, ctx), true) : false) || ...);
    };
    if (run_one_of(algorithm_kernels{}))
        return true;
    if constexpr (algorithms_only<Ex>) {
        bool const known =
            std::apply([&](auto... k) { return ((decltype(k)::name == name) || ...); }, kernels{});
        if (known)
            skip(not_an_algorithm);
        return known;
    } else {
        return run_one_of(kernels{});
    }
}

// ---------------------------------------------------------------------------
// The registry: one row of the report per entry.
// ---------------------------------------------------------------------------

// How a column is computed from the fields of a `rep` line: field `key`,
// divided by field `per` when given, times `scale`.
struct metric {
    std::string_view key;
    std::string_view per;
    double scale;
    std::string_view label; // column header and plot axis
    int precision;
    // A ratio against a reference whose median is below this is noise, not
    // a result, and is printed as "-" (e.g. 0.02 % CPU against 0.01 %).
    double noise_floor = 0.0;
};

struct workload {
    std::string_view name;
    std::string_view kernel; // empty: reserved row, never run
    std::string_view title;  // one line for the report
    metric primary;          // ranks the table, feeds the ratios and the plot
    std::vector<metric> extras;
    bool serial_reference; // whether "vs serial" means something here
    std::vector<std::pair<std::string_view, std::string_view>> full;
    std::vector<std::pair<std::string_view, std::string_view>> quick;
    std::string_view quick_note; // how --quick differs from the full run
    int reps_full;
    int reps_quick;
    int warmup;
    // Non-empty: measures something only Boost.ForkJoin has, and says what
    // (its fibers, its fence modes); the other implementations are reported
    // as n/a with this reason and not run.
    std::string_view forkjoin_only = {};
    // Where the right result is cheap to know: the `check` field every run
    // must print for these parameters (the driver compares the exact text).
    // Otherwise the runs are checked against each other (results.hpp).
    std::string (*expected_check)(params const&) = nullptr;

    bool implemented() const noexcept { return !kernel.empty(); }
};

inline std::vector<workload> const& registry()
{
    // Metrics reused by several rows.
    static metric const cores_busy{"cpu_ns", "wall_ns", 1.0, "cpu/wall", 2};
    static metric const cpu_pct{"cpu_pct", "", 1.0, "CPU %", 2, 1.0};

    static std::vector<workload> const rows{
        {"fib", "fib", "fib(n), a join at every level, no cut-off: pure join overhead",
         {"wall_ns", "", 1e-6, "ms", 2},
         {{"wall_ns", "joins", 1.0, "ns/join", 2}, cores_busy},
         true,
         {{"n", "32"}},
         {{"n", "27"}},
         "fib(27) instead of fib(32)",
         5, 3, 1, {},
         [](params const& p) { return std::to_string(fib_value(static_cast<unsigned>(p.get("n")))); }},
        {"increment-all", "increment-all",
         "add 1 to 100*1024 u64, split by join down to <= 1024 elements; one install per pass",
         {"wall_ns", "passes", 1e-3, "us/pass", 2},
         {cores_busy},
         true,
         {{"len", "102400"}, {"grain", "1024"}, {"passes", "1000"}, {"inside", "0"}},
         {{"len", "102400"}, {"grain", "1024"}, {"passes", "50"}, {"inside", "0"}},
         "50 passes per repetition instead of 1000",
         5, 3, 1},
        {"increment-all-inside", "increment-all",
         "increment-all with all passes inside one install: the pool alone, no round trip from the main thread",
         {"wall_ns", "passes", 1e-3, "us/pass", 2},
         {cores_busy},
         true,
         {{"len", "102400"}, {"grain", "1024"}, {"passes", "1000"}, {"inside", "1"}},
         {{"len", "102400"}, {"grain", "1024"}, {"passes", "50"}, {"inside", "1"}},
         "50 passes per repetition instead of 1000",
         5, 3, 1},
        {"nbody", "nbody",
         "rayon-demo nbody tick_par_reduce, 1000 bodies: parallel loop + parallel reduce",
         {"wall_ns", "ticks", 1e-6, "ms/tick", 2},
         {cores_busy},
         true,
         {{"bodies", "1000"}, {"ticks", "10"}, {"outer_grain", "1"}, {"inner_grain", "100"}},
         {{"bodies", "1000"}, {"ticks", "3"}, {"outer_grain", "1"}, {"inner_grain", "100"}},
         "3 ticks per repetition instead of 10",
         5, 3, 1},
        {"quicksort", "quicksort",
         "rayon-demo quicksort of 10M u32, join on both sides, serial below 5*1024",
         {"wall_ns", "", 1e-6, "ms", 1},
         {cores_busy},
         true,
         {{"len", "10000000"}, {"cutoff", "5120"}},
         {{"len", "1000000"}, {"cutoff", "5120"}},
         "1M integers instead of 10M",
         5, 3, 1},
        {"noop-spawn-1ms", "noop-spawn", "one empty spawned job every 1 ms for 2 s (rayon #642): process CPU",
         cpu_pct,
         {{"jobs", "", 1.0, "jobs", 0}},
         false,
         {{"period_us", "1000"}, {"window_ms", "2000"}},
         {{"period_us", "1000"}, {"window_ms", "300"}},
         "a 0.3 s window instead of 2 s",
         2, 1, 0},
        {"noop-spawn-10ms", "noop-spawn", "one empty spawned job every 10 ms for 2 s (rayon #642): process CPU",
         cpu_pct,
         {{"jobs", "", 1.0, "jobs", 0}},
         false,
         {{"period_us", "10000"}, {"window_ms", "2000"}},
         {{"period_us", "10000"}, {"window_ms", "300"}},
         "a 0.3 s window instead of 2 s",
         2, 1, 0},
        {"idle", "idle", "process CPU during 2 s of idleness right after a burst (fib(25) with joins)",
         cpu_pct,
         {},
         false,
         {{"window_ms", "2000"}, {"burst_n", "25"}},
         {{"window_ms", "300"}, {"burst_n", "25"}},
         "a 0.3 s window instead of 2 s",
         2, 1, 0},
        {"wake-latency", "wake-latency",
         "spawn from outside into an all-asleep pool (20 ms idle before each of 300 tries): time to job start",
         {"p50_ns", "", 1e-3, "p50 us", 1},
         {{"p99_ns", "", 1e-3, "p99 us", 1}, {"max_ns", "", 1e-3, "max us", 1}},
         false,
         {{"tries", "300"}, {"sleep_ms", "20"}},
         {{"tries", "40"}, {"sleep_ms", "5"}},
         "40 tries after 5 ms of idleness instead of 300 after 20 ms",
         1, 1, 0},
        {"wakeups", "wakeups", "pool_stats() per job injected into an all-asleep pool (20 ms idle, 100 jobs)",
         {"wakeups", "tries", 1.0, "wakeups/job", 2},
         {{"futile_wakeups", "tries", 1.0, "futile/job", 2}, {"sleeps", "tries", 1.0, "sleeps/job", 2}},
         false,
         {{"tries", "100"}, {"sleep_ms", "20"}},
         {{"tries", "20"}, {"sleep_ms", "5"}},
         "20 jobs after 5 ms of idleness instead of 100 after 20 ms",
         1, 1, 0},
        // Bursty work from the main thread (see README.md).
        {"install-roundtrip", "install-roundtrip",
         "an empty install from the main thread, timed one by one: the round trip into the pool and back",
         {"p50_ns", "", 1e-3, "p50 us", 2},
         {{"p99_ns", "", 1e-3, "p99 us", 1}, cores_busy},
         false,
         {{"rounds", "20000"}},
         {{"rounds", "2000"}},
         "2,000 round trips per repetition instead of 20,000",
         5, 3, 1},
        {"tree-sum", "tree-sum",
         "sum of a balanced binary tree of 1,023 nodes, a join at every inner node; one install per sum",
         {"wall_ns", "sums", 1e-3, "us/sum", 2},
         {{"p50_ns", "", 1e-3, "p50 us", 2}, {"p99_ns", "", 1e-3, "p99 us", 1}, cores_busy},
         true,
         {{"nodes", "1023"}, {"sums", "20000"}},
         {{"nodes", "1023"}, {"sums", "2000"}},
         "2,000 sums per repetition instead of 20,000",
         5, 3, 1},
        {"tree-sum-16m", "tree-sum",
         "the same tree sum over 16.7 M nodes (2^24 - 1): join overhead with plenty of parallelism",
         {"wall_ns", "sums", 1e-6, "ms/sum", 2},
         {{"wall_ns", "joins", 1.0, "ns/join", 2}, cores_busy},
         true,
         {{"nodes", "16777215"}, {"sums", "1"}},
         {{"nodes", "1048575"}, {"sums", "1"}},
         "1 M nodes (2^20 - 1) instead of 16.7 M",
         5, 3, 1},
        {"frame-loop", "frame-loop",
         "every 16.7 ms the main thread runs one ~2 ms parallel job (join-split over 64 Ki u64), for 2 s: "
         "process CPU",
         cpu_pct,
         {{"p50_ns", "", 1e-6, "p50 frame ms", 3}, {"p99_ns", "", 1e-6, "p99 frame ms", 3}},
         false,
         {{"period_us", "16667"}, {"window_ms", "2000"}, {"len", "65536"}, {"grain", "1024"}, {"rounds", "13"}, {"paired", "0"}},
         {{"period_us", "16667"}, {"window_ms", "300"}, {"len", "65536"}, {"grain", "1024"}, {"rounds", "13"}, {"paired", "0"}},
         "a 0.3 s window instead of 2 s",
         3, 1, 0},
        {"frame-loop-paired", "frame-loop",
         "the frame loop with every other frame run serially on the main thread: a pooled frame's CPU above a "
         "serial frame's, neighbours in time",
         {"above_serial_ns", "", 1e-3, "us/frame above serial", 1, 5.0},
         {{"pooled_frame_cpu_ns", "", 1e-3, "pooled frame CPU us", 0},
          {"serial_frame_cpu_ns", "", 1e-3, "serial frame CPU us", 0},
          {"outside_leaves_above_serial_ns", "", 1e-3, "outside leaves us/frame", 1}},
         false,
         {{"period_us", "16667"}, {"window_ms", "2000"}, {"len", "65536"}, {"grain", "1024"}, {"rounds", "13"}, {"paired", "1"}},
         {{"period_us", "16667"}, {"window_ms", "300"}, {"len", "65536"}, {"grain", "1024"}, {"rounds", "13"}, {"paired", "1"}},
         "a 0.3 s window instead of 2 s",
         5, 1, 0},
        // The futures rows: Boost.ForkJoin only (see README.md).
        {"park-unpark", "park-unpark",
         "two fibers hand a token back and forth through promises: one park/unpark cycle (Boost.ForkJoin only)",
         {"handoff_ns", "", 1.0, "ns/cycle", 1},
         {{"roundtrip_ns", "", 1.0, "ping-pong ns", 1},
          {"ctx_switch_ns", "", 1.0, "ctx sw ns", 1},
          {"handoff_per_switch", "", 1.0, "cycle/ctx sw", 1},
          {"reruns", "rounds", 0.5, "reruns/cycle", 3},
          {"split_tries", "", 1.0, "split tries", 0}},
         false,
         {{"rounds", "500000"}},
         {{"rounds", "100000"}},
         "100,000 round trips per repetition instead of 500,000",
         5, 3, 1, "no other implementation has fibers to park"},
        {"spawn-future", "spawn-future",
         "N empty tasks from a worker: spawn_future + get against a scope's spawn (Boost.ForkJoin only)",
         {"spawn_future_ns", "", 1.0, "ns/future", 1},
         {{"spawn_ns", "", 1.0, "spawn ns", 1}, {"future_per_spawn", "", 1.0, "x spawn", 2}},
         false,
         {{"tasks", "100000"}, {"inner", "5"}},
         {{"tasks", "20000"}, {"inner", "3"}},
         "20,000 tasks, best of 3, instead of 100,000, best of 5",
         5, 3, 1, "no other implementation has fibers (no spawn_future)"},
        // The deques' fence modes (see README.md): Boost.ForkJoin only.
        {"fence-modes", "fence-modes",
         "increment-all and quicksort on asymmetric-, symmetric- and adaptive-fence pools: symmetric time / "
         "asymmetric (> 1: asymmetric is faster), adaptive / the better of the two",
         {"inc_sym_per_asym", "", 1.0, "inc sym/asym", 3},
         {{"sort_sym_per_asym", "", 1.0, "sort sym/asym", 3},
          {"inc_adaptive_per_best", "", 1.0, "inc adapt/best", 3},
          {"sort_adaptive_per_best", "", 1.0, "sort adapt/best", 3},
          {"inc_asym_ns", "", 1e-3, "inc asym us/pass", 2},
          {"inc_sym_ns", "", 1e-3, "inc sym us/pass", 2},
          {"inc_adaptive_ns", "", 1e-3, "inc adapt us/pass", 2},
          {"sort_asym_ns", "", 1e-6, "sort asym ms", 1},
          {"sort_sym_ns", "", 1e-6, "sort sym ms", 1},
          {"sort_adaptive_ns", "", 1e-6, "sort adapt ms", 1},
          {"steals_asym", "passes", 1.0, "steals/pass asym", 1}},
         false,
         {{"len", "102400"}, {"grain", "1024"}, {"passes", "1000"}, {"sort_len", "10000000"}, {"cutoff", "5120"}},
         {{"len", "102400"}, {"grain", "1024"}, {"passes", "50"}, {"sort_len", "1000000"}, {"cutoff", "5120"}},
         "50 passes and 1M integers instead of 1000 and 10M, one repetition",
         5, 1, 0, "the fence mode is a pool option of the library"},
        // The parallel algorithms (algorithm_workloads.hpp, see README.md):
        // each implementation's own algorithm, not a join tree.
        {"sort", "sort", "sort 10M pseudo-random u32 with each implementation's parallel sort",
         {"wall_ns", "", 1e-6, "ms", 1},
         {cores_busy},
         true,
         {{"len", "10000000"}},
         {{"len", "200000"}},
         "200,000 integers instead of 10M",
         5, 3, 1},
        {"stable-sort", "stable-sort",
         "stable sort of 10M (key, payload) u32 pairs by key, 1M distinct keys: the order of equal keys is checked",
         {"wall_ns", "", 1e-6, "ms", 1},
         {cores_busy},
         true,
         {{"len", "10000000"}, {"keys", "1000000"}},
         {{"len", "200000"}, {"keys", "20000"}},
         "200,000 pairs with 20,000 keys instead of 10M with 1M",
         5, 3, 1},
        {"reduce", "reduce", "sum of 50M doubles (integers below 2^24: exact in any order)",
         {"wall_ns", "", 1e-6, "ms", 2},
         {cores_busy},
         true,
         {{"len", "50000000"}},
         {{"len", "1000000"}},
         "1M doubles instead of 50M",
         5, 3, 1},
        {"transform", "transform", "y = sin(x) * exp(-x) + sqrt(x) over 20M floats into a second vector",
         {"wall_ns", "", 1e-6, "ms", 1},
         {cores_busy},
         true,
         {{"len", "20000000"}},
         {{"len", "500000"}},
         "500,000 floats instead of 20M",
         5, 3, 1},
        {"scan", "scan", "inclusive_scan (prefix sums) of 50M int64 into a second vector",
         {"wall_ns", "", 1e-6, "ms", 2},
         {cores_busy},
         true,
         {{"len", "50000000"}},
         {{"len", "1000000"}},
         "1M integers instead of 50M",
         5, 3, 1},
        {"find-first", "find-first", "find_if over 50M u32, the only match at 1/4: the first match, found early",
         {"wall_ns", "", 1e-6, "ms", 2},
         {cores_busy},
         true,
         {{"len", "50000000"}, {"match_permille", "250"}},
         {{"len", "1000000"}, {"match_permille", "250"}},
         "1M integers instead of 50M",
         5, 3, 1},
        {"find-none", "find-first", "find_if over 50M u32 with no match: the whole range",
         {"wall_ns", "", 1e-6, "ms", 2},
         {cores_busy},
         true,
         {{"len", "50000000"}, {"match_permille", "1000"}},
         {{"len", "1000000"}, {"match_permille", "1000"}},
         "1M integers instead of 50M",
         5, 3, 1},
        {"mandelbrot", "mandelbrot",
         "for_each over the 1024 rows of a 2048x1024 Mandelbrot image (at most 500 iterations): uneven elements",
         {"wall_ns", "", 1e-6, "ms", 1},
         {cores_busy},
         true,
         {{"width", "2048"}, {"height", "1024"}, {"max_iter", "500"}},
         {{"width", "256"}, {"height", "128"}, {"max_iter", "500"}},
         "a 256x128 image instead of 2048x1024",
         5, 3, 1},
    };
    return rows;
}

// What a workload's parameters may be; "" if `p` is fine, else why not. The
// driver checks every workload's parameters, --set ones included, before
// any child runs (options.cpp), so a value that would hang a child (a zero
// grain or period), crash it (an empty sample: wake-latency.tries=0), make
// its arithmetic overflow, or not be read at all is a usage error instead.
// A key must be one of the workload's full-size parameters, a value an
// unsigned decimal integer (params::get) within the kernel's range.
inline std::string param_error(workload const& wl, params const& p)
{
    struct range {
        std::string_view kernel, key;
        std::uint64_t min, max;
        std::string_view why = {};
    };
    constexpr std::uint64_t any = ~std::uint64_t{0};
    constexpr std::uint64_t hour_ms = 3'600'000, minute_us = 60'000'000;
    // Parameters missing here take any value; sizes above the memory fail
    // in the child, clearly (std::bad_alloc).
    static range const ranges[] = {
        {"fib", "n", 0, 93, "fib(94) does not fit in 64 bits"},
        {"increment-all", "len", 1, any},
        {"increment-all", "grain", 1, any, "0 never stops splitting"},
        {"increment-all", "passes", 1, any},
        {"increment-all", "inside", 0, 1},
        {"nbody", "bodies", 1, any},
        {"nbody", "ticks", 1, any},
        {"nbody", "outer_grain", 1, any, "0 never stops splitting"},
        {"nbody", "inner_grain", 1, any, "0 never stops splitting"},
        {"quicksort", "len", 1, any},
        {"quicksort", "cutoff", 1, any, "0 never stops splitting"},
        {"noop-spawn", "period_us", 1, minute_us},
        {"noop-spawn", "window_ms", 1, hour_ms},
        {"idle", "window_ms", 1, hour_ms},
        {"idle", "burst_n", 0, 93, "fib(94) does not fit in 64 bits"},
        {"wake-latency", "tries", 1, any},
        {"wake-latency", "sleep_ms", 0, hour_ms},
        {"wakeups", "tries", 1, any},
        {"wakeups", "sleep_ms", 0, hour_ms},
        {"install-roundtrip", "rounds", 1, any},
        {"tree-sum", "nodes", 1, (std::uint64_t{1} << 32) - 1, "the expected sum must fit in 64 bits"},
        {"tree-sum", "sums", 1, any},
        {"frame-loop", "period_us", 1, minute_us},
        {"frame-loop", "window_ms", 1, hour_ms},
        {"frame-loop", "len", 1, any},
        {"frame-loop", "grain", 1, any, "0 never stops splitting"},
        {"frame-loop", "paired", 0, 1},
        {"park-unpark", "rounds", 1, any},
        {"spawn-future", "tasks", 1, any},
        {"spawn-future", "inner", 1, 1000},
        {"fence-modes", "len", 1, any},
        {"fence-modes", "grain", 1, any, "0 never stops splitting"},
        {"fence-modes", "passes", 1, any},
        {"fence-modes", "sort_len", 1, any},
        {"fence-modes", "cutoff", 1, any, "0 never stops splitting"},
        {"sort", "len", 1, any},
        {"stable-sort", "len", 1, std::uint64_t{1} << 32, "the payload is the position as a u32"},
        {"stable-sort", "keys", 1, std::uint64_t{1} << 32, "keys are u32"},
        {"reduce", "len", 1, std::uint64_t{1} << 29, "the sum of values below 2^24 must stay exact, below 2^53"},
        {"transform", "len", 1, any},
        {"scan", "len", 1, any},
        {"find-first", "len", 1, any},
        {"find-first", "match_permille", 0, 1000, "1000 means no match"},
        {"mandelbrot", "width", 1, 1u << 16},
        {"mandelbrot", "height", 1, 1u << 16},
        {"mandelbrot", "max_iter", 1, 1u << 20},
    };
    for (auto const& [key, text] : p.all()) {
        if (std::none_of(wl.full.begin(), wl.full.end(), [&](auto const& kv) { return kv.first == key; }))
            return fmt::format("no parameter '{}'", key);
        std::uint64_t v = 0;
        try {
            v = p.get(key);
        } catch (std::invalid_argument const& e) {
            return e.what();
        }
        for (auto const& r : ranges)
            if (r.kernel == wl.kernel && r.key == key && (v < r.min || v > r.max))
                return r.max == any ? fmt::format("{} must be at least {}{}, not {}", key, r.min,
                                                  r.why.empty() ? "" : fmt::format(" ({})", r.why), text)
                                    : fmt::format("{} must be from {} to {}{}, not {}", key, r.min, r.max,
                                                  r.why.empty() ? "" : fmt::format(" ({})", r.why), text);
    }
    if (wl.kernel == "tree-sum" && (p.get("nodes") & (p.get("nodes") + 1)) != 0)
        return fmt::format("nodes must be 2^k - 1 (a complete tree), not {}", p.get("nodes"));
    // The paired frame loop measures a pooled frame against the serial one
    // before it, so its window must hold two frames (the percentiles of no
    // pooled frame crashed the child).
    if (wl.kernel == "frame-loop" && p.get("paired") == 1 && p.get("window_ms") * 1000 <= p.get("period_us"))
        return fmt::format("paired needs a window of more than one period, i.e. window_ms > period_us / 1000 = {}",
                           double(p.get("period_us")) / 1000);
    return {};
}

} // namespace forkjoin_bench

#endif // BOOST_FORKJOIN_PERFORMANCE_WORKLOADS_HPP
