// Copyright 2026 The Boost.ForkJoin developers.
// Distributed under the Boost Software License, Version 1.0.
// (See accompanying file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
#ifndef BOOST_FORKJOIN_SPAWN_HPP
#define BOOST_FORKJOIN_SPAWN_HPP

// Free spawn and spawn_fifo: fire-and-forget jobs in the current pool, or
// the global pool from outside every pool.

#include <boost/forkjoin/detail/submit.hpp>
#include <boost/forkjoin/global_pool.hpp>

#include <utility>

namespace boost::forkjoin {

// Runs f some time later. An exception escaping f goes to the pool's
// panic_handler, or calls std::terminate if it has none.
template <class F>
void spawn(F&& f)
{
    detail::spawn(detail::current_registry(), std::forward<F>(f), false);
}

// As spawn, but the jobs one thread spawns start in the order spawned.
template <class F>
void spawn_fifo(F&& f)
{
    detail::spawn(detail::current_registry(), std::forward<F>(f), true);
}

} // namespace boost::forkjoin

#endif // BOOST_FORKJOIN_SPAWN_HPP
