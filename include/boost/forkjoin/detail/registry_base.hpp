// Copyright 2026 The Boost.ForkJoin developers.
// Distributed under the Boost Software License, Version 1.0.
// (See accompanying file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
#ifndef BOOST_FORKJOIN_DETAIL_REGISTRY_BASE_HPP
#define BOOST_FORKJOIN_DETAIL_REGISTRY_BASE_HPP

// The part of a pool that does not depend on its sleep policy: workers and
// their deques, the injector, termination, statistics. registry.hpp adds the
// policy. Keeping this part a non-template is what lets join, scope and the
// other free functions work inside any pool: they reach the current worker
// through one thread-local pointer and never need the policy's type.
//
// The hot path (push, pop, and an un-stolen join) is inline code here; the
// policy is reached only through the push_filter data, and through virtual
// calls on the cold paths (a worker running out of work, a job entering
// from outside, a latch being set).

#include <boost/forkjoin/core_latch.hpp>
#include <boost/forkjoin/detail/activity_count.hpp>
#include <boost/forkjoin/detail/broadcast_queue.hpp>
#include <boost/forkjoin/detail/chase_lev_deque.hpp>
#include <boost/forkjoin/detail/config.hpp>
#include <boost/forkjoin/detail/cpu_relax.hpp>
#include <boost/forkjoin/detail/fork_generation.hpp>
#include <boost/forkjoin/detail/held_scope.hpp>
#include <boost/forkjoin/detail/injector.hpp>
#include <boost/forkjoin/detail/job.hpp>
#include <boost/forkjoin/detail/locked_job_queue.hpp>
#include <boost/forkjoin/detail/native_thread.hpp>
#include <boost/forkjoin/detail/resume_queue.hpp>
#include <boost/forkjoin/detail/running_fiber.hpp>
#include <boost/forkjoin/detail/termination.hpp>
#include <boost/forkjoin/detail/thread_count.hpp>
#include <boost/forkjoin/detail/worker_counters.hpp>
#include <boost/forkjoin/detail/xorshift_rng.hpp>
#include <boost/forkjoin/errors.hpp>
#include <boost/forkjoin/pool_options.hpp>
#include <boost/forkjoin/pool_stats.hpp>
#include <boost/forkjoin/sleep_policy.hpp>
#include <boost/forkjoin/thread_builder.hpp>

#include <pthread.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <cstdio>
#include <exception>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <stdexcept>
#include <string>
#include <thread>
#include <utility>
#include <vector>

namespace boost::forkjoin::detail {

class registry_base;

// The key of one extension type (registry_base::extension): the address of
// an inline variable is the same in every translation unit.
template <class T>
inline constexpr char extension_key = 0;

class alignas(cache_line_size) worker_thread {
public:
    worker_thread(registry_base& registry, push_filter filter, std::size_t index, std::size_t deque_capacity,
                  bool breadth_first, fence_mode fences)
        : deque_(deque_capacity, fences), push_filter_(filter), registry_(registry), index_(index),
          breadth_first_(breadth_first), rng_(index + 1)
    {
    }

    std::size_t index() const noexcept { return index_; }
    registry_base& registry() const noexcept { return registry_; }

    // Pushes on the own deque and tells the sleep policy, if it listens.
    BOOST_FORKJOIN_FORCEINLINE void push(job_ref job);
    // spawn_fifo: the job goes to a FIFO (the worker's own, or a fifo
    // scope's for this worker), and a placeholder that runs the FIFO's oldest
    // job goes on the deque, so jobs spawned by one worker start in spawn
    // order whoever runs them. If the placeholder cannot be pushed (no memory
    // to grow the deque) the job is taken back out: nothing is queued.
    void push_fifo(job_ref job) { push_fifo(job, fifo_); }
    void push_fifo(job_ref job, locked_job_queue& fifo)
    {
        fifo.push(job);
        try {
            push({&locked_job_queue::run_front, &fifo});
        } catch (...) {
            fifo.take_back();
            throw;
        }
    }

    // Newest first; with breadth_first, oldest first, while fewer than
    // max_breadth_first_nesting jobs run nested on this worker's stack.
    // Beyond that, newest first: a join waiting for its second half takes
    // and runs another job inside its own frame, and oldest first that job
    // is an unrelated, older one whose own joins do the same, one nested job
    // per join, until the stack overflows (fib(22): ~78,000 frames). Newest
    // first, the job taken is the join's own second half or what its first
    // half left, so nesting stops growing.
    static constexpr std::size_t max_breadth_first_nesting = 64;

    BOOST_FORKJOIN_FORCEINLINE std::optional<job_ref> take_local_job()
    {
        if (BOOST_FORKJOIN_LIKELY(!breadth_first_) || nested_jobs_ >= max_breadth_first_nesting)
            return deque_.pop();
        return deque_.take_oldest();
    }

    // take_local_job, else the oldest job of the queues only this worker
    // pops: its broadcasts, then its fibers to resume. Taking these before
    // an idle period begins is the same as taking from the own deque: the
    // policy still counts the worker busy, and a worker that finds nothing
    // here searches them again inside the period, before it may sleep. It
    // spares the period's bookkeeping (a policy's shared counters, clock
    // reads) where a fiber parks and another one, unparked on this worker
    // meanwhile, is what it runs next: every hand-off of a promise.
    BOOST_FORKJOIN_FORCEINLINE std::optional<job_ref> take_own_job()
    {
        if (auto job = take_local_job())
            return job;
        if (auto job = broadcasts_.pop())
            return job;
        return resumes_.pop();
    }

    // Runs jobs until `latch` is set: the latch's setter may be another
    // worker running a job we are waiting for. On a fiber, the fiber parks
    // instead (park_fiber_until), and the worker runs jobs below it.
    inline void wait_until(core_latch& latch);

    // On a fiber of this worker: parks it until `latch` is set. The latch's
    // setter sets it with set_latch_and_notify toward this worker, which
    // unparks the fiber (running_fiber.hpp says why a fiber does not let
    // its worker wait for it).
    inline void park_fiber_until(core_latch& latch);

    // Called by set_latch_and_notify once `latch` is set: unparks the fiber
    // of this worker parked until that latch, if one is. Only the address is
    // compared: the latch may be gone by now.
    inline void unpark_fiber_waiting_for(core_latch const* latch) noexcept;

    // Local deque, broadcasts, fibers to resume, then other workers, then
    // the injector.
    inline std::optional<job_ref> find_work();
    inline std::optional<job_ref> steal();
    inline bool has_injected_jobs() const noexcept;

    // Owner only: how many jobs its deque holds (exact for the owner, up to
    // thieves taking some meanwhile).
    std::size_t local_job_count() const noexcept { return deque_.size(); }
    // This worker will not pop for a while; its jobs must stay stealable
    // (chase_lev_deque::prepare_for_absent_owner).
    void prepare_for_absence() noexcept { deque_.prepare_for_absent_owner(); }

    // Runs a job taken from a queue. Never on a fiber's stack: a job is not
    // part of the fiber that happens to be running and may go deeper than
    // its stack allows, so fiber code hands it to the worker's own stack
    // (running_fiber.hpp). Not on join's fast path, which runs its own
    // second half inline.
    //
    // Counts the jobs nested on this stack (see take_local_job).
    BOOST_FORKJOIN_FORCEINLINE void execute(job_ref job) noexcept
    {
        if (BOOST_FORKJOIN_UNLIKELY(current_fiber_ != nullptr))
            return current_fiber_->run_on_worker_stack(job);
        ++nested_jobs_;
        job.execute();
        --nested_jobs_;
    }

