// Copyright 2026 The Boost.ForkJoin developers.
// Distributed under the Boost Software License, Version 1.0.
// (See accompanying file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
#ifndef BOOST_FORKJOIN_POLICY_BENCHMARK_HPP
#define BOOST_FORKJOIN_POLICY_BENCHMARK_HPP

// The policy bake-off: run your own workload under several sleep policies
// and compare them.
//
//     auto result = fj::compare_policies<fj::sleep::jec, fj::sleep::legacy, my_policy>(
//         {.threads = {1, 4}, .repetitions = 10},
//         [&](auto& pool) { pool.install([&] { my_algorithm(data); }); });
//     std::cout << result;              // an aligned table, ratios to the first policy
//     write(file, result.to_json());
//
// Lazy joins (lazy_joins.hpp) take part as a policy of their own:
// with_lazy_joins<P> is the pool of policy P with lazy joins, so
// compare_policies<sleep::jec, with_lazy_joins<sleep::jec>> compares the
// eager and the lazy join on your workload.
//
// For each thread count, the repetitions of the policies are interleaved
// (round r runs every policy once, starting with a different one each round)
// so that a machine whose speed drifts affects every policy alike. Each
// measured repetition runs on a pool built for it, after `warmup` unmeasured
// repetitions on that same pool, and the pool is destroyed before the next
// one is built: no idle pool (a spinning one least of all) competes with the
// one being measured. Building and destroying pools is not measured.
//
// See doc/policy_benchmark.adoc.

#include <boost/forkjoin/current_thread.hpp>
#include <boost/forkjoin/detail/process_cpu_clock.hpp>
#include <boost/forkjoin/pool_options.hpp>
#include <boost/forkjoin/pool_stats.hpp>
#include <boost/forkjoin/sleep_policy.hpp>
#include <boost/forkjoin/thread_pool.hpp>

#include <boost/core/demangle.hpp>

#include <algorithm>
#include <array>
#include <charconv>
#include <chrono>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <iomanip>
#include <iostream>
#include <iterator>
#include <ostream>
#include <sstream>
#include <stdexcept>
#include <string>
#include <string_view>
#include <thread>
#include <type_traits>
#include <typeinfo>
#include <utility>
#include <vector>

namespace boost::forkjoin {

struct benchmark_options {
    // Worker counts to measure. Empty: 1, 2 and the hardware thread count.
    std::vector<std::size_t> threads;
    // Measured repetitions per (policy, thread count). At least 1.
    std::size_t repetitions = 10;
    // Unmeasured repetitions on each fresh pool before its measured one.
    std::size_t warmup = 1;
    // The options of every pool; num_threads is replaced by each thread count.
    pool_options pool;
    // A heading for the table and the JSON ("title").
    std::string title;
    // Where progress goes when a run takes longer than a second; nullptr for
    // none.
    std::ostream* progress = &std::cerr;
};

// Median (the mean of the two middle values for an even count), minimum and
// maximum of a sample.
struct sample_summary {
    double median = 0;
    double min = 0;
    double max = 0;
};

// The measurements of one (policy, thread count), in the order they were
// taken.
struct benchmark_cell {
    std::string policy;
    std::size_t threads = 0;
    std::vector<double> wall_seconds; // steady_clock, around one call of the workload
    std::vector<double> cpu_seconds;  // process CPU time (every thread) over the same call
    std::vector<pool_stats> stats;    // the pool's counters over the same call

    sample_summary wall() const { return summarize(wall_seconds); }
    sample_summary cpu() const { return summarize(cpu_seconds); }

    // Per counter, the median over the repetitions.
    sample_summary stat(std::uint64_t pool_stats::*counter) const
    {
        std::vector<double> values;
        values.reserve(stats.size());
        for (pool_stats const& s : stats)
            values.push_back(static_cast<double>(s.*counter));
        return summarize(values);
    }

    static sample_summary summarize(std::vector<double> values)
    {
        if (values.empty())
            return {};
        std::sort(values.begin(), values.end());
        std::size_t const n = values.size();
        double const median = n % 2 == 1 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2.0;
        return {median, values.front(), values.back()};
    }
};

struct benchmark_result {
    std::string title;
    std::size_t repetitions = 0;
    std::size_t warmup = 0;
    std::vector<std::string> policies; // in the order given, the first is the reference
    std::vector<std::size_t> threads;
    std::vector<benchmark_cell> cells; // by thread count, then by policy

