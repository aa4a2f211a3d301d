// Copyright 2026 The Boost.ForkJoin developers.
// Distributed under the Boost Software License, Version 1.0.
// (See accompanying file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
#ifndef BOOST_FORKJOIN_PERFORMANCE_RESULTS_HPP
#define BOOST_FORKJOIN_PERFORMANCE_RESULTS_HPP

// What the runner hands the reports: one run_result per (workload,
// implementation, thread count), holding the fields of every repetition as
// the child printed them, and the statistics the reports compute from them.

#include "workloads.hpp"

#include <cstddef>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace forkjoin_bench {

// The `key=value` fields of one `rep` line.
using sample = std::map<std::string, std::string, std::less<>>;

// wrong: the run completed, but its `check` is not the right result
// (check_results); it fails the benchmark as a crash does.
enum class run_state { ok, skipped, failed, wrong };

struct run_result {
    workload const* wl;
    std::string impl;
    std::size_t threads;
    run_state state = run_state::failed;
    std::string note;
    std::vector<sample> reps;
    double seconds = 0; // of the child process that produced it
    // The `check` fields of its repetitions (check_key), each distinct one
    // once, space-separated; "" if they had none. Set by check_results.
    std::string check;
};

// The parameters each selected workload ran with.
using used_params = std::map<std::string_view, params>;

std::string state_name(run_state s);

// The fields of a line's `key=value` words.
sample parse_fields(std::string_view line);

// Field `key` as a number, if it is there and is one.
std::optional<double> field(sample const& s, std::string_view key);

// A metric of one repetition: field `key`, divided by field `per` when
// given, times `scale`.
std::optional<double> metric_value(sample const& s, metric const& m);

struct summary {
    double median, min, max;
    std::size_t n;
};

// The metric over a run's repetitions; nothing if no repetition has it.
std::optional<summary> summarize(run_result const& r, metric const& m);

// A `check` field as results are compared and reported: an integer exactly
// as printed (frame-loop's is a 64-bit XOR, which a double would round),
// another number as the shortest text that reads back as the same double
// (nbody's sum, which C++ and Rust print alike only below 1e16), anything
// else as it is.
std::string check_key(std::string_view text);

// What the runs of a workload should have computed.
struct check_reference {
    std::string value;  // "": they disagree and nothing says which is right
    std::string source; // why this is the right value
};

// Compares the `check` fields of each workload's runs, and marks each run
// that completed (ok) but computed something else than the right result
// `wrong`, with a note. The right result is, in this order: the value the
// workload knows to be right (workload::expected_check: fib), the serial
// run's (the same algorithm with no scheduler at all), or the one computed
// by more runs than any other. When runs disagree and none of these
// decides, every run with a check is wrong: the benchmark cannot tell which
// one is. A run whose repetitions disagree with each other is wrong too.
// Returns the reference of each workload whose runs print a check.
std::map<workload const*, check_reference> check_results(std::vector<run_result>& results, used_params const& used);

// The result of `impl` on `wl` at `threads` (any thread count if none).
run_result const* find_result(std::vector<run_result> const& all, workload const* wl, std::string_view impl,
                              std::optional<std::size_t> threads);

} // namespace forkjoin_bench

#endif // BOOST_FORKJOIN_PERFORMANCE_RESULTS_HPP