    // The fiber task this worker is running right now, or nullptr. Set by
    // the fiber's own job around each resume (fiber_task.hpp).
    running_fiber* current_fiber() const noexcept { return current_fiber_; }
    void set_current_fiber(running_fiber* fiber) noexcept { current_fiber_ = fiber; }

    // Fibers whose home is this worker, unparked and waiting to resume here.
    resume_queue& resumes() noexcept { return resumes_; }

    // What this thread keeps for the fibers it ran (their stacks, which
    // stack_pool.hpp caches per thread) is freed when the thread stops being
    // this worker: a thread may go on after its pool (a use_current_thread
    // pool's worker 0, or a spawn_handler's thread after run() returns),
    // and a later pool on it may want stacks of another size. The fiber code
    // gives the function that frees it when it first runs a fiber: a plain
    // function pointer, so that a program that never starts a fiber does not
    // pull that code in.
    void set_fiber_cache_release(void (*release)() noexcept) noexcept { release_fiber_cache_ = release; }
    void release_fiber_cache() noexcept
    {
        if (release_fiber_cache_ != nullptr)
            release_fiber_cache_();
    }

    // Worker 0 of a pool with a caller slot: no thread of its own, worn by
    // whichever thread holds the slot (registry_base::try_take_caller_slot).
    bool is_caller_slot() const noexcept { return caller_slot_; }

    core_latch& terminate_latch() noexcept { return terminate_; }
    broadcast_queue& broadcasts() noexcept { return broadcasts_; }
    worker_counters& counters() noexcept { return counters_; }

private:
    friend class registry_base;

    chase_lev_deque deque_;
    // The registry's, copied here so that a push reads it without first
    // loading the registry pointer.
    push_filter push_filter_;
    registry_base& registry_;
    std::size_t index_;
    bool breadth_first_;
    bool caller_slot_ = false; // set by registry_base::start, before any thread sees us
    xorshift_rng rng_;
    broadcast_queue broadcasts_;
    locked_job_queue fifo_;
    core_latch terminate_;
    running_fiber* current_fiber_ = nullptr;
    void (*release_fiber_cache_)() noexcept = nullptr;
    std::size_t nested_jobs_ = 0; // jobs running inside execute() on this worker
    // Pushed by any thread: a line of its own.
    alignas(cache_line_size) resume_queue resumes_;
    alignas(cache_line_size) worker_counters counters_;
    // This worker's fibers parked until a latch is set (park_fiber_until),
    // one node each on the fiber's stack. The count, on a line of its own
    // (every stolen join's setter reads it), lets a setter skip the lock
    // when there are none, as there are in all but fiber code. Seq-cst, as
    // the setter's load after its seq-cst set of the latch: a fiber that
    // registers and then finds the latch unset is seen by its setter.
    struct latch_wait {
        core_latch const* latch;
        running_fiber* fiber;
        latch_wait* next = nullptr;
        bool linked = false; // guarded by latch_waits_mutex_
    };
    alignas(cache_line_size) std::atomic<std::size_t> latch_wait_count_{0};
    std::mutex latch_waits_mutex_;
    latch_wait* latch_waits_ = nullptr; // guarded by latch_waits_mutex_

    // Takes the node at *link out of the list. Under latch_waits_mutex_.
    inline void unlink_latch_wait(latch_wait** link) noexcept;
};

inline void worker_thread::unlink_latch_wait(latch_wait** link) noexcept
{
    latch_wait& node = **link;
    *link = node.next;
    node.linked = false;
    // Relaxed: outside the lock the count is only read to skip it, and a
    // stale non-zero only takes the lock for nothing; what a setter must
    // not miss is the increment before a fiber's look at its latch.
    latch_wait_count_.fetch_sub(1, std::memory_order_relaxed);
}

// The worker running on this thread, if any. constinit: a plain TLS load,
// no initialization guard, on every join.
inline constinit thread_local worker_thread* current_worker = nullptr;

// The registry whose deadlock handler runs on this thread, if any
// (registry_base::guarded_deadlock_handler).
inline constinit thread_local registry_base const* deadlock_handler_running_for = nullptr;

// --- fork() -------------------------------------------------------------------
//
// fork() copies only the calling thread. In the child, every pool that
// existed in the parent has no workers, and its mutexes and condition
// variables may be held or waited on by threads that do not exist there: one
// lock, one notify, one join or one pthread_cond_destroy can hang the child.
// So the child must not touch those pools at all. A pthread_atfork handler
// counts forks in the child; a registry remembers the count it was built
// under, and one built under an older count is *forked away*: submitting to
// it throws, and destroying it keeps its memory instead of joining and
// freeing (registry_base::shut_down).

// The count itself is fork_generation (fork_generation.hpp), which the
// latches check too.

inline void note_fork_in_child() noexcept
{
    fork_generation.fetch_add(1, std::memory_order_relaxed);
    // If fork() was called by a job, this thread is no worker in the child.
    current_worker = nullptr;
}

inline void watch_for_fork() noexcept
{
    // An exchange instead of a function-local static: a fork that lands in
    // another thread's static initialization would leave the child waiting
    // on the initialization guard forever. Relaxed: two racing first calls
    // both see a registration done or underway, and pthread_atfork and fork
    // exclude each other.
    static constinit std::atomic<bool> registered{false};
    if (!registered.exchange(true, std::memory_order_relaxed))
        pthread_atfork(nullptr, nullptr, &note_fork_in_child);
}

class registry_base : public std::enable_shared_from_this<registry_base>, public worker_host {
public:
    registry_base(pool_options options, std::size_t policy_max_threads, std::size_t deque_capacity,
                  std::size_t injector_capacity, std::string const& policy_name)
        : options_(with_spin_limit_in_range(std::move(options))),
          num_threads_(resolve_num_threads(options_.num_threads, policy_max_threads, policy_name)),
          max_threads_(std::min(policy_max_threads, registry_thread_limit)),
          // Decided here, before any worker exists: no owner ever pops with
          // a fence other than the one its thieves expect. A breadth-first
          // owner takes most of its own jobs from the thieves' end
          // (take_oldest: a CAS, no fence either way), so asymmetric fences
          // would save it little and cost each steal a membarrier.
          fences_(options_.breadth_first ? fence_mode::symmetric : resolve_fence_mode(options_.fences, num_threads_)),
          deque_capacity_(deque_capacity),
          fork_generation_((watch_for_fork(), fork_generation.load(std::memory_order_relaxed))),
          injector_(injector_capacity)
    {
        check_fiber_stack_size(options_.fiber_stack_size);
        if (options_.caller_slot && options_.use_current_thread)
            throw std::invalid_argument("boost::forkjoin: pool_options::caller_slot and use_current_thread both "
                                        "give worker 0 to a thread that is not the pool's own: choose one");
    }

    registry_base(registry_base const&) = delete;
    registry_base& operator=(registry_base const&) = delete;

    virtual ~registry_base() = default;

    std::size_t num_threads() const noexcept { return num_threads_; }
    std::size_t max_threads() const noexcept { return max_threads_; }
    worker_thread& worker(std::size_t index) noexcept { return *workers_[index]; }
    pool_options const& options() const noexcept { return options_; }

