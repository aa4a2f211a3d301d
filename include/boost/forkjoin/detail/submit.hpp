// Copyright 2026 The Boost.ForkJoin developers.
// Distributed under the Boost Software License, Version 1.0.
// (See accompanying file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
#ifndef BOOST_FORKJOIN_DETAIL_SUBMIT_HPP
#define BOOST_FORKJOIN_DETAIL_SUBMIT_HPP

// Getting work into a registry: install (run and wait) and spawn (run
// later, nobody waits). Shared by basic_thread_pool and the free functions.

#include <boost/forkjoin/detail/caller_slot.hpp>
#include <boost/forkjoin/detail/job.hpp>
#include <boost/forkjoin/detail/lock_latch.hpp>
#include <boost/forkjoin/detail/registry_base.hpp>
#include <boost/forkjoin/detail/spin_latch.hpp>

#include <functional>
#include <memory>
#include <type_traits>
#include <utility>

namespace boost::forkjoin::detail {

// Holds one unit of a registry's activity count for a scope of code.
class activity_guard {
public:
    explicit activity_guard(registry_base& registry) : registry_(registry) { registry_.acquire_activity(); }
    activity_guard(activity_guard const&) = delete;
    activity_guard& operator=(activity_guard const&) = delete;
    ~activity_guard() { registry_.release_activity(); }

private:
    registry_base& registry_;
};

// What install returns: the job's result as f returned it (a reference
// stays one), nothing for a void f. Rethrows f's exception.
template <class R, class Job>
R take_install_result(Job& job)
{
    if constexpr (std::is_void_v<R>)
        (void)job.take_result();
    else
        return job.take_result();
}

// An outside thread's wait for the job it installed: spins while that
// leaves a CPU free for the pool, then blocks (lock_latch.hpp). One copy
// for every install, not one per closure type.
BOOST_FORKJOIN_DECL void wait_for_install_from_outside(registry_base& registry, lock_latch& latch);

#if BOOST_FORKJOIN_DEFINE_COMPILED
BOOST_FORKJOIN_DECL void wait_for_install_from_outside(registry_base& registry, lock_latch& latch)
{
    latch.wait(registry.options().spin_limit, [&registry] { return registry.leaves_a_cpu_free(); });
}
#endif

// Runs `f` on a worker of `registry` and returns its result or rethrows.
//  * On a worker of `registry`: in place.
//  * On a worker of another registry: inject, and keep that worker busy in
//    its own pool until the job is done.
//  * Elsewhere: in place as worker 0 if the pool has a caller slot and it
//    is free; else inject and block.
template <class F>
std::invoke_result_t<F> install(registry_base& registry, F&& f)
{
    worker_thread* const worker = current_worker;
    if (registry.owns(worker))
        return std::invoke(std::forward<F>(f));

    activity_guard const keep_workers(registry);
    if (worker != nullptr) {
        stack_job<F, spin_latch> job(f, *worker, spin_latch::cross_registry);
        registry.inject(job.as_job_ref());
        worker->wait_until(job.latch().core());
        return take_install_result<std::invoke_result_t<F>>(job);
    }
    if (registry.try_take_caller_slot()) {
        // Before keep_workers is released: giving the place back touches
        // the registry.
        registry_base::caller_slot_holder const as_worker_0(registry);
        return std::invoke(std::forward<F>(f));
    }
    stack_job<F, lock_latch> job(f);
    registry.inject(job.as_job_ref());
    wait_for_install_from_outside(registry, job.latch());
    return take_install_result<std::invoke_result_t<F>>(job);
}

// One unit of a registry's activity count, taken for a job about to be
// queued. The job owns it once it is queued (it releases it when it has
// run); if queueing fails, the claim is released here, so that a failed
// submission leaves no count behind for the pool's destructor to wait on.
class activity_claim {
public:
    explicit activity_claim(registry_base& registry) : registry_(&registry) { registry.acquire_activity(); }
    activity_claim(activity_claim const&) = delete;
    activity_claim& operator=(activity_claim const&) = delete;
    ~activity_claim()
    {
        if (registry_ != nullptr)
            registry_->release_activity();
    }

    // The job is queued and will release the count itself.
    void hand_to_job() noexcept { registry_ = nullptr; }

private:
    registry_base* registry_;
};

// The completion signal of a job that holds a unit of activity.
struct release_activity_of {
    registry_base* registry;
    void operator()() const noexcept { registry->release_activity(); }
};

// Queues a job where the calling thread's spawns go: a worker of `registry`
// pushes on its own deque (through its FIFO if `fifo`), any other thread
// injects. Strong guarantee: if it throws (std::bad_alloc), nothing was
// queued.
inline void push_spawned(registry_base& registry, job_ref job, bool fifo)
{
    worker_thread* const worker = current_worker;
    if (fifo && registry.owns(worker))
        worker->push_fifo(job);
    else
        registry.push_or_inject(job, worker); // the injector is FIFO already
}

// Fire and forget. The job holds an activity count, so the pool outlives it.
template <class F>
void spawn(registry_base& registry, F&& f, bool fifo)
{
    auto body = [&registry, func = std::decay_t<F>(std::forward<F>(f))]() mutable noexcept {
        try {
            std::invoke(func);
        } catch (...) {
            registry.handle_panic(std::current_exception());
        }
    };
    activity_claim activity(registry); // throws pool_terminated
    auto job = std::make_unique<heap_job<decltype(body), release_activity_of>>(std::move(body),
                                                                               release_activity_of{&registry});
    push_spawned(registry, job->as_job_ref(), fifo);
    job.release(); // queued: it frees itself and releases the count after running
    activity.hand_to_job();
}

} // namespace boost::forkjoin::detail

#endif // BOOST_FORKJOIN_DETAIL_SUBMIT_HPP
