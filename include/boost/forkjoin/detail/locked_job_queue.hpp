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

// A mutex-protected FIFO of jobs with a count that lets pop() skip the
// mutex. It keeps the FIFO order of spawn_fifo and scope_fifo: its jobs are
// reached only through placeholders on a worker's deque
// (worker_thread::push_fifo), so the deque's push is their publication to
// thieves and to the sleep policies, not this queue.
class locked_job_queue {
public:
    void push(job_ref job)
    {
        {
            std::lock_guard lock(mutex_);
            jobs_.push_back(job);
        }
        // Relaxed: the pop that runs for this job runs the placeholder
        // pushed after this returns, which it took from a deque (a release
        // push, an acquire pop or steal), so it sees this count.
        size_.fetch_add(1, std::memory_order_relaxed);
    }

    std::optional<job_ref> pop()
    {
        // Relaxed: see push. Each placeholder pops one job and there are
        // no more placeholders than jobs, so a placeholder's pop finds its
        // job counted and stored: neither check below fails for it.
        if (size_.load(std::memory_order_relaxed) == 0)
            return std::nullopt;
        std::lock_guard lock(mutex_);
        if (jobs_.empty())
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
