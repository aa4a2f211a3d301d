// Copyright 2026 The Boost.ForkJoin developers.
// Distributed under the Boost Software License, Version 1.0.
// (See accompanying file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)

// Choosing a sleep policy by measuring it on your own workload: the three
// policies of the library and a user-written one (custom_sleep_policy.hpp)
// on a workload that alternates bursts of parallel work with idle gaps, as
// a server or a game loop does. The table shows wall time, the process's
// CPU time (what idle workers burn shows there), and the pool's counters.
//
//     policy_bakeoff [--json FILE] [--repetitions N]

#include "custom_sleep_policy.hpp"

#include <boost/forkjoin.hpp>
#include <boost/forkjoin/policy_benchmark.hpp>

#include <algorithm>
#include <charconv>
#include <chrono>
#include <cstdint>
#include <fstream>
#include <iostream>
#include <random>
#include <span>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

namespace fj = boost::forkjoin;

// The user's algorithm: a parallel merge sort.
static void merge_sort(std::span<std::uint32_t> v, std::span<std::uint32_t> scratch)
{
    if (v.size() <= 4096) {
        std::sort(v.begin(), v.end());
        return;
    }
    std::size_t const mid = v.size() / 2;
    fj::join([&] { merge_sort(v.first(mid), scratch.first(mid)); },
             [&] { merge_sort(v.subspan(mid), scratch.subspan(mid)); });
    std::merge(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(mid), v.begin() + static_cast<std::ptrdiff_t>(mid),
               v.end(), scratch.begin());
    std::copy(scratch.begin(), scratch.begin() + static_cast<std::ptrdiff_t>(v.size()), v.begin());
}

// A positive decimal count, all of `text`.
static bool parse_count(std::string_view text, std::size_t& count)
{
    std::size_t value = 0;
    auto const [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (error != std::errc{} || end != text.data() + text.size() || value == 0)
        return false;
    count = value;
    return true;
}

int main(int argc, char** argv)
{
    std::string json_path;
    std::size_t repetitions = 5;
    for (int i = 1; i < argc; ++i) {
        std::string_view const arg = argv[i];
        if (arg == "--json" && i + 1 < argc)
            json_path = argv[++i];
        else if (arg == "--repetitions" && i + 1 < argc && parse_count(argv[i + 1], repetitions))
            ++i;
        else {
            std::cerr << "usage: policy_bakeoff [--json FILE] [--repetitions N]\n";
            return 2;
        }
    }

    std::vector<std::uint32_t> input(200'000);
    std::mt19937 rng(42);
    for (auto& x : input)
        x = static_cast<std::uint32_t>(rng());
    std::vector<std::uint32_t> expected = input;
    std::sort(expected.begin(), expected.end());

    // One repetition: 10 bursts, each a sort submitted from this thread and
    // followed by 2 ms of idleness (the pool waits for the next request).
    bool all_sorted = true;
    auto workload = [&](auto& pool) {
        std::vector<std::uint32_t> v, scratch(input.size());
        for (int burst = 0; burst < 10; ++burst) {
            v = input;
            pool.install([&] { merge_sort(v, scratch); });
            all_sorted = all_sorted && v == expected;
            std::this_thread::sleep_for(std::chrono::milliseconds(2));
        }
    };

    fj::benchmark_options options;
    options.threads = {1, 2};
    if (unsigned const hw = std::thread::hardware_concurrency(); hw > 2)
        options.threads.push_back(hw);
    options.repetitions = repetitions;
    options.title = "10 x (merge sort of 200,000 integers, then 2 ms idle)";

    auto const result = fj::compare_policies<fj::sleep::jec, fj::sleep::legacy, fj::sleep::spin,
                                             example::spin_then_backoff>(options, workload);
    std::cout << result;

    if (!json_path.empty()) {
        std::ofstream json(json_path);
        json << result.to_json();
        json.close(); // flushes, so that the check below sees a full disk too
        if (!json) {
            std::cerr << "policy_bakeoff: cannot write " << json_path << "\n";
            return 1;
        }
        std::cout << "JSON written to " << json_path << "\n";
    }
    if (!all_sorted) {
        std::cerr << "policy_bakeoff: a sort went wrong\n";
        return 1;
    }
    return 0;
}
