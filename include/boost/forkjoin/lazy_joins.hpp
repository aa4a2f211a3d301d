// Copyright 2026 The Boost.ForkJoin developers.
// Distributed under the Boost Software License, Version 1.0.
// (See accompanying file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
#ifndef BOOST_FORKJOIN_LAZY_JOINS_HPP
#define BOOST_FORKJOIN_LAZY_JOINS_HPP

// The join strategy of a pool, chosen with its type beside the sleep policy:
//
//     basic_thread_pool<sleep::jec>              eager joins (the default)
//     basic_thread_pool<sleep::jec, lazy_joins>  lazy joins
//
// An eager join makes its second closure stealable before it runs the
// first: a push on the worker's deque and a pop afterwards, a few
// nanoseconds of shared-memory traffic per join. A lazy join keeps the
// second closure on a private list of its worker and publishes it (pushes
// it on the deque, where thieves see it) only when the worker looks and
// finds another worker of the pool idle: at least once a heartbeat
// (pool_options::heartbeat), and at a job's outermost join. A second
// closure nobody asked for runs inline at the cost of a function call.
// Same API, same results, exceptions, nesting and migrated() as the eager
// join; doc/lazy_joins.adoc has the protocol and when each one wins.

namespace boost::forkjoin {

struct lazy_joins {};

} // namespace boost::forkjoin

#endif // BOOST_FORKJOIN_LAZY_JOINS_HPP
