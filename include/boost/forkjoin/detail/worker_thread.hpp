// Copyright 2026 The Boost.ForkJoin developers.
// Distributed under the Boost Software License, Version 1.0.
// (See accompanying file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
#ifndef BOOST_FORKJOIN_DETAIL_WORKER_THREAD_HPP
#define BOOST_FORKJOIN_DETAIL_WORKER_THREAD_HPP

// One worker of a pool: its deque, its private queues (broadcasts, fibers
// to resume, its FIFO), and the fibers of it parked until a latch is set.
// The members that reach the registry are defined where the registry is
// complete: push's notification and the wait for a latch in
// registry_base.hpp, the search of the other workers and the injector in
// worker_search.hpp. The rest is here.

#include <boost/forkjoin/core_latch.hpp>
#include <boost/forkjoin/detail/broadcast_queue.hpp>
#include <boost/forkjoin/detail/chase_lev_deque.hpp>
#include <boost/forkjoin/detail/config.hpp>
#include <boost/forkjoin/detail/current_worker.hpp>
#include <boost/forkjoin/detail/job.hpp>
#include <boost/forkjoin/detail/lazy_frames.hpp>
#include <boost/forkjoin/detail/locked_job_queue.hpp>
#include <boost/forkjoin/detail/resume_queue.hpp>
#include <boost/forkjoin/detail/running_fiber.hpp>
#include <boost/forkjoin/detail/worker_counters.hpp>
#include <boost/forkjoin/detail/xorshift_rng.hpp>
#include <boost/forkjoin/pool_options.hpp>
#include <boost/forkjoin/sleep_policy.hpp>

#include <atomic>
#include <chrono>
#include <cstddef>
#include <mutex>
#include <optional>

namespace boost::forkjoin::detail {

class registry_base;

class alignas(cache_line_size) worker_thread {
public:
    worker_thread(registry_base& registry, push_filter filter, std::size_t index, std::size_t deque_capacity,
                  bool breadth_first, fence_mode fences, bool lazy_joins, std::chrono::nanoseconds heartbeat)
        : deque_(deque_capacity, fences), push_filter_(filter), registry_(registry), index_(index),
          breadth_first_(breadth_first), lazy_joins_(lazy_joins), rng_(index + 1), lazy_(heartbeat)
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
    inline void push_fifo(job_ref job);
    inline void push_fifo(job_ref job, locked_job_queue& fifo);

    // Whether this worker's pool was built with lazy_joins (lazy_joins.hpp).
    bool lazy_joins() const noexcept { return lazy_joins_; }
    // The second halves of this worker's lazy joins that no thief can see
    // yet (lazy_frames.hpp); empty in an eager pool.
    lazy_frames& unpublished_joins() noexcept { return lazy_; }
    // A lazy join's countdown ran out: read the clock to retune it, then
    // publish_for_idle_workers. Out of line: the join's fast path stays a
    // countdown and a branch.
    BOOST_FORKJOIN_NOINLINE inline void lazy_heartbeat() noexcept;
    // The same without the clock: publishes the oldest unpublished second
    // halves, one per idle worker less the jobs its deque already holds.
    BOOST_FORKJOIN_NOINLINE inline void publish_for_idle_workers() noexcept;
    // How many more of this pool's workers are idle than this worker's
    // deque offers jobs (0 if none): what a lazy join's look publishes for,
    // and what makes a running algorithm piece cut off part of what it has
    // left (algorithm/splitter.hpp).
    inline std::size_t idle_workers_without_jobs() const noexcept;
    // Publishes every unpublished second half. Called before this worker
    // waits inside the pool or its fiber switches stacks: a wait must never
    // hold back work that what it waits for may need, and the list is only
    // ever the running stack's.
    inline void publish_unpublished_joins() noexcept
    {
        if (BOOST_FORKJOIN_UNLIKELY(!lazy_.empty()))
            publish_oldest_joins(~std::size_t{0});
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
    BOOST_FORKJOIN_DECL std::optional<job_ref> find_work();
    BOOST_FORKJOIN_DECL std::optional<job_ref> steal();
    BOOST_FORKJOIN_DECL bool has_injected_jobs() const noexcept;

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
    bool lazy_joins_;
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
    // Owner only. Last, so that the eager join's members keep their places.
    lazy_frames lazy_;

    // Pushes up to `count` of the oldest unpublished second halves on the
    // deque (registry_base.hpp).
    // Returns how many it pushed.
    inline std::size_t publish_oldest_joins(std::size_t count) noexcept;

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

} // namespace boost::forkjoin::detail

#endif // BOOST_FORKJOIN_DETAIL_WORKER_THREAD_HPP
