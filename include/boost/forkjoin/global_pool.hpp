// Copyright 2026 The Boost.ForkJoin developers.
// Distributed under the Boost Software License, Version 1.0.
// (See accompanying file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
#ifndef BOOST_FORKJOIN_GLOBAL_POOL_HPP
#define BOOST_FORKJOIN_GLOBAL_POOL_HPP

// The global pool: where the free functions run when called outside every
// pool. Built on first use with default options, or once by build_global.
// Like rayon's, it lives until the process exits: its threads are never
// joined, so a job still running at exit does not hold exit up, and nothing
// is freed that a late job could still touch.

#include <boost/forkjoin/errors.hpp>
#include <boost/forkjoin/pool_options.hpp>
#include <boost/forkjoin/thread_pool.hpp>

#include <atomic>
#include <mutex>

namespace boost::forkjoin {

namespace detail {
inline std::mutex global_pool_mutex;
inline std::atomic<thread_pool*> global_pool_instance{nullptr};

inline thread_pool& create_global_pool(pool_options options)
{
    auto* pool = new thread_pool(std::move(options));
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

#endif // BOOST_FORKJOIN_GLOBAL_POOL_HPP
