// Copyright 2026 The Boost.ForkJoin developers.
// Distributed under the Boost Software License, Version 1.0.
// (See accompanying file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
#ifndef BOOST_FORKJOIN_DETAIL_FIBER_TASK_HPP
#define BOOST_FORKJOIN_DETAIL_FIBER_TASK_HPP

// The shared state behind a future, and the fiber task that is at once the
// job a worker runs and the state the future handle reads (as rayon's
// ScopeFuture is both the Job and the handle's Arc; see doc/futures.adoc).
//
//   shared_state_base   intrusive reference count, and the continuation
//                       slot: empty, one waiter, or the COMPLETE tag.
//   result_state<T>     adds the value or exception.
//   promise_state<T>    a result_state that promise<T> completes.
//   fiber_task<T, F>    a result_state whose result is computed by F on a
//                       Boost.Context fiber, with the park/unpark state
//                       machine of fiber_task_base.
//
// References to a fiber task: the future handle holds one; the task holds
// one on itself from spawn until it completes (rayon's `this` field: it
// stands for the job in a queue, the running fiber and the parked fiber
// alike, which is why a queued job needs no reference of its own); and
// each registration of the task as the waiter of another future holds one
// until that future notifies or the registration is taken back.

#include <boost/forkjoin/detail/config.hpp>
#include <boost/forkjoin/detail/count_latch.hpp>
#include <boost/forkjoin/detail/job.hpp>
#include <boost/forkjoin/detail/lock_latch.hpp>
#include <boost/forkjoin/detail/registry_base.hpp>
#include <boost/forkjoin/detail/spin_latch.hpp>
#include <boost/forkjoin/detail/stack_pool.hpp>
#include <boost/forkjoin/errors.hpp>

#include <boost/assert.hpp>
#include <boost/context/fiber.hpp>

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <exception>
#include <memory>
#include <optional>
#include <type_traits>
#include <utility>

namespace boost::forkjoin::detail {

// Whoever waits for a future: notify() is called once, by the thread that
// completes it, after the result is published.
struct waiter {
    void (*notify)(waiter& self) noexcept;
};

// The continuation slot's COMPLETE value: an address no waiter has.
inline constinit waiter completed_tag{nullptr};

// Counts of rare events, for tests and the benchmark. Relaxed: nobody
// orders anything by them.
struct fiber_stats {
    // A fiber that asked to park was unparked before it left the worker
    // (EXECUTING_UNPARKED) and ran again instead of parking.
    static inline std::atomic<std::uint64_t> reruns{0};

    // Test hook: called on the fiber between its registration as a waiter
    // and its park, the window in which an unpark finds it EXECUTING. The
    // stress test widens the window with it. Relaxed: the hook is set
    // before the tasks that read it are spawned.
    static inline std::atomic<void (*)()> before_park{nullptr};
};

class shared_state_base {
public:
    shared_state_base(shared_state_base const&) = delete;
    shared_state_base& operator=(shared_state_base const&) = delete;

    // Relaxed: a new reference is made from an existing one, which keeps
    // the object alive meanwhile.
    void add_ref() noexcept { refs_.fetch_add(1, std::memory_order_relaxed); }

    void release() noexcept
    {
        // Acq-rel: the last release must see every other holder's writes
        // (their releases) before it destroys the object.
        if (refs_.fetch_sub(1, std::memory_order_acq_rel) == 1)
            destroy();
    }

    // Acquire: pairs with mark_complete's release, so the result is
    // visible once this says true.
    bool ready() const noexcept { return continuation_.load(std::memory_order_acquire) == &completed_tag; }

    // Registers `w`, to be notified when the state completes. False if it
    // is complete already (and `w` will not be notified). At most one waiter
    // at a time: a future is move-only and used by one thread at a time.
    bool add_waiter(waiter& w) noexcept
    {
        waiter* expected = nullptr;
        // Release: the completer that takes `w` sees how it was set up.
        // Acquire on failure: the result is visible when the tag is seen.
        if (continuation_.compare_exchange_strong(expected, &w, std::memory_order_acq_rel,
                                                  std::memory_order_acquire))
            return true;
        BOOST_ASSERT_MSG(expected == &completed_tag, "two threads wait for one future at the same time");
        return false;
    }

    // Takes `w` back. False if the completer took it first: it is being, or
    // is about to be, notified.
    bool remove_waiter(waiter& w) noexcept
    {
        waiter* expected = &w;
        // Relaxed on both sides: taking the registration back publishes
        // nothing, and a failure only tells us the completer owns it now.
        return continuation_.compare_exchange_strong(expected, nullptr, std::memory_order_relaxed,
                                                     std::memory_order_relaxed);
    }

