// Copyright 2026 The Boost.ForkJoin developers.
// Distributed under the Boost Software License, Version 1.0.
// (See accompanying file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
#ifndef BOOST_FORKJOIN_SPAWN_HPP
#define BOOST_FORKJOIN_SPAWN_HPP

// Free spawn, spawn_fifo and spawn_future: jobs and fiber tasks in the
// current pool, or the global pool from outside every pool.

#include <boost/forkjoin/detail/submit.hpp>
#include <boost/forkjoin/future.hpp>
#include <boost/forkjoin/global_pool.hpp>

#include <type_traits>
#include <utility>

namespace boost::forkjoin {

// Runs f some time later. An exception escaping f goes to the pool's
// panic_handler, or calls std::terminate if it has none.
template <class F>
void spawn(F&& f)
{
    static_assert(std::is_invocable_v<std::decay_t<F>&>,
                  "boost::forkjoin::spawn(f): f must be callable with no arguments");
    if constexpr (std::is_invocable_v<std::decay_t<F>&>) {
        detail::spawn(detail::current_registry(), std::forward<F>(f), false);
    }
}

// As spawn, but the jobs one thread spawns start in the order spawned.
template <class F>
void spawn_fifo(F&& f)
{
    static_assert(std::is_invocable_v<std::decay_t<F>&>,
                  "boost::forkjoin::spawn_fifo(f): f must be callable with no arguments");
    if constexpr (std::is_invocable_v<std::decay_t<F>&>) {
        detail::spawn(detail::current_registry(), std::forward<F>(f), true);
    }
}

// Runs f on a fiber of the current pool (the global pool from outside every
// pool) and returns its future: pool.spawn_future(f) for the pool the caller
// is in. An exception escaping f goes to the future.
template <class F>
auto spawn_future(F&& f)
{
    static_assert(std::is_invocable_v<std::decay_t<F>&>,
                  "boost::forkjoin::spawn_future(f): f must be callable with no arguments");
    if constexpr (std::is_invocable_v<std::decay_t<F>&>) {
        return detail::spawn_future(detail::current_registry(), std::forward<F>(f), nullptr);
    }
}

} // namespace boost::forkjoin

#endif // BOOST_FORKJOIN_SPAWN_HPP
