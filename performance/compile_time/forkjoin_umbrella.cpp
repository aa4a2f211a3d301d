// Copyright 2026 The Boost.ForkJoin developers.
// Distributed under the Boost Software License, Version 1.0.
// (See accompanying file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
//
// A fixed translation unit of performance/compile_time.sh.
// The umbrella header, one join.
#include <boost/forkjoin.hpp>

int main()
{
    auto [a, b] = boost::forkjoin::join([] { return 1; }, [] { return 2; });
    return a + b;
}