    // Asks the computation behind the state to stop; a promise's state has
    // none.
    virtual void cancel() noexcept {}

protected:
    explicit shared_state_base(std::size_t refs) noexcept : refs_(refs) {}
    virtual ~shared_state_base() = default;

    // The result is written: publish it and notify the waiter, if any.
    void mark_complete() noexcept
    {
        // Acq-rel: release publishes the result to every later ready() and
        // failed add_waiter(); acquire makes the waiter's set-up (its latch,
        // its reference) visible before we call it.
        if (waiter* const w = continuation_.exchange(&completed_tag, std::memory_order_acq_rel))
            w->notify(*w);
    }

private:
    virtual void destroy() noexcept { delete this; }

    std::atomic<std::size_t> refs_;
    std::atomic<waiter*> continuation_{nullptr};
};

template <class T>
class result_state : public shared_state_base {
public:
    using value_type = value_or_monostate<T>;

    // Precondition: ready(). Rethrows a stored exception.
    value_type take()
    {
        if (error_)
            std::rethrow_exception(error_);
        return std::move(*value_);
    }

protected:
    using shared_state_base::shared_state_base;

    // Written by the one completer strictly before mark_complete().
    std::optional<value_type> value_;
    std::exception_ptr error_;
};

template <class T>
class promise_state final : public result_state<T> {
public:
    promise_state() noexcept : result_state<T>(1) {}

    // Claims the right to complete the state, or to make its future. Plain
    // flags: like a future, a promise is used by one thread at a time (any
    // thread, but not two at once), so there is no setter to race with and
    // no locked instruction to pay on the park/unpark path. The result is
    // published by mark_complete().
    bool claim() noexcept { return !std::exchange(satisfied_, true); }
    bool claim_retrieval() noexcept { return !std::exchange(retrieved_, true); }

    template <class... Args>
    void complete_with_value(Args&&... args)
    {
        try {
            this->value_.emplace(std::forward<Args>(args)...);
        } catch (...) {
            this->error_ = std::current_exception();
            this->mark_complete();
            throw;
        }
        this->mark_complete();
    }

    void complete_with_error(std::exception_ptr error) noexcept
    {
        this->error_ = std::move(error);
        this->mark_complete();
    }

private:
    bool satisfied_ = false;
    bool retrieved_ = false;
};

// See stack_pool.hpp: the worker a fiber runs on can change at a
// suspension point, so code a fiber runs reads the thread_local afresh.
[[gnu::noinline]] inline worker_thread* fresh_current_worker() noexcept
{
    asm volatile("" ::: "memory");
    return current_worker;
}

// The part of a fiber task that does not depend on its types: the state
// machine, the fiber, and the link to its registry and scope.
//
//     PARKED <-------------+         every arrow is one atomic operation on
//       | unpark           |         state_; see the functions for which
//       v                  |         thread makes it and with what order.
//     UNPARKED             | park
//       | a worker runs    |
//       v   the job        |
//     EXECUTING -----------+
//       |   |    ^
//       |   |    | run again instead of parking
//       |   v    |
//       |  EXECUTING_UNPARKED     (unpark while still executing)
//       v
//     COMPLETE
class fiber_task_base {
public:
    enum state : std::uint32_t { parked, unparked, executing, executing_unparked, complete };

    fiber_task_base(fiber_task_base const&) = delete;
    fiber_task_base& operator=(fiber_task_base const&) = delete;

    // From any thread: make the task run (again). PARKED -> UNPARKED and
    // submit the job; EXECUTING -> EXECUTING_UNPARKED, and the worker running
    // it resumes it again instead of parking it. In UNPARKED and
    // EXECUTING_UNPARKED it will run anyway; in COMPLETE there is nothing to
    // do. Each transition is one CAS; acq-rel so that whoever runs the fiber
    // next sees what the unparker wrote before (a result, the cancel flag),
    // and the unparker that submits the job sees the fiber saved by park.
    void unpark() noexcept
    {
        std::uint32_t current = state_.load(std::memory_order_relaxed);
        for (;;) {
            if (current == parked) {
                if (state_.compare_exchange_weak(current, unparked, std::memory_order_acq_rel,
                                                 std::memory_order_relaxed)) {
                    submit();
                    return;
                }
            } else if (current == executing) {
                if (state_.compare_exchange_weak(current, executing_unparked, std::memory_order_acq_rel,
                                                 std::memory_order_relaxed))
                    return;
            } else {
                return;
            }
        }
    }

    // From any thread. The flag is separate from the state word so that
    // cancelling never races with the transitions; the unpark that follows
    // carries it (release, then the acq-rel CAS) to the worker that resumes
    // the fiber. A fiber sees it at its next suspension point.
    void request_cancel() noexcept
    {
        cancelled_.store(true, std::memory_order_release);
        unpark();
    }

    bool cancel_requested() const noexcept { return cancelled_.load(std::memory_order_acquire); }

