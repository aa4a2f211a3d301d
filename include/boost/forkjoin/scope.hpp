// Copyright 2026 The Boost.ForkJoin developers.
// Distributed under the Boost Software License, Version 1.0.
// (See accompanying file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
#ifndef BOOST_FORKJOIN_SCOPE_HPP
#define BOOST_FORKJOIN_SCOPE_HPP

// Scopes: spawn any number of jobs that may borrow from the enclosing frame;
// the scope call returns only when all of them are done.
//
//     scope([&](lifo_scope& s) {
//         for (auto& item : items)
//             s.spawn([&item](lifo_scope&) { process(item); });
//     }); // every process(item) has finished here

#include <boost/forkjoin/broadcast_context.hpp>
#include <boost/forkjoin/detail/broadcast.hpp>
#include <boost/forkjoin/detail/count_latch.hpp>
#include <boost/forkjoin/detail/held_scope.hpp>
#include <boost/forkjoin/detail/job.hpp>
#include <boost/forkjoin/detail/registry_base.hpp>
#include <boost/forkjoin/detail/submit.hpp>
#include <boost/forkjoin/detail/future_fwd.hpp>
#include <boost/forkjoin/global_pool.hpp>
#include <boost/forkjoin/thread_pool.hpp>

#include <atomic>
#include <exception>
#include <functional>
#include <memory>
#include <type_traits>
#include <utility>

namespace boost::forkjoin {

enum class scope_order { lifo, fifo };

namespace detail {
class scope_activity_hold;
} // namespace detail

template <scope_order Order>
class basic_scope {
public:
    basic_scope(basic_scope const&) = delete;
    basic_scope& operator=(basic_scope const&) = delete;

    // What spawn and spawn_future take: f(scope&), or f(). And what
    // spawn_broadcast takes: f(scope&, broadcast_context), or
    // f(broadcast_context). Each is stated once, for the static_assert that
    // reports it and the if constexpr that then leaves the body out.
    template <class F>
    static constexpr bool spawnable =
        std::is_invocable_v<std::decay_t<F>&, basic_scope&> || std::is_invocable_v<std::decay_t<F>&>;
    template <class F>
    static constexpr bool broadcastable = std::is_invocable_v<std::decay_t<F>&, basic_scope&, broadcast_context> ||
                                          std::is_invocable_v<std::decay_t<F>&, broadcast_context>;

    // Runs f(*this) (or f() if it takes no scope) some time before the
    // scope ends. In a fifo scope, the jobs one thread spawns start in the
    // order spawned. An exception escaping f is kept; the first one is
    // rethrown by the scope call after all jobs are done.
    template <class F>
    void spawn(F&& f)
    {
        static_assert(spawnable<F>,
                      "boost::forkjoin: a scope's spawn(f): f must be callable with the scope (auto& s) "
                      "or with no arguments");
        if constexpr (spawnable<F>)
            spawn_job(std::forward<F>(f));
    }

    // Runs f(*this, ctx) (or f(ctx)) once on every worker of the scope's
    // pool, with that worker's broadcast_context, some time before the scope
    // ends. f is called concurrently from the workers. Exceptions are kept as
    // for spawn. All or nothing: std::bad_alloc means no worker got a job.
    template <class F>
    void spawn_broadcast(F&& f)
    {
        static_assert(broadcastable<F>,
                      "boost::forkjoin: a scope's spawn_broadcast(f): f must be callable with "
                      "(the scope, a boost::forkjoin::broadcast_context) or with the broadcast_context alone");
        if constexpr (broadcastable<F>)
            spawn_broadcast_jobs_of(std::forward<F>(f));
    }

    // Runs f(*this) (or f()) on a fiber (see future.hpp) and returns its
    // future. The scope does not end before the task completes, so f may
    // borrow from the enclosing frame as a spawned job does; f is destroyed
    // before the scope's count drops. The future itself may outlive the
    // scope. An exception escaping f goes to the future, not to the scope.
    template <class F>
    auto spawn_future(F&& f)
    {
        static_assert(spawnable<F>,
                      "boost::forkjoin: a scope's spawn_future(f): f must be callable with the scope (auto& s) "
                      "or with no arguments");
        static_assert(detail::future_header_included<F>,
                      "boost::forkjoin: a scope's spawn_future(f): include <boost/forkjoin/future.hpp>, which "
                      "defines boost::forkjoin::future");
        if constexpr (spawnable<F> && detail::future_header_included<F>)
            return spawn_future_task(std::forward<F>(f));
    }

