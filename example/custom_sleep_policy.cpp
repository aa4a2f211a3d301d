// Copyright 2026 The Boost.ForkJoin developers.
// Distributed under the Boost Software License, Version 1.0.
// (See accompanying file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)

// A pool whose idle workers spin, then back off with timed sleeps: a sleep
// policy written by a user (custom_sleep_policy.hpp), plugged in with one
// template argument.

#include "custom_sleep_policy.hpp"

#include <boost/forkjoin.hpp>

#include <chrono>
#include <cstdio>
#include <thread>

namespace fj = boost::forkjoin;

static long fib(int n)
{
    if (n < 2)
        return n;
    auto [a, b] = fj::join([n] { return fib(n - 1); }, [n] { return fib(n - 2); });
    return a + b;
}

int main()
{
    fj::basic_thread_pool<example::spin_then_backoff> pool({.num_threads = 2});
    long const result = pool.install([] { return fib(30); });
    std::printf("fib(30) = %ld on a pool with a user-written sleep policy\n", result);

    // Let the workers go idle: they spin, then sleep with growing timeouts.
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    auto const stats = pool.stats();
    std::printf("sleeps: %llu, steals: %llu\n", static_cast<unsigned long long>(stats.sleeps),
                static_cast<unsigned long long>(stats.steals));
    return result == 832040 ? 0 : 1;
}
