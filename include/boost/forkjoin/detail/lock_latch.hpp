// Copyright 2026 The Boost.ForkJoin developers.
// Distributed under the Boost Software License, Version 1.0.
// (See accompanying file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
#ifndef BOOST_FORKJOIN_DETAIL_LOCK_LATCH_HPP
#define BOOST_FORKJOIN_DETAIL_LOCK_LATCH_HPP

// lock_latch: the latch a thread outside every pool waits on (install from
// the main thread, a scope or a future waited for from outside). Such a
// thread has no jobs to run while it waits, so it spins for its spin budget
// (spin_budget.hpp), offering its CPU to a worker queued behind it or keeping
// it as its own waits taught it (cpu_sharing_learner.hpp), then blocks on a
// mutex and a condition variable.
//
// A main-thread loop of short parallel jobs is the case this is for: the
// job is done within microseconds, and a waiter that blocked would pay a
// futex wake-up, and the latency of being scheduled again, on every job.
// A waiter that is still spinning is woken by the setter's one exchange: no
// lock, no system call on either side.
//
//     UNSET --(waiter, under the mutex)--> BLOCKED
//       |                                     |
//       +----------- set() ----> SET <-- set() + notify under the mutex
//
// One waiter only: a second would find BLOCKED where it looks for UNSET,
// take it for SET and return before the latch is set.

#include <boost/forkjoin/detail/config.hpp>
#include <boost/forkjoin/detail/cpu_sharing_learner.hpp>
#include <boost/forkjoin/detail/fork_generation.hpp>
#include <boost/forkjoin/spin_budget.hpp>

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <mutex>

namespace boost::forkjoin::detail {

// Each thread outside the pools learns its own waits: a main loop of short
// jobs keeps spinning, a thread that waits for long jobs stops spinning; a
// loop whose jobs are too short to repay a second worker keeps its CPU.
inline constinit thread_local spin_budget outside_spin_budget{};
inline constinit thread_local cpu_sharing_learner outside_cpu_sharing{};

class lock_latch {
public:
    // Called once, by the thread that completes what the waiter waits for.
    void set()
    {
        // Set in a child of fork() that a job made, on a latch of the
        // parent's (the job returned, and this is its completion): the
        // waiter is a thread of the parent, which may hold the mutex. End
        // the child rather than lock it (fork_generation.hpp).
        if (BOOST_FORKJOIN_UNLIKELY(generation_ != current_fork_generation()))
            fail_job_returned_after_fork();
        // Release: a waiter that reads SET (spinning, or in its failed CAS)
        // sees everything written before, the job's result above all. Once
        // the exchange is done a waiter that never blocked may return and
        // destroy the latch, so *this is not touched again unless it blocked.
        if (state_.exchange(set_state, std::memory_order_release) != blocked)
            return;
        // The waiter is blocked, or about to block holding the mutex: wake it
        // under the mutex. It leaves only after it saw woken_ under the
        // mutex, so the latch outlives this block (the unlock may touch the
        // mutex after releasing it, which POSIX allows for a mutex destroyed
        // by the next owner).
        std::lock_guard lock(mutex_);
        woken_ = true;
        set_at_ = spin_budget::clock::now();
        cv_.notify_one();
    }

    // `spin_limit`: the limit of the waiting thread's spin budget, the
    // pool's pool_options::spin_limit. The waiter stops spinning early, and
    // blocks, as soon as `may_spin()` is false.
    template <class MaySpin>
    void wait(spin_budget::duration spin_limit, MaySpin&& may_spin)
    {
        spin_budget& budget = outside_spin_budget;
        if (budget.limit() != spin_limit)
            budget.set_limit(spin_limit);
        cpu_sharing_learner& sharing = outside_cpu_sharing;
        cpu_sharing const choice = sharing.choose();
        spin_budget::clock::time_point const started = spin_budget::clock::now();
        // Acquire: pairs with set()'s release exchange.
        if (budget.spin([this] { return state_.load(std::memory_order_acquire) == set_state; }, may_spin, started,
                        choice)) {
            sharing.learn(choice, budget.last_wait());
            return;
        }
        spin_budget::clock::time_point ended;
        {
            std::unique_lock lock(mutex_);
            std::uint32_t expected = unset;
            // UNSET -> BLOCKED under the mutex: a set() after this sees
            // BLOCKED and comes to the mutex, which we hold until the wait
            // releases it. Acquire on failure: it is SET, and its result
            // visible. On success nothing is read yet (the result comes
            // through the mutex that set() takes after its exchange), but
            // the success order is acquire too: GCC 12 warns, at -O0 and -O1,
            // when the failure order is the stronger one, which breaks users'
            // -Werror builds; and on this path, just before blocking, the
            // stronger order costs nothing that counts.
            if (state_.compare_exchange_strong(expected, blocked, std::memory_order_acquire,
                                               std::memory_order_acquire)) {
                cv_.wait(lock, [this] { return woken_; });
                ended = set_at_;
            } else {
                ended = spin_budget::clock::now();
            }
        }
        // Up to the set, not to our return (spin_budget::missed says why).
        spin_budget::duration const waited = ended - started;
        budget.missed(waited);
        sharing.learn(choice, waited);
    }

    void wait(spin_budget::duration spin_limit = spin_budget::default_limit)
    {
        wait(spin_limit, [] { return true; });
    }

private:
    enum : std::uint32_t { unset, blocked, set_state };

    std::atomic<std::uint32_t> state_{unset};
    // The fork generation this latch (its mutex above all) was built in.
    std::uint32_t const generation_ = current_fork_generation();
    std::mutex mutex_;
    std::condition_variable cv_;
    bool woken_ = false; // guarded by mutex_
    spin_budget::clock::time_point set_at_{}; // guarded by mutex_: when set() found the waiter blocked
};

} // namespace boost::forkjoin::detail

#endif // BOOST_FORKJOIN_DETAIL_LOCK_LATCH_HPP
