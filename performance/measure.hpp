// Copyright 2026 The Boost.ForkJoin developers.
// Distributed under the Boost Software License, Version 1.0.
// (See accompanying file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
#ifndef BOOST_FORKJOIN_PERFORMANCE_MEASURE_HPP
#define BOOST_FORKJOIN_PERFORMANCE_MEASURE_HPP

// Clocks, the shared pseudo-random generator and the `rep key=value` line
// protocol of the benchmark's child processes.
//
// Everything here has a twin in performance/rayon/src/main.rs; the two must
// stay in step so that C++ and Rust measure and generate the same things.

#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <memory>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include <time.h>

namespace forkjoin_bench {

namespace detail {
// A CPU-time clock's reading in nanoseconds; `name` for the error.
inline std::uint64_t cpu_clock_ns(clockid_t clock, char const* name)
{
    timespec ts{};
    if (::clock_gettime(clock, &ts) != 0)
        throw std::runtime_error(std::string("clock_gettime(") + name + ") failed");
    return std::uint64_t(ts.tv_sec) * 1'000'000'000u + std::uint64_t(ts.tv_nsec);
}
} // namespace detail

// CPU time used so far by every thread of this process. Pools run in the
// process that measures them (each implementation gets a child process of its
// own, see forkjoin_bench.cpp), so this is the pool's CPU time plus that of
// the mostly-sleeping main thread.
inline std::uint64_t process_cpu_ns()
{
    return detail::cpu_clock_ns(CLOCK_PROCESS_CPUTIME_ID, "CLOCK_PROCESS_CPUTIME_ID");
}

// CPU time used so far by the calling thread: a system call (about half a
// microsecond on the 2-vCPU reference VM), not a vDSO read like wall_ns().
inline std::uint64_t thread_cpu_ns()
{
    return detail::cpu_clock_ns(CLOCK_THREAD_CPUTIME_ID, "CLOCK_THREAD_CPUTIME_ID");
}

// Monotonic wall clock in nanoseconds. steady_clock is CLOCK_MONOTONIC on
// Linux, the clock behind Rust's Instant, so latencies are comparable.
inline std::uint64_t wall_ns()
{
    return std::uint64_t(std::chrono::duration_cast<std::chrono::nanoseconds>(
                             std::chrono::steady_clock::now().time_since_epoch())
                             .count());
}

// Wall-clock and CPU time of one measured section.
class stopwatch {
public:
    stopwatch() noexcept : wall0_(wall_ns()), cpu0_(process_cpu_ns()) {}

    std::uint64_t started_at() const noexcept { return wall0_; }

    struct elapsed {
        std::uint64_t wall_ns;
        std::uint64_t cpu_ns;
    };

    elapsed stop() const
    {
        // CPU first: reading it costs more than reading the wall clock, and
        // we would rather charge that to the wall time than to the CPU time.
        std::uint64_t cpu = process_cpu_ns() - cpu0_;
        return {wall_ns() - wall0_, cpu};
    }

private:
    std::uint64_t wall0_;
    std::uint64_t cpu0_;
};

// SplitMix64: tiny, fast and trivially identical in C++ and Rust, so both
// sides sort the same integers and simulate the same bodies.
class splitmix64 {
public:
    explicit splitmix64(std::uint64_t seed) noexcept : state_(seed) {}

    std::uint64_t next_u64() noexcept
    {
        state_ += 0x9E3779B97F4A7C15u;
        std::uint64_t z = state_;
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9u;
        z = (z ^ (z >> 27)) * 0x94D049BB133111EBu;
        return z ^ (z >> 31);
    }

    std::uint32_t next_u32() noexcept { return std::uint32_t(next_u64() >> 32); }

