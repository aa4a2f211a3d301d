// Copyright 2026 The Boost.ForkJoin developers.
// Distributed under the Boost Software License, Version 1.0.
// (See accompanying file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
#ifndef BOOST_FORKJOIN_DETAIL_BROADCAST_QUEUE_HPP
#define BOOST_FORKJOIN_DETAIL_BROADCAST_QUEUE_HPP

// A worker's queue of broadcast jobs: any thread pushes, only the worker
// pops, oldest first.
//
// Intrusive: each job carries its own link (broadcast_node), in memory the
// broadcast allocated before it queued anything. Pushing therefore cannot
// fail, which is what makes a broadcast all or nothing: it queues one job
// per worker, and a queue that ran out of memory half-way would leave the
// first workers holding jobs of a broadcast that has already thrown.

#include <boost/forkjoin/detail/job.hpp>

#include <boost/intrusive/slist.hpp>

#include <atomic>
#include <cstddef>
#include <mutex>
#include <optional>

namespace boost::forkjoin::detail {

// One worker's job of a broadcast. Must stay where it is (and alive) until
// its job has started running.
struct broadcast_node
    : boost::intrusive::slist_base_hook<boost::intrusive::link_mode<boost::intrusive::normal_link>> {
    job_ref job;
};

class broadcast_queue {
public:
    broadcast_queue() = default;
    broadcast_queue(broadcast_queue const&) = delete;
    broadcast_queue& operator=(broadcast_queue const&) = delete;

    // noexcept: linking allocates nothing, and locking a std::mutex that the
    // caller does not hold cannot fail on the platforms we support.
    void push(broadcast_node& node) noexcept
    {
        {
            std::lock_guard lock(mutex_);
            nodes_.push_back(node);
        }
        // Seq-cst: this count is the publication that `legacy` needs to be
        // seq-cst before its tickle, and that `jec` reads after its
        // pre-sleep fence (has_injected_jobs).
        size_.fetch_add(1, std::memory_order_seq_cst);
    }

    // The worker that owns the queue.
    std::optional<job_ref> pop()
    {
        // Seq-cst, like empty(): part of a sleepy worker's search.
        if (size_.load(std::memory_order_seq_cst) == 0)
            return std::nullopt;
        job_ref job;
        {
            std::lock_guard lock(mutex_);
            if (nodes_.empty()) // counted but not yet linked
                return std::nullopt;
            // Copy the job out before unlinking: once it has run, its node
            // may be gone.
            job = nodes_.front().job;
            nodes_.pop_front();
        }
        // Relaxed: a count that is briefly too high only makes the worker
        // search once more.
        size_.fetch_sub(1, std::memory_order_relaxed);
        return job;
    }

    bool empty() const noexcept { return size_.load(std::memory_order_seq_cst) == 0; }

private:
    std::mutex mutex_;
    // cache_last: push_back in constant time. No size member: size_ is the
    // count the sleep policies read.
    boost::intrusive::slist<broadcast_node, boost::intrusive::cache_last<true>,
                            boost::intrusive::constant_time_size<false>>
        nodes_;
    std::atomic<std::size_t> size_{0};
};

} // namespace boost::forkjoin::detail

#endif // BOOST_FORKJOIN_DETAIL_BROADCAST_QUEUE_HPP
