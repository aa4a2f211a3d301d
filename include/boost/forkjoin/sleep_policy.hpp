// Copyright 2026 The Boost.ForkJoin developers.
// Distributed under the Boost Software License, Version 1.0.
// (See accompanying file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
#ifndef BOOST_FORKJOIN_SLEEP_POLICY_HPP
#define BOOST_FORKJOIN_SLEEP_POLICY_HPP

// The contract between the registry and a sleep policy.
//
// The registry owns the workers, their deques and the injector; it knows
// when a worker runs out of work, when work is published and when a latch
// is set. The policy decides what an idle worker does (spin, yield, block)
// and whom to wake when something happens. The registry talks to the policy
// through the members below and nothing else, so a user can write a policy
// without touching the registry.
//
// Calls a worker makes while it waits for a latch (see doc/sleep_policy.adoc):
//
//     while (!latch.probe()) {
//         if (a job of its own) { run it; continue; }          // policy not involved
//         auto idle = policy.start_looking(index);           // became idle
//         while (!latch.probe()) {
//             if (found a job) { policy.work_found(idle); run it; break; }
//             policy.no_work_found(idle, latch, has_injected_jobs);
//         }
//         if (latch set) { policy.work_found(idle); return; } // busy again
//     }
//
// "Of its own": a job on its own deque, in its broadcast queue, or a fiber to
// resume on it, the queues that only this worker pops. Taking one is no
// idle period: the policy is not told, and counts the worker busy.
//
// `no_work_found` is called after a full search (the worker's own queues,
// every victim, the injector) found nothing. If work was published before that
// search started it would have been found; work published during it may have
// been missed, and catching that case is the policy's job.
//
// Calls made by threads that publish work or set latches:
//
//   new_internal_jobs(n, queue_was_empty)  a worker pushed n jobs on its own
//       deque: 1 after a push, only when filter_pushes() says so (see
//       below); or more, with queue_was_empty false, from mark_blocked on a
//       worker that leaves jobs it will not pop.
//   new_injected_jobs(n, queue_was_empty)  n jobs entered the injector from
//       any thread. The injected-job count that has_injected_jobs() reads
//       was increased with a seq-cst RMW first.
//   notify_latch_set(index, was_sleeping)  the core latch worker `index`
//       waits on was set; `was_sleeping` is true when it had been moved to
//       SLEEPING by the policy (core_latch::fall_asleep).
//   notify_worker(index)                   worker `index` has work that only
//       it can run (a broadcast job in its private queue, or a fiber on its
//       resume queue, published there with a seq-cst RMW first); that
//       worker's has_injected_jobs() sees it.
//
// Deadlock detection: mark_blocked() / mark_unblocked() account for workers
// blocked in user code (see doc/sleep_policy.adoc#deadlocks).
//
// No member should throw. All but the constructor, mark_blocked and
// mark_unblocked are called from noexcept functions, so an exception from
// them calls std::terminate: they run after the pool changed its state (a
// job queued, a latch set), or inside a worker's wait, where unwinding could
// not take the change back.

#include <boost/forkjoin/core_latch.hpp>
#include <boost/forkjoin/detail/config.hpp>
#include <boost/forkjoin/spin_budget.hpp>

#include <atomic>
#include <chrono>
#include <concepts>
#include <cstddef>
#include <functional>

namespace boost::forkjoin {

// The registry's hot path, a push on a worker's own deque, must not pay for
// a virtual call into a policy that has nothing to do. So each policy
// describes, as data, when a push needs its attention:
//
//     ((word->load(seq_cst) ^ flip) & mask) != 0   => call new_internal_jobs
//
// `legacy` watches its sleepy word (flip 0, mask all bits: anyone sleepy or
// asleep); `jec` watches its counters (wake when the jobs event counter is
// even or someone sleeps); `spin` uses mask 0 and is never called. The load
// is seq-cst because `legacy`'s tickle must be (its README, scenario 1); on
// x86 that is a plain load.
struct push_filter {
    std::atomic<std::size_t> const* word;
    std::size_t flip;
    std::size_t mask;

    BOOST_FORKJOIN_FORCEINLINE bool wants_notification() const noexcept
    {
        return ((word->load(std::memory_order_seq_cst) ^ flip) & mask) != 0;
    }
};

// What one call of no_work_found did, for the pool's statistics.
enum class sleep_result {
    none,     // did not block (searched again, yielded, spun)
    woken,    // blocked, and was woken by a notification
    timed_out // blocked, and woke by itself (a policy with timed sleeps)
};

// What a policy is given when the registry creates it.
struct sleep_context {
    std::size_t num_threads;
    std::function<void()> deadlock_handler; // may be empty
    // pool_options::spin_limit: the longest an idle worker should spin
    // before it blocks (see spin_budget.hpp). A policy that never blocks,
    // or counts differently, may ignore it.
    std::chrono::nanoseconds spin_limit = spin_budget::default_limit;
};

namespace detail {
// A stand-in for the registry's has-injected-jobs predicate, used only to
// check the concept.
struct injected_jobs_probe {
    bool operator()() const noexcept { return false; }
};
} // namespace detail

template <class P>
concept sleep_policy =
    std::constructible_from<P, sleep_context const&> &&
    requires(P& policy, P const& const_policy, typename P::idle_state& idle,
             core_latch& latch, detail::injected_jobs_probe const& probe,
             std::size_t index, std::size_t count, bool flag) {
        typename P::idle_state;
        // Most threads a pool of this policy may have (its packing limits).
        { P::max_threads } -> std::convertible_to<std::size_t>;
        { const_policy.filter_pushes() } noexcept -> std::same_as<push_filter>;
        { policy.start_looking(index) } -> std::same_as<typename P::idle_state>;
        { policy.work_found(idle) };
        { policy.no_work_found(idle, latch, probe) } -> std::same_as<sleep_result>;
        { policy.new_internal_jobs(count, flag) };
        { policy.new_injected_jobs(count, flag) };
        { policy.notify_latch_set(index, flag) };
        { policy.notify_worker(index) };
        { policy.mark_blocked() };
        { policy.mark_unblocked() };
    };

} // namespace boost::forkjoin

#endif // BOOST_FORKJOIN_SLEEP_POLICY_HPP