    // asymmetric, adaptive or symmetric: resolved from options().fences at
    // construction; symmetric once a membarrier has failed in this process
    // (each deque then switches at its next steal attempt and owner's pop).
    fence_mode fences() const noexcept
    {
        return membarrier_failed.load(std::memory_order_relaxed) ? fence_mode::symmetric : fences_;
    }

    // --- Policy hooks (registry.hpp) ----------------------------------------
    // noexcept: each runs after the pool changed its state (a job queued, a
    // latch set) or inside a worker's wait, where an exception from the
    // policy would unwind code that cannot take the change back: a spawn
    // would free a job that is queued already. It ends the program instead.
    virtual void wait_until_cold(worker_thread& worker, core_latch& latch) noexcept = 0;
    virtual void notify_latch_set(std::size_t target, bool target_was_sleeping) noexcept = 0;
    virtual void notify_new_internal_jobs(bool queue_was_empty) noexcept = 0;
    virtual void notify_new_injected_jobs(std::size_t count, bool queue_was_empty) noexcept = 0;
    virtual void notify_worker(std::size_t index) noexcept = 0;
    virtual void mark_blocked() = 0;
    virtual void mark_unblocked() = 0;
    // `worker` will not pop its deque for a while (it blocks in user code,
    // or its caller slot's holder leaves): publishes its jobs for the
    // thieves again, as registry.hpp says.
    virtual void hand_over_local_jobs(worker_thread& worker) noexcept = 0;

    // --- Starting and stopping ----------------------------------------------

    // Creates the workers and hands each to its thread. Separate from the
    // constructor because the workers call the virtual hooks, which exist
    // only once the derived registry (and its policy, which supplies
    // `filter`) is constructed, and because handing out a worker needs
    // shared_from_this. Everything user code supplies (thread_name,
    // spawn_handler) is called here, on the constructing thread, so that its
    // exceptions are the constructor's. On failure the pool is stopped as
    // by its destructor (stop()) before the exception leaves.
    void start(push_filter filter)
    {
        if (options_.use_current_thread && current_worker != nullptr)
            throw std::logic_error("boost::forkjoin: use_current_thread: the calling thread is already a worker of "
                                   "a pool, and a thread can be the worker of one pool only");
        workers_.reserve(num_threads_);
        for (std::size_t i = 0; i < num_threads_; ++i)
            workers_.push_back(
                std::make_unique<worker_thread>(*this, filter, i, deque_capacity_, options_.breadth_first, fences_));
        if (!options_.spawn_handler)
            threads_.reserve(num_threads_);
        // Relaxed: only this thread can find its own id here (thread ids are
        // unique), and it wrote it.
        building_thread_.store(std::this_thread::get_id(), std::memory_order_relaxed);
        try {
            std::size_t first = 0;
            if (options_.use_current_thread) {
                adopted_ = workers_[0].get();
                current_worker = adopted_;
                first = 1;
            } else if (has_caller_slot_) {
                workers_[0]->caller_slot_ = true;
                first = 1;
            }
            for (std::size_t i = first; i < num_threads_; ++i)
                hand_out_worker(i);
            // Seq-cst, as the pair in abandon_worker: either we see a builder
            // dropped before this point, or its destructor sees us built.
            built_.store(true, std::memory_order_seq_cst);
            if (abandoned_workers_.load(std::memory_order_seq_cst) != 0)
                throw std::logic_error(abandoned_builder_message);
        } catch (...) {
            building_thread_.store(std::thread::id(), std::memory_order_relaxed);
            stop();
            throw;
        }
        building_thread_.store(std::thread::id(), std::memory_order_relaxed);
        open_start_gate();
    }

    // Stops the pool on behalf of its handle: the destructor of
    // basic_thread_pool. Waits for every job spawned into the pool, lets the
    // workers run their exit_handler and waits until each has left. A pool
    // built before a fork() and destroyed in the child has no workers to
    // wait for, and its locks may be held by threads that do not exist
    // there: it is kept, untouched, instead.
    void shut_down() noexcept
    {
        if (forked_away()) {
            keep_forked_away();
            return;
        }
        worker_thread* const self = current_worker;
        if (adopted_ != nullptr) {
            if (self != adopted_)
                fail("boost::forkjoin: a pool built with use_current_thread was destroyed on another thread than "
                     "the one that built it (its worker 0); destroy it on that thread");
            if (waits_for_a_scope_held_here(*adopted_))
                fail("boost::forkjoin: a pool built with use_current_thread was destroyed inside the body of "
                     "another pool's in_place_scope that its worker 0 opened: the scope waits for its jobs as "
                     "that worker. Destroy the pool outside the scope");
        } else if (owns(self)) {
            begin_termination();
            std::fprintf(stderr,
                         "boost::forkjoin: a pool was destroyed on one of its own workers (worker %zu): its "
                         "destructor would wait for that worker to finish, that is for itself. Destroy a pool "
                         "from a thread outside it.\n",
                         self->index());
            std::fflush(stderr);
            std::terminate();
        }
        stop();
    }

    // The global pool's exit handler: as shut_down, after which submitting
    // work says that the global pool was shut down at exit.
    void shut_down_at_exit() noexcept
    {
        // Release: a submitter that finds the count at 0 reads this flag
        // after an acquire load of the count (throw_not_accepting).
        shut_down_at_exit_.store(true, std::memory_order_release);
        bool const stopping = !forked_away();
        // Work guards and tracked executors still alive at exit may be on
        // the exiting thread's own stack, which is never unwound: do not
        // wait for them (activity_count.hpp). The handle's unit is still
        // held, so this never frees the workers by itself.
        if (stopping && activity_.forgive_tracked())
            let_workers_leave();
        shut_down();
        // The pool is kept, not freed (global_pool.hpp says why): free what
        // leak checkers could not see as still in use.
        if (stopping)
            release_spare_memory();
    }

    // Whether this registry was built in a parent process, before a fork()
    // that made this process.
    bool forked_away() const noexcept
    {
        return fork_generation_ != current_fork_generation();
    }

    // Called where a job returns into the pool (a worker's loop, a caller
    // slot's holder, a policy hook that a job's completion signal calls):
    // ends a child that a job forked and that got back here instead of
    // calling exec or _exit, before it runs another of the parent's jobs or
    // touches a lock of the parent's. On cold paths only: a job taken from
    // a queue, a notification.
    void refuse_a_return_after_fork() const noexcept
    {
        if (BOOST_FORKJOIN_UNLIKELY(forked_away()))
            fail_job_returned_after_fork();
    }

    // Throws pool_terminated if this registry was forked away.
    void check_not_forked_away() const
    {
        if (BOOST_FORKJOIN_UNLIKELY(forked_away()))
            throw pool_terminated(forked_away_message);
    }

    // Keeps the workers alive while external work is in flight. Throws
    // pool_terminated if they are already leaving, or do not exist here.
    void acquire_activity()
    {
        if (!try_acquire_activity()) {
            check_not_forked_away();
            throw_not_accepting();
        }
    }

    // Throws pool_terminated if `worker`, one of ours, has been told to
    // leave: it runs its exit_handler, and the pool accepts no work, not
    // even work that would run in place on it (Asio's dispatch). Its own
    // latch, so a worker in its loop reads a line no other thread writes.
    void refuse_work_on_a_leaving_worker(worker_thread& worker) const
    {
        if (BOOST_FORKJOIN_UNLIKELY(worker.terminate_latch().probe()))
            throw_not_accepting();
    }