    // Uniform in [0, 1) with 53 random bits.
    double next_f64() noexcept { return double(next_u64() >> 11) * (1.0 / double(std::uint64_t(1) << 53)); }

private:
    std::uint64_t state_;
};

// Nearest-rank percentile of an ascending sorted, non-empty vector. An
// empty one is a workload whose parameters left nothing to measure (the
// driver rejects those; a child run by hand may not): an error, not a read
// before the start.
inline std::uint64_t percentile(std::vector<std::uint64_t> const& sorted, double q)
{
    auto n = sorted.size();
    if (n == 0)
        throw std::invalid_argument("percentile of an empty sample: the parameters left nothing to measure");
    auto rank = static_cast<std::size_t>(std::ceil(q / 100.0 * double(n)));
    return sorted[std::clamp<std::size_t>(rank, 1, n) - 1];
}

// Median of a non-empty sample (the mean of the two middle values when even).
inline double median(std::vector<double> v)
{
    std::sort(v.begin(), v.end());
    auto n = v.size();
    return n % 2 == 1 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2.0;
}

// Workload parameters (`--param key=value`). The driver always passes every
// parameter of a workload explicitly, to C++ and Rust children alike, so the
// sizes shown in the report are the sizes that ran.
class params {
public:
    void set(std::string key, std::string value) { values_[std::move(key)] = std::move(value); }

    bool has(std::string_view key) const { return values_.find(key) != values_.end(); }

    std::uint64_t get(std::string_view key) const
    {
        auto it = values_.find(key);
        if (it == values_.end())
            throw std::invalid_argument(fmt::format("missing workload parameter '{}'", key));
        std::uint64_t v = 0;
        auto const& s = it->second;
        auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
        if (ec != std::errc{} || end != s.data() + s.size())
            throw std::invalid_argument(fmt::format("parameter '{}' is not an unsigned integer: '{}'", key, s));
        return v;
    }

    std::map<std::string, std::string, std::less<>> const& all() const noexcept { return values_; }

private:
    std::map<std::string, std::string, std::less<>> values_;
};

// What a workload kernel gets besides its executor.
struct run_context {
    params const& args;
    int warmup;
    int reps;
};

// Runs `ctx.warmup` unreported and `ctx.reps` reported repetitions of
// `rep`, which returns the `key=value ...` fields of one line. Each line is
// flushed at once so that a child killed by the driver's timeout still
// delivers the repetitions it finished.
template <class Rep>
void repeat(run_context const& ctx, Rep&& rep)
{
    for (int i = 0; i < ctx.warmup; ++i) {
        std::string fields = rep();
        fmt::print("warmup {}\n", fields);
        std::fflush(stdout);
    }
    for (int i = 0; i < ctx.reps; ++i) {
        std::string fields = rep();
        fmt::print("rep {}\n", fields);
        std::fflush(stdout);
    }
}

// The object make() returns, made on the first call with `key` in this
// child process and returned again by every later call with it; `key` must
// name everything make() depends on. The library's policy rows call a
// kernel once per repetition, each time on a pool built for that repetition
// (compare_policies, child.cpp), where every other row, in C++ and in
// Rust, calls it once and repeats inside. Kernels keep their inputs and
// buffers here so that those rows, too, prepare them once and measure on
// memory the process has used before: made afresh for each repetition,
// they ran the scan at two threads on this VM in 33-48 ms against 29-36
// (doc/benchmark.adoc, "The policy rows' data"). For the child's main
// thread only.
template <class T, class Make>
T& kept(std::string const& key, Make&& make)
{
    static std::map<std::string, std::unique_ptr<T>> made;
    std::unique_ptr<T>& slot = made[key];
    if (!slot)
        slot = std::make_unique<T>(make());
    return *slot;
}

// `len` draws of splitmix64(seed).next_u32(): the sorts' inputs (the Rust
// side draws the same sequence in its own loop).
inline std::vector<std::uint32_t> random_u32s(std::size_t len, std::uint64_t seed)
{
    splitmix64 rng(seed);
    std::vector<std::uint32_t> v(len);
    for (auto& x : v)
        x = rng.next_u32();
    return v;
}

// A workload that does not apply to an implementation says why, once.
inline void skip(std::string_view reason)
{
    fmt::print("skip {}\n", reason);
    std::fflush(stdout);
}

} // namespace forkjoin_bench

#endif // BOOST_FORKJOIN_PERFORMANCE_MEASURE_HPP
