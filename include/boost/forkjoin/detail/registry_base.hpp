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
#include <boost/forkjoin/detail/chase_lev_deque.hpp>
#include <boost/forkjoin/detail/config.hpp>
#include <boost/forkjoin/detail/injector.hpp>
#include <boost/forkjoin/detail/job.hpp>
#include <boost/forkjoin/detail/locked_job_queue.hpp>
#include <boost/forkjoin/detail/native_thread.hpp>
#include <boost/forkjoin/detail/resume_queue.hpp>
#include <boost/forkjoin/detail/running_fiber.hpp>
#include <boost/forkjoin/detail/thread_count.hpp>
#include <boost/forkjoin/detail/worker_counters.hpp>
#include <boost/forkjoin/detail/xorshift_rng.hpp>
#include <boost/forkjoin/errors.hpp>
#include <boost/forkjoin/pool_options.hpp>
#include <boost/forkjoin/pool_stats.hpp>
#include <boost/forkjoin/sleep_policy.hpp>

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace boost::forkjoin::detail {

class registry_base;

class alignas(cache_line_size) worker_thread {
public:
    worker_thread(registry_base& registry, push_filter filter, std::size_t index, std::size_t deque_capacity,
                  bool breadth_first)
        : deque_(deque_capacity), push_filter_(filter), registry_(registry), index_(index),
          breadth_first_(breadth_first), rng_(index + 1)
    {
    }

    std::size_t index() const noexcept { return index_; }
    registry_base& registry() const noexcept { return registry_; }

    // Pushes on the own deque and tells the sleep policy, if it listens.
    BOOST_FORKJOIN_FORCEINLINE void push(job_ref job);
    // spawn_fifo: the job goes to the worker's FIFO, and a placeholder that
    // runs the FIFO's oldest job goes on the deque, so jobs spawned by one
    // worker start in spawn order whoever runs them.
    void push_fifo(job_ref job)
    {
        fifo_.push(job);
        push({&locked_job_queue::run_front, &fifo_});
    }

    BOOST_FORKJOIN_FORCEINLINE std::optional<job_ref> take_local_job()
    {
        if (BOOST_FORKJOIN_LIKELY(!breadth_first_))
            return deque_.pop();
        for (;;) {
            auto const result = deque_.steal();
            if (result.status == chase_lev_deque::steal_status::success)
                return result.job;
            if (result.status == chase_lev_deque::steal_status::empty)
                return std::nullopt;
        }
    }

    // Runs jobs until `latch` is set: the latch's setter may be another
    // worker running a job we are waiting for. On a fiber, the waiting (and
    // the jobs run meanwhile) happens on the worker's own stack.
    inline void wait_until(core_latch& latch);

    // Local deque, broadcasts, fibers to resume, then other workers, then
    // the injector.
    inline std::optional<job_ref> find_work();
    inline std::optional<job_ref> steal();
    inline bool has_injected_jobs() const noexcept;

    // Runs a job taken from a queue. Never on a fiber's stack: a job is not
    // part of the fiber that happens to be running and may go deeper than
    // its stack allows, so fiber code hands it to the worker's own stack
    // (running_fiber.hpp). Not on join's fast path, which runs its own
    // second half inline.
    void execute(job_ref job) noexcept
    {
        if (BOOST_FORKJOIN_UNLIKELY(current_fiber_ != nullptr))
            current_fiber_->run_on_worker_stack(job);
        else
            job.execute();
    }

    // The fiber task this worker is running right now, or nullptr. Set by
    // the fiber's own job around each resume (fiber_task.hpp).
    running_fiber* current_fiber() const noexcept { return current_fiber_; }
    void set_current_fiber(running_fiber* fiber) noexcept { current_fiber_ = fiber; }

    // Fibers whose home is this worker, unparked and waiting to resume here.
    resume_queue& resumes() noexcept { return resumes_; }

    core_latch& terminate_latch() noexcept { return terminate_; }
    locked_job_queue& broadcasts() noexcept { return broadcasts_; }
    worker_counters& counters() noexcept { return counters_; }

private:
    friend class registry_base;

    // The cold half of wait_until on a fiber, out of line.
    void wait_on_worker_stack(core_latch& latch);

    chase_lev_deque deque_;
    // The registry's, copied here so that a push reads it without first
    // loading the registry pointer.
    push_filter push_filter_;
    registry_base& registry_;
    std::size_t index_;
    bool breadth_first_;
    xorshift_rng rng_;
    locked_job_queue broadcasts_;
    locked_job_queue fifo_;
    core_latch terminate_;
    running_fiber* current_fiber_ = nullptr;
    // Pushed by any thread: a line of its own.
    alignas(cache_line_size) resume_queue resumes_;
    alignas(cache_line_size) worker_counters counters_;
};

// The worker running on this thread, if any. constinit: a plain TLS load,
// no initialization guard, on every join.
inline constinit thread_local worker_thread* current_worker = nullptr;

class registry_base : public std::enable_shared_from_this<registry_base> {
public:
    registry_base(pool_options options, std::size_t policy_max_threads, std::size_t deque_capacity,
                  std::size_t injector_capacity, std::string const& policy_name)
        : options_(std::move(options)),
          num_threads_(resolve_num_threads(options_.num_threads, policy_max_threads, policy_name)),
          max_threads_(std::min(policy_max_threads, registry_thread_limit)),
          deque_capacity_(deque_capacity),
          injector_(injector_capacity)
    {
        check_fiber_stack_size(options_.fiber_stack_size);
    }

    registry_base(registry_base const&) = delete;
    registry_base& operator=(registry_base const&) = delete;
    virtual ~registry_base() = default;

    std::size_t num_threads() const noexcept { return num_threads_; }
    std::size_t max_threads() const noexcept { return max_threads_; }
    worker_thread& worker(std::size_t index) noexcept { return *workers_[index]; }
    pool_options const& options() const noexcept { return options_; }

    // --- Policy hooks (registry.hpp) ----------------------------------------
    virtual void wait_until_cold(worker_thread& worker, core_latch& latch) = 0;
    virtual void notify_latch_set(std::size_t target, bool target_was_sleeping) = 0;
    virtual void notify_new_internal_jobs(bool queue_was_empty) = 0;
    virtual void notify_new_injected_jobs(std::size_t count, bool queue_was_empty) = 0;
    virtual void notify_worker(std::size_t index) = 0;
    virtual void mark_blocked() = 0;
    virtual void mark_unblocked() = 0;

    // --- Starting and stopping ----------------------------------------------

    // Creates and starts the workers. Separate from the constructor because
    // the workers call the virtual hooks, which exist only once the derived
    // registry (and its policy, which supplies `filter`) is constructed. On
    // failure every started worker is stopped and joined.
    void start(push_filter filter)
    {
        workers_.reserve(num_threads_);
        for (std::size_t i = 0; i < num_threads_; ++i)
            workers_.push_back(
                std::make_unique<worker_thread>(*this, filter, i, deque_capacity_, options_.breadth_first));
        threads_.reserve(num_threads_);
        try {
            for (std::size_t i = 0; i < num_threads_; ++i)
                threads_.emplace_back(options_.stack_size, [this, i] { run_worker(i); });
        } catch (...) {
            terminate();
            join_threads();
            throw;
        }
    }

    // Called once by the owning pool handle. Workers exit once the pool has
    // been released and every job spawned into it (and every install or
    // broadcast in flight) has finished: each holds a count.
    void terminate() { release_activity(); }

    void join_threads()
    {
        if (owns(current_worker))
            std::terminate(); // a worker would wait for itself: a logic error, as std::thread::join on itself
        for (auto& t : threads_)
            if (t.joinable())
                t.join();
    }

    // Keeps the workers alive while external work is in flight. Throws
    // pool_terminated if they are already leaving.
    void acquire_activity()
    {
        std::size_t count = activity_count_.load(std::memory_order_relaxed);
        do {
            if (count == 0)
                throw pool_terminated();
        } while (!activity_count_.compare_exchange_weak(count, count + 1, std::memory_order_relaxed));
    }

    void release_activity()
    {
        // Acq-rel: the last release must see everything the other holders
        // did before their release, and the workers it lets go see it too
        // (through the terminate latches' seq-cst set).
        if (activity_count_.fetch_sub(1, std::memory_order_acq_rel) == 1)
            for (std::size_t i = 0; i < num_threads_; ++i)
                set_latch_and_notify(workers_[i]->terminate_latch(), i);
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

    // One job into each worker's private broadcast queue.
    void inject_broadcast(job_ref const* jobs)
    {
        for (std::size_t i = 0; i < num_threads_; ++i)
            workers_[i]->broadcasts().push(jobs[i]);
        broadcast_jobs_.fetch_add(num_threads_, std::memory_order_relaxed);
        for (std::size_t i = 0; i < num_threads_; ++i)
            notify_worker(i);
    }

    // Sets a core latch that worker `target` of this registry may wait on.
    void set_latch_and_notify(core_latch& latch, std::size_t target)
    {
        bool const was_sleeping = latch.set();
        notify_latch_set(target, was_sleeping);
    }

    // An exception escaped a spawned job.
    void handle_panic(std::exception_ptr error) noexcept
    {
        if (!options_.panic_handler)
            std::rethrow_exception(error); // noexcept: std::terminate, with the exception in flight
        try {
            options_.panic_handler(std::move(error));
        } catch (...) {
            std::terminate(); // the handler itself failed; nobody is left to tell
        }
    }

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

private:
    static std::size_t resolve_num_threads(std::size_t requested, std::size_t policy_max,
                                           std::string const& policy_name)
    {
        std::size_t const n = requested != 0 ? requested : default_num_threads();
        std::size_t const limit = std::min(policy_max, registry_thread_limit);
        if (n > limit)
            throw too_many_threads("boost::forkjoin: " + std::to_string(n) + " threads requested, but a pool with "
                                   + policy_name + " supports at most " + std::to_string(limit));
        return n;
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

    void run_worker(std::size_t index)
    {
        worker_thread& w = *workers_[index];
        current_worker = &w;
        native_thread::set_current_name(options_.thread_name ? options_.thread_name(index)
                                                             : "forkjoin-" + std::to_string(index));
        call_handler_or_terminate(options_.start_handler, index);
        w.wait_until(w.terminate_latch());
        call_handler_or_terminate(options_.exit_handler, index);
        current_worker = nullptr;
    }

    static void call_handler_or_terminate(std::function<void(std::size_t)> const& handler,
                                          std::size_t index) noexcept
    {
        if (handler)
            handler(index); // noexcept function: an escaping exception terminates
    }

    friend class worker_thread;

    pool_options const options_;
    std::size_t const num_threads_;
    std::size_t const max_threads_;
    std::size_t const deque_capacity_;
    std::vector<std::unique_ptr<worker_thread>> workers_;
    std::vector<native_thread> threads_;

    injector injector_;
    std::atomic<std::uint64_t> broadcast_jobs_{0};
    // 1 for the pool handle plus 1 per spawned job, install and broadcast in
    // flight. The workers terminate when it reaches 0.
    alignas(cache_line_size) std::atomic<std::size_t> activity_count_{1};
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
    if (latch.probe())
        return;
    if (BOOST_FORKJOIN_UNLIKELY(current_fiber_ != nullptr))
        wait_on_worker_stack(latch);
    else
        registry_.wait_until_cold(*this, latch);
}

BOOST_FORKJOIN_NOINLINE inline void worker_thread::wait_on_worker_stack(core_latch& latch)
{
    struct wait_args {
        worker_thread* worker;
        core_latch* latch;
    } args{this, &latch};
    // `args` stays on the fiber's stack, which does not move while the
    // worker runs the wait.
    current_fiber_->run_on_worker_stack({[](void* p) noexcept {
                                             auto const& a = *static_cast<wait_args*>(p);
                                             a.worker->registry_.wait_until_cold(*a.worker, *a.latch);
                                         },
                                         &args});
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
    if (auto job = take_local_job())
        return job;
    if (auto job = broadcasts_.pop())
        return job;
    if (auto job = resumes_.pop())
        return job;
    if (auto job = steal())
        return job;
    return registry_.pop_injected();
}

inline bool worker_thread::has_injected_jobs() const noexcept
{
    return !broadcasts_.empty() || resumes_.has_work() || registry_.has_injected_jobs();
}

} // namespace boost::forkjoin::detail

#endif // BOOST_FORKJOIN_DETAIL_REGISTRY_BASE_HPP
