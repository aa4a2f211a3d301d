// Copyright 2026 The Boost.ForkJoin developers.
// Distributed under the Boost Software License, Version 1.0.
// (See accompanying file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
//
// A second user translation unit of separate_compilation_test: what it
// sees of the library must be the same library as the test's own unit
// (one global pool, one pool type).
#include "separate_compilation_other.hpp"

#include <boost/forkjoin/join.hpp>
#include <boost/forkjoin/sleep/legacy.hpp>
#include <boost/forkjoin/thread_pool.hpp>

namespace fj = boost::forkjoin;

fj::thread_pool* global_pool_seen_elsewhere() { return &fj::global_pool(); }

long fib_elsewhere(int n)
{
    if (n < 2)
        return n;
    auto [a, b] = fj::join([n] { return fib_elsewhere(n - 1); }, [n] { return fib_elsewhere(n - 2); });
    return a + b;
}

long fib_in_a_legacy_pool(int n)
{
    fj::basic_thread_pool<fj::sleep::legacy> pool({.num_threads = 2});
    return pool.install([n] { return fib_elsewhere(n); });
}