    // Throws std::out_of_range if there is no such cell.
    benchmark_cell const& cell(std::string_view policy, std::size_t thread_count) const
    {
        for (benchmark_cell const& c : cells)
            if (c.policy == policy && c.threads == thread_count)
                return c;
        throw std::out_of_range("boost::forkjoin::benchmark_result: no cell for policy '" + std::string(policy)
                                + "' at " + std::to_string(thread_count) + " threads");
    }

    // The median wall (or CPU) time of `c` over that of the first policy at
    // the same thread count: below 1 is faster (cheaper) than the reference.
    double wall_ratio(benchmark_cell const& c) const
    {
        return ratio(c.wall().median, cell(policies.front(), c.threads).wall().median);
    }
    double cpu_ratio(benchmark_cell const& c) const
    {
        return ratio(c.cpu().median, cell(policies.front(), c.threads).cpu().median);
    }

    // Everything, every repetition included, as one JSON object.
    std::string to_json() const;

private:
    static double ratio(double value, double reference) noexcept
    {
        return reference > 0 ? value / reference : std::nan("");
    }
};

// For compare_policies: the pool of Policy with lazy joins. A sleep policy in
// its own right (it is Policy), named "<Policy's name> + lazy_joins".
template <sleep_policy Policy>
struct with_lazy_joins : Policy {
    using Policy::Policy;
};

namespace detail {
// The pool compare_policies builds for a policy of its list, and what that
// list entry stands for: a sleep policy, with or without lazy joins.
template <class Policy>
struct benchmark_pool {
    using sleep_policy_type = Policy;
    static constexpr bool has_lazy_joins = false;
    using type = basic_thread_pool<Policy>;
};
template <class Policy>
struct benchmark_pool<with_lazy_joins<Policy>> {
    using sleep_policy_type = Policy;
    static constexpr bool has_lazy_joins = true;
    using type = basic_thread_pool<Policy, lazy_joins>;
};
} // namespace detail

// The name a policy has in the results: its static `name` member if it has one
// (convertible to std::string_view), else its type's name without the
// library's namespace ("sleep::jec", "example::spin_then_backoff");
// with_lazy_joins<P>: P's name and " + lazy_joins".
template <sleep_policy Policy>
std::string policy_name()
{
    if constexpr (detail::benchmark_pool<Policy>::has_lazy_joins) {
        return policy_name<typename detail::benchmark_pool<Policy>::sleep_policy_type>() + " + lazy_joins";
    } else if constexpr (requires {
                             // A static member only: a data member called
                             // `name` (a policy that logs under a name of its
                             // own, say) would also satisfy the unevaluated
                             // `Policy::name`, and is not the policy's name.
                             requires !std::is_member_object_pointer_v<decltype(&Policy::name)>;
                             std::string_view(Policy::name);
                         }) {
        return std::string(std::string_view(Policy::name));
    } else {
        std::string name = boost::core::demangle(typeid(Policy).name());
        constexpr std::string_view library = "boost::forkjoin::";
        if (name.starts_with(library))
            name.erase(0, library.size());
        return name;
    }
}

namespace detail {

// The default thread counts: 1, 2 and the hardware's, each once, ascending.
inline std::vector<std::size_t> benchmark_threads(std::vector<std::size_t> threads)
{
    if (threads.empty()) {
        threads = {1, 2};
        if (unsigned const hw = std::thread::hardware_concurrency(); hw > 0)
            threads.push_back(hw);
    }
    for (std::size_t t : threads)
        if (t == 0)
            throw std::invalid_argument("boost::forkjoin::compare_policies: a thread count of 0");
    std::sort(threads.begin(), threads.end());
    threads.erase(std::unique(threads.begin(), threads.end()), threads.end());
    return threads;
}

inline pool_stats operator-(pool_stats const& a, pool_stats const& b) noexcept
{
    return {a.sleeps - b.sleeps, a.wakeups - b.wakeups, a.futile_wakeups - b.futile_wakeups, a.injected - b.injected,
            a.steals - b.steals};
}

// Progress lines, once the run has taken more than a second, at most one a
// second.
class benchmark_progress {
public:
    benchmark_progress(std::ostream* out, std::size_t total) : out_(out), total_(total) {}

    void step(std::size_t threads, std::size_t round, std::size_t rounds)
    {
        ++done_;
        if (out_ == nullptr)
            return;
        auto const now = clock::now();
        if (now - start_ < std::chrono::seconds(1) || now - last_ < std::chrono::seconds(1))
            return;
        last_ = now;
        *out_ << "compare_policies: " << threads << (threads == 1 ? " thread" : " threads") << ", round "
              << round + 1 << " of " << rounds << " (" << done_ << " of " << total_ << " runs, " << std::fixed
              << std::setprecision(1) << seconds(now) << " s)" << std::endl;
        printed_ = true;
    }

