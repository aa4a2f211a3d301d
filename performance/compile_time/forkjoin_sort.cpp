// Copyright 2026 The Boost.ForkJoin developers.
// Distributed under the Boost Software License, Version 1.0.
// (See accompanying file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
//
// A fixed translation unit of performance/compile_time.sh.
// A parallel sort and a reduction with the algorithms' header.
#include <boost/forkjoin/algorithm.hpp>

#include <vector>

int main()
{
    std::vector<int> v(1000, 1);
    boost::forkjoin::sort(v);
    return static_cast<int>(boost::forkjoin::reduce(v, 0L));
}
