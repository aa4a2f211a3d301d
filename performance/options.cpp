// Copyright 2026 The Boost.ForkJoin developers.
// Distributed under the Boost Software License, Version 1.0.
// (See accompanying file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)

#include "options.hpp"

#include "implementations.hpp"
#include "workloads.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <thread>

namespace forkjoin_bench {

namespace {

void print_help()
{
    fmt::print(
        "usage: forkjoin_bench [options]\n"
        "\n"
        "Runs every workload on every implementation and thread count, each in a\n"
        "child process, and prints a table of medians with min-max ranges.\n"
        "\n"
        "  --quick                 smoke test, at most about a minute: fewer repetitions\n"
        "                          and the reduced sizes the report labels\n"
        "  --workloads a,b         run only these workloads (see --list)\n"
        "  --impls a,b             run only these implementations; 'forkjoin' selects\n"
        "                          the three policies\n"
        "  --threads 1,2           thread counts (default: 1, 2 and the core count)\n"
        "  --reps N                measured repetitions per run (default: per workload)\n"
        "  --rounds N              run the whole plan N times over (default 1): each row\n"
        "                          gets N child processes spread over the run, and its\n"
        "                          median is over all their repetitions\n"
        "  --set wl.key=value      override a workload parameter, e.g. --set fib.n=30\n"
        "  --json FILE             write all results, raw repetitions included, as JSON\n"
        "  --csv FILE              write the summary as CSV\n"
        "  --plots DIR             write one PNG per workload with gnuplot\n"
        "  --rayon PATH            the rayon-bench binary (default: searched, or\n"
        "                          $FORKJOIN_BENCH_RAYON)\n"
        "  --timeout S             seconds before a child run is killed (default 300,\n"
        "                          60 with --quick; times the policies for the\n"
        "                          library's rows, which share a child)\n"
        "  --list                  list workloads and implementations and exit\n");
}

[[noreturn]] void usage_error(std::string const& what)
{
    fmt::print(stderr, "forkjoin_bench: {}\n(try --help)\n", what);
    std::exit(2);
}

bool is_workload(std::string_view name)
{
    return std::any_of(registry().begin(), registry().end(), [&](workload const& w) { return w.name == name; });
}

} // namespace

std::vector<std::string> split_list(std::string_view s)
{
    std::vector<std::string> out;
    while (!s.empty()) {
        auto comma = s.find(',');
        auto item = s.substr(0, comma);
        if (!item.empty())
            out.emplace_back(item);
        if (comma == std::string_view::npos)
            break;
        s.remove_prefix(comma + 1);
    }
    return out;
}

options parse_options(int argc, char** argv)
{
    options o;
    auto value = [&](int& i) -> std::string {
        if (i + 1 >= argc)
            usage_error(fmt::format("{} needs a value", argv[i]));
        return argv[++i];
    };
    for (int i = 1; i < argc; ++i) {
        std::string_view a = argv[i];
        if (a == "--quick")
            o.quick = true;
        else if (a == "--workloads")
            o.workloads = split_list(value(i));
        else if (a == "--impls")
            o.impls = split_list(value(i));
        else if (a == "--threads") {
            for (auto const& t : split_list(value(i))) {
                auto n = std::strtoul(t.c_str(), nullptr, 10);
                if (n == 0)
                    usage_error(fmt::format("bad thread count '{}'", t));
                o.threads.push_back(n);
            }
        } else if (a == "--reps") {
            int n = std::atoi(value(i).c_str());
            if (n < 1)
                usage_error("--reps needs a positive number");
            o.reps = n;
        } else if (a == "--rounds") {
            int n = std::atoi(value(i).c_str());
            if (n < 1)
                usage_error("--rounds needs a positive number");
            o.rounds = n;
        } else if (a == "--set") {
            auto kv = value(i);
            auto dot = kv.find('.'), eq = kv.find('=');
            if (dot == std::string::npos || eq == std::string::npos || eq < dot)
                usage_error(fmt::format("--set needs workload.key=value, got '{}'", kv));
            o.overrides.emplace_back(kv.substr(0, dot), kv.substr(dot + 1));
        } else if (a == "--json")
            o.json = value(i);
        else if (a == "--csv")
            o.csv = value(i);
        else if (a == "--plots")
            o.plots = value(i);
        else if (a == "--rayon")
            o.rayon = value(i);
        else if (a == "--timeout")
            o.timeout_s = std::atof(value(i).c_str());
        else if (a == "--help" || a == "-h") {
            print_help();
            std::exit(0);
        } else if (a == "--list") {
            fmt::print("workloads:\n");
            for (auto const& w : registry())
                fmt::print("  {:<16} {}\n", w.name, w.title);
            fmt::print("implementations:\n");
            for (auto const& i : implementations)
                fmt::print("  {:<16} {}\n", i.name, i.description);
            std::exit(0);
        } else
            usage_error(fmt::format("unknown option '{}'", a));
    }

    // Expand and check the selections.
    std::vector<std::string> impls;
    for (auto const& i : o.impls) {
        if (i == "forkjoin") {
            for (auto p : policy_rows)
                impls.emplace_back(p);
        } else if (is_implementation(i))
            impls.push_back(i);
        else
            usage_error(fmt::format("unknown implementation '{}'", i));
    }
    o.impls = impls;
    for (auto const& w : o.workloads)
        if (!is_workload(w))
            usage_error(fmt::format("unknown workload '{}'", w));
    for (auto const& [w, kv] : o.overrides)
        if (!is_workload(w))
            usage_error(fmt::format("--set: unknown workload '{}'", w));
    if (o.threads.empty()) {
        o.threads = {1, 2};
        if (auto hw = std::thread::hardware_concurrency(); hw > 2)
            o.threads.push_back(hw);
    }
    if (o.timeout_s <= 0)
        o.timeout_s = o.quick ? 60 : 300;
    return o;
}

} // namespace forkjoin_bench