    // Implementation: use scope(), scope_fifo() or in_place_scope().
    basic_scope(detail::registry_base& registry, detail::worker_thread* owner)
        : registry_(registry), latch_(owner, registry)
    {
        if constexpr (Order == scope_order::fifo)
            fifos_ = std::make_unique<detail::locked_job_queue[]>(registry.num_threads());
    }

    // Runs the body, waits for all jobs, rethrows the first exception.
    template <class F>
    std::invoke_result_t<F, basic_scope&> complete(F&& body)
    {
        using raw_result = std::invoke_result_t<F, basic_scope&>;
        detail::result_slot<detail::value_or_monostate<raw_result>> result;
        try {
            result.fill([&]() -> raw_result { return std::invoke(std::forward<F>(body), *this); });
        } catch (...) {
            record_exception(std::current_exception());
        }
        end_body();
        // The jobs' decrements were acq-rel and the owner's wait ends on
        // their last one, so error_ is visible here.
        if (error_)
            std::rethrow_exception(error_);
        if constexpr (!std::is_void_v<raw_result>)
            return result.take();
    }

private:
    friend class detail::scope_activity_hold;

    // spawn's body, once its requirement holds: not instantiated after
    // the static_assert failed, so that nothing else is reported.
    template <class F>
    void spawn_job(F&& f)
    {
        auto body = [this, func = std::decay_t<F>(std::forward<F>(f))]() mutable noexcept {
            try {
                if constexpr (std::is_invocable_v<decltype(func)&, basic_scope&>)
                    std::invoke(func, *this);
                else
                    std::invoke(func);
            } catch (...) {
                record_exception(std::current_exception());
            }
        };
        // The job's count drops only after the closure is destroyed: what it
        // captured may belong to the scope's caller, who may free it as soon
        // as the scope ends.
        auto done = [this]() noexcept { latch_.set(); };
        auto job = std::make_unique<detail::heap_job<decltype(body), decltype(done)>>(std::move(body), done);
        // The caller (the body or one of our jobs) holds a count, so this
        // count is never the one that completes the scope early.
        latch_.increment();
        try {
            submit(job->as_job_ref());
        } catch (...) {
            latch_.set(); // never queued: the unique_ptr frees it
            throw;
        }
        job.release(); // queued: it frees itself after running
    }

    // spawn_broadcast's body, once its requirement holds: not instantiated after
    // the static_assert failed, so that nothing else is reported.
    template <class F>
    void spawn_broadcast_jobs_of(F&& f)
    {
        auto body = [this, func = std::decay_t<F>(std::forward<F>(f))](broadcast_context context) mutable noexcept {
            try {
                if constexpr (std::is_invocable_v<decltype(func)&, basic_scope&, broadcast_context>)
                    std::invoke(func, *this, context);
                else
                    std::invoke(func, context);
            } catch (...) {
                record_exception(std::current_exception());
            }
        };
        // The jobs hold a unit of the pool's activity, as the pool's own
        // spawn_broadcast does: in an exit_handler the other workers have
        // left their loops, and jobs queued for them would never run. The
        // claim throws pool_terminated there instead.
        detail::activity_claim activity(registry_);
        // One count for all the jobs: the last to finish destroys f, then
        // drops it (detail::spawned_broadcast), then gives the unit back.
        // The registry outlives that unit; the scope may not outlive the
        // count.
        auto done = [this, registry = &registry_]() noexcept {
            latch_.set();
            registry->release_activity();
        };
        latch_.increment();
        try {
            detail::spawn_broadcast_jobs(registry_, std::move(body), done);
        } catch (...) {
            latch_.set();
            throw;
        }
        activity.hand_to_job();
    }

    // spawn_future's body, once its requirement holds: not instantiated after
    // the static_assert failed, so that nothing else is reported.
    template <class F>
    auto spawn_future_task(F&& f)
    {
        auto body = [scope = this, func = std::decay_t<F>(std::forward<F>(f))]() mutable -> decltype(auto) {
            if constexpr (std::is_invocable_v<decltype(func)&, basic_scope&>) {
                return std::invoke(func, *scope);
            } else {
                (void)scope; // clang warns about an unused capture otherwise
                return std::invoke(func);
            }
        };
        // As in spawn: the caller holds a count, so this one cannot be the
        // one that completes the scope early.
        latch_.increment();
        try {
            return detail::spawn_future(registry_, std::move(body), &latch_);
        } catch (...) {
            latch_.set();
            throw;
        }
    }

