// Copyright 2026 The Boost.ForkJoin developers.
// Distributed under the Boost Software License, Version 1.0.
// (See accompanying file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
#ifndef BOOST_FORKJOIN_DETAIL_POOL_LIFECYCLE_HPP
#define BOOST_FORKJOIN_DETAIL_POOL_LIFECYCLE_HPP

// A pool's life: start() hands out the workers, each worker's thread runs
// it (run_worker) until the pool lets it leave, and shut_down() (the
// handle's destructor) waits for every job and every worker (stop()). The
// members of registry_base that do this, defined after the class
// (registry_base.hpp includes this header at its end).
//
// What stays in registry_base.hpp: the state these use (the start gate,
// the count of running workers), and letting the workers leave once the
// activity count frees them (let_workers_leave), which any give-back may do.

#include <boost/forkjoin/detail/current_worker.hpp>
#include <boost/forkjoin/detail/held_scope.hpp>
#include <boost/forkjoin/detail/native_thread.hpp>
#include <boost/forkjoin/detail/registry_base.hpp>
#include <boost/forkjoin/detail/termination.hpp>
#include <boost/forkjoin/detail/worker_thread.hpp>
#include <boost/forkjoin/sleep_policy.hpp>
#include <boost/forkjoin/thread_builder.hpp>

#include <cstddef>
#include <cstdio>
#include <exception>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <string>
#include <thread>
#include <utility>

namespace boost::forkjoin::detail {

// Creates the workers and hands each to its thread. Separate from the
// constructor because the workers call the virtual hooks, which exist
// only once the derived registry (and its policy, which supplies
// `filter`) is constructed, and because handing out a worker needs
// shared_from_this. Everything user code supplies (thread_name,
// spawn_handler) is called here, on the constructing thread, so that its
// exceptions are the constructor's. On failure the pool is stopped as
// by its destructor (stop()) before the exception leaves.
BOOST_FORKJOIN_DECL void registry_base::start(push_filter filter)
{
    if (options_.use_current_thread && current_worker != nullptr)
        throw std::logic_error("boost::forkjoin: use_current_thread: the calling thread is already a worker of "
                               "a pool, and a thread can be the worker of one pool only");
    workers_.reserve(num_threads_);
    for (std::size_t i = 0; i < num_threads_; ++i)
        workers_.push_back(
            std::make_unique<worker_thread>(*this, filter, i, deque_capacity_, options_.breadth_first, fences_,
                                            lazy_joins_, options_.heartbeat));
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
    start_gate_.open();
}

// Stops the pool on behalf of its handle: the destructor of
// basic_thread_pool. Waits for every job spawned into the pool, lets the
// workers run their exit_handler and waits until each has left. A pool
// built before a fork() and destroyed in the child has no workers to
// wait for, and its locks may be held by threads that do not exist
// there: it is kept, untouched, instead.
BOOST_FORKJOIN_DECL void registry_base::shut_down() noexcept
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
BOOST_FORKJOIN_DECL void registry_base::shut_down_at_exit() noexcept
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

// The thread_builder's side (worker_host): the thread that runs worker
// `index`, or gives it up.
BOOST_FORKJOIN_DECL void registry_base::run_worker(std::size_t index)
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
    handlers_.call_handler(options_.start_handler, index);
    // A worker does not look for work before every worker has been handed
    // out: a search visits every deque, and a pool whose construction
    // fails half-way (the OS refusing the 1000th of 65535 threads) would
    // otherwise have its first workers sweep 65535 empty deques for as
    // long as the others take to start, then to notice they must stop.
    start_gate_.wait();
    w.wait_until(w.terminate_latch());
    handlers_.call_handler(options_.exit_handler, index);
    current_worker = nullptr;
    w.release_fiber_cache();
    worker_stopped();
}

BOOST_FORKJOIN_DECL void registry_base::abandon_worker(std::size_t index) noexcept
{
    // Seq-cst: see start().
    abandoned_workers_.fetch_add(1, std::memory_order_seq_cst);
    bool const pool_needs_it =
        built_.load(std::memory_order_seq_cst) && !workers_[index]->terminate_latch().probe();
    if (pool_needs_it)
        fail(abandoned_builder_message);
    worker_stopped();
}

// Gives worker `index` to the spawn handler, or to a thread of our own.
BOOST_FORKJOIN_DECL void registry_base::hand_out_worker(std::size_t index)
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
BOOST_FORKJOIN_DECL void registry_base::stop() noexcept
{
    end_scopes_held_here();
    release_activity();
    start_gate_.open();
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
BOOST_FORKJOIN_DECL bool registry_base::waits_for_a_scope_held_here(worker_thread const& worker) noexcept
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
BOOST_FORKJOIN_DECL void registry_base::end_scopes_held_here() noexcept
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

BOOST_FORKJOIN_DECL void registry_base::worker_stopped() noexcept
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

} // namespace boost::forkjoin::detail

#endif // BOOST_FORKJOIN_DETAIL_POOL_LIFECYCLE_HPP
