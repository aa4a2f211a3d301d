// Copyright 2026 The Boost.ForkJoin developers.
// Distributed under the Boost Software License, Version 1.0.
// (See accompanying file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
//
// Must not compile: test/run.sh checks that the compiler says why, with the
// text below. A capacity this large once overflowed the deque's signed
// indices at run time.
// expected error: deque_capacity<N>: N is at most 2^30
#include <boost/forkjoin.hpp>

int main()
{
    boost::forkjoin::basic_thread_pool<boost::forkjoin::sleep::jec,
                                       boost::forkjoin::deque_capacity<(std::size_t{1} << 62) + 1>>
        pool;
    return pool.install([] { return 0; });
}
