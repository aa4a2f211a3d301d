// Copyright 2026 The Boost.ForkJoin developers.
// Distributed under the Boost Software License, Version 1.0.
// (See accompanying file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
//
// Must not compile: test/run.sh checks that the first error says, in a
// sentence, what the call at this file's line needs.
// expected error: basic_thread_pool::spawn_future(f): include <boost/forkjoin/future.hpp>
#include <boost/forkjoin/thread_pool.hpp>

int main()
{
    boost::forkjoin::thread_pool pool;
    (void)pool.spawn_future([] { return 1; });
}
