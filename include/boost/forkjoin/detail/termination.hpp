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

#include <boost/forkjoin/detail/config.hpp>

namespace boost::forkjoin::detail {

// Claims the right to terminate; a thread that comes second waits for the
// process to end.
BOOST_FORKJOIN_DECL void begin_termination() noexcept;

// Writes `message` and a newline to stderr and calls std::terminate.
[[noreturn]] BOOST_FORKJOIN_DECL void terminate_with_message(char const* message) noexcept;

} // namespace boost::forkjoin::detail

#if BOOST_FORKJOIN_DEFINE_COMPILED
#  include <boost/forkjoin/impl/termination.ipp>
#endif

#endif // BOOST_FORKJOIN_DETAIL_TERMINATION_HPP