    // As acquire_activity, but says false where that throws.
    bool try_acquire_activity() noexcept { return !forked_away() && activity_.try_take_work(); }

    void release_activity() noexcept
    {
        if (activity_.give_back_work())
            let_workers_leave();
    }

    // The global pool's exit handler forgives tracked units, so a task of
    // its that parks on another future holds a tracked unit while parked
    // (activity_count::park_work says why, fiber_task.hpp when). Only
    // there: a user pool's destructor waits for parked tasks either way,
    // and its tasks are spared two RMWs on the shared count per park and
    // wake. Called by create_global_pool before it publishes the pool, so
    // before any task of it exists: tasks read it without synchronizing.
    void forgive_parked_tasks_at_exit() noexcept { parked_tasks_forgiven_at_exit_ = true; }
    bool parked_tasks_forgiven_at_exit() const noexcept { return parked_tasks_forgiven_at_exit_; }

    void park_activity() noexcept
    {
        if (activity_.park_work())
            let_workers_leave();
    }
    bool try_unpark_activity() noexcept { return activity_.try_unpark_work(); }

    // Whether a job, install, scope, broadcast or future task (parked ones
    // included) is still in flight, or Asio work the pool counts: any unit
    // held beside the handle's. A snapshot, read while the handle is alive.
    bool has_work_in_flight() const noexcept { return activity_.held_beside_the_handle(); }

    // A tracked unit (activity_count.hpp): for Asio's tracked executors and
    // on_work_started, which must not throw, so false where the workers are
    // leaving already, or do not exist here.
    bool try_acquire_tracked_work() noexcept { return !forked_away() && activity_.try_take_tracked(); }

    void release_tracked_work() noexcept
    {
        if (activity_.give_back_tracked())
            let_workers_leave();
    }

    // Gives back a tracked unit that try_acquire_tracked_work may have
    // failed to take, without knowing which: Asio's on_work_finished. In a
    // forked child nothing was taken.
    void release_tracked_work_if_taken() noexcept
    {
        if (!forked_away() && activity_.give_back_tracked_if_taken())
            let_workers_leave();
    }

    // pool_options::deadlock_handler as a policy should call it: an
    // exception escaping it must not unwind the sleep path or mark_blocked
    // (the scheduler's state would be half updated, and a join's stolen
    // half would outlive its frame), so it goes to the panic handler, as an
    // exception of a start or exit handler does. Empty if there is none.
    std::function<void()> guarded_deadlock_handler()
    {
        if (!options_.deadlock_handler)
            return {};
        return [this]() noexcept {
            // The handler runs inside the policy, holding its locks: a call
            // back into this pool that would take them again ends in a
            // clear error (refuse_calls_from_deadlock_handler), not a hang.
            registry_base const* const outer = deadlock_handler_running_for;
            deadlock_handler_running_for = this;
            try {
                options_.deadlock_handler();
            } catch (...) {
                handle_panic(std::current_exception());
            }
            deadlock_handler_running_for = outer;
        };
    }

    // Called first on every path into the sleep policy other than a
    // worker's own idle loop: a notification, mark_blocked, a worker's wait
    // for a latch. From the pool's deadlock handler (or the panic handler it
    // threw to), each of these would take a lock that the thread already
    // holds. Only on cold paths: a notification the push filter let through,
    // a wait with nothing left to run.
    void refuse_calls_from_deadlock_handler() const noexcept
    {
        if (BOOST_FORKJOIN_UNLIKELY(deadlock_handler_running_for == this))
            fail("boost::forkjoin: the pool's deadlock_handler called back into the pool (it submitted work, set "
                 "something the pool waits for, waited on a worker, or called mark_blocked/mark_unblocked). The "
                 "handler runs inside the pool's sleep path, holding its locks: it must hand the news to a thread "
                 "outside the pool, which may then act on the pool");
    }

    // The cold part of worker_thread::wait_until, out of line so that the
    // check below adds nothing to the code inlined into every join.
    BOOST_FORKJOIN_NOINLINE void wait_for_latch(worker_thread& worker, core_latch& latch)
    {
        // A job that called fork() and went on in the child: the latch may
        // be one that only a thread of the parent could set.
        if (BOOST_FORKJOIN_UNLIKELY(forked_away()))
            fail(waited_after_fork_message);
        // On a fiber, the fiber parks until the latch's set unparks it
        // (running_fiber.hpp).
        if (BOOST_FORKJOIN_UNLIKELY(worker.current_fiber_ != nullptr))
            worker.park_fiber_until(latch);
        else
            wait_until_cold(worker, latch);
    }

    // --- worker_host: the thread_builder's side ---------------------------------

    void run_worker(std::size_t index) override
    {
        if (current_worker != nullptr)
            throw std::logic_error("boost::forkjoin::thread_builder::run: the calling thread is already a worker "
                                   "of a pool");
        if (building_thread_.load(std::memory_order_relaxed) == std::this_thread::get_id())
            throw std::logic_error("boost::forkjoin::thread_builder::run: called on the thread that is building "
                                   "the pool (inside spawn_handler?); run() returns only when the pool terminates, "
                                   "so run it on a thread of its own");
        worker_thread& w = *workers_[index];
        current_worker = &w;
        call_handler(options_.start_handler, index);
        // A worker does not look for work before every worker has been handed
        // out: a search visits every deque, and a pool whose construction
        // fails half-way (the OS refusing the 1000th of 65535 threads) would
        // otherwise have its first workers sweep 65535 empty deques for as
        // long as the others take to start, then to notice they must stop.
        wait_at_start_gate();
        w.wait_until(w.terminate_latch());
        call_handler(options_.exit_handler, index);
        current_worker = nullptr;
        w.release_fiber_cache();
        worker_stopped();
    }

    void abandon_worker(std::size_t index) noexcept override
    {
        // Seq-cst: see start().
        abandoned_workers_.fetch_add(1, std::memory_order_seq_cst);
        bool const pool_needs_it =
            built_.load(std::memory_order_seq_cst) && !workers_[index]->terminate_latch().probe();
        if (pool_needs_it)
            fail(abandoned_builder_message);
        worker_stopped();
    }

    // --- Submitting work ------------------------------------------------------

    // From any thread.
    void inject(job_ref job)
    {
        bool const queue_was_empty = injector_.push(job);
        notify_new_injected_jobs(1, queue_was_empty);
    }

    std::optional<job_ref> pop_injected() { return injector_.pop(); }
    bool has_injected_jobs() const noexcept { return injector_.has_jobs(); }

    // Whether `w` (a current_worker value, maybe null) is one of ours. The
    // caller reads current_worker itself: code on a fiber must re-read it
    // after every suspension (fiber_task.hpp).
    bool owns(worker_thread const* w) const noexcept { return w != nullptr && &w->registry() == this; }

    // Push on `w`'s deque if it is one of ours, else inject.
    void push_or_inject(job_ref job, worker_thread* w)
    {
        if (owns(w))
            w->push(job);
        else
            inject(job);
    }

