// Copyright 2026 The Boost.ForkJoin developers.
// Distributed under the Boost Software License, Version 1.0.
// (See accompanying file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)

// forkjoin_bench: Boost.ForkJoin (one row per sleep policy) against serial
// code, oneTBB, OpenMP tasks and Rayon, on the workloads of workloads.hpp.
//
// The pieces:
//
//   options.hpp          the command line
//   runner.hpp           the plan and the child processes that run it
//   child.hpp            a child process: one kernel on one implementation,
//                        or on the library's policies through
//                        boost::forkjoin::compare_policies
//   results.hpp          what a run produced, and its statistics
//   report.hpp           the tables, JSON, CSV and plots
//   machine.hpp          what the report says about the machine
//   workloads.hpp        the kernels and the rows of the report
//   executors.hpp        the implementations the kernels run on
//   measure.hpp          clocks and the `rep key=value` line protocol
//
// See README.md for the workloads and how to read the results, and --help
// for the options.

#include "child.hpp"
#include "implementations.hpp"
#include "machine.hpp"
#include "options.hpp"
#include "report.hpp"
#include "runner.hpp"
#include "workloads.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <exception>
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

using namespace forkjoin_bench;

namespace {

int driver_main(int argc, char** argv)
{
    options const o = parse_options(argc, argv);
    std::string const self = self_path();
    std::vector<std::filesystem::path> locks;
    std::string rayon;
    bool const want_rayon = o.impls.empty() || std::count(o.impls.begin(), o.impls.end(), "rayon");
    if (want_rayon)
        rayon = find_rayon(o, self, locks);
    machine_info m = describe_machine(rayon, locks);
    if (!want_rayon)
        m.rayon = "not selected";

    // The selection, in registry order.
    std::vector<workload const*> wls;
    for (auto const& w : registry())
        if (o.workloads.empty() || std::count(o.workloads.begin(), o.workloads.end(), w.name))
            wls.push_back(&w);
    std::vector<std::string_view> impls;
    for (auto const& i : implementations)
        if (o.impls.empty() || std::count(o.impls.begin(), o.impls.end(), i.name))
            impls.push_back(i.name);
    used_params used;
    for (auto const* wl : wls)
        if (wl->implemented())
            used[wl->name] = workload_params(*wl, o);

    print_header(m, o);
    auto const plan = build_plan(o, wls, impls, used);
    auto const t_start = wall_ns();
    auto results = run_plan(plan, self, rayon, o.timeout_s, o.rounds);
    auto const checks = check_results(results, used);

    print_tables(wls, results, used, checks, o);
    fmt::print("\n{} runs ({} child processes) in {:.1f} s\n", results.size(), plan.size() * std::size_t(o.rounds),
               double(wall_ns() - t_start) / 1e9);
    if (!o.json.empty())
        write_json(o.json, m, o, wls, results, used, checks);
    if (!o.csv.empty())
        write_csv(o.csv, results);
    if (!o.plots.empty())
        write_plots(o.plots, wls, results, o.threads, o.quick);

    // A wrong result fails the run as a crash does (README.md: CI runs
    // --quick as a test).
    bool const failed = std::any_of(results.begin(), results.end(), [](auto const& r) {
        return r.state == run_state::failed || r.state == run_state::wrong;
    });
    return failed ? 1 : 0;
}

} // namespace

int main(int argc, char** argv)
{
    try {
        if (argc > 1 && std::string_view(argv[1]) == "--child")
            return child_main(argc, argv);
        return driver_main(argc, argv);
    } catch (std::exception const& e) {
        fmt::print(stderr, "forkjoin_bench: {}\n", e.what());
        return 1;
    }
}
