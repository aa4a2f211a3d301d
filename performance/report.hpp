// Copyright 2026 The Boost.ForkJoin developers.
// Distributed under the Boost Software License, Version 1.0.
// (See accompanying file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
#ifndef BOOST_FORKJOIN_PERFORMANCE_REPORT_HPP
#define BOOST_FORKJOIN_PERFORMANCE_REPORT_HPP

// The reports: the header and the tables on stdout, and the JSON, CSV and
// gnuplot files. They read run_results (results.hpp) and never run
// anything.

#include "machine.hpp"
#include "measure.hpp"
#include "options.hpp"
#include "results.hpp"
#include "workloads.hpp"

#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace forkjoin_bench {

// Where and how the benchmark runs, before anything runs.
void print_header(machine_info const& m, options const& o);

// The right result of each workload whose runs print a check
// (check_results).
using check_references = std::map<workload const*, check_reference>;

// One table per workload: medians, min-max ranges, ratios against serial
// and Rayon, the extra columns, and whether every implementation computed
// the right result.
void print_tables(std::vector<workload const*> const& wls, std::vector<run_result> const& results,
                  used_params const& used, check_references const& checks, options const& o);

// Everything, every repetition's raw fields and each run's check included.
void write_json(std::string const& path, machine_info const& machine, options const& o,
                std::vector<workload const*> const& wls, std::vector<run_result> const& results,
                used_params const& used, check_references const& checks);

// One line per (workload, implementation, threads, metric), with the run's
// check.
void write_csv(std::string const& path, std::vector<run_result> const& results);

// One PNG per workload (gnuplot): a cluster of bars per implementation, one
// bar per thread count, the min-max range as an error bar.
void write_plots(std::string const& dir, std::vector<workload const*> const& wls,
                 std::vector<run_result> const& results, std::vector<std::size_t> const& threads, bool quick);

} // namespace forkjoin_bench

#endif // BOOST_FORKJOIN_PERFORMANCE_REPORT_HPP