    // One job into each worker's private broadcast queue: node_of(i) is
    // worker i's. Cannot fail (broadcast_queue.hpp), so a broadcast reaches
    // every worker or, if it failed to allocate its nodes, none.
    template <class NodeOf>
    void inject_broadcast(NodeOf node_of) noexcept
    {
        for (std::size_t i = 0; i < num_threads_; ++i)
            workers_[i]->broadcasts().push(node_of(i));
        broadcast_jobs_.fetch_add(num_threads_, std::memory_order_relaxed);
        std::size_t first = 0;
        if (has_caller_slot_) {
            first = 1;
            // Seq-cst, after the seq-cst push: the other half of the pair
            // in free_caller_slot. Either we see the place held, and its
            // holder runs the share in a wait in the pool or finds it when
            // it gives the place back; or we see it free or borrowed, and
            // tell the pool, one of whose threads borrows the place to take
            // the share (run_vacant_slot_broadcasts; a borrower looks at
            // the queue again once it gives the place back).
            if (caller_slot_state_.load(std::memory_order_seq_cst) == slot_held)
                notify_worker(0);
            else
                notify_vacant_slot_work();
        }
        for (std::size_t i = first; i < num_threads_; ++i)
            notify_worker(i);
    }

    // --- The caller slot (pool_options::caller_slot) ---------------------------
    //
    // Worker 0 has no thread of its own. A thread outside every pool takes
    // its place for the length of an install (submit.hpp), one at a time:
    // taking it is a compare-exchange on one word. Whoever holds it is
    // worker 0 in every respect (current_worker, its deque, its broadcast
    // queue, its sleep state in the policy) but one: it starts no fiber,
    // because a fiber resumes on the thread that started it (fiber_task.hpp),
    // and that thread may have left the place by then. The pool's own
    // fibers never have worker 0 for home, so its resume queue stays empty.
    //
    // A thread of the pool never becomes worker 0. While the place is free,
    // worker 0's broadcast queue still receives shares; a searching thread
    // of the pool borrows the place only to pop one (the queue has one
    // consumer at a time), gives it back, and runs the share as itself
    // (run_vacant_slot_broadcasts). So every thread of the pool is always
    // its own worker, the only one that pops its broadcast and resume
    // queues, and it serves them in every wait, nested waits inside worker
    // 0's share included. (When a thread of the pool wore worker 0's
    // identity for the length of the share, its own queues went unserved
    // meanwhile, and a share that waited for work of its pool, a nested
    // broadcast or a future, waited for itself: doc/design.adoc, "The
    // caller slot".) It also keeps the place for outside callers: an
    // install that finds it borrowed waits out the pop, so it loses the
    // place only to another outside caller.
    enum : unsigned char { slot_free, slot_held, slot_borrowed };

    // Takes worker 0's place unless another outside caller holds it. The
    // caller sets current_worker and gives the place back with
    // give_back_caller_slot.
    bool try_take_caller_slot() noexcept
    {
        if (!has_caller_slot_)
            return false;
        // A relaxed load first, a hint the compare-exchange confirms: a
        // held place costs a caller one read of the line, not a write to
        // it. Acquire on the compare-exchange's success: the last holder's
        // release (free_caller_slot's seq-cst store) orders all it did as
        // worker 0 (the deque's owner fields, the queues' consumer side)
        // before what we do as worker 0; so does a borrower's, for the
        // queue. Relaxed on failure and in the wait below: nothing is read
        // on the strength of a state we do not take.
        unsigned char state = caller_slot_state_.load(std::memory_order_relaxed);
        for (unsigned spins = 0;; ++spins) {
            if (state == slot_held)
                return false;
            if (state == slot_free) {
                if (caller_slot_state_.compare_exchange_weak(state, slot_held, std::memory_order_acquire,
                                                             std::memory_order_relaxed))
                    return true;
                continue; // `state` reloaded
            }
            // Borrowed for one pop, a lock and a few stores: wait it out
            // (yielding, in case the borrower lost its CPU to us).
            if (spins < 64)
                cpu_relax();
            else
                std::this_thread::yield();
            state = caller_slot_state_.load(std::memory_order_relaxed);
        }
    }

    // Worker 0's place, taken by the calling thread (try_take_caller_slot
    // returned true), for the life of this object: the thread is worker 0
    // meanwhile, and is again what it was before (nobody's worker) once the
    // place is given back.
    class caller_slot_holder {
    public:
        explicit caller_slot_holder(registry_base& registry) noexcept
            : registry_(registry), previous_(std::exchange(current_worker, registry.workers_[0].get()))
        {
        }
        caller_slot_holder(caller_slot_holder const&) = delete;
        caller_slot_holder& operator=(caller_slot_holder const&) = delete;
        ~caller_slot_holder()
        {
            // A job that forked, and the child returned from it: giving
            // the place back would hand over and notify through the sleep
            // policy's locks, which threads of the parent may hold.
            registry_.refuse_a_return_after_fork();
            current_worker = previous_;
            registry_.give_back_caller_slot();
        }

    private:
        registry_base& registry_;
        worker_thread* const previous_;
    };

    // Gives worker 0's place back. What the holder leaves there stays
    // there, for the pool's threads to take:
    //  * jobs on the deque (spawned, not yet stolen) are handed over as by a
    //    worker that blocks (hand_over_local_jobs), so that a sleepy thread
    //    cannot miss them;
    //  * a broadcast's share that came after the holder's last look at its
    //    queue is run by a thread of the pool (run_vacant_slot_broadcasts).
    void give_back_caller_slot() noexcept
    {
        worker_thread& slot = *workers_[0];
        if (slot.local_job_count() != 0)
            hand_over_local_jobs(slot);
        free_caller_slot();
    }

    // Whether the place is free and worker 0's broadcast queue holds a
    // share, which a thread of the pool must borrow the place to take.
    // Part of a searching worker's look at the queues that are not its own
    // (worker_thread::has_injected_jobs), so it follows the policies' rule
    // for those: the publisher (a broadcast, a holder or borrower giving
    // the place back) publishes with a seq-cst write, then notifies as for
    // an injected job.
    bool vacant_slot_has_work() const noexcept
    {
        // Seq-cst loads: the checking side of that rule. A sleepy worker
        // announces itself (seq-cst, in the policy) before it looks here;
        // the seq-cst order then gives either the publisher's notification
        // the announcement, or this look the share and the free place.
        return has_caller_slot_ && !workers_[0]->broadcasts_.empty() &&
               caller_slot_state_.load(std::memory_order_seq_cst) == slot_free;
    }

    // The job a searching thread of the pool runs when vacant_slot_has_work:
    // it borrows the place for one pop, gives it back, and runs the share
    // it took as itself, its own worker (it runs inside that worker's
    // execute(), on its own stack). If the place was taken first, its new
    // holder or borrower takes the share instead.
    static void run_vacant_slot_broadcasts(void* self) noexcept
    {
        auto& registry = *static_cast<registry_base*>(self);
        unsigned char expected = slot_free;
        // Acquire: the queue's last consumer (a holder, a borrower) did its
        // part before it freed the place. (The queue's own lock orders the
        // nodes; this orders the rest of worker 0's consumer side.) Relaxed
        // on failure: someone else has the place, and nothing is read.
        if (!registry.caller_slot_state_.compare_exchange_strong(expected, slot_borrowed, std::memory_order_acquire,
                                                                 std::memory_order_relaxed))
            return;
        std::optional<job_ref> const share = registry.workers_[0]->broadcasts().pop();
        registry.free_caller_slot();
        if (share)
            share->execute();
    }

    // A share in worker 0's broadcast queue, with the place free: the pool's
    // threads must borrow the place to take it, so tell them as of a job in
    // the injector, which their searches look at together with this queue.
    void notify_vacant_slot_work() noexcept { notify_new_injected_jobs(1, true); }

