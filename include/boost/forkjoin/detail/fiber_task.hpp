// Copyright 2026 The Boost.ForkJoin developers.
// Distributed under the Boost Software License, Version 1.0.
// (See accompanying file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
#ifndef BOOST_FORKJOIN_DETAIL_FIBER_TASK_HPP
#define BOOST_FORKJOIN_DETAIL_FIBER_TASK_HPP

// The fiber task: at once the job a worker runs and the shared state the
// future handle reads (as rayon's ScopeFuture is both the Job and the
// handle's Arc; see doc/futures.adoc).
//
//   fiber_task_base    the park/unpark state machine, the fiber, its home
//                      worker, and the links to its registry and scope.
//   fiber_task<T, F>   a result_state (shared_state.hpp) whose result F
//                      computes on the fiber.
//
// References to a fiber task: the future handle holds one; the task holds
// one on itself from spawn until it completes (rayon's `this` field: it
// stands for the job in a queue, the running fiber and the parked fiber
// alike, which is why a queued job needs no reference of its own); and
// each registration of the task as the waiter of another future holds one
// until that future notifies or the registration is taken back.
//
// Home. Whichever worker first runs the task is its home from then on:
// every unpark queues the task on the home's resume queue, which only the
// home takes from, so the fiber never changes thread. Frames on a fiber's
// stack may therefore hold their worker across a suspension, as frames on a
// thread's stack do: a join whose closure awaits (its other half sits on
// the home's deque, its latch names the home), a scope body that awaits, a
// thread_local read before an await. Nothing on join's path pays for this.
//
// Stacks. Only the task's own code runs on the fiber. When it needs to run
// a job taken from a queue, the fiber switches back to the worker
// (running_fiber), which runs the job on its own stack, sized by
// pool_options::stack_size, and then resumes the fiber. When it needs to
// wait for a latch (a join whose other half another thread took, the end of
// a scope), it parks, and the latch's set unparks it
// (worker_thread::park_fiber_until; running_fiber.hpp says why the worker
// must not wait in its place).

#include <boost/forkjoin/detail/caller_slot.hpp>
#include <boost/forkjoin/detail/config.hpp>
#include <boost/forkjoin/detail/count_latch.hpp>
#include <boost/forkjoin/detail/fiber_exceptions.hpp>
#include <boost/forkjoin/detail/job.hpp>
#include <boost/forkjoin/detail/registry_base.hpp>
#include <boost/forkjoin/detail/resume_queue.hpp>
#include <boost/forkjoin/detail/running_fiber.hpp>
#include <boost/forkjoin/detail/shared_state.hpp>
#include <boost/forkjoin/detail/stack_overflow.hpp>
#include <boost/forkjoin/detail/stack_pool.hpp>
#include <boost/forkjoin/errors.hpp>

#include <boost/assert.hpp>
#include <boost/context/fiber.hpp>

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <exception>
#include <memory>
#include <new>
#include <type_traits>
#include <utility>

namespace boost::forkjoin::detail {

// Counts of rare events, for tests and the benchmark. Relaxed: nobody
// orders anything by them.
struct fiber_stats {
    // A fiber that asked to park was unparked before it left the worker
    // (EXECUTING_UNPARKED) and ran again instead of parking.
    static inline std::atomic<std::uint64_t> reruns{0};

#if defined(BOOST_FORKJOIN_TEST_HOOKS)
    // Test hook, compiled only into programs that define
    // BOOST_FORKJOIN_TEST_HOOKS (in every translation unit): called on the
    // fiber between its registration as a waiter and its park, the window
    // in which an unpark finds it EXECUTING. The stress test widens the
    // window with it. Relaxed: the hook is set before the tasks that read
    // it are spawned.
    static inline std::atomic<void (*)()> before_park{nullptr};
#endif
};

// The part of a fiber task that does not depend on its types: the state
// machine, the fiber, and the link to its registry and scope.
//
//     PARKED <-------------+         every arrow is one atomic operation on
//       | unpark           |         state_; see the functions for which
//       v                  |         thread makes it and with what order.
//     UNPARKED             | park
//       | the home worker  |
//       v   runs the job   |
//     EXECUTING -----------+
//       |   |    ^
//       |   |    | run again instead of parking
//       |   v    |
//       |  EXECUTING_UNPARKED     (unpark while still executing)
//       v
//     COMPLETE
class fiber_task_base : public running_fiber {
public:
    enum state : std::uint32_t { parked, unparked, executing, executing_unparked, complete };

    fiber_task_base(fiber_task_base const&) = delete;
    fiber_task_base& operator=(fiber_task_base const&) = delete;

