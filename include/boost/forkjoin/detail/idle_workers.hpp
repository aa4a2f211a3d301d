// Copyright 2026 The Boost.ForkJoin developers.
// Distributed under the Boost Software License, Version 1.0.
// (See accompanying file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
#ifndef BOOST_FORKJOIN_DETAIL_IDLE_WORKERS_HPP
#define BOOST_FORKJOIN_DETAIL_IDLE_WORKERS_HPP

// How many of a pool's workers are between jobs (searching or asleep), and
// the CPUs they share: the hint by which a thread outside the pool that
// waits for it decides whether to go on spinning
// (registry_base::leaves_a_cpu_free).

#include <boost/forkjoin/detail/config.hpp>

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <thread>
#include <utility>

namespace boost::forkjoin::detail {

class idle_workers {
public:
    idle_workers() = default;
    idle_workers(idle_workers const&) = delete;
    idle_workers& operator=(idle_workers const&) = delete;

    // Whether a thread outside the pool that waits for it should go on
    // spinning: only while the pool leaves a CPU free. On a machine with no
    // more CPUs than workers, a spinning caller beside busy workers is one
    // runnable thread too many, and the kernel may then stack two workers
    // on one CPU while the caller holds the other (see spin_budget.hpp).
    bool leaves_a_cpu_free(std::size_t num_threads) const noexcept
    {
        // Relaxed: a hint, read again at every look of the spin.
        return num_threads < cpus_ || count_.load(std::memory_order_relaxed) != 0;
    }

    // How many workers are between jobs: a lazy join's look publishes that
    // many second halves, less the jobs on its deque
    // (worker_thread::publish_for_idle_workers).
    // Relaxed, a hint: a stale zero delays the publication to the next
    // look, a stale count publishes a job that its owner may pop back.
    std::size_t count() const noexcept { return count_.load(std::memory_order_relaxed); }

    // Counts the workers that are between jobs (searching or asleep) for
    // leaves_a_cpu_free(), over one idle period of one worker.
    class period {
    public:
        explicit period(idle_workers& idle) noexcept : idle_(&idle)
        {
            // Relaxed: a hint for spinning callers, ordering nothing.
            idle_->count_.fetch_add(1, std::memory_order_relaxed);
        }
        period(period const&) = delete;
        period& operator=(period const&) = delete;
        ~period() { end(); }

        // The worker found a job: it is busy from here on.
        void end() const noexcept
        {
            if (idle_ != nullptr)
                std::exchange(idle_, nullptr)->count_.fetch_sub(1, std::memory_order_relaxed);
        }

    private:
        mutable idle_workers* idle_;
    };

private:
    // Workers between jobs, and the CPUs they share (leaves_a_cpu_free).
    alignas(cache_line_size) std::atomic<std::size_t> count_{0};
    std::size_t const cpus_ = std::max(1u, std::thread::hardware_concurrency());
};

} // namespace boost::forkjoin::detail

#endif // BOOST_FORKJOIN_DETAIL_IDLE_WORKERS_HPP