    void finish()
    {
        if (out_ != nullptr && printed_)
            *out_ << "compare_policies: done, " << done_ << " runs in " << std::fixed << std::setprecision(1)
                  << seconds(clock::now()) << " s" << std::endl;
    }

private:
    using clock = std::chrono::steady_clock;
    double seconds(clock::time_point now) const { return std::chrono::duration<double>(now - start_).count(); }

    std::ostream* out_;
    std::size_t total_;
    std::size_t done_ = 0;
    bool printed_ = false;
    clock::time_point const start_ = clock::now();
    clock::time_point last_ = start_;
};

// Returns once every job, install, scope, broadcast and future task
// submitted to `pool` so far has finished. A repetition is the work, not its
// submission: `spawn` returns before its job runs, and a repetition that
// ended there would time nothing, and leave its work to overlap the next.
// Nothing wakes a thread for this, so it polls: it yields first (a job that
// is nearly done ends within microseconds, and a yield lets a worker queued
// behind this thread run), then sleeps 50 us at a time, which is what a
// long job's repetition may be timed too long by, and keeps the polling's
// own CPU time negligible. Free after `install` alone: the caller has
// given its unit back by then, so the first look finds nothing in flight.
// With options.pool.use_current_thread this thread is the pool's worker 0,
// and the work may sit on its own deque, which nobody else runs in a pool
// of one: there it runs what it finds before it polls.
template <class Pool>
void wait_for_work_in_flight(Pool& pool)
{
    using namespace std::chrono_literals;
    bool const worker_of_pool = pool.registry().owns(detail::current_worker);
    auto const start = std::chrono::steady_clock::now();
    while (pool.registry().has_work_in_flight()) {
        if (worker_of_pool && yield_now() == yield_result::executed)
            continue;
        if (std::chrono::steady_clock::now() - start < 100us)
            std::this_thread::yield();
        else
            std::this_thread::sleep_for(50us);
    }
}

// One measured repetition of `workload` under Policy with `threads` workers,
// on a pool of its own, into `cell`.
template <sleep_policy Policy, class Workload>
void measure_once(benchmark_options const& options, std::size_t threads, Workload& workload, benchmark_cell& cell)
{
    pool_options pool_opts = options.pool;
    pool_opts.num_threads = threads;
    typename benchmark_pool<Policy>::type pool(std::move(pool_opts));
    for (std::size_t i = 0; i < options.warmup; ++i)
        workload(pool);
    wait_for_work_in_flight(pool);
    pool_stats const stats_before = pool.stats();
    auto const cpu_before = process_cpu_time();
    auto const wall_before = std::chrono::steady_clock::now();
    workload(pool);
    wait_for_work_in_flight(pool);
    auto const wall_after = std::chrono::steady_clock::now();
    auto const cpu_after = process_cpu_time();
    pool_stats const stats_after = pool.stats();
    cell.wall_seconds.push_back(std::chrono::duration<double>(wall_after - wall_before).count());
    cell.cpu_seconds.push_back(std::chrono::duration<double>(cpu_after - cpu_before).count());
    cell.stats.push_back(stats_after - stats_before);
}

// --- Writing the results ------------------------------------------------------

inline void write_json_string(std::ostream& out, std::string_view s)
{
    out << '"';
    for (char c : s) {
        switch (c) {
        case '"': out << "\\\""; break;
        case '\\': out << "\\\\"; break;
        case '\n': out << "\\n"; break;
        case '\r': out << "\\r"; break;
        case '\t': out << "\\t"; break;
        default:
            if (static_cast<unsigned char>(c) < 0x20) {
                char buffer[8];
                std::snprintf(buffer, sizeof buffer, "\\u%04x", static_cast<unsigned>(c));
                out << buffer;
            } else {
                out << c;
            }
        }
    }
    out << '"';
}

// Shortest round-trip form; null for what JSON cannot hold (a ratio to 0).
inline void write_json_number(std::ostream& out, double v)
{
    if (!std::isfinite(v)) {
        out << "null";
        return;
    }
    char buffer[32];
    auto const [end, ec] = std::to_chars(buffer, buffer + sizeof buffer, v);
    out << std::string_view(buffer, ec == std::errc{} ? static_cast<std::size_t>(end - buffer) : 0);
}

inline void write_json_summary(std::ostream& out, sample_summary const& s, std::vector<double> const& samples)
{
    out << "{\"median\": ";
    write_json_number(out, s.median);
    out << ", \"min\": ";
    write_json_number(out, s.min);
    out << ", \"max\": ";
    write_json_number(out, s.max);
    out << ", \"samples\": [";
    for (std::size_t i = 0; i < samples.size(); ++i) {
        out << (i ? ", " : "");
        write_json_number(out, samples[i]);
    }
    out << "]}";
}

// The pool_stats counters, with the names the table and the JSON use.
struct stat_column {
    std::string_view json_name;
    std::string_view heading;
    std::uint64_t pool_stats::*counter;
};

inline constexpr std::array<stat_column, 5> stat_columns{{
    {"sleeps", "sleeps", &pool_stats::sleeps},
    {"wakeups", "wakeups", &pool_stats::wakeups},
    {"futile_wakeups", "futile", &pool_stats::futile_wakeups},
    {"steals", "steals", &pool_stats::steals},
    {"injected", "injected", &pool_stats::injected},
}};

// A number with `decimals` decimals, as the table shows it.
inline std::string fixed(double v, int decimals)
{
    if (!std::isfinite(v))
        return "-";
    std::ostringstream s;
    s << std::fixed << std::setprecision(decimals) << v;
    return s.str();
}

} // namespace detail

inline std::string benchmark_result::to_json() const
{
    std::ostringstream out;
    out << "{\n  \"title\": ";
    detail::write_json_string(out, title);
    out << ",\n  \"repetitions\": " << repetitions << ",\n  \"warmup\": " << warmup << ",\n  \"policies\": [";
    for (std::size_t i = 0; i < policies.size(); ++i) {
        out << (i ? ", " : "");
        detail::write_json_string(out, policies[i]);
    }
    out << "],\n  \"threads\": [";
    for (std::size_t i = 0; i < threads.size(); ++i)
        out << (i ? ", " : "") << threads[i];
    out << "],\n  \"cells\": [";
    for (std::size_t i = 0; i < cells.size(); ++i) {
        benchmark_cell const& c = cells[i];
        out << (i ? "," : "") << "\n    {\"policy\": ";
        detail::write_json_string(out, c.policy);
        out << ", \"threads\": " << c.threads << ",\n     \"wall_seconds\": ";
        detail::write_json_summary(out, c.wall(), c.wall_seconds);
        out << ",\n     \"cpu_seconds\": ";
        detail::write_json_summary(out, c.cpu(), c.cpu_seconds);
        out << ",\n     \"ratio_to_first\": {\"wall\": ";
        detail::write_json_number(out, wall_ratio(c));
        out << ", \"cpu\": ";
        detail::write_json_number(out, cpu_ratio(c));
        out << "},\n     \"stats\": [";
        for (std::size_t r = 0; r < c.stats.size(); ++r) {
            out << (r ? ", " : "") << "{";
            for (std::size_t k = 0; k < detail::stat_columns.size(); ++k) {
                out << (k ? ", " : "");
                detail::write_json_string(out, detail::stat_columns[k].json_name);
                out << ": " << c.stats[r].*detail::stat_columns[k].counter;
            }
            out << "}";
        }
        out << "]}";
    }
    out << "\n  ]\n}\n";
    return out.str();
}

// The table: one row per (thread count, policy), with the median and the
// range of wall and CPU time, their ratios to the first policy, and the
// medians of the pool's counters per repetition.
inline std::ostream& operator<<(std::ostream& out, benchmark_result const& result)
{
    // One unit for the whole table, chosen by its shortest median.
    double shortest = 0;
    for (benchmark_cell const& c : result.cells)
        if (double const m = c.wall().median; m > 0 && (shortest == 0 || m < shortest))
            shortest = m;
    auto const [unit, scale] = shortest != 0 && shortest < 1e-3 ? std::pair{"us", 1e6}
                               : shortest != 0 && shortest < 1  ? std::pair{"ms", 1e3}
                                                                : std::pair{"s", 1.0};

    std::size_t policy_width = 6;
    for (std::string const& p : result.policies)
        policy_width = std::max(policy_width, p.size());

    out << "compare_policies" << (result.title.empty() ? "" : ": ") << result.title << "\n"
        << result.repetitions << " repetitions per cell, the policies interleaved; " << result.warmup
        << " warm-up run" << (result.warmup == 1 ? "" : "s") << " on each fresh pool. Medians (min - max); "
        << "'x first' = this / " << (result.policies.empty() ? std::string("?") : result.policies.front())
        << " at the same thread count, lower is better.\n";

    std::ostringstream head;
    head << std::setw(3) << "thr" << "  " << std::left << std::setw(static_cast<int>(policy_width)) << "policy"
         << std::right << std::setw(11) << ("wall " + std::string(unit)) << std::setw(22) << "min - max"
         << std::setw(9) << "x first" << std::setw(11) << ("cpu " + std::string(unit)) << std::setw(9) << "x first";
    for (auto const& column : detail::stat_columns)
        head << std::setw(10) << column.heading;
    std::string const heading = head.str();
    out << heading << "\n" << std::string(heading.size(), '-') << "\n";

    for (benchmark_cell const& c : result.cells) {
        sample_summary const wall = c.wall();
        sample_summary const cpu = c.cpu();
        std::ostringstream row;
        row << std::setw(3) << c.threads << "  " << std::left << std::setw(static_cast<int>(policy_width))
            << c.policy << std::right << std::setw(11) << detail::fixed(wall.median * scale, 3) << std::setw(22)
            << (detail::fixed(wall.min * scale, 3) + " - " + detail::fixed(wall.max * scale, 3)) << std::setw(9)
            << detail::fixed(result.wall_ratio(c), 2) << std::setw(11) << detail::fixed(cpu.median * scale, 3)
            << std::setw(9) << detail::fixed(result.cpu_ratio(c), 2);
        for (auto const& column : detail::stat_columns)
            row << std::setw(10) << detail::fixed(c.stat(column.counter).median, 1);
        out << row.str() << "\n";
    }
    return out;
}

// Runs `workload(pool)`, where `pool` is a basic_thread_pool<P>& for each P
// in Policies, options.repetitions times per policy and thread count, with
// the policies interleaved and a fresh pool for every repetition (see the
// top of this header), and returns the measurements. `workload` must accept
// a pool of every policy: a generic lambda ([&](auto& pool) { ... }). It runs
// on the calling thread, outside the pool (its worker 0 with
// options.pool.use_current_thread); it submits work with
// pool.install, spawn, spawn_future, ..., and a repetition lasts until all
// that it submitted has finished, whether it waited for it or not. Throws
// std::invalid_argument for 0 repetitions, a thread count of 0 or two
// policies of one name, and what the pools' constructors or the workload
// throw (after destroying the pool).
template <sleep_policy... Policies, class Workload>
benchmark_result compare_policies(benchmark_options const& options, Workload&& workload)
{
    static_assert(sizeof...(Policies) > 0, "compare_policies needs at least one policy");
    if (options.repetitions == 0)
        throw std::invalid_argument("boost::forkjoin::compare_policies: 0 repetitions");

    benchmark_result result;
    result.title = options.title;
    result.repetitions = options.repetitions;
    result.warmup = options.warmup;
    result.policies = {policy_name<Policies>()...};
    // cell(policy, threads) finds a cell by name: two policies of one name
    // (a policy listed twice, or two that name themselves alike) could not
    // both be found.
    for (std::size_t i = 0; i < result.policies.size(); ++i)
        for (std::size_t j = 0; j < i; ++j)
            if (result.policies[i] == result.policies[j])
                throw std::invalid_argument("boost::forkjoin::compare_policies: two policies are named \""
                                            + result.policies[i] + "\"");
    result.threads = detail::benchmark_threads(options.threads);

    // measure_once for the policy at a run-time index.
    using measure_fn = void (*)(benchmark_options const&, std::size_t, std::remove_reference_t<Workload>&,
                                benchmark_cell&);
    constexpr std::array<measure_fn, sizeof...(Policies)> measure{
        &detail::measure_once<Policies, std::remove_reference_t<Workload>>...};
    constexpr std::size_t policy_count = sizeof...(Policies);

    detail::benchmark_progress progress(options.progress,
                                        result.threads.size() * options.repetitions * policy_count);
    for (std::size_t threads : result.threads) {
        std::size_t const first = result.cells.size();
        for (std::string const& name : result.policies) {
            benchmark_cell& c = result.cells.emplace_back();
            c.policy = name;
            c.threads = threads;
        }
        for (std::size_t round = 0; round < options.repetitions; ++round) {
            for (std::size_t k = 0; k < policy_count; ++k) {
                std::size_t const p = (round + k) % policy_count; // each round starts elsewhere
                measure[p](options, threads, workload, result.cells[first + p]);
                progress.step(threads, round, options.repetitions);
            }
        }
    }
    progress.finish();
    return result;
}

} // namespace boost::forkjoin

#endif // BOOST_FORKJOIN_POLICY_BENCHMARK_HPP
