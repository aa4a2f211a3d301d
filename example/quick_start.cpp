// Copyright 2026 The Boost.ForkJoin developers.
// Distributed under the Boost Software License, Version 1.0.
// (See accompanying file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)

// The README's example: a parallel loop, a sort and a sum with the
// algorithms, on the global pool; then a sum written with
// join, the building block under the algorithms, on a pool whose sleep
// policy is chosen by a template argument.

#include <boost/forkjoin.hpp>

#include <algorithm>
#include <cstddef>
#include <cstdio>
#include <numeric>
#include <ranges>
#include <span>
#include <vector>

namespace fj = boost::forkjoin;

long sum(std::span<int const> v)
{
    if (v.size() < 4096)
        return std::accumulate(v.begin(), v.end(), 0L);
    auto [left, right] = fj::join([&] { return sum(v.first(v.size() / 2)); },
                                  [&] { return sum(v.subspan(v.size() / 2)); });
    return left + right;
}

int main()
{
    // The algorithms: std's arguments, no execution policy.
    std::vector<double> v(1'000'000);
    fj::for_each(std::views::iota(std::size_t{0}, v.size()), [&](std::size_t i) { v[i] = double(999 - i % 1000); });
    fj::sort(v);
    double const total = fj::reduce(v, 0.0);
    std::printf("total = %.0f, smallest = %.0f, largest = %.0f\n", total, v.front(), v.back());

    // join, on a pool of four threads under the jec sleep policy.
    std::vector<int> data(10'000'000, 1);
    fj::basic_thread_pool<fj::sleep::jec> pool({.num_threads = 4});
    long const ones = pool.install([&] { return sum(data); });
    std::printf("sum = %ld\n", ones);
    bool const sorted = std::is_sorted(v.begin(), v.end());
    return sorted && total == 499'500'000.0 && ones == 10'000'000 ? 0 : 1;
}
