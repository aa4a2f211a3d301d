// Copyright 2026 The Boost.ForkJoin developers.
// Distributed under the Boost Software License, Version 1.0.
// (See accompanying file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
#ifndef BOOST_FORKJOIN_DETAIL_LOCKED_JOB_QUEUE_HPP
#define BOOST_FORKJOIN_DETAIL_LOCKED_JOB_QUEUE_HPP

#include <boost/forkjoin/detail/job.hpp>

#include <atomic>
#include <cstddef>
#include <deque>
#include <mutex>
#include <optional>

namespace boost::forkjoin::detail {

// A mutex-protected FIFO of jobs with a lock-free emptiness check. Used for
// the few queues that are not on the join path: a worker's broadcast jobs
// and the FIFO order of spawn_fifo.
class locked_job_queue {
public:
    void push(job_ref job)
    {
        {
            std::lock_guard lock(mutex_);
            jobs_.push_back(job);
        }
        // Seq-cst: this count is the publication that `legacy` needs to be
        // seq-cst before its tickle, and that `jec` reads after its
        // pre-sleep fence (has_injected_jobs).
        size_.fetch_add(1, std::memory_order_seq_cst);
    }

    std::optional<job_ref> pop()
    {
        if (size_.load(std::memory_order_seq_cst) == 0)
            return std::nullopt;
        std::lock_guard lock(mutex_);
        if (jobs_.empty()) // counted but not yet stored, or taken by another
            return std::nullopt;
        job_ref const job = jobs_.front();
        jobs_.pop_front();
        size_.fetch_sub(1, std::memory_order_relaxed);
        return job;
    }

    // Removes the newest job: the undo of a push whose placeholder could not
    // be queued (worker_thread::push_fifo). Only the thread that pushes into
    // this queue may call it, right after its push. The job is still here:
    // each placeholder pops one job, the oldest, and there is one placeholder
    // fewer than jobs, so at least the newest job is left.
    void take_back() noexcept
    {
        {
            std::lock_guard lock(mutex_);
            jobs_.pop_back();
        }
        // Relaxed, as in pop: a count that is briefly too high only makes a
        // worker search once more.
        size_.fetch_sub(1, std::memory_order_relaxed);
    }

    bool empty() const noexcept { return size_.load(std::memory_order_seq_cst) == 0; }

    // The entry point of the placeholder job that stands for "the oldest job
    // of this queue" in a LIFO deque; see worker_thread::push_fifo.
    static void run_front(void* queue) noexcept { (*static_cast<locked_job_queue*>(queue)->pop()).execute(); }

private:
    std::mutex mutex_;
    std::deque<job_ref> jobs_;
    std::atomic<std::size_t> size_{0};
};

} // namespace boost::forkjoin::detail

#endif // BOOST_FORKJOIN_DETAIL_LOCKED_JOB_QUEUE_HPP
