// Copyright 2026 The Boost.ForkJoin developers.
// Distributed under the Boost Software License, Version 1.0.
// (See accompanying file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
#ifndef BOOST_FORKJOIN_BROADCAST_HPP
#define BOOST_FORKJOIN_BROADCAST_HPP

// broadcast and spawn_broadcast: run a function once on every worker of a
// pool, waiting for all of them or not. The members of basic_thread_pool name
// the pool; these free functions use the current pool, or the global pool
// from outside every pool.

#include <boost/forkjoin/broadcast_context.hpp>
#include <boost/forkjoin/detail/broadcast.hpp>
#include <boost/forkjoin/global_pool.hpp>

#include <type_traits>
#include <utility>

namespace boost::forkjoin {

// Runs f(broadcast_context) once on every worker of the current pool and
// returns the results by worker index (nothing if f returns void). If some
// calls throw, all still run, then the lowest-indexed worker's exception is
// rethrown. Called from a worker, that worker runs other jobs while it waits.
template <class F>
auto broadcast(F&& f)
{
    static_assert(std::is_invocable_v<F&, broadcast_context>,
                  "boost::forkjoin::broadcast(f): f must be callable with a boost::forkjoin::broadcast_context");
    if constexpr (std::is_invocable_v<F&, broadcast_context>) {
        return detail::broadcast(detail::current_registry(), f);
    }
}

// Runs f(broadcast_context) once on every worker of the current pool, some
// time later, and returns at once. An exception escaping f goes to the
// pool's panic_handler, or calls std::terminate if it has none.
template <class F>
void spawn_broadcast(F&& f)
{
    static_assert(std::is_invocable_v<std::decay_t<F>&, broadcast_context>,
                  "boost::forkjoin::spawn_broadcast(f): f must be callable with a boost::forkjoin::broadcast_context");
    if constexpr (std::is_invocable_v<std::decay_t<F>&, broadcast_context>) {
        detail::spawn_broadcast(detail::current_registry(), std::forward<F>(f));
    }
}

} // namespace boost::forkjoin

#endif // BOOST_FORKJOIN_BROADCAST_HPP