    // A future task's first run reached worker 0 through its queues (the
    // holder's spawn_future, a steal): worker 0 starts no fiber, so the
    // task starts on a thread of the pool instead, through that worker's
    // resume queue (no allocation: the node is the task's). Called by the
    // holder only.
    void start_fiber_elsewhere(resume_node& first_run) noexcept
    {
        worker_thread& slot = *workers_[0];
        std::size_t const target = 1 + static_cast<std::size_t>(slot.rng_.next() % (num_threads_ - 1));
        workers_[target]->resumes().push(first_run);
        notify_worker(target);
    }

    // Sets a core latch that worker `target` of this registry, or a fiber
    // of that worker, may wait on.
    void set_latch_and_notify(core_latch& latch, std::size_t target)
    {
        worker_thread& waiter = *workers_[target];
        bool const was_sleeping = latch.set();
        notify_latch_set(target, was_sleeping);
        waiter.unpark_fiber_waiting_for(&latch);
    }

    // An exception escaped a spawned job or a handler. Without a panic
    // handler, several workers may get here at once: begin_termination lets
    // one through, so that its exception is reported whole
    // (termination.hpp).
    void handle_panic(std::exception_ptr error) noexcept
    {
        if (!options_.panic_handler) {
            begin_termination();
            std::rethrow_exception(error); // noexcept: std::terminate, with the exception in flight
        }
        try {
            options_.panic_handler(std::move(error));
        } catch (...) {
            // The handler itself failed; nobody is left to tell.
            begin_termination();
            std::terminate();
        }
    }

    // Whether a thread outside the pool that waits for it should go on
    // spinning: only while the pool leaves a CPU free. On a machine with no
    // more CPUs than workers, a spinning caller beside busy workers is one
    // runnable thread too many, and the kernel may then stack two workers
    // on one CPU while the caller holds the other (see spin_budget.hpp).
    bool leaves_a_cpu_free() const noexcept
    {
        // Relaxed: a hint, read again at every look of the spin.
        return num_threads_ < cpus_ || idle_workers_.load(std::memory_order_relaxed) != 0;
    }

    // Counts the workers that are between jobs (searching or asleep) for
    // leaves_a_cpu_free(), over one idle period of one worker.
    class idle_period {
    public:
        explicit idle_period(registry_base& registry) noexcept : registry_(&registry)
        {
            // Relaxed: a hint for spinning callers, ordering nothing.
            registry_->idle_workers_.fetch_add(1, std::memory_order_relaxed);
        }
        idle_period(idle_period const&) = delete;
        idle_period& operator=(idle_period const&) = delete;
        ~idle_period() { end(); }

        // The worker found a job: it is busy from here on.
        void end() const noexcept
        {
            if (registry_ != nullptr)
                std::exchange(registry_, nullptr)->idle_workers_.fetch_sub(1, std::memory_order_relaxed);
        }

    private:
        mutable registry_base* registry_;
    };

    pool_stats stats() const
    {
        pool_stats s;
        for (auto const& w : workers_) {
            worker_counters const& c = w->counters_;
            s.steals += c.steals.load(std::memory_order_relaxed);
            s.sleeps += c.sleeps.load(std::memory_order_relaxed);
            s.wakeups += c.wakeups.load(std::memory_order_relaxed);
            s.futile_wakeups += c.futile_wakeups.load(std::memory_order_relaxed);
        }
        s.injected = injector_.pushed() + broadcast_jobs_.load(std::memory_order_relaxed);
        return s;
    }

    // --- Extensions ------------------------------------------------------------

    // The object of type T that an optional integration keeps with this
    // registry (asio.hpp keeps the pool's asio::execution_context here),
    // built by make(), which returns a std::shared_ptr<T>, on first use, and
    // destroyed with the registry. The core never names these types, so it
    // does not depend on their libraries. Not on any hot path: a mutex and a
    // short search.
    template <class T, class Make>
    T& extension(Make&& make)
    {
        std::lock_guard const lock(extensions_mutex_);
        for (auto const& [key, object] : extensions_)
            if (key == &extension_key<T>)
                return *static_cast<T*>(object.get());
        std::shared_ptr<T> object = std::forward<Make>(make)();
        T& result = *object;
        extensions_.emplace_back(&extension_key<T>, std::move(object));
        return result;
    }

private:
    // Frees worker 0's place, held or borrowed. Seq-cst: release for the
    // next holder or borrower, and the first half of a store-buffering
    // pair with inject_broadcast's push then load of the state. Either that
    // load sees the place held, and our look at the queue below sees its
    // share, or it sees the place free or borrowed and notifies the pool
    // itself.
    void free_caller_slot() noexcept
    {
        caller_slot_state_.store(slot_free, std::memory_order_seq_cst);
        if (!workers_[0]->broadcasts().empty())
            notify_vacant_slot_work();
    }

    // The start gate (start_gate_mutex_ says why it is not a latch). Opened
    // once start() has handed out every worker, or when it gives up; a
    // second opening, by stop() after a failed start(), changes nothing.
    void open_start_gate()
    {
        std::lock_guard const lock(start_gate_mutex_);
        start_gate_open_ = true;
        start_gate_opened_.notify_all();
    }

    void wait_at_start_gate()
    {
        std::unique_lock lock(start_gate_mutex_);
        start_gate_opened_.wait(lock, [this] { return start_gate_open_; });
    }

    // The last unit of activity was given back: let the workers leave.
    void let_workers_leave()
    {
        // Once the last latch is set, the workers may leave and the handle's
        // destructor free this registry while we are still notifying: when
        // we are not one of the workers it waits for (an install from
        // outside, say), only this reference keeps us alive.
        std::shared_ptr<registry_base> const keep_alive = shared_from_this();
        for (std::size_t i = 0; i < num_threads_; ++i)
            set_latch_and_notify(workers_[i]->terminate_latch(), i);
    }

    static std::size_t resolve_num_threads(std::size_t requested, std::size_t policy_max,
                                           std::string const& policy_name)
    {
        std::size_t const limit = std::min(policy_max, registry_thread_limit);
        std::size_t const from_environment = requested != 0 ? 0 : num_threads_from_environment();
        // The hardware's count is a default, not a request: like rayon's
        // (max_num_threads), it gives way to the policy's limit.
        if (requested == 0 && from_environment == 0)
            return std::min(hardware_num_threads(), limit);
        std::size_t const n = requested != 0 ? requested : from_environment;
        if (n > limit)
            throw too_many_threads("boost::forkjoin: " + std::to_string(n) + " threads requested"
                                   + (requested == 0 ? std::string(" (by ") + num_threads_variable + ")" : "")
                                   + ", but a pool with " + policy_name + " supports at most "
                                   + std::to_string(limit));
        return n;
    }

    // Throws for a negative spin_limit; takes one above spin_budget's
    // max_limit as that, here, so that the policies and the threads that
    // wait from outside all spin within the same limit.
    static pool_options with_spin_limit_in_range(pool_options options)
    {
        if (options.spin_limit < std::chrono::nanoseconds::zero())
            throw std::invalid_argument("boost::forkjoin: pool_options::spin_limit must not be negative");
        options.spin_limit = std::min(options.spin_limit, spin_budget::max_limit);
        return options;
    }

    // Below the minimum, the fiber's own frames (Boost.Context's record at
    // the top of the stack, the task's entry, an exception's unwinding, a
    // signal handler) would overrun a stack before user code runs at all.
    static void check_fiber_stack_size(std::size_t size)
    {
        if (size < pool_options::min_fiber_stack_size)
            throw std::invalid_argument("boost::forkjoin: pool_options::fiber_stack_size is " + std::to_string(size)
                                        + " bytes; the minimum is "
                                        + std::to_string(pool_options::min_fiber_stack_size)
                                        + " (pool_options::min_fiber_stack_size)");
    }

