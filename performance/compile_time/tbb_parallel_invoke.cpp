// Copyright 2026 The Boost.ForkJoin developers.
// Distributed under the Boost Software License, Version 1.0.
// (See accompanying file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
//
// A fixed translation unit of performance/compile_time.sh.
// The oneTBB twin of forkjoin_join.cpp.
#include <tbb/parallel_invoke.h>

int main()
{
    int a = 0, b = 0;
    tbb::parallel_invoke([&] { a = 1; }, [&] { b = 2; });
    return a + b;
}
