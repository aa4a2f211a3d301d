// Copyright 2026 The Boost.ForkJoin developers.
// Distributed under the Boost Software License, Version 1.0.
// (See accompanying file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
//
// A fixed translation unit of performance/compile_time.sh.
// The same with the standard library's parallel algorithms (libstdc++ on
// oneTBB).
#include <algorithm>
#include <execution>
#include <numeric>
#include <vector>

int main()
{
    std::vector<int> v(1000, 1);
    std::sort(std::execution::par, v.begin(), v.end());
    return static_cast<int>(std::reduce(std::execution::par, v.begin(), v.end(), 0L));
}
