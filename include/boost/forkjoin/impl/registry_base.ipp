// Copyright 2026 The Boost.ForkJoin developers.
// Distributed under the Boost Software License, Version 1.0.
// (See accompanying file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
#ifndef BOOST_FORKJOIN_IMPL_REGISTRY_BASE_IPP
#define BOOST_FORKJOIN_IMPL_REGISTRY_BASE_IPP

// The members of registry_base that user code calls but whose bodies it
// need not see: construction and destruction, the injector's side, the
// cold part of a wait, and the activity count's end. registry_base.hpp says
// what each does. Out of the class so that a program built with
// BOOST_FORKJOIN_SEPARATE_COMPILATION compiles them (and the
// lifecycle, the options' checks and the injector's queue they pull in)
// once, in src.hpp; in header-only use registry_base.hpp includes this.

#include <boost/forkjoin/detail/checked_options.hpp>
#include <boost/forkjoin/detail/injector.hpp>
#include <boost/forkjoin/detail/thread_count.hpp>
#include <boost/forkjoin/detail/registry_base.hpp>
#include <boost/forkjoin/errors.hpp>

#include <algorithm>
#include <chrono>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>

namespace boost::forkjoin::detail {

BOOST_FORKJOIN_DECL registry_base::registry_base(pool_options options, std::size_t policy_max_threads,
                                                 std::size_t deque_capacity, std::size_t injector_capacity,
                                                 std::string const& policy_name, bool lazy_joins)
    : options_(with_spin_limit_in_range(std::move(options))),
      num_threads_(resolve_num_threads(options_.num_threads, policy_max_threads, policy_name)),
      max_threads_(std::min(policy_max_threads, registry_thread_limit)),
      // Decided here, before any worker exists: no owner ever pops with
      // a fence other than the one its thieves expect. A breadth-first
      // owner takes most of its own jobs from the thieves' end
      // (take_oldest: a CAS, no fence either way), so asymmetric fences
      // would save it little and cost each steal a membarrier.
      fences_(options_.breadth_first ? fence_mode::symmetric : resolve_fence_mode(options_.fences, num_threads_)),
      deque_capacity_(deque_capacity), lazy_joins_(lazy_joins), injector_(std::make_unique<injector>(injector_capacity))
{
    check_fiber_stack_size(options_.fiber_stack_size);
    if (options_.heartbeat < std::chrono::nanoseconds::zero())
        throw std::invalid_argument("boost::forkjoin: pool_options::heartbeat is negative");
    if (options_.caller_slot && options_.use_current_thread)
        throw std::invalid_argument("boost::forkjoin: pool_options::caller_slot and use_current_thread both "
                                    "give worker 0 to a thread that is not the pool's own: choose one");
}

BOOST_FORKJOIN_DECL registry_base::~registry_base() = default;

// No BOOST_FORKJOIN_DECL here: its inline (header-only use) and noinline come
// from the declaration, and GCC warns when an inline definition follows a
// noinline declaration.
void registry_base::wait_for_latch(worker_thread& worker, core_latch& latch)
{
    // A job that called fork() and went on in the child: the latch may
    // be one that only a thread of the parent could set.
    if (BOOST_FORKJOIN_UNLIKELY(forked_away()))
        fail(waited_after_fork_message);
    // A lazy join's unpublished second halves on this stack become
    // stealable first: what we wait for may need one of them, and a parked
    // fiber's frames must not stay on the worker's list (lazy_frames.hpp).
    worker.publish_unpublished_joins();
    // On a fiber, the fiber parks until the latch's set unparks it
    // (running_fiber.hpp).
    if (BOOST_FORKJOIN_UNLIKELY(worker.current_fiber_ != nullptr))
        worker.park_fiber_until(latch);
    else
        wait_until_cold(worker, latch);
}

BOOST_FORKJOIN_DECL void registry_base::inject(job_ref job)
{
    bool const queue_was_empty = injector_->push(job);
    notify_new_injected_jobs(1, queue_was_empty);
}

BOOST_FORKJOIN_DECL std::optional<job_ref> registry_base::pop_injected() { return injector_->pop(); }

BOOST_FORKJOIN_DECL bool registry_base::has_injected_jobs() const noexcept { return injector_->has_jobs(); }

BOOST_FORKJOIN_DECL pool_stats registry_base::stats() const
{
    pool_stats s;
    for (auto const& w : workers_) {
        worker_counters const& c = w->counters_;
        s.steals += c.steals.load(std::memory_order_relaxed);
        s.sleeps += c.sleeps.load(std::memory_order_relaxed);
        s.wakeups += c.wakeups.load(std::memory_order_relaxed);
        s.futile_wakeups += c.futile_wakeups.load(std::memory_order_relaxed);
    }
    s.injected = injector_->pushed() + broadcast_jobs_.load(std::memory_order_relaxed);
    return s;
}

BOOST_FORKJOIN_DECL void registry_base::let_workers_leave()
{
    // Once the last latch is set, the workers may leave and the handle's
    // destructor free this registry while we are still notifying: when
    // we are not one of the workers it waits for (an install from
    // outside, say), only this reference keeps us alive.
    std::shared_ptr<registry_base> const keep_alive = shared_from_this();
    for (std::size_t i = 0; i < num_threads_; ++i)
        set_latch_and_notify(workers_[i]->terminate_latch(), i);
}

BOOST_FORKJOIN_DECL void registry_base::release_spare_memory() noexcept
{
    try {
        injector_->release_spare_nodes();
    } catch (...) {
    }
}

BOOST_FORKJOIN_DECL void registry_base::throw_not_accepting() const
{
    // The workers are free to leave for good. Reading the count again
    // with acquire synchronizes with every give-back before it, the exit
    // handler's among them, which it made after storing the flag.
    activity_.acquire_final_state();
    if (shut_down_at_exit_.load(std::memory_order_relaxed))
        throw pool_terminated("boost::forkjoin: the global pool was shut down at exit (its atexit handler "
                              "has run) and accepts no more work");
    throw pool_terminated();
}

} // namespace boost::forkjoin::detail

#endif // BOOST_FORKJOIN_IMPL_REGISTRY_BASE_IPP
