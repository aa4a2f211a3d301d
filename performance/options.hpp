// Copyright 2026 The Boost.ForkJoin developers.
// Distributed under the Boost Software License, Version 1.0.
// (See accompanying file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
#ifndef BOOST_FORKJOIN_PERFORMANCE_OPTIONS_HPP
#define BOOST_FORKJOIN_PERFORMANCE_OPTIONS_HPP

// forkjoin_bench's command line (see --help and README.md).

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace forkjoin_bench {

struct options {
    bool quick = false;
    std::vector<std::string> workloads; // empty: all
    std::vector<std::string> impls;     // empty: all
    std::vector<std::size_t> threads;   // empty: 1, 2 and the core count
    std::optional<int> reps;
    int rounds = 1; // the whole plan, this many times, interleaved in time
    std::string json, csv, plots;
    std::string rayon;    // path of rayon-bench; empty: search
    double timeout_s = 0; // per child; 0: 300 (full) or 60 (quick)
    std::vector<std::pair<std::string, std::string>> overrides; // workload, key=value
};

// Parses and checks the command line; prints help or the list and exits for
// --help and --list, prints the error and exits with status 2 for bad input.
options parse_options(int argc, char** argv);

// "a,b,,c" -> {"a", "b", "c"}.
std::vector<std::string> split_list(std::string_view s);

} // namespace forkjoin_bench

#endif // BOOST_FORKJOIN_PERFORMANCE_OPTIONS_HPP
