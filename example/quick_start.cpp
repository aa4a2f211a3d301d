// Copyright 2026 The Boost.ForkJoin developers.
// Distributed under the Boost Software License, Version 1.0.
// (See accompanying file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)

// The README's example: a parallel sum with join on a pool whose sleep
// policy is chosen by a template argument.

#include <boost/forkjoin.hpp>

#include <cstdio>
#include <numeric>
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
    std::vector<int> data(10'000'000, 1);
    fj::basic_thread_pool<fj::sleep::jec> pool({.num_threads = 4});
    long const total = pool.install([&] { return sum(data); });
    std::printf("sum = %ld\n", total);
    return total == 10'000'000 ? 0 : 1;
}
