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
//
// registry_base composes the pool's parts, each in a header of its own
// (doc/design.adoc, "Components", maps them): the workers
// (worker_thread.hpp), fork handling (fork_handling.hpp), the activity
// count (activity_count.hpp), the caller slot's word (caller_slot_state.hpp),
// the handler calls (pool_handlers.hpp), the idle count (idle_workers.hpp),
// the start gate (start_gate.hpp), the checks of the options
// (checked_options.hpp) and the extensions (extensions.hpp). Members that
// carry a protocol of their own are defined after the class: starting and
// stopping in pool_lifecycle.hpp (included at the end of this header), the
// caller slot's protocol in caller_slot.hpp, a worker's search of the pool
// in worker_search.hpp. What is left here ties the parts together:
// submission and broadcast hand-out, the activity calls, setting a latch
// and waiting for one, and a worker's push.

#include <boost/forkjoin/core_latch.hpp>
#include <boost/forkjoin/detail/activity_count.hpp>
#include <boost/forkjoin/detail/asymmetric_fence.hpp>
#include <boost/forkjoin/detail/broadcast_queue.hpp>
#include <boost/forkjoin/detail/caller_slot_state.hpp>
#include <boost/forkjoin/detail/chase_lev_deque.hpp>
#include <boost/forkjoin/detail/config.hpp>
#include <boost/forkjoin/detail/current_worker.hpp>
#include <boost/forkjoin/detail/extensions.hpp>
#include <boost/forkjoin/detail/fork_handling.hpp>
#include <boost/forkjoin/detail/fork_generation.hpp>
#include <boost/forkjoin/detail/idle_workers.hpp>
#include <boost/forkjoin/detail/job.hpp>
#include <boost/forkjoin/detail/locked_job_queue.hpp>
#include <boost/forkjoin/detail/native_thread.hpp>
#include <boost/forkjoin/detail/pool_handlers.hpp>
#include <boost/forkjoin/detail/resume_queue.hpp>
#include <boost/forkjoin/detail/start_gate.hpp>
#include <boost/forkjoin/detail/termination.hpp>
#include <boost/forkjoin/detail/worker_counters.hpp>
#include <boost/forkjoin/detail/worker_thread.hpp>
#include <boost/forkjoin/errors.hpp>
#include <boost/forkjoin/pool_options.hpp>
#include <boost/forkjoin/pool_stats.hpp>
#include <boost/forkjoin/sleep_policy.hpp>
#include <boost/forkjoin/thread_builder.hpp>

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <cstddef>
#include <cstdint>
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

class injector;

class registry_base : public std::enable_shared_from_this<registry_base>, public worker_host {
public:
    BOOST_FORKJOIN_DECL registry_base(pool_options options, std::size_t policy_max_threads,
                                      std::size_t deque_capacity, std::size_t injector_capacity,
                                      std::string const& policy_name, bool lazy_joins);
    registry_base(registry_base const&) = delete;
    registry_base& operator=(registry_base const&) = delete;

    BOOST_FORKJOIN_DECL virtual ~registry_base();

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

    // --- Starting and stopping (pool_lifecycle.hpp) -------------------------

    BOOST_FORKJOIN_DECL void start(push_filter filter);
    BOOST_FORKJOIN_DECL void shut_down() noexcept;
    BOOST_FORKJOIN_DECL void shut_down_at_exit() noexcept;
    // worker_host: the thread_builder's side.
    BOOST_FORKJOIN_DECL void run_worker(std::size_t index) override;
    BOOST_FORKJOIN_DECL void abandon_worker(std::size_t index) noexcept override;

    // --- fork() (fork_handling.hpp) -----------------------------------------

    bool forked_away() const noexcept { return fork_.forked_away(); }
    void refuse_a_return_after_fork() const noexcept { fork_.refuse_a_return_after_fork(); }
    void check_not_forked_away() const { fork_.check_not_forked_away(); }

    // --- Activity (activity_count.hpp) ----------------------------------------

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


    // --- Handlers (pool_handlers.hpp) ---------------------------------------

    std::function<void()> guarded_deadlock_handler() { return handlers_.guarded_deadlock_handler(); }
    void refuse_calls_from_deadlock_handler() const noexcept { handlers_.refuse_calls_from_deadlock_handler(); }
    void handle_panic(std::exception_ptr error) noexcept { handlers_.handle_panic(std::move(error)); }

    // The cold part of worker_thread::wait_until, out of line so that the
    // check below adds nothing to the code inlined into every join.
    BOOST_FORKJOIN_NOINLINE BOOST_FORKJOIN_DECL void wait_for_latch(worker_thread& worker, core_latch& latch);

