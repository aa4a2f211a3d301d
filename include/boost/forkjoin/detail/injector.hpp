// Copyright 2026 The Boost.ForkJoin developers.
// Distributed under the Boost Software License, Version 1.0.
// (See accompanying file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
#ifndef BOOST_FORKJOIN_DETAIL_INJECTOR_HPP
#define BOOST_FORKJOIN_DETAIL_INJECTOR_HPP

// The injector: the FIFO through which threads outside a pool hand it jobs.
// Many producers (any thread), many consumers (idle workers).
//
// The queue is boost::lockfree::queue. Beside it sits a count of jobs pushed
// and not yet popped, for two reasons:
//  * it is the word that the sleep policies' pre-sleep checks read
//    (has_jobs): one seq-cst load, where the queue offers only an empty()
//    that its documentation calls a hint;
//  * it lets an idle worker skip the queue entirely when it is empty, the
//    common case, without touching the queue's shared head and tail.
// The count goes up *before* the push: has_jobs() may say yes a moment
// early (the worker searches again) but never no while a job is queued.
//
// Under ThreadSanitizer the queue is a mutex and a std::deque instead.
// Boost.Lockfree's node free list reuses a popped node while a concurrent
// pop may still load its link (it then discards the value when its CAS
// fails): benign, but a data race to TSan (boostorg/lockfree#78), with no
// way to tell TSan otherwise short of suppressions. Swapping the queue
// keeps the rest of the pool under TSan's eye without suppressions; the
// ASan/UBSan builds and the fuzzer use the Boost.Lockfree queue.

#include <boost/forkjoin/detail/config.hpp>
#include <boost/forkjoin/detail/job.hpp>

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <new>
#include <optional>

#if defined(BOOST_FORKJOIN_TSAN)
#  include <deque>
#  include <mutex>
#else
#  include <boost/lockfree/queue.hpp>
#endif

namespace boost::forkjoin::detail {

class injector {
public:
    explicit injector(std::size_t initial_nodes)
#if !defined(BOOST_FORKJOIN_TSAN)
        : queue_(initial_nodes)
#endif
    {
        (void)initial_nodes;
    }

    // Returns whether the injector was empty before, the wake hint.
    bool push(job_ref job)
    {
        // Seq-cst: this increment is the publication that a worker's
        // pre-sleep check (`jec`, after its fence) and a sleepy worker's
        // search (`legacy`, whose scenario 2 needs seq-cst publication)
        // must not miss.
        std::size_t const before = pending_.fetch_add(1, std::memory_order_seq_cst);
        try {
            push_to_queue(job);
        } catch (...) {
            pending_.fetch_sub(1, std::memory_order_relaxed);
            throw;
        }
        pushed_.fetch_add(1, std::memory_order_relaxed);
        return before == 0;
    }

    std::optional<job_ref> pop()
    {
        // Seq-cst, like has_jobs(): this load is part of a sleepy worker's
        // search, which `legacy` requires to see a seq-cst publication.
        if (pending_.load(std::memory_order_seq_cst) == 0)
            return std::nullopt;
        std::optional<job_ref> job = pop_from_queue();
        if (job)
            pending_.fetch_sub(1, std::memory_order_seq_cst);
        return job;
    }

    bool has_jobs() const noexcept { return pending_.load(std::memory_order_seq_cst) != 0; }

    // Jobs pushed since construction (statistics).
    std::uint64_t pushed() const noexcept { return pushed_.load(std::memory_order_relaxed); }

    // Frees the nodes kept for reuse. Only for an injector that nobody will
    // push to or pop from again but that is not destroyed: the registry of
    // a pool kept after it stopped (the global pool after exit, a pool in a
    // forked child). Its free list links nodes through tagged pointers,
    // which LeakSanitizer cannot follow, so kept nodes are reported as
    // leaks at exit. A fresh queue holds one node through plain pointers.
    // If allocating that node throws, the injector is left destroyed: the
    // registries that call this are never destroyed themselves.
    void release_spare_nodes()
    {
#if !defined(BOOST_FORKJOIN_TSAN)
        queue_.~queue();
        new (&queue_) boost::lockfree::queue<job_ref>(0);
#endif
    }

private:
#if defined(BOOST_FORKJOIN_TSAN)
    void push_to_queue(job_ref job)
    {
        std::lock_guard lock(mutex_);
        queue_.push_back(job);
    }

    std::optional<job_ref> pop_from_queue()
    {
        std::lock_guard lock(mutex_);
        if (queue_.empty())
            return std::nullopt;
        job_ref const job = queue_.front();
        queue_.pop_front();
        return job;
    }

    std::mutex mutex_;
    std::deque<job_ref> queue_;
#else
    void push_to_queue(job_ref job)
    {
        if (!queue_.push(job)) // allocates a node when the free list is empty
            throw std::bad_alloc();
    }

    std::optional<job_ref> pop_from_queue()
    {
        job_ref job;
        if (!queue_.pop(job))
            return std::nullopt; // counted but not yet pushed, or taken by another
        return job;
    }

    boost::lockfree::queue<job_ref> queue_;
#endif
    alignas(cache_line_size) std::atomic<std::size_t> pending_{0};
    std::atomic<std::uint64_t> pushed_{0};
};

} // namespace boost::forkjoin::detail

#endif // BOOST_FORKJOIN_DETAIL_INJECTOR_HPP