    // Gives worker `index` to the spawn handler, or to a thread of our own.
    void hand_out_worker(std::size_t index)
    {
        std::string name = options_.thread_name ? options_.thread_name(index) : "forkjoin-" + std::to_string(index);
        {
            // Counted before the builder exists: its run() or its
            // destruction uncounts it.
            std::lock_guard lock(stop_mutex_);
            ++running_workers_;
        }
        thread_builder builder(shared_from_this(), index, std::move(name), options_.stack_size);
        if (options_.spawn_handler) {
            options_.spawn_handler(std::move(builder));
            if (abandoned_workers_.load(std::memory_order_seq_cst) != 0)
                throw std::logic_error(abandoned_builder_message);
        } else {
            // If the OS refuses the thread, the builder dies unrun with the
            // callable, and the exception unwinds to start().
            threads_.emplace_back(builder.stack_size(), [worker = std::move(builder)]() mutable {
                native_thread::set_current_name(worker.name());
                worker.run();
            });
        }
    }

    // Releases the handle's count and waits until the pool has terminated:
    // every job spawned into it has run and every worker has left run().
    // The calling thread is the adopted worker 0, if there is one.
    void stop() noexcept
    {
        end_scopes_held_here();
        release_activity();
        open_start_gate();
        if (adopted_ != nullptr) {
            // The pool's last jobs may sit on our deque or in our broadcast
            // queue: run them as a worker's main loop would.
            adopted_->wait_until(adopted_->terminate_latch());
            current_worker = nullptr;
            adopted_->release_fiber_cache();
        }
        // Not one of ours (shut_down refuses those, and the adopted worker is
        // done being one): a worker of another pool, or nullptr.
        worker_thread* const waiter = current_worker;
        if (waiter != nullptr) {
            // A worker of another pool keeps running its own pool's jobs
            // while it waits, as a cross-pool install or scope does: a job
            // still to run here may wait for one of that pool's jobs, and
            // this worker may be the only thread that can run it.
            bool must_wait;
            {
                std::lock_guard lock(stop_mutex_);
                must_wait = running_workers_ != 0;
                if (must_wait) {
                    // Read under the lock by the last worker_stopped, which
                    // sets stopped_latch_ for us instead of notifying stop_cv_.
                    stop_waiter_ = waiter;
                }
            }
            if (must_wait) {
                // On a fiber, this parks it, and worker_stopped unparks it.
                waiter->wait_until(stopped_latch_);
                // worker_stopped sets the latch while holding stop_mutex_ and
                // may still be notifying (through the waiter's registry) once
                // we see it set: wait for it to let go of the lock, after
                // which it touches neither the lock nor the latch, before we
                // return and the registry may be freed.
                std::lock_guard lock(stop_mutex_);
            }
        } else {
            std::unique_lock lock(stop_mutex_);
            stop_cv_.wait(lock, [this] { return running_workers_ == 0; });
        }
        for (native_thread& t : threads_)
            t.join(); // each has left run(): this returns at once
    }

    // Whether `worker` waits for the jobs of an in_place_scope of another
    // pool whose body runs on this thread: that wait runs this pool's jobs
    // and reads the worker's registry when the scope ends.
    static bool waits_for_a_scope_held_here(worker_thread const& worker) noexcept
    {
        for (held_scope const* node = scopes_held_by_this_thread; node != nullptr; node = node->next)
            if (node->waiter == &worker)
                return true;
        return false;
    }

    // Ends the in_place_scopes of this pool whose bodies run on the stack
    // that stops it (held_scope.hpp says how that happens, and why a stop
    // would otherwise wait for itself), innermost first, and gives back
    // their units.
    void end_scopes_held_here() noexcept
    {
        worker_thread* const worker = current_worker;
        running_fiber const* const fiber = worker != nullptr ? worker->current_fiber() : nullptr;
        for (held_scope* node = scopes_held_by_this_thread; node != nullptr; node = node->next) {
            if (node->registry != this || node->fiber != fiber || node->unit_given_back)
                continue;
            if (node->end_body(node->scope)) {
                node->unit_given_back = true;
                release_activity();
            }
        }
    }

    void worker_stopped() noexcept
    {
        // Notify under the lock: stop() may return, and the registry be
        // freed, as soon as it sees the count at 0. With a waiter on
        // stopped_latch_, stop() takes the lock once more after the latch
        // is set, so the same holds for the latch and its notification.
        std::lock_guard lock(stop_mutex_);
        if (--running_workers_ != 0)
            return;
        if (worker_thread* const waiter = stop_waiter_) {
            // As spin_latch::set for cross_registry: we are a worker of this
            // registry, not of the waiter's, so keep the waiter's registry
            // alive across the notification (the waiter cannot leave stop()
            // before we let go of stop_mutex_, but its registry's lifetime
            // should not rest on that). If the waiter parked its fiber, this
            // unparks it.
            registry_base& registry = waiter->registry();
            std::shared_ptr<registry_base> const keep_alive = registry.shared_from_this();
            registry.set_latch_and_notify(stopped_latch_, waiter->index());
        } else {
            stop_cv_.notify_all();
        }
    }

    // A registry forked away is never destroyed: its mutexes and condition
    // variables may be held or waited on by threads of the parent, and
    // destroying them hangs (pthread_cond_destroy with waiters). It keeps
    // itself alive, on a list that keeps it reachable for leak checkers.
    void keep_forked_away() noexcept
    {
        release_spare_memory();
        kept_after_fork_ = shared_from_this();
        // Release: a reader of the list sees the node complete; relaxed
        // failure, the loop rereads.
        registry_base* head = forked_away_registries.load(std::memory_order_relaxed);
        do
            next_forked_away_ = head;
        while (!forked_away_registries.compare_exchange_weak(head, this, std::memory_order_release,
                                                              std::memory_order_relaxed));
    }

    // For a registry that stays allocated after its workers are gone. The
    // injector is a lock-free queue: even in a forked child, where a thread
    // of the parent may have been inside it, it is in a consistent state
    // (nodes such a thread held are only lost). Out of memory here would
    // lose nothing but the leak checker's silence: ignore it.
    void release_spare_memory() noexcept
    {
        try {
            injector_.release_spare_nodes();
        } catch (...) {
        }
    }

    [[noreturn]] void throw_not_accepting() const
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

    [[noreturn]] static void fail(char const* message) noexcept { terminate_with_message(message); }

    void call_handler(std::function<void(std::size_t)> const& handler, std::size_t index) noexcept
    {
        if (!handler)
            return;
        try {
            handler(index);
        } catch (...) {
            handle_panic(std::current_exception()); // rayon's rule: the panic handler, else terminate
        }
    }

    static constexpr char const* abandoned_builder_message =
        "boost::forkjoin: a thread_builder was destroyed without run() being called; spawn_handler must start "
        "a thread that calls run() on the builder it is given";
    static constexpr char const* forked_away_message =
        "boost::forkjoin: this pool was built before fork() and has no threads in the child process; build a "
        "new pool in the child";

    static inline constinit std::atomic<registry_base*> forked_away_registries{nullptr};

    friend class worker_thread;