    // --- Submitting work ------------------------------------------------------

    // From any thread.
    BOOST_FORKJOIN_DECL void inject(job_ref job);
    BOOST_FORKJOIN_DECL std::optional<job_ref> pop_injected();
    BOOST_FORKJOIN_DECL bool has_injected_jobs() const noexcept;

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
            if (caller_slot_.is_held())
                notify_worker(0);
            else
                notify_vacant_slot_work();
        }
        for (std::size_t i = first; i < num_threads_; ++i)
            notify_worker(i);
    }

    // --- The caller slot (caller_slot.hpp) -----------------------------------

    // Takes worker 0's place unless another outside caller holds it. The
    // caller sets current_worker and gives the place back with
    // give_back_caller_slot.
    inline bool try_take_caller_slot() noexcept;
    // Worker 0's place, taken by the calling thread, for the life of this
    // object.
    class caller_slot_holder;
    BOOST_FORKJOIN_DECL void give_back_caller_slot() noexcept;
    // A searching thread's look at the vacant place (worker_search.hpp).
    BOOST_FORKJOIN_DECL bool vacant_slot_has_work() const noexcept;
    static BOOST_FORKJOIN_DECL void run_vacant_slot_broadcasts(void* self) noexcept;
    // Starts a future task that reached worker 0 on a thread of the pool.
    BOOST_FORKJOIN_DECL void start_fiber_elsewhere(resume_node& first_run) noexcept;

    // A share in worker 0's broadcast queue, with the place free: the pool's
    // threads must borrow the place to take it, so tell them as of a job in
    // the injector, which their searches look at together with this queue.
    void notify_vacant_slot_work() noexcept { notify_new_injected_jobs(1, true); }

    // Sets a core latch that worker `target` of this registry, or a fiber
    // of that worker, may wait on.
    void set_latch_and_notify(core_latch& latch, std::size_t target)
    {
        worker_thread& waiter = *workers_[target];
        bool const was_sleeping = latch.set();
        notify_latch_set(target, was_sleeping);
        waiter.unpark_fiber_waiting_for(&latch);
    }

    // --- Idle workers (idle_workers.hpp) --------------------------------------

    bool leaves_a_cpu_free() const noexcept { return idle_.leaves_a_cpu_free(num_threads_); }
    // Counts one idle period of one worker for leaves_a_cpu_free.
    using idle_period = idle_workers::period;
    idle_workers& idle() noexcept { return idle_; }

    BOOST_FORKJOIN_DECL pool_stats stats() const;

    // --- Extensions (extensions.hpp) ------------------------------------------

    // The object of type T that an optional integration keeps with this
    // registry, built by make() on first use (extensions::get).
    template <class T, class Make>
    T& extension(Make&& make)
    {
        return extensions_.template get<T>(std::forward<Make>(make));
    }

private:
    BOOST_FORKJOIN_DECL void free_caller_slot() noexcept;

    // The last unit of activity was given back: let the workers leave.
    BOOST_FORKJOIN_DECL void let_workers_leave();

    // Starting and stopping (pool_lifecycle.hpp).
    BOOST_FORKJOIN_DECL void hand_out_worker(std::size_t index);
    BOOST_FORKJOIN_DECL void stop() noexcept;
    static BOOST_FORKJOIN_DECL bool waits_for_a_scope_held_here(worker_thread const& worker) noexcept;
    BOOST_FORKJOIN_DECL void end_scopes_held_here() noexcept;

    BOOST_FORKJOIN_DECL void worker_stopped() noexcept;

    // A registry forked away is never destroyed (fork_stamp::keep_forever).
    void keep_forked_away() noexcept
    {
        release_spare_memory();
        fork_.keep_forever(shared_from_this());
    }

    // For a registry that stays allocated after its workers are gone. The
    // injector is a lock-free queue: even in a forked child, where a thread
    // of the parent may have been inside it, it is in a consistent state
    // (nodes such a thread held are only lost). Out of memory here would
    // lose nothing but the leak checker's silence: ignore it.
    BOOST_FORKJOIN_DECL void release_spare_memory() noexcept;

    [[noreturn]] BOOST_FORKJOIN_DECL void throw_not_accepting() const;

    [[noreturn]] static void fail(char const* message) noexcept { terminate_with_message(message); }

    static constexpr char const* abandoned_builder_message =
        "boost::forkjoin: a thread_builder was destroyed without run() being called; spawn_handler must start "
        "a thread that calls run() on the builder it is given";

    friend class worker_thread;

    pool_options const options_;
    std::size_t const num_threads_;
    std::size_t const max_threads_;
    fence_mode const fences_;
    std::size_t const deque_capacity_;
    bool const lazy_joins_; // the pool's type has lazy_joins (lazy_joins.hpp)
    fork_stamp fork_;
    pool_handlers handlers_{options_};
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
    // Workers wait here until start() is done (run_worker says why).
    start_gate start_gate_;

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

    // Behind a pointer, so that the code that includes this header never
    // parses Boost.Lockfree: only the members in impl/registry_base.ipp
    // touch the queue, and none of them is on a worker's hot path.
    std::unique_ptr<injector> const injector_;
    std::atomic<std::uint64_t> broadcast_jobs_{0};
    // The pool handle's unit, plus one per job, install, scope from outside,
    // broadcast and future in flight, and per tracked executor and counted
    // Asio work. The workers terminate when it frees them.
    alignas(cache_line_size) activity_count activity_;
    // Workers between jobs, and the CPUs they share (leaves_a_cpu_free).
    idle_workers idle_;
    // Worker 0's place (caller slot). Written at every install from
    // outside: a line of its own.
    caller_slot_state caller_slot_;

    // Last, so destroyed first: an extension may still refer to the rest.
    extensions extensions_;
};

