// Copyright 2026 The Boost.ForkJoin developers.
// Distributed under the Boost Software License, Version 1.0.
// (See accompanying file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
#ifndef BOOST_FORKJOIN_ERRORS_HPP
#define BOOST_FORKJOIN_ERRORS_HPP

#include <stdexcept>

namespace boost::forkjoin {

// A pool was asked for more threads than its sleep policy can count.
struct too_many_threads : std::invalid_argument {
    using std::invalid_argument::invalid_argument;
};

// build_global() was called after the global pool already existed (built by
// an earlier build_global() or on first use).
struct global_pool_already_initialized : std::logic_error {
    global_pool_already_initialized()
        : std::logic_error("boost::forkjoin::build_global: the global pool is already initialized")
    {
    }
};

// Work was submitted to a pool that accepts none any more: it has finished
// terminating, it is the global pool after its exit handler ran, or it was
// built before a fork() and this is the child process. The message says
// which.
struct pool_terminated : std::logic_error {
    pool_terminated()
        : std::logic_error("boost::forkjoin: the pool has terminated and accepts no more work")
    {
    }
    explicit pool_terminated(char const* why) : std::logic_error(why) {}
};

// A future's task was cancelled (future::cancel, or the future was dropped
// while pending). Thrown by await and get inside the cancelled fiber, at its
// next suspension point, and by get on a future whose task was cancelled
// before it started or while it was parked.
struct future_cancelled : std::runtime_error {
    future_cancelled() : std::runtime_error("boost::forkjoin: the future was cancelled") {}
};

} // namespace boost::forkjoin

#endif // BOOST_FORKJOIN_ERRORS_HPP
