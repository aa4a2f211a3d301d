// Copyright 2026 The Boost.ForkJoin developers.
// Distributed under the Boost Software License, Version 1.0.
// (See accompanying file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
#ifndef BOOST_FORKJOIN_PERFORMANCE_MACHINE_HPP
#define BOOST_FORKJOIN_PERFORMANCE_MACHINE_HPP

// What the report says about where it ran, and where the programs it runs
// are.

#include "options.hpp"

#include <filesystem>
#include <string>
#include <vector>

namespace forkjoin_bench {

struct machine_info {
    std::string cpu;
    unsigned cores = 0;
    std::string os;
    std::string compiler;
    std::string libraries;
    std::string rayon;
    std::string load; // load average at start: other work skews timings
    double load_1min = 0;
    std::string env; // runtime-related environment variables that are set
    std::string date;
};

// `rayon`: the rayon-bench binary ("" if none); `cargo_locks`: where its
// Cargo.lock may be, for the rayon version.
machine_info describe_machine(std::string const& rayon, std::vector<std::filesystem::path> const& cargo_locks);

// The rayon-bench binary, or "" (with the reason on stderr) when there is
// none: Rayon rows are then reported as n/a instead of failing the run.
std::string find_rayon(options const& o, std::string const& self, std::vector<std::filesystem::path>& cargo_locks);

// This executable, for the C++ children.
std::string self_path();

bool have_program(std::string const& name);

} // namespace forkjoin_bench

#endif // BOOST_FORKJOIN_PERFORMANCE_MACHINE_HPP
