// Copyright 2026 The Boost.ForkJoin developers.
// Distributed under the Boost Software License, Version 1.0.
// (See accompanying file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)

// Choosing a sleep policy by measuring it on your own workload: the three
// policies of the library and a user-written one (custom_sleep_policy.hpp)
// on two workloads that alternate bursts of parallel work with idle gaps, as
// a server or a game loop does: a merge sort written with join, and a
// Mandelbrot image computed with the parallel algorithms (fj::transform
// over its pixels, whose costs differ widely, then fj::reduce). Each table
// shows wall time, the process's CPU time (what idle workers burn shows
// there), and the pool's counters.
//
//     policy_bakeoff [--json FILE] [--repetitions N]
//
// --json writes both results as a JSON array, the sort's first.

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
#include <ranges>
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

// The Mandelbrot workload's image.
constexpr int width = 384, height = 256, max_iterations = 100;

// The escape time of pixel i of the width x height view of the Mandelbrot
// set: max_iterations inside the set, a few iterations far outside it.
static int escape_time(int i)
{
    double const cr = -2.0 + 3.0 * (i % width) / width;
    double const ci = -1.2 + 2.4 * (i / width) / height;
    double zr = 0.0, zi = 0.0;
    int n = 0;
    while (n < max_iterations && zr * zr + zi * zi <= 4.0) {
        double const t = zr * zr - zi * zi + cr;
        zi = 2.0 * zr * zi + ci;
        zr = t;
        ++n;
    }
    return n;
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
    std::cout << result << "\n";

    // The same policies on the parallel algorithms: 10 bursts, each a
    // 384 x 256 Mandelbrot image (fj::transform over the pixels, whose costs
    // differ by two orders of magnitude) and the total of its escape times
    // (fj::reduce), followed by 2 ms of idleness.
    std::uint64_t expected_total = 0;
    for (int i = 0; i < width * height; ++i)
        expected_total += static_cast<std::uint64_t>(escape_time(i));
    bool all_totals_right = true;
    auto algorithms_workload = [&](auto& pool) {
        std::vector<int> image(width * height);
        for (int burst = 0; burst < 10; ++burst) {
            std::uint64_t const total = pool.install([&] {
                fj::transform(std::views::iota(0, width * height), image.begin(),
                              [](int i) { return escape_time(i); });
                return fj::reduce(image, std::uint64_t{0});
            });
            all_totals_right = all_totals_right && total == expected_total;
            std::this_thread::sleep_for(std::chrono::milliseconds(2));
        }
    };
    options.title = "10 x (fj::transform of a 384 x 256 Mandelbrot image, fj::reduce of it, then 2 ms idle)";
    auto const algorithms_result = fj::compare_policies<fj::sleep::jec, fj::sleep::legacy, fj::sleep::spin,
                                                        example::spin_then_backoff>(options, algorithms_workload);
    std::cout << algorithms_result;

    if (!json_path.empty()) {
        std::ofstream json(json_path);
        json << "[\n" << result.to_json() << ",\n" << algorithms_result.to_json() << "]\n";
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
    if (!all_totals_right) {
        std::cerr << "policy_bakeoff: a Mandelbrot total went wrong\n";
        return 1;
    }
    return 0;
}