    pool_options const options_;
    std::size_t const num_threads_;
    std::size_t const max_threads_;
    fence_mode const fences_;
    std::size_t const deque_capacity_;
    std::uint32_t const fork_generation_;
    std::vector<std::unique_ptr<worker_thread>> workers_;
    // The threads we started ourselves (no spawn_handler).
    std::vector<native_thread> threads_;
    // use_current_thread: worker 0, the thread that built the pool.
    worker_thread* adopted_ = nullptr;
    // caller_slot, with a thread of the pool left besides worker 0.
    // (The constructor refuses caller_slot with use_current_thread.)
    bool const has_caller_slot_ = options_.caller_slot && num_threads_ >= 2;

    // Starting. The thread inside start(), if any (run() refuses it).
    std::atomic<std::thread::id> building_thread_{};
    // Every worker has been handed out successfully.
    std::atomic<bool> built_{false};
    std::atomic<std::size_t> abandoned_workers_{0};
    // Workers wait here until start() is done (run_worker says why). Every
    // worker waits at once, so not a lock_latch, which serves one waiter;
    // and a worker blocks at once: the wait is as long as the rest of
    // start(), and a spinning worker would slow the thread that hands the
    // others out.
    std::mutex start_gate_mutex_;
    std::condition_variable start_gate_opened_;
    bool start_gate_open_ = false; // guarded by start_gate_mutex_

    // Stopping. Workers handed out and not yet out of run().
    std::mutex stop_mutex_;
    std::condition_variable stop_cv_;
    std::size_t running_workers_ = 0; // guarded by stop_mutex_
    // stop() on a worker of another pool (its fiber parked, if it runs one)
    // waits for stopped_latch_, which the last worker_stopped sets;
    // stop() on a thread outside every pool waits on stop_cv_.
    worker_thread* stop_waiter_ = nullptr;      // guarded by stop_mutex_
    core_latch stopped_latch_;
    std::atomic<bool> shut_down_at_exit_{false};
    bool parked_tasks_forgiven_at_exit_ = false;

    // A registry destroyed in a forked child keeps itself (keep_forked_away).
    std::shared_ptr<registry_base> kept_after_fork_;
    registry_base* next_forked_away_ = nullptr;

    injector injector_;
    std::atomic<std::uint64_t> broadcast_jobs_{0};
    // The pool handle's unit, plus one per job, install, scope from outside,
    // broadcast and future in flight, and per tracked executor and counted
    // Asio work. The workers terminate when it frees them.
    alignas(cache_line_size) activity_count activity_;
    // Workers between jobs, and the CPUs they share (leaves_a_cpu_free).
    alignas(cache_line_size) std::atomic<std::size_t> idle_workers_{0};
    std::size_t const cpus_ = std::max(1u, std::thread::hardware_concurrency());
    // Worker 0's place (caller slot): slot_free, slot_held by an outside
    // caller, or slot_borrowed by a thread of the pool for one pop of its
    // broadcast queue. Written at every install from outside: a line of its
    // own.
    alignas(cache_line_size) std::atomic<unsigned char> caller_slot_state_{slot_free};

    // Last, so destroyed first: an extension may still refer to the rest.
    std::mutex extensions_mutex_;
    std::vector<std::pair<void const*, std::shared_ptr<void>>> extensions_;
};

// --- worker_thread members that need the registry ---------------------------

BOOST_FORKJOIN_FORCEINLINE void worker_thread::push(job_ref job)
{
    deque_.push(job);
    if (BOOST_FORKJOIN_UNLIKELY(push_filter_.wants_notification()))
        registry_.notify_new_internal_jobs(deque_.size() <= 1);
}

inline void worker_thread::wait_until(core_latch& latch)
{
    if (!latch.probe())
        registry_.wait_for_latch(*this, latch);
}

inline void worker_thread::park_fiber_until(core_latch& latch)
{
    running_fiber* const fiber = current_fiber_;
    latch_wait node{&latch, fiber};
    // Any unpark resumes the fiber: this latch's set, a cancel, a stale
    // notify of an earlier await, or the setter of an earlier latch of this
    // fiber at the same address (a frame reused), which took the node on its
    // way. So the node goes back in whenever it was taken, and only the
    // latch says whether the wait is over. The protocol is await's: a set
    // between the look and the park finds the fiber EXECUTING, and its
    // unpark makes the worker run the fiber again at once instead of
    // parking it. A cancel does not end this wait: what it waits for
    // borrows the fiber's frames.
    for (;;) {
        {
            std::lock_guard const lock(latch_waits_mutex_);
            if (!node.linked) {
                node.next = latch_waits_;
                latch_waits_ = &node;
                node.linked = true;
                latch_wait_count_.fetch_add(1, std::memory_order_seq_cst);
            }
        }
        if (latch.probe())
            break;
        fiber->park();
    }
    std::lock_guard const lock(latch_waits_mutex_);
    if (node.linked) {
        latch_wait** link = &latch_waits_;
        while (*link != &node)
            link = &(*link)->next;
        unlink_latch_wait(link);
    }
}

inline void worker_thread::unpark_fiber_waiting_for(core_latch const* latch) noexcept
{
    // Seq-cst: see latch_wait_count_.
    if (BOOST_FORKJOIN_LIKELY(latch_wait_count_.load(std::memory_order_seq_cst) == 0))
        return;
    running_fiber* fiber = nullptr;
    {
        std::lock_guard const lock(latch_waits_mutex_);
        for (latch_wait** link = &latch_waits_; *link != nullptr; link = &(*link)->next) {
            if ((*link)->latch != latch)
                continue;
            fiber = (*link)->fiber;
            unlink_latch_wait(link);
            // While its node is in, the fiber has not left its wait, so it
            // is alive; once unparked it may leave, complete and be freed:
            // hold it across the unpark.
            fiber->hold();
            break;
        }
    }
    if (fiber != nullptr)
        fiber->unpark_and_release();
}

inline std::optional<job_ref> worker_thread::steal()
{
    std::size_t const n = registry_.num_threads_;
    if (n <= 1)
        return std::nullopt;
    std::size_t const start = static_cast<std::size_t>(rng_.next() % n);
    for (;;) {
        bool contended = false;
        for (std::size_t k = 0; k < n; ++k) {
            std::size_t const victim = (start + k) % n;
            if (victim == index_)
                continue;
            auto const result = registry_.workers_[victim]->deque_.steal();
            if (result.status == chase_lev_deque::steal_status::success) {
                worker_counters::bump(counters_.steals);
                return result.job;
            }
            contended |= result.status == chase_lev_deque::steal_status::retry;
        }
        // Only a lost race says the victim still had work: try again.
        if (!contended)
            return std::nullopt;
    }
}

inline std::optional<job_ref> worker_thread::find_work()
{
    if (auto job = take_own_job())
        return job;
    if (auto job = steal())
        return job;
    if (auto job = registry_.pop_injected())
        return job;
    if (BOOST_FORKJOIN_UNLIKELY(registry_.vacant_slot_has_work()))
        return job_ref{&registry_base::run_vacant_slot_broadcasts, &registry_};
    return std::nullopt;
}

inline bool worker_thread::has_injected_jobs() const noexcept
{
    return !broadcasts_.empty() || resumes_.has_work() || registry_.has_injected_jobs() ||
           registry_.vacant_slot_has_work();
}

} // namespace boost::forkjoin::detail

#endif // BOOST_FORKJOIN_DETAIL_REGISTRY_BASE_HPP
