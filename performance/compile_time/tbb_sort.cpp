// Copyright 2026 The Boost.ForkJoin developers.
// Distributed under the Boost Software License, Version 1.0.
// (See accompanying file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
//
// A fixed translation unit of performance/compile_time.sh.
// The oneTBB twin of forkjoin_sort.cpp.
#include <tbb/parallel_reduce.h>
#include <tbb/parallel_sort.h>

#include <functional>
#include <vector>

int main()
{
    std::vector<int> v(1000, 1);
    tbb::parallel_sort(v.begin(), v.end());
    return static_cast<int>(tbb::parallel_reduce(
        tbb::blocked_range<std::size_t>(0, v.size()), 0L,
        [&](tbb::blocked_range<std::size_t> const& r, long s) {
            for (std::size_t i = r.begin(); i != r.end(); ++i)
                s += v[i];
            return s;
        },
        std::plus<>()));
}