    // Drops the body's count and waits for the jobs, once: when the body
    // returns, or earlier, when a pool is stopped under a body that will
    // never return (detail/held_scope.hpp). Says whether it did it now.
    bool end_body()
    {
        if (body_ended_)
            return false;
        body_ended_ = true;
        latch_.complete_and_wait();
        return true;
    }

    void submit(detail::job_ref job)
    {
        detail::worker_thread* const worker = detail::current_worker;
        if constexpr (Order == scope_order::fifo) {
            if (registry_.owns(worker)) {
                worker->push_fifo(job, fifos_[worker->index()]);
                return;
            }
        }
        registry_.push_or_inject(job, worker); // the injector is FIFO already
    }

    void record_exception(std::exception_ptr error) noexcept
    {
        // The first to flip the flag owns error_; acq_rel is not needed
        // for the flag itself since readers synchronize through the latch.
        if (!has_error_.exchange(true, std::memory_order_relaxed))
            error_ = std::move(error);
    }

    detail::registry_base& registry_;
    detail::count_latch latch_;
    std::atomic<bool> has_error_{false};
    std::exception_ptr error_;
    std::unique_ptr<detail::locked_job_queue[]> fifos_; // fifo scopes: one per worker
    bool body_ended_ = false; // only the body's own stack reads or writes it
};

using lifo_scope = basic_scope<scope_order::lifo>;
using fifo_scope = basic_scope<scope_order::fifo>;

namespace detail {
template <scope_order Order, class F>
decltype(auto) run_scope_on_worker(F&& f)
{
    return in_worker([&](worker_thread& worker) -> decltype(auto) {
        basic_scope<Order> s(worker.registry(), &worker);
        return s.complete(std::forward<F>(f));
    });
}

// A unit of a pool's activity count held by an in_place_scope from outside
// the pool, listed where a stop under the scope's body finds it
// (held_scope.hpp). Built after the scope and destroyed before it.
class scope_activity_hold {
public:
    template <scope_order Order>
    scope_activity_hold(registry_base& registry, worker_thread* worker, basic_scope<Order>& scope)
        : registry_(registry),
          node_{&registry, worker != nullptr ? worker->current_fiber() : nullptr, worker, &scope,
                &end_body_of<Order>}
    {
        registry_.acquire_activity();
        link_held_scope(node_);
    }

    scope_activity_hold(scope_activity_hold const&) = delete;
    scope_activity_hold& operator=(scope_activity_hold const&) = delete;

    ~scope_activity_hold()
    {
        unlink_held_scope(node_);
        if (!node_.unit_given_back)
            registry_.release_activity();
    }

private:
    template <scope_order Order>
    static bool end_body_of(void* scope) noexcept
    {
        return static_cast<basic_scope<Order>*>(scope)->end_body();
    }