    // From any thread: make the task run (again). PARKED -> UNPARKED and
    // queue it at its home; EXECUTING -> EXECUTING_UNPARKED, and the worker
    // running it resumes it again instead of parking it. In UNPARKED and
    // EXECUTING_UNPARKED it will run anyway; in COMPLETE there is nothing to
    // do. Each transition is one CAS; acq-rel so that whoever runs the fiber
    // next sees what the unparker wrote before (a result, the cancel flag),
    // and the unparker sees the home and the fiber saved by park. Only a
    // started task is ever PARKED here (spawn_future queues the first run
    // itself), so this never allocates and never fails.
    //
    // In UNPARKED and EXECUTING_UNPARKED the word is still written, with
    // its own value: the next run must see what we wrote before, and only
    // an RMW puts us in the word's modification order, before the runner's
    // move into EXECUTING (an exchange, see run), which then acquires it.
    // Had we only read the word, our write (the cancel flag, a result) and
    // our read of UNPARKED could pass the runner's write of EXECUTING and
    // its read of our write, each in the other's store buffer (the
    // store-buffering shape, which x86 shows too): the fiber would miss the
    // cancel, or park on a state already complete, and nobody would unpark
    // it again. test/litmus (pair f) shows it happen without the RMWs.
    void unpark() noexcept
    {
        std::uint32_t current = state_.load(std::memory_order_relaxed);
        for (;;) {
            if (current == parked) {
                if (state_.compare_exchange_weak(current, unparked, std::memory_order_acq_rel,
                                                 std::memory_order_relaxed)) {
                    resume_at_home();
                    return;
                }
            } else if (current == executing) {
                if (state_.compare_exchange_weak(current, executing_unparked, std::memory_order_acq_rel,
                                                 std::memory_order_relaxed))
                    return;
            } else if (current == unparked || current == executing_unparked) {
                // Release: publishes our writes to the runner's exchange.
                if (state_.compare_exchange_weak(current, current, std::memory_order_release,
                                                 std::memory_order_relaxed))
                    return;
            } else {
                return; // COMPLETE: the task is done, nobody will read what we wrote
            }
        }
    }

    // From any thread. The flag is separate from the state word so that
    // cancelling never races with the transitions; the unpark that follows
    // carries it (release, then unpark's RMW of the state word) to the
    // worker that resumes the fiber. A fiber sees it at its next suspension
    // point.
    void request_cancel() noexcept
    {
        cancelled_.store(true, std::memory_order_release);
        unpark();
    }

    bool cancel_requested() const noexcept { return cancelled_.load(std::memory_order_acquire); }

    // In a process forked after the task's pool was built, the task can
    // never run again: the pool's threads exist only in the parent.
    void check_not_forked_away() const
    {
        if (BOOST_FORKJOIN_UNLIKELY(registry_->forked_away()))
            throw pool_terminated("boost::forkjoin: this future's task belongs to a pool built before fork(), whose "
                                  "threads exist only in the parent process: it can never complete in the child");
    }

