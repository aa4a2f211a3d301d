// Copyright 2026 The Boost.ForkJoin developers.
// Distributed under the Boost Software License, Version 1.0.
// (See accompanying file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
#ifndef BOOST_FORKJOIN_DETAIL_REGISTRY_HPP
#define BOOST_FORKJOIN_DETAIL_REGISTRY_HPP

// A registry with its sleep policy. It adds to registry_base the one loop
// that involves the policy, the wait of a worker for a latch, and forwards
// the publication events. It uses the policy only through the sleep_policy
// concept.

#include <boost/forkjoin/detail/registry_base.hpp>
#include <boost/forkjoin/detail/worker_search.hpp>
#include <boost/forkjoin/sleep_policy.hpp>

#include <boost/core/demangle.hpp>

#include <typeinfo>

namespace boost::forkjoin::detail {

template <sleep_policy Policy>
class registry final : public registry_base {
public:
    registry(pool_options options, std::size_t deque_capacity, std::size_t injector_capacity,
             bool lazy_joins = false)
        : registry_base(std::move(options), Policy::max_threads, deque_capacity, injector_capacity,
                        boost::core::demangle(typeid(Policy).name()), lazy_joins),
          sleep_(sleep_context{num_threads(), this->guarded_deadlock_handler(), this->options().spin_limit})
    {
    }

    void start() { registry_base::start(sleep_.filter_pushes()); }

    Policy& sleep() noexcept { return sleep_; }

    // The worker has no job of its own to run and `latch` is not set yet:
    // look for work everywhere, and let the policy decide how to idle.
    void wait_until_cold(worker_thread& worker, core_latch& latch) noexcept override
    {
        refuse_unsafe_policy_calls();
        while (!latch.probe()) {
            // The worker's own work first (deque, broadcasts, fibers to
            // resume), before touching any shared sleep state.
            if (auto job = worker.take_own_job()) {
                worker.execute(*job);
                // A job that called fork(), and this is the child: the
                // loop must not run the parent's other jobs here.
                refuse_a_return_after_fork();
                continue;
            }
            if (!search_until_work_or_latch(worker, latch))
                return;
        }
    }

    void notify_latch_set(std::size_t target, bool target_was_sleeping) noexcept override
    {
        refuse_unsafe_policy_calls();
        sleep_.notify_latch_set(target, target_was_sleeping);
    }

    void notify_new_internal_jobs(bool queue_was_empty) noexcept override
    {
        refuse_unsafe_policy_calls();
        sleep_.new_internal_jobs(1, queue_was_empty);
    }

    void notify_new_injected_jobs(std::size_t count, bool queue_was_empty) noexcept override
    {
        refuse_unsafe_policy_calls();
        sleep_.new_injected_jobs(count, queue_was_empty);
    }

    void notify_worker(std::size_t index) noexcept override
    {
        refuse_unsafe_policy_calls();
        sleep_.notify_worker(index);
    }

    void mark_blocked() override
    {
        refuse_unsafe_policy_calls();
        // Both callers, boost::forkjoin::mark_blocked and the pool's, run on
        // a worker of this pool; the guard costs a compare.
        if (worker_thread* const worker = current_worker; owns(worker))
            hand_over_local_jobs(*worker);
        sleep_.mark_blocked();
    }

    void mark_unblocked() override
    {
        refuse_unsafe_policy_calls();
        sleep_.mark_unblocked();
    }

private:
    // First on every path into the policy other than a worker's own idle
    // loop (which checks after each job): from the deadlock handler, and
    // from a child that a job forked and that got back to the pool (a
    // job's completion signal notifies through here), each would take a
    // lock that may be held for ever.
    void refuse_unsafe_policy_calls() const noexcept
    {
        refuse_calls_from_deadlock_handler();
        refuse_a_return_after_fork();
    }

    // A worker that blocks in user code may leave jobs on its deque, often
    // the very job it is about to wait for; a caller slot's holder that
    // leaves may leave the jobs it spawned (registry_base::
    // give_back_caller_slot). A push tells the policy after a
    // release store, not a seq-cst one, so a push and a worker getting
    // sleepy at the same moment can miss each other (a store-buffering
    // pair: the pusher reads the sleep state from before the other's
    // announcement, the other reads the deque from before the push). rayon
    // accepts that loss because the pusher pops its own job in the end
    // (doc/sleep_legacy.adoc, "Memory orderings"); a blocked worker pops
    // nothing, nor does a place nobody holds, and the pool would hang. So a
    // worker that blocks or leaves with jobs on its deque publishes them
    // again, this time with the fence the push leaves out, and a
    // notification no filter can skip. The policies
    // fence after announcing that they get sleepy, the other half of the
    // pair: either that fence comes first in the seq-cst order, and our
    // notification sees the announcement, or ours does, and the sleepy
    // worker's next search sees the jobs.
    void hand_over_local_jobs(worker_thread& worker) noexcept override
    {
        std::size_t const jobs = worker.local_job_count();
        if (jobs == 0)
            return;
        // The thieves must not need our next pop to take them.
        worker.prepare_for_absence();
        std::atomic_thread_fence(std::memory_order_seq_cst);
        // Not empty before: these jobs are a backlog that their owner will
        // not run, so the policy should find hands for all of them.
        sleep_.new_internal_jobs(jobs, false);
    }

    // One idle period. Returns true if it ran a job (the caller loops and
    // starts a new period), false if the latch got set.
    bool search_until_work_or_latch(worker_thread& worker, core_latch& latch)
    {
        worker_counters& counters = worker.counters();
        // The last block of this idle period ended with a notification and
        // no work has been found since.
        bool woke_without_work = false;
        idle_period const counted(idle());
        // An lvalue, as the sleep_policy concept checks it: a policy may take
        // it by `F&`, by `F const&`, by `F&&` (forwarding) or by value.
        auto const has_injected_jobs = [&worker] { return worker.has_injected_jobs(); };
        auto idle = sleep_.start_looking(worker.index());
        while (!latch.probe()) {
            if (auto job = worker.find_work()) {
                sleep_.work_found(idle);
                counted.end();
                worker.unpublished_joins().look_at_next_join();
                worker.execute(*job);
                refuse_a_return_after_fork(); // as in wait_until_cold
                return true;
            }
            sleep_result const slept = sleep_.no_work_found(idle, latch, has_injected_jobs);
            if (slept != sleep_result::none) {
                worker_counters::bump(counters.sleeps);
                if (woke_without_work)
                    worker_counters::bump(counters.futile_wakeups);
                woke_without_work = slept == sleep_result::woken;
                if (woke_without_work)
                    worker_counters::bump(counters.wakeups);
            }
        }
        // The latch we waited for is set: we are busy again, with whatever
        // the waiting code was doing before.
        sleep_.work_found(idle);
        return false;
    }

    Policy sleep_;
};

} // namespace boost::forkjoin::detail

#endif // BOOST_FORKJOIN_DETAIL_REGISTRY_HPP