    // On the task's own fiber: waits until `s` is ready, the fiber parked
    // meanwhile. Throws future_cancelled if the task is or gets cancelled.
    void await_ready(shared_state_base& s)
    {
        if (cancel_requested())
            throw future_cancelled();
        if (s.ready())
            return;
        self_.add_ref(); // the registration's reference, dropped by notify
        if (!s.add_waiter(waiter_)) {
            self_.release();
            return;
        }
        if (void (*const hook)() = fiber_stats::before_park.load(std::memory_order_relaxed);
            BOOST_FORKJOIN_UNLIKELY(hook != nullptr))
            hook();
        for (;;) {
            park();
            // Any unpark resumes us: the notify, a cancel, or a stale notify
            // of an earlier wait. Only the state says which.
            if (s.ready())
                return;
            if (cancel_requested()) {
                // If the completer took the registration first, its notify is
                // still coming: an unpark of a task that has moved on is
                // harmless, and the notify drops the reference itself.
                if (s.remove_waiter(waiter_))
                    self_.release();
                throw future_cancelled();
            }
        }
    }

protected:
    fiber_task_base(shared_state_base& self, registry_base& registry, count_latch* scope_latch) noexcept
        : self_(self), registry_(&registry), scope_latch_(scope_latch),
          stack_size_(registry.options().fiber_stack_size), guard_pages_(registry.options().fiber_guard_pages)
    {
    }

    ~fiber_task_base() = default;

    // Runs the callable on the fiber: stores its value or exception, then
    // destroys it. Must not throw.
    virtual void run_body() noexcept = 0;
    // Cancelled before it started: stores future_cancelled, destroys the
    // callable, never creates a fiber.
    virtual void skip_body(std::exception_ptr error) noexcept = 0;
    // mark_complete() of the result state.
    virtual void publish() noexcept = 0;

private:
    struct fiber_waiter : waiter {
        fiber_task_base* task;
    };

    static void notify_fiber(waiter& w) noexcept
    {
        fiber_task_base* const task = static_cast<fiber_waiter&>(w).task;
        task->unpark();
        task->self_.release(); // the reference await_ready took for the registration
    }

    // On the fiber: back to the worker that resumed us. We return (on that
    // worker or another) once a worker runs our job again.
    void park() noexcept { caller_ = std::move(caller_).resume(); }

    // Our job into the registry: on the current worker's deque if it is one
    // of ours (the unparker is often a fiber of this pool, and the unparked
    // task is likely to use what it just wrote), else the injector. Our
    // activity count keeps the registry alive. The injector allocates when
    // its free list is empty: out of memory there terminates.
    void submit() noexcept
    {
        job_ref const job{&run, this};
        registry_->push_or_inject(job, fresh_current_worker());
    }

    // The job. It runs on a worker, on the worker's own stack or on top of
    // another fiber's stack (that fiber waits in a join and does not move
    // meanwhile), so the worker read here stays ours until we return.
    static void run(void* self_ptr) noexcept
    {
        auto* const self = static_cast<fiber_task_base*>(self_ptr);
        worker_thread* const w = current_worker;
        // UNPARKED -> EXECUTING. A plain store: only the job's runner leaves
        // UNPARKED (unpark does nothing there), and it needs no order: an
        // unparker that reads EXECUTING takes nothing from us.
        self->state_.store(executing, std::memory_order_relaxed);
        if (!self->started_) {
            self->started_ = true;
            if (self->cancel_requested()) {
                self->skip_body(std::make_exception_ptr(future_cancelled()));
                self->finish();
                return;
            }
            try {
                self->fiber_ = boost::context::fiber(std::allocator_arg,
                                                     cached_stack_allocator{self->stack_size_, self->guard_pages_},
                                                     [self](boost::context::fiber&& caller) {
                                                         self->caller_ = std::move(caller);
                                                         self->run_body();
                                                         self->finished_ = true;
                                                         return std::move(self->caller_);
                                                     });
            } catch (...) { // no memory for a stack
                self->skip_body(std::current_exception());
                self->finish();
                return;
            }
        }
        for (;;) {
            void* const outer = w->current_fiber();
            w->set_current_fiber(self);
            self->fiber_ = std::move(self->fiber_).resume();
            w->set_current_fiber(outer);
            if (self->finished_) {
                // With fcontext the stack is back in this worker's cache
                // already and fiber_ is empty. The ucontext variant (used
                // under ThreadSanitizer) hands back the finished fiber
                // instead: free it here, on a worker, not in the task's
                // destructor on whatever thread drops the last reference.
                self->fiber_ = boost::context::fiber();
                self->finish();
                return;
            }
            // The fiber parked and has switched out completely: only now may
            // another worker resume it. EXECUTING -> PARKED; release publishes
            // the saved fiber_ to the unparker's acquire, which hands it on
            // with the job.
            std::uint32_t expected = executing;
            if (self->state_.compare_exchange_strong(expected, parked, std::memory_order_acq_rel,
                                                     std::memory_order_acquire))
                return; // from here on, *self belongs to whoever unparks it
            // EXECUTING_UNPARKED: an unpark came while the fiber was still
            // running. Acquire (the failed CAS) made the unparker's writes
            // visible; EXECUTING again, and resume at once. A plain store:
            // unpark does nothing in EXECUTING_UNPARKED, so nobody else
            // writes the word meanwhile.
            BOOST_ASSERT(expected == executing_unparked);
            self->state_.store(executing, std::memory_order_relaxed);
            fiber_stats::reruns.fetch_add(1, std::memory_order_relaxed);
        }
    }

