// Copyright 2026 The Boost.ForkJoin developers.
// Distributed under the Boost Software License, Version 1.0.
// (See accompanying file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
#ifndef BOOST_FORKJOIN_DETAIL_FORK_GENERATION_HPP
#define BOOST_FORKJOIN_DETAIL_FORK_GENERATION_HPP

// How many fork()s made this process, as counted in each child by a
// pthread_atfork handler (fork_handling.hpp registers it). An object that
// holds a mutex or condition variable its owner may block on records the
// count when it is built; in a child, one built under an older count was
// copied from the parent, where threads that do not exist here may hold or
// wait on it, and must not be touched: one lock or notify can hang the
// child. Its own header so that the latches, which the registry does not
// include, can check it.

#include <boost/forkjoin/detail/termination.hpp>

#include <atomic>
#include <cstdint>

namespace boost::forkjoin::detail {

// Relaxed everywhere: it changes only in a child's atfork handler, while
// the child has a single thread; threads started later synchronize with
// their creator.
inline constinit std::atomic<std::uint32_t> fork_generation{0};

inline std::uint32_t current_fork_generation() noexcept { return fork_generation.load(std::memory_order_relaxed); }

// What a child forked inside a job is told when it goes on with the pool's
// business instead of calling exec or _exit (reference.adoc, "Pools and
// fork()").
inline constexpr char const* job_returned_after_fork_message =
    "boost::forkjoin: a job called fork() and the child returned from it into the pool, whose other threads "
    "exist only in the parent; a child forked inside a job must exec or _exit";
inline constexpr char const* waited_after_fork_message =
    "boost::forkjoin: a job called fork() and the child went on waiting for work of the pool, whose other "
    "threads exist only in the parent; a child forked inside a job must exec or _exit";

// Ends a child that got back to the pool's business from a job that forked
// it, before it touches anything the parent's threads may hold.
[[noreturn]] inline void fail_job_returned_after_fork() noexcept
{
    terminate_with_message(job_returned_after_fork_message);
}

} // namespace boost::forkjoin::detail

#endif // BOOST_FORKJOIN_DETAIL_FORK_GENERATION_HPP
