// Copyright 2026 The Boost.ForkJoin developers.
// Distributed under the Boost Software License, Version 1.0.
// (See accompanying file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
//
// Must not compile: test/run.sh checks that the compiler says why, with the
// text below. A pool's type options are capacities and lazy_joins (a sleep
// policy in the options' place, say, is no option).
// expected error: basic_thread_pool options are deque_capacity<N>, injector_capacity<N> and lazy_joins
#include <boost/forkjoin.hpp>

int main()
{
    boost::forkjoin::basic_thread_pool<boost::forkjoin::sleep::jec, boost::forkjoin::sleep::legacy> pool;
    return pool.install([] { return 0; });
}
