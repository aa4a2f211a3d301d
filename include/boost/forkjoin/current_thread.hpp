// Copyright 2026 The Boost.ForkJoin developers.
// Distributed under the Boost Software License, Version 1.0.
// (See accompanying file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
#ifndef BOOST_FORKJOIN_CURRENT_THREAD_HPP
#define BOOST_FORKJOIN_CURRENT_THREAD_HPP

// Questions a thread can ask about the pool it runs in, and cooperative
// yielding to it.

#include <boost/forkjoin/detail/registry_base.hpp>
#include <boost/forkjoin/detail/worker_search.hpp>
#include <boost/forkjoin/global_pool.hpp>

#include <cstddef>
#include <optional>

namespace boost::forkjoin {

// The index of the calling worker in its pool, or nothing outside pools.
inline std::optional<std::size_t> current_thread_index() noexcept
{
    if (detail::worker_thread* w = detail::current_worker)
        return w->index();
    return std::nullopt;
}

// Workers in the current pool, or in the global pool from outside.
inline std::size_t current_num_threads() { return detail::current_registry().num_threads(); }

// The most workers a pool of the current pool's sleep policy may have (the
// global pool's from outside).
inline std::size_t max_num_threads() { return detail::current_registry().max_threads(); }

enum class yield_result {
    executed, // ran one job
    idle      // found nothing to run
};

namespace detail {
// The common part of the yields: run what the search found, if anything.
template <class Search>
std::optional<yield_result> yield_with(Search search)
{
    worker_thread* const w = current_worker;
    if (w == nullptr)
        return std::nullopt;
    // A lazy join's unpublished second halves are pending jobs of this
    // worker like any other: on the deque first, where the search looks
    // (as an eager join would have left them).
    w->publish_unpublished_joins();
    if (std::optional<job_ref> const job = search(*w)) {
        w->execute(*job);
        return yield_result::executed;
    }
    return yield_result::idle;
}
} // namespace detail

// Runs one pending job of the current pool (own deque, broadcasts, other
// workers, injector), if any. Nothing outside pools.
inline std::optional<yield_result> yield_now()
{
    return detail::yield_with([](detail::worker_thread& w) { return w.find_work(); });
}

// Runs one job of the calling worker's own deque, if any. Nothing outside
// pools.
inline std::optional<yield_result> yield_local()
{
    return detail::yield_with([](detail::worker_thread& w) { return w.take_local_job(); });
}

// Tell the pool that the calling worker is about to block in user code
// (waiting for something only another job can provide), so that a pool in
// which every worker is asleep or blocked calls its deadlock_handler. The
// jobs left on the worker's deque are handed to the other workers first
// (doc/sleep_policy.adoc, "Jobs left on a blocked worker's deque"): spawn
// what you will wait for before this call. Throws std::logic_error outside
// pools.
inline void mark_blocked()
{
    detail::worker_thread* const w = detail::current_worker;
    if (w == nullptr)
        throw std::logic_error("boost::forkjoin::mark_blocked: not called on a worker thread");
    // What the caller will wait for may be a lazy join's second half that
    // only this worker knows of: make it stealable before its deque is
    // handed over.
    w->publish_unpublished_joins();
    w->registry().mark_blocked();
}

// The calling worker is no longer blocked. To unblock a worker from another
// thread, use basic_thread_pool::mark_unblocked. Throws std::logic_error
// outside pools.
inline void mark_unblocked()
{
    detail::worker_thread* const w = detail::current_worker;
    if (w == nullptr)
        throw std::logic_error("boost::forkjoin::mark_unblocked: not called on a worker thread");
    w->registry().mark_unblocked();
}

} // namespace boost::forkjoin

#endif // BOOST_FORKJOIN_CURRENT_THREAD_HPP
