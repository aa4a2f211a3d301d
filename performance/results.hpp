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

enum class run_state { ok, skipped, failed };

struct run_result {
    workload const* wl;
    std::string impl;
    std::size_t threads;
    run_state state = run_state::failed;
    std::string note;
    std::vector<sample> reps;
    double seconds = 0; // of the child process that produced it
};

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

// The result of `impl` on `wl` at `threads` (any thread count if none).
run_result const* find_result(std::vector<run_result> const& all, workload const* wl, std::string_view impl,
                              std::optional<std::size_t> threads);

} // namespace forkjoin_bench

#endif // BOOST_FORKJOIN_PERFORMANCE_RESULTS_HPP
