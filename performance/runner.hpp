// Copyright 2026 The Boost.ForkJoin developers.
// Distributed under the Boost Software License, Version 1.0.
// (See accompanying file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
#ifndef BOOST_FORKJOIN_PERFORMANCE_RUNNER_HPP
#define BOOST_FORKJOIN_PERFORMANCE_RUNNER_HPP

// The runner: which runs to make (the plan), and making them, each in a
// child process, into run_results. It prints nothing but progress on
// stderr; report.hpp turns its results into tables and files.
//
// Every (workload, implementation, thread count) runs in a child process
// of its own: this program re-executed with --child (child.hpp) for the
// C++ implementations, rayon/ 's `rayon-bench` for Rayon. That puts every
// implementation on the same footing (a fresh process, no other runtime's
// threads spinning in the background while we read the process CPU clock)
// and lets a hung or crashed run be reported instead of taking the whole
// benchmark down. The library's policies share one child per (workload,
// thread count), which measures them with compare_policies: their
// repetitions interleaved, each on a fresh pool, only one pool alive at a
// time.

#include "measure.hpp"
#include "options.hpp"
#include "results.hpp"
#include "workloads.hpp"

#include <cstddef>
#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace forkjoin_bench {

// One child process.
struct plan_item {
    workload const* wl;
    params args;
    std::vector<std::string> impls; // one, or the library's policies measured together
    std::size_t threads;
    int reps, warmup;
};

// The parameters `wl` runs with: full or --quick, then the --set overrides.
params workload_params(workload const& wl, options const& o);

// The runs, thread count outer and implementation inner, so that the rows
// that are compared with each other run close together in time. Serial
// runs once per workload.
std::vector<plan_item> build_plan(options const& o, std::vector<workload const*> const& wls,
                                  std::vector<std::string_view> const& impls,
                                  std::map<std::string_view, params> const& used);

// Runs every item `rounds` times, showing progress on stderr. `self` is
// this program, `rayon` the rayon-bench binary ("" if none). Results come in
// plan order, one per implementation of each item, with the repetitions of
// all rounds.
//
// Rounds are for a noisy machine. A shared VM's speed drifts by tens of
// percent over seconds (another tenant, the host's clock); one child per
// row would measure each row in its own stretch of that drift, and the
// ratios between rows would carry it. Running the whole plan again and
// again spreads every row over the whole run, so the drift falls on all
// of them alike.
std::vector<run_result> run_plan(std::vector<plan_item> const& plan, std::string const& self, std::string const& rayon,
                                 double timeout_s, int rounds = 1);

} // namespace forkjoin_bench

#endif // BOOST_FORKJOIN_PERFORMANCE_RUNNER_HPP