// --- worker_thread members that need the registry ---------------------------

BOOST_FORKJOIN_FORCEINLINE void worker_thread::push(job_ref job)
{
    deque_.push(job);
    if (BOOST_FORKJOIN_UNLIKELY(push_filter_.wants_notification()))
        registry_.notify_new_internal_jobs(deque_.size() <= 1);
}

inline std::size_t worker_thread::publish_oldest_joins(std::size_t count) noexcept
{
    return lazy_.publish_oldest(count, [this](lazy_frame& frame) noexcept {
        job_ref const job = frame.job(frame, this);
        try {
            push(job);
            return true;
        } catch (...) {
            // The deque could not grow: the join will run b itself.
            frame.job(frame, nullptr);
            return false;
        }
    });
}

void worker_thread::publish_for_idle_workers() noexcept
{
    // Published only for idle workers: while every worker is busy a second
    // half nobody takes would cost a push and a pop for nothing. The
    // publication is a push like an eager join's, with its notification,
    // so a sleeping worker wakes for it under the sleep policy's protocol.
    // Less what the deque already offers them: a sleeper takes tens of
    // microseconds to wake, and a look at every join meanwhile would
    // otherwise publish a join each time, every one of them ending as an
    // eager join that waits for its thief.
    if (std::size_t const wanted = idle_workers_without_jobs(); wanted != 0)
        publish_oldest_joins(wanted);
}

std::size_t worker_thread::idle_workers_without_jobs() const noexcept
{
    // Both counts are relaxed snapshots, hints as the idle count is: a
    // steal not yet seen here delays a publication (or a split) to the next
    // look, and an idle count already stale publishes a job (or splits off
    // one) that its owner may pop back.
    std::size_t const idle = registry_.idle().count();
    std::size_t const offered = deque_.size();
    return idle > offered ? idle - offered : 0;
}

void worker_thread::lazy_heartbeat() noexcept
{
    lazy_.beat();
    publish_for_idle_workers();
}

inline void worker_thread::push_fifo(job_ref job) { push_fifo(job, fifo_); }

inline void worker_thread::push_fifo(job_ref job, locked_job_queue& fifo)
{
    fifo.push(job);
    try {
        push({&locked_job_queue::run_front, &fifo});
    } catch (...) {
        fifo.take_back();
        throw;
    }
}

inline void worker_thread::wait_until(core_latch& latch)
{
    if (!latch.probe())
        registry_.wait_for_latch(*this, latch);
}

} // namespace boost::forkjoin::detail

// The definitions of the members declared BOOST_FORKJOIN_DECL above: after
// the class, which they need complete, wherever the class is in header-only
// use (the worker_host members among them are virtual), and only in
// src.hpp's unit under separate compilation (detail/config.hpp).
#if BOOST_FORKJOIN_DEFINE_COMPILED
#  include <boost/forkjoin/impl/registry_base.ipp>
#  include <boost/forkjoin/detail/pool_lifecycle.hpp>
#  include <boost/forkjoin/detail/caller_slot.hpp>
#  include <boost/forkjoin/detail/worker_search.hpp>
#endif

#endif // BOOST_FORKJOIN_DETAIL_REGISTRY_BASE_HPP
