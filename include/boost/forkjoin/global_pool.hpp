// Copyright 2026 The Boost.ForkJoin developers.
// Distributed under the Boost Software License, Version 1.0.
// (See accompanying file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
#ifndef BOOST_FORKJOIN_GLOBAL_POOL_HPP
#define BOOST_FORKJOIN_GLOBAL_POOL_HPP

// The global pool: where the free functions run when called outside every
// pool. Built on first use with default options, or once by build_global.
//
// It is shut down at normal process exit (std::exit, or returning from
// main) by an atexit handler, as a destroyed pool is: jobs spawned into it,
// and the installs, joins and scopes that threads outside every pool still
// have in flight, run to completion; then its workers leave. Rayon instead
// leaves its global pool running while the process dies, which silently
// drops spawned jobs that have not run yet. The handler is registered when
// the pool is built, so objects with static storage built before it are
// still alive while the last jobs run.
//
// After that handler, the pool is kept, not freed: code that runs later in
// the exit (an atexit handler registered earlier, a static destructor, a
// detached thread) may still hold a reference to it or call a free
// function, and gets pool_terminated ("shut down at exit") instead of a
// dangling reference, a silently dropped job, or a second global pool that
// nobody would shut down.
//
// If exit is called from one of the pool's own workers, the pool cannot
// wait for itself and is left to the OS. If it is called inside the body of
// an in_place_scope of the pool, the handler ends that scope as the body's
// return would have, its jobs included (detail/held_scope.hpp). In a process forked after the pool
// was built, the pool is unusable (pool_terminated) and its exit handler
// does nothing (registry_base::shut_down).

#include <boost/forkjoin/detail/config.hpp>
#include <boost/forkjoin/detail/current_worker.hpp>
#include <boost/forkjoin/pool_options.hpp>
#include <boost/forkjoin/thread_pool.hpp>

#include <utility>

namespace boost::forkjoin {

// The global pool, built with default options if it does not exist yet.
// After the process's exit handler for it has run, it still returns the
// pool, which then refuses work (pool_terminated).
//
// Out of line: it is reached from the outside-every-pool branch of join and
// the other free functions, and once inlined there it drew install's code
// in after it, making every join on a worker save six registers and reserve
// a 328-byte frame for a branch it never takes.
//
// build_global(options): builds the global pool with `options`. Throws
// global_pool_already_initialized if it exists already, whether built by an
// earlier call or on first use, or in the global pool's own start_handler or
// exit_handler; std::invalid_argument for
// options.use_current_thread; std::logic_error if called by the global
// pool's own thread_name or spawn_handler while it is being built (as does
// global_pool(), and so every free function called outside every pool).
//
// Defined here, before their first use, in header-only use (GCC accepts
// noinline only on an inline function's first declaration); declared only
// under separate compilation.
#if BOOST_FORKJOIN_DEFINE_COMPILED
} // namespace boost::forkjoin
#  include <boost/forkjoin/impl/global_pool.ipp>
namespace boost::forkjoin {
#else
thread_pool& global_pool();
void build_global(pool_options options);
#endif

namespace detail {
// The registry free functions use: the current worker's, else the global one.
inline registry_base& current_registry()
{
    if (worker_thread* w = current_worker)
        return w->registry();
    return global_pool().registry();
}

// Runs op(worker) on a worker: here if we are one, else in the global pool.
template <class Op>
decltype(auto) in_worker(Op&& op)
{
    if (worker_thread* w = current_worker)
        return std::forward<Op>(op)(*w);
    return global_pool().install([&]() -> decltype(auto) { return std::forward<Op>(op)(*current_worker); });
}
} // namespace detail

} // namespace boost::forkjoin

// basic_thread_pool's scope members are defined in scope.hpp, whose free
// functions need the global pool above: included here, so that they exist
// whichever of thread_pool.hpp, global_pool.hpp and scope.hpp came first.
#include <boost/forkjoin/scope.hpp>

#endif // BOOST_FORKJOIN_GLOBAL_POOL_HPP
