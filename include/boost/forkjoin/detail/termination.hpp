// Copyright 2026 The Boost.ForkJoin developers.
// Distributed under the Boost Software License, Version 1.0.
// (See accompanying file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
#ifndef BOOST_FORKJOIN_DETAIL_TERMINATION_HPP
#define BOOST_FORKJOIN_DETAIL_TERMINATION_HPP

// The library's fatal paths (an exception that nobody can receive, a pool
// misused beyond repair) end the process with std::terminate, one thread at
// a time.
//
// Workers easily fail together: every worker's start_handler throws the
// same exception, or several jobs spawned without a panic handler throw at
// once. Two threads in std::terminate at the same time lose the reason:
// libstdc++'s default handler, entered while it runs, prints "terminate
// called recursively" and aborts the process in the middle of the first
// thread's report of its exception, which is then cut short before its
// what(). So the first thread to fail terminates, and every other one waits
// for the process to end.

#include <atomic>
#include <chrono>
#include <cstdio>
#include <exception>
#include <thread>

namespace boost::forkjoin::detail {

// Returns in the first thread that calls it, and again in that thread (a
// terminate handler that fails in a pool once more goes on to
// std::terminate, and to its own rule for a recursive call); blocks every
// other thread for good, while the first one ends the process.
inline void begin_termination() noexcept
{
    // Relaxed: only which thread comes first matters; nothing is published.
    static constinit std::atomic<bool> claimed{false};
    static constinit thread_local bool claimed_by_this_thread = false;
    if (claimed_by_this_thread)
        return;
    if (claimed.exchange(true, std::memory_order_relaxed)) {
        for (;;)
            std::this_thread::sleep_for(std::chrono::hours(1));
    }
    claimed_by_this_thread = true;
}

// Writes `message` and a newline to stderr, then calls std::terminate.
[[noreturn]] inline void terminate_with_message(char const* message) noexcept
{
    begin_termination();
    std::fprintf(stderr, "%s\n", message);
    std::fflush(stderr);
    std::terminate();
}

} // namespace boost::forkjoin::detail

#endif // BOOST_FORKJOIN_DETAIL_TERMINATION_HPP