    registry_base& registry_;
    held_scope node_;
};

// f runs here; the scope's jobs go to `registry`. A worker (of any pool)
// runs its own pool's jobs while it waits for them, any other thread blocks.
template <scope_order Order, class F>
decltype(auto) run_scope_in_place(registry_base& registry, F&& f)
{
    worker_thread* const worker = current_worker;
    basic_scope<Order> s(registry, worker);
    if (registry.owns(worker))
        return s.complete(std::forward<F>(f));
    // From outside `registry` the scope's jobs are injected, and nothing
    // else keeps its workers there until they have run (the global pool's
    // exit handler would let them go): hold a count, as install does.
    scope_activity_hold const keep_workers(registry, worker, s);
    return s.complete(std::forward<F>(f));
}
} // namespace detail

// Creates a scope on a worker (of the current pool, or the global pool from
// outside), runs f(scope&) there, and returns its result once every job
// spawned in the scope has finished.
template <class F>
decltype(auto) scope(F&& f)
{
    static_assert(std::is_invocable_v<F, lifo_scope&>, "boost::forkjoin::scope(f): f must take the scope, "
                                                  "as in [&](boost::forkjoin::lifo_scope& s) { s.spawn(...); }");
    if constexpr (std::is_invocable_v<F, lifo_scope&>) {
        return detail::run_scope_on_worker<scope_order::lifo>(std::forward<F>(f));
    }
}

// As scope, but the jobs spawned by one thread start in the order spawned.
template <class F>
decltype(auto) scope_fifo(F&& f)
{
    static_assert(std::is_invocable_v<F, fifo_scope&>, "boost::forkjoin::scope_fifo(f): f must take the scope, "
                                                  "as in [&](boost::forkjoin::fifo_scope& s) { s.spawn(...); }");
    if constexpr (std::is_invocable_v<F, fifo_scope&>) {
        return detail::run_scope_on_worker<scope_order::fifo>(std::forward<F>(f));
    }
}

// As scope, but f runs on the calling thread, even outside every pool;
// spawned jobs go to the current pool (or the global pool), and a caller
// outside every pool blocks at the end until they are done.
template <class F>
decltype(auto) in_place_scope(F&& f)
{
    static_assert(std::is_invocable_v<F, lifo_scope&>, "boost::forkjoin::in_place_scope(f): f must take the scope, "
                                                  "as in [&](boost::forkjoin::lifo_scope& s) { s.spawn(...); }");
    if constexpr (std::is_invocable_v<F, lifo_scope&>) {
        return detail::run_scope_in_place<scope_order::lifo>(detail::current_registry(), std::forward<F>(f));
    }
}

// As in_place_scope, with a fifo scope.
template <class F>
decltype(auto) in_place_scope_fifo(F&& f)
{
    static_assert(std::is_invocable_v<F, fifo_scope&>, "boost::forkjoin::in_place_scope_fifo(f): f must take the scope, "
                                                  "as in [&](boost::forkjoin::fifo_scope& s) { s.spawn(...); }");
    if constexpr (std::is_invocable_v<F, fifo_scope&>) {
        return detail::run_scope_in_place<scope_order::fifo>(detail::current_registry(), std::forward<F>(f));
    }
}

// The scope members of basic_thread_pool (declared in thread_pool.hpp).

template <sleep_policy SleepPolicy, class... Options>
template <class F>
decltype(auto) basic_thread_pool<SleepPolicy, Options...>::scope(F&& f)
{
    static_assert(std::is_invocable_v<F, lifo_scope&>, "boost::forkjoin::basic_thread_pool::scope(f): f must take the scope, "
                                                  "as in [&](boost::forkjoin::lifo_scope& s) { s.spawn(...); }");
    if constexpr (std::is_invocable_v<F, lifo_scope&>) {
        return install([&]() -> decltype(auto) { return forkjoin::scope(std::forward<F>(f)); });
    }
}

template <sleep_policy SleepPolicy, class... Options>
template <class F>
decltype(auto) basic_thread_pool<SleepPolicy, Options...>::scope_fifo(F&& f)
{
    static_assert(std::is_invocable_v<F, fifo_scope&>, "boost::forkjoin::basic_thread_pool::scope_fifo(f): f must take the scope, "
                                                  "as in [&](boost::forkjoin::fifo_scope& s) { s.spawn(...); }");
    if constexpr (std::is_invocable_v<F, fifo_scope&>) {
        return install([&]() -> decltype(auto) { return forkjoin::scope_fifo(std::forward<F>(f)); });
    }
}

template <sleep_policy SleepPolicy, class... Options>
template <class F>
decltype(auto) basic_thread_pool<SleepPolicy, Options...>::in_place_scope(F&& f)
{
    static_assert(std::is_invocable_v<F, lifo_scope&>, "boost::forkjoin::basic_thread_pool::in_place_scope(f): f must take the scope, "
                                                  "as in [&](boost::forkjoin::lifo_scope& s) { s.spawn(...); }");
    if constexpr (std::is_invocable_v<F, lifo_scope&>) {
        return detail::run_scope_in_place<scope_order::lifo>(*registry_, std::forward<F>(f));
    }
}

template <sleep_policy SleepPolicy, class... Options>
template <class F>
decltype(auto) basic_thread_pool<SleepPolicy, Options...>::in_place_scope_fifo(F&& f)
{
    static_assert(std::is_invocable_v<F, fifo_scope&>, "boost::forkjoin::basic_thread_pool::in_place_scope_fifo(f): f must take the scope, "
                                                  "as in [&](boost::forkjoin::fifo_scope& s) { s.spawn(...); }");
    if constexpr (std::is_invocable_v<F, fifo_scope&>) {
        return detail::run_scope_in_place<scope_order::fifo>(*registry_, std::forward<F>(f));
    }
}

} // namespace boost::forkjoin

#endif // BOOST_FORKJOIN_SCOPE_HPP
