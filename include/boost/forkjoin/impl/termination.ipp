// Copyright 2026 The Boost.ForkJoin developers.
// Distributed under the Boost Software License, Version 1.0.
// (See accompanying file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
#ifndef BOOST_FORKJOIN_IMPL_TERMINATION_IPP
#define BOOST_FORKJOIN_IMPL_TERMINATION_IPP

// detail/termination.hpp says why one thread at a time.

#include <boost/forkjoin/detail/termination.hpp>

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
BOOST_FORKJOIN_DECL void begin_termination() noexcept
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
BOOST_FORKJOIN_DECL void terminate_with_message(char const* message) noexcept
{
    begin_termination();
    std::fprintf(stderr, "%s\n", message);
    std::fflush(stderr);
    std::terminate();
}

} // namespace boost::forkjoin::detail

#endif // BOOST_FORKJOIN_IMPL_TERMINATION_IPP
