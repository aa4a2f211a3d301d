// Copyright 2026 The Boost.ForkJoin developers.
// Distributed under the Boost Software License, Version 1.0.
// (See accompanying file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)

// Jobs spawned into the global pool are not lost when main returns: the
// pool's atexit handler waits for them. The check is itself an atexit
// handler, registered before the pool exists, so it runs after the pool's
// (handlers run in reverse order of registration). Not a Boost.Test program:
// what it tests happens after main.

#include <boost/forkjoin.hpp>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <thread>

namespace {

constexpr int jobs = 200;
std::atomic<int> finished{0};

void check_after_the_pool_shut_down()
{
    int const n = finished.load();
    std::printf("%d of %d spawned jobs finished before exit\n", n, jobs);
    std::fflush(stdout);
    std::_Exit(n == jobs ? 0 : 1);
}

} // namespace

int main()
{
    std::atexit(&check_after_the_pool_shut_down);
    for (int i = 0; i < jobs; ++i)
        boost::forkjoin::spawn([] {
            std::this_thread::sleep_for(std::chrono::microseconds(500));
            ++finished;
        });
    return 0; // most jobs are still queued here
}
