// Copyright 2026 The Boost.ForkJoin developers.
// Distributed under the Boost Software License, Version 1.0.
// (See accompanying file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
#ifndef BOOST_FORKJOIN_GLOBAL_POOL_HPP
#define BOOST_FORKJOIN_GLOBAL_POOL_HPP

// The global pool: where the free functions run when called outside every
// pool. Built on first use with default options, or once by build_global.
//
// It is shut down at normal process exit (std::exit, or returning from
// main) by an atexit handler, exactly like a destroyed pool: jobs spawned
// into it run to completion, its workers are joined, its memory is freed.
// Rayon instead leaves its global pool running while the process dies, which
// silently drops spawned jobs that have not run yet. The handler is
// registered when the pool is built, so objects with static storage built
// before it are still alive while the last jobs run. If exit is called from
// one of the pool's own workers, the pool cannot wait for itself and is left
// to the OS.

#include <boost/forkjoin/errors.hpp>
#include <boost/forkjoin/pool_options.hpp>
#include <boost/forkjoin/thread_pool.hpp>

#include <atomic>
#include <cstdlib>
#include <mutex>

namespace boost::forkjoin {

namespace detail {
inline std::mutex global_pool_mutex;
inline std::atomic<thread_pool*> global_pool_instance{nullptr};

inline void destroy_global_pool() noexcept
{
    // Exchange, so that the pool is deleted once even if exit handlers race;
    // acquire pairs with create_global_pool's release store (we delete a
    // fully built pool), release publishes the null to later readers.
    thread_pool* const pool = global_pool_instance.exchange(nullptr, std::memory_order_acq_rel);
    if (pool == nullptr)
        return;
    if (pool->registry().owns(current_worker))
        return; // exit called on one of its workers: it cannot join itself
    delete pool;
}

// Precondition: global_pool_mutex is held and there is no global pool.
inline thread_pool& create_global_pool(pool_options options)
{
    auto* pool = new thread_pool(std::move(options));
    static bool const registered = std::atexit(&destroy_global_pool) == 0;
    (void)registered; // if registration fails the pool simply lives to the end
    // Release: a thread that loads the pointer sees a fully built pool.
    global_pool_instance.store(pool, std::memory_order_release);
    return *pool;
}
} // namespace detail

inline thread_pool& global_pool()
{
    // Acquire: pairs with the release store in create_global_pool.
    if (thread_pool* pool = detail::global_pool_instance.load(std::memory_order_acquire))
        return *pool;
    std::lock_guard lock(detail::global_pool_mutex);
    if (thread_pool* pool = detail::global_pool_instance.load(std::memory_order_relaxed))
        return *pool;
    return detail::create_global_pool({});
}

// Builds the global pool with `options`. Throws
// global_pool_already_initialized if it exists already, whether built by an
// earlier call or on first use.
inline void build_global(pool_options options)
{
    std::lock_guard lock(detail::global_pool_mutex);
    if (detail::global_pool_instance.load(std::memory_order_relaxed) != nullptr)
        throw global_pool_already_initialized();
    detail::create_global_pool(std::move(options));
}

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