    // On the task's own fiber: waits until `s` is ready, the fiber parked
    // meanwhile. Throws future_cancelled if the task is or gets cancelled.
    void await_ready(shared_state_base& s)
    {
        if (cancel_requested())
            throw future_cancelled();
        if (s.ready())
            return;
        s.check_can_complete();
        self_.add_ref(); // the registration's reference, dropped by notify
        if (!s.add_waiter(waiter_)) {
            self_.release();
            return;
        }
#if defined(BOOST_FORKJOIN_TEST_HOOKS)
        if (void (*const hook)() = fiber_stats::before_park.load(std::memory_order_relaxed))
            hook();
#endif
        for (;;) {
            parking_on_a_future_ = true;
            park();
            parking_on_a_future_ = false;
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
        : running_fiber(fiber_operations), self_(self), registry_(&registry), scope_latch_(scope_latch),
          stack_size_(registry.options().fiber_stack_size), guard_pages_(registry.options().fiber_guard_pages),
          spin_limit_(registry.options().spin_limit)
    {
    }

    ~fiber_task_base() = default;

    // The pool's spin_limit, for waiters outside every pool.
    spin_budget::duration spin_limit() const noexcept { return spin_limit_; }

    // Called by spawn_future before anyone else knows the task: PARKED ->
    // UNPARKED and the first run's job into the registry, on the calling
    // worker's deque if it is one of ours (the first run may then be stolen:
    // the thief becomes the home), else the injector. Throws std::bad_alloc
    // if that queue cannot grow; nothing is queued then, and the caller
    // calls abandon().
    void submit_first()
    {
        // A plain store: the task is not shared with anyone yet.
        state_.store(unparked, std::memory_order_relaxed);
        registry_->push_or_inject(job_ref{&run, this}, current_worker);
    }

    // submit_first() threw: complete the task as cancelled, without running
    // it. The scope's count, if any, stays with the caller, which drops it.
    void abandon() noexcept
    {
        skip_body(std::make_exception_ptr(future_cancelled()));
        state_.store(complete, std::memory_order_relaxed);
        publish();
        registry_->release_activity();
        self_.release();
    }

    // Runs the callable on the fiber: stores its value or exception, then
    // destroys it. Must not throw.
    virtual void run_body() noexcept = 0;
    // Cancelled before it started: stores `error`, destroys the callable,
    // never creates a fiber.
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

    // Whether a park now makes the task's work unit a tracked one (run says
    // why). Read by the worker as the fiber parks, and by the unparker
    // after its acquire of PARKED: neither field changes between the two,
    // the fiber being parked.
    bool parks_its_unit() const noexcept
    {
        return parking_on_a_future_ && holds_activity_ && registry_->parked_tasks_forgiven_at_exit();
    }

    // On the fiber: back to the worker that resumed us. We return once our
    // home runs our job again. The second halves of lazy joins on this
    // fiber's stack become stealable first: the worker's list of them is
    // only ever the running stack's (lazy_frames.hpp).
    void park() noexcept
    {
        current_worker->publish_unpublished_joins();
        caller_ = std::move(caller_).resume();
    }

    // running_fiber's operations (worker_thread::park_fiber_until uses them
    // to wait for a latch parked).
    static void park_fiber(running_fiber& fiber) noexcept { static_cast<fiber_task_base&>(fiber).park(); }
    static void hold(running_fiber& fiber) noexcept { static_cast<fiber_task_base&>(fiber).self_.add_ref(); }
    static void unpark_and_release(running_fiber& fiber) noexcept
    {
        auto& self = static_cast<fiber_task_base&>(fiber);
        self.unpark();
        self.self_.release();
    }

    // running_fiber's entry, on the fiber: switch to the worker, which runs
    // `job` on its own stack (in run() below) and resumes us. The state
    // stays EXECUTING: to the rest of the world the task is running. An
    // unpark meanwhile moves it to EXECUTING_UNPARKED, which the next park
    // turns into a rerun.
    static void switch_to_worker(running_fiber& fiber, job_ref job) noexcept
    {
        auto& self = static_cast<fiber_task_base&>(fiber);
        self.excursion_ = job;
        current_worker->publish_unpublished_joins(); // as in park()
        self.caller_ = std::move(self.caller_).resume();
    }

    static constexpr operations fiber_operations{&switch_to_worker, &park_fiber, &hold, &unpark_and_release};

    // After PARKED -> UNPARKED: our job into the home's resume queue (no
    // allocation: the node is ours), and a notification unless the home is
    // the thread doing this (it will look at its queue before it sleeps;
    // the sleep policies' notify_worker protocol, as for a broadcast job).
    // Once the node is pushed the home may resume us, we may complete and
    // the pool may be destroyed: copy what we need first, and keep the
    // registry alive across the notification when the unparker is not one
    // of its workers (a worker of the registry keeps it alive by running).
    void resume_at_home() noexcept
    {
        worker_thread* const home = home_;
        registry_base* const registry = registry_;
        // In a forked child the home does not exist, and the notification
        // could block on a lock held by a thread of the parent: the task
        // stays UNPARKED, never to run (waiting for it throws).
        if (BOOST_FORKJOIN_UNLIKELY(registry->forked_away()))
            return;
        // Parked on a future, the task holds a tracked unit (run() says
        // why): a work unit again, unless the workers may leave for good,
        // which happens only at exit. Then the task stays UNPARKED, never
        // to run: its home may have left already.
        if (parks_its_unit() && !registry->try_unpark_activity())
            return;
        worker_thread* const here = current_worker;
        if (here == home) {
            home->resumes().push(resume_node_);
            return;
        }
        std::shared_ptr<registry_base> keep_alive;
        if (!registry->owns(here))
            keep_alive = registry->shared_from_this();
        home->resumes().push(resume_node_);
        registry->notify_worker(home->index());
    }

    // The job. It runs on a worker's own stack, never on a fiber's
    // (worker_thread::execute), so the worker read here is the one running
    // the whole call, and the fiber's caller_ is a point on that stack.
    static void run(void* self_ptr) noexcept
    {
        auto* const self = static_cast<fiber_task_base*>(self_ptr);
        worker_thread* const w = current_worker;
        BOOST_ASSERT(w != nullptr && w->current_fiber() == nullptr);
        if (BOOST_FORKJOIN_UNLIKELY(w->is_caller_slot())) {
            // The thread that holds worker 0's place may leave it before the
            // fiber ends, and a fiber resumes on the thread that started it:
            // the first run goes to a thread of the pool, still UNPARKED.
            // Only a first run gets here: a started task's home is the
            // thread that started it, never worker 0.
            BOOST_ASSERT(!self->started_);
            self->registry_->start_fiber_elsewhere(self->resume_node_);
            return;
        }
        // UNPARKED -> EXECUTING. Only the job's runner leaves UNPARKED
        // (unpark writes it back unchanged there), but an exchange, not a
        // store: acquire, so that the fiber sees what every unparker wrote
        // before its RMW of the word (unpark says why a plain store would
        // let the fiber miss it). An unparker that reads EXECUTING takes
        // nothing from us.
        self->state_.exchange(executing, std::memory_order_acquire);
        if (!self->started_) {
            self->started_ = true;
            self->home_ = w;
            w->set_fiber_cache_release(&release_this_thread_stacks);
            if (self->cancel_requested()) {
                self->skip_body(std::make_exception_ptr(future_cancelled()));
                self->finish();
                return;
            }
            std::exception_ptr no_stack; // no memory, or no guard page
            try {
                boost::context::stack_context stack;
                self->fiber_ = boost::context::fiber(std::allocator_arg,
                                                     cached_stack_allocator{self->stack_size_, self->guard_pages_,
                                                                            &stack, &prepare_stack_overflow_reports},
                                                     [self](boost::context::fiber&& caller) {
                                                         self->caller_ = std::move(caller);
                                                         self->run_body();
                                                         self->finished_ = true;
                                                         return std::move(self->caller_);
                                                     });
                // Where an overflow of this stack faults, for the SIGSEGV
                // handler (stack_overflow.hpp); set before the fiber first
                // runs, on the thread that will run it.
                auto const low = reinterpret_cast<std::uintptr_t>(stack.sp) - stack.size;
                self->set_stack(self->guard_pages_ ? low - fiber_stack_allocation::guard_size() : low, low,
                                stack.size);
            } catch (...) {
                no_stack = std::current_exception();
            }
            // Published outside the handler: once the future's reader has
            // the exception, this thread holds no reference to it (the
            // handler's end would drop one, with atomics ThreadSanitizer
            // does not see).
            if (no_stack) {
                self->skip_body(std::move(no_stack));
                self->finish();
                return;
            }
        }
        BOOST_ASSERT(w == self->home_);
        // The fiber's caught exceptions and uncaught count are its own
        // (fiber_exceptions.hpp): swapped in and out around every resume.
        eh_globals* const exceptions = this_thread_eh_globals();
        for (;;) {
            // Nothing of this stack may sit on the list while the fiber's
            // runs: every wait that can lead here published it.
            BOOST_ASSERT(w->unpublished_joins().empty());
            w->set_current_fiber(self);
            self->exceptions_.enter(exceptions);
            self->fiber_ = std::move(self->fiber_).resume();
            self->exceptions_.leave(exceptions);
            w->set_current_fiber(nullptr);
            if (self->finished_) {
                // With fcontext the stack is back in this worker's cache
                // already and fiber_ is empty. The ucontext back end (used
                // under the sanitizers) hands back the finished fiber
                // instead: free it here, on the home, not in the task's
                // destructor on whatever thread drops the last reference.
                self->fiber_ = boost::context::fiber();
                self->finish();
                return;
            }
            if (self->excursion_.execute_fn != nullptr) {
                // The fiber asked for a job on this stack.
                std::exchange(self->excursion_, job_ref{}).execute();
                continue;
            }
            // The fiber parked and has switched out completely: only now may
            // an unparker queue it again.
            //
            // Parked on a future, the task may wait for what only a thread
            // outside the pool will do, such as fulfil a promise on the
            // stack of a thread that calls std::exit: in the global pool its
            // work unit becomes a tracked one (activity_count.hpp), which
            // the pool's exit handler does not wait for (only that handler
            // forgives tracked units, so other pools skip the two RMWs;
            // registry_base::forgive_parked_tasks_at_exit). Before the state
            // says PARKED: the unparker converts it back only once it has
            // read PARKED, so it always finds the tracked unit counted. A
            // wait for a latch keeps its work unit: what sets the latch is
            // work of a pool, which the exit handler waits for anyway.
            registry_base* const registry = self->registry_;
            bool const unit_parked = self->parks_its_unit();
            if (unit_parked)
                registry->park_activity();
            // EXECUTING -> PARKED; release publishes the saved fiber_ (and
            // what parks_its_unit reads) to the unparker's acquire, which
            // hands it on with the job.
            std::uint32_t expected = executing;
            if (self->state_.compare_exchange_strong(expected, parked, std::memory_order_acq_rel,
                                                     std::memory_order_acquire))
                return; // from here on, *self belongs to whoever unparks it
            // EXECUTING_UNPARKED: an unpark came while the fiber was still
            // running. Acquire (the failed CAS) made the unparker's writes
            // visible; EXECUTING again, and resume at once. An exchange, for
            // the unparkers that come meanwhile: they find EXECUTING_UNPARKED
            // and write it back unchanged, and this acquires their writes,
            // as the first move into EXECUTING does. The unparker converted
            // nothing, so the unit is ours to take back; at exit the
            // workers may have been let go meanwhile (perhaps by our own
            // park_activity), and the task runs on, on this worker, without
            // a unit.
            if (unit_parked && !registry->try_unpark_activity())
                self->holds_activity_ = false;
            BOOST_ASSERT(expected == executing_unparked);
            self->state_.exchange(executing, std::memory_order_acquire);
            fiber_stats::reruns.fetch_add(1, std::memory_order_relaxed);
        }
    }

    // EXECUTING -> COMPLETE, on the home, after the fiber is gone and the
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
        if (holds_activity_)
            registry->release_activity();
        self_.release(); // the task's reference on itself
    }

    shared_state_base& self_;
    registry_base* const registry_;
    count_latch* const scope_latch_;
    std::size_t const stack_size_;
    bool const guard_pages_;
    spin_budget::duration const spin_limit_;
    // Touched only by the worker running the job (and the fiber it runs);
    // handed from one run to the next through the state word.
    bool started_ = false;
    bool finished_ = false;
    // The task still holds its unit of the registry's activity: always,
    // but for a task woken at exit after the workers were let go (run).
    bool holds_activity_ = true;
    // Set by the fiber around a park in await_ready.
    bool parking_on_a_future_ = false;
    worker_thread* home_ = nullptr;
    job_ref excursion_{};          // what the fiber asked its worker to run
    fiber_exceptions exceptions_;  // the fiber's while the worker runs, the worker's while the fiber runs
    boost::context::fiber fiber_;  // the fiber, while it is not running
    boost::context::fiber caller_; // the worker's context, while it runs
    fiber_waiter waiter_{{&notify_fiber}, this};
    resume_node resume_node_{nullptr, {&run, this}};
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

    // The callable is always destroyed (by destroy_callable) before the
    // task completes, and so before it can be destroyed; noexcept whatever
    // F's destructor says, since a virtual destructor may not be laxer than
    // the base's (clang rejects it otherwise).
    ~fiber_task() noexcept override { BOOST_ASSERT(!alive_); }

    // Queue the first run (see submit_first); on failure the task is
    // complete and cancelled, F never ran, and the exception propagates.
    void start()
    {
        try {
            submit_first();
        } catch (...) {
            abandon();
            throw;
        }
    }

    void cancel() noexcept override { request_cancel(); }
    void check_can_complete() const override { check_not_forked_away(); }
    spin_budget::duration outside_spin_limit() const noexcept override { return spin_limit(); }

private:
    void run_body() noexcept override
    {
        try {
            this->value_.emplace(invoke_to_value(func_));
        } catch (...) {
            this->error_ = std::current_exception();
        }
        destroy_callable();
    }

    void skip_body(std::exception_ptr error) noexcept override
    {
        this->error_ = std::move(error);
        destroy_callable();
    }

    // An exception from F's destructor becomes the task's result, unless
    // the task failed already (then the first error stays).
    void destroy_callable() noexcept
    {
        alive_ = false;
        if constexpr (std::is_nothrow_destructible_v<F>) {
            func_.~F();
        } else {
            try {
                func_.~F();
            } catch (...) {
                if (!this->error_) {
                    this->value_.reset();
                    this->error_ = std::current_exception();
                }
            }
        }
    }

    void publish() noexcept override { this->mark_complete(); }

    // Destroyed by hand, in destroy_callable, so that a throwing destructor
    // can be caught.
    union {
        F func_;
    };
    bool alive_ = true;
};

} // namespace boost::forkjoin::detail

#endif // BOOST_FORKJOIN_DETAIL_FIBER_TASK_HPP