    // EXECUTING -> COMPLETE, on the worker, after the fiber is gone and the
    // callable destroyed. The order is rayon's (the seed's "lifetime
    // safety"): nothing of the callable is touched after the scope's count
    // drops, because the scope may end, and what the callable borrowed with
    // it, the moment it does.
    void finish() noexcept
    {
        // Exchange, not store, so that it sits in the modification order
        // with unpark's CASes: an unpark after it sees COMPLETE and stops.
        // Release: nothing is published through it; relaxed would do, the
        // result is published by mark_complete below.
        state_.exchange(complete, std::memory_order_release);
        publish();
        registry_base* const registry = registry_;
        if (scope_latch_ != nullptr)
            scope_latch_->set();
        // The pool's destructor may proceed from here; this worker is still
        // running our job, so the registry outlives this function.
        registry->release_activity();
        self_.release(); // the task's reference on itself
    }

    shared_state_base& self_;
    registry_base* const registry_;
    count_latch* const scope_latch_;
    std::size_t const stack_size_;
    bool const guard_pages_;
    // Touched only by the worker running the job (and the fiber it runs);
    // handed from one runner to the next through the state word.
    bool started_ = false;
    bool finished_ = false;
    boost::context::fiber fiber_;  // the fiber, while it is not running
    boost::context::fiber caller_; // the worker's context, while it runs
    fiber_waiter waiter_{{&notify_fiber}, this};
    std::atomic<std::uint32_t> state_{parked};
    std::atomic<bool> cancelled_{false};
};

template <class T, class F>
class fiber_task final : public result_state<T>, public fiber_task_base {
public:
    // Two references: the future handle's and the task's own.
    template <class G>
    fiber_task(registry_base& registry, G&& f, count_latch* scope_latch)
        : result_state<T>(2), fiber_task_base(*this, registry, scope_latch), func_(std::forward<G>(f))
    {
    }

    // Start it: PARKED -> UNPARKED and into a queue.
    void start() noexcept { unpark(); }

    void cancel() noexcept override { request_cancel(); }

private:
    void run_body() noexcept override
    {
        try {
            this->value_.emplace(invoke_to_value(*func_));
        } catch (...) {
            this->error_ = std::current_exception();
        }
        func_.reset();
    }

    void skip_body(std::exception_ptr error) noexcept override
    {
        this->error_ = std::move(error);
        func_.reset();
    }

    void publish() noexcept override { this->mark_complete(); }

    std::optional<F> func_;
};

// Waits until `s` is ready, the way the calling context can:
//  * on a fiber: the fiber parks, the worker goes on with other jobs;
//  * on a worker, not in a fiber: the worker runs other jobs meanwhile;
//  * elsewhere: the thread blocks.
// On a fiber, every wait is a cancellation point, even for a ready state.
inline void wait_ready(shared_state_base& s)
{
    worker_thread* const w = fresh_current_worker();
    if (w != nullptr) {
        if (void* const fiber = w->current_fiber()) {
            static_cast<fiber_task_base*>(fiber)->await_ready(s);
            return;
        }
    }
    if (s.ready())
        return;
    if (w == nullptr) {
        struct blocking_waiter : waiter {
            lock_latch latch;
        } bw{{[](waiter& self) noexcept { static_cast<blocking_waiter&>(self).latch.set(); }}, {}};
        if (s.add_waiter(bw))
            bw.latch.wait();
        return;
    }
    // The completer may be anyone (a promise's I/O thread, another pool):
    // the cross-registry latch keeps our registry alive while it notifies.
    struct latch_waiter : waiter {
        spin_latch* latch;
    };
    spin_latch latch(*w, spin_latch::cross_registry);
    latch_waiter lw{{[](waiter& self) noexcept { static_cast<latch_waiter&>(self).latch->set(); }}, &latch};
    if (s.add_waiter(lw))
        w->wait_until(latch.core());
}

} // namespace boost::forkjoin::detail

#endif // BOOST_FORKJOIN_DETAIL_FIBER_TASK_HPP
