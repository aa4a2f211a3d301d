// Copyright 2026 The Boost.ForkJoin developers.
// Distributed under the Boost Software License, Version 1.0.
// (See accompanying file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
#ifndef BOOST_FORKJOIN_DETAIL_BROADCAST_HPP
#define BOOST_FORKJOIN_DETAIL_BROADCAST_HPP

// Running a function once on every worker of a registry: broadcast (wait for
// all of them) and spawn_broadcast (do not wait).
//
// Each worker gets its own job in its private broadcast queue, which only it
// takes from. Every job and its queue link are allocated before the first
// is queued, and queueing cannot fail (broadcast_queue.hpp): a broadcast
// reaches every worker, or throws std::bad_alloc having reached none.

#include <boost/forkjoin/broadcast_context.hpp>
#include <boost/forkjoin/detail/broadcast_queue.hpp>
#include <boost/forkjoin/detail/count_latch.hpp>
#include <boost/forkjoin/detail/job.hpp>
#include <boost/forkjoin/detail/registry_base.hpp>
#include <boost/forkjoin/detail/submit.hpp>

#include <atomic>
#include <cstddef>
#include <memory>
#include <type_traits>
#include <vector>

namespace boost::forkjoin::detail {

// Runs f(ctx) on every worker of `registry` and waits for all of them.
// The caller waits as the latch's owner: a worker of any pool keeps running
// its own pool's jobs meanwhile (it may be the one that must run what the
// broadcast function waits for, e.g. a broadcast back into the caller's
// pool); any other thread blocks.
template <class F>
auto broadcast(registry_base& registry, F& f)
{
    using raw_result = std::invoke_result_t<F&, broadcast_context>;
    static_assert(!std::is_reference_v<raw_result>,
                  "boost::forkjoin::broadcast: the function returns a reference, and the results come back in a "
                  "std::vector, which cannot hold one; return a value, a pointer or a std::reference_wrapper");
    using value_type = value_or_monostate<raw_result>;

    struct broadcast_job : broadcast_node {
        F* func;
        std::size_t index;
        std::size_t num_threads;
        count_latch* latch;
        job_result<value_type> result;

        static void execute(void* self_ptr) noexcept
        {
            auto* self = static_cast<broadcast_job*>(self_ptr);
            broadcast_context const context(self->index, self->num_threads);
            self->result.capture([self, &context]() -> raw_result { return (*self->func)(context); });
            // Last touch of *self: once the latch is set the caller may
            // return and free the jobs.
            self->latch->set();
        }
    };

    activity_guard const keep_workers(registry);
    std::size_t const n = registry.num_threads();
    count_latch latch(current_worker, registry);

    // Everything is allocated before anything is queued.
    auto const jobs = std::make_unique<broadcast_job[]>(n);
    for (std::size_t i = 0; i < n; ++i) {
        broadcast_job& job = jobs[i];
        job.job = {&broadcast_job::execute, &job};
        job.func = &f;
        job.index = i;
        job.num_threads = n;
        job.latch = &latch;
        latch.increment();
    }
    registry.inject_broadcast([&jobs](std::size_t i) -> broadcast_node& { return jobs[i]; });
    latch.complete_and_wait();

    // Every worker ran; report the first failure by worker index.
    for (std::size_t i = 0; i < n; ++i)
        if (jobs[i].result.error())
            std::rethrow_exception(jobs[i].result.error());
    if constexpr (std::is_void_v<raw_result>) {
        return;
    } else {
        // Without cv: a vector cannot hold `T const`, which f may return.
        std::vector<std::remove_cv_t<raw_result>> values;
        values.reserve(n);
        for (std::size_t i = 0; i < n; ++i)
            values.push_back(jobs[i].result.take());
        return values;
    }
}

// The jobs of one spawn_broadcast: the function, shared by all of them, and
// one job per worker. Nobody waits, so the jobs own the whole: the last one
// to finish destroys it, function included, and only then calls done, the
// broadcast's completion signal (a scope's latch, the pool's activity), so
// that nothing the function captured is touched after that signal. Body is
// noexcept and called with the broadcast_context; it routes the function's
// exceptions itself.
template <class Body, class Done>
class spawned_broadcast {
public:
    spawned_broadcast(Body body, Done done, std::size_t num_threads)
        : body_(std::move(body)), done_(std::move(done)), num_threads_(num_threads),
          remaining_(num_threads), jobs_(std::make_unique<worker_job[]>(num_threads))
    {
        for (std::size_t i = 0; i < num_threads; ++i) {
            jobs_[i].job = {&execute, &jobs_[i]};
            jobs_[i].owner = this;
            jobs_[i].index = i;
        }
    }

    spawned_broadcast(spawned_broadcast const&) = delete;
    spawned_broadcast& operator=(spawned_broadcast const&) = delete;

    // Worker i's job.
    broadcast_node& node(std::size_t i) noexcept { return jobs_[i]; }

private:
    struct worker_job : broadcast_node {
        spawned_broadcast* owner;
        std::size_t index;
    };

    static void execute(void* job_ptr) noexcept
    {
        static_assert(std::is_nothrow_invocable_v<Body&, broadcast_context>,
                      "spawned_broadcast bodies route their own exceptions");
        static_assert(std::is_nothrow_invocable_v<Done&> && std::is_nothrow_copy_constructible_v<Done>,
                      "a completion signal cannot fail");
        auto const& job = *static_cast<worker_job const*>(job_ptr);
        spawned_broadcast* const self = job.owner;
        self->body_(broadcast_context(job.index, self->num_threads_));
        // Acq-rel: each job's release orders its use of body_ before its
        // decrement; the last decrement's acquire makes all of them happen
        // before the delete.
        if (self->remaining_.fetch_sub(1, std::memory_order_acq_rel) != 1)
            return;
        Done const done = self->done_;
        delete self;
        done();
    }

    Body body_;
    Done done_;
    std::size_t const num_threads_;
    std::atomic<std::size_t> remaining_;
    std::unique_ptr<worker_job[]> jobs_;
};

// Allocates a spawned_broadcast and queues its jobs in `registry`; strong
// guarantee (std::bad_alloc: nothing queued, done not called).
template <class Body, class Done>
void spawn_broadcast_jobs(registry_base& registry, Body body, Done done)
{
    auto jobs =
        std::make_unique<spawned_broadcast<Body, Done>>(std::move(body), std::move(done), registry.num_threads());
    registry.inject_broadcast([&jobs](std::size_t i) -> broadcast_node& { return jobs->node(i); });
    jobs.release(); // queued: the last job frees it
}

// Runs f(ctx) on every worker of `registry`, some time later. An exception
// escaping f goes to the pool's panic handler. The jobs hold one unit of the
// pool's activity until the last has finished.
template <class F>
void spawn_broadcast(registry_base& registry, F&& f)
{
    // Mutable: f is called as an lvalue, not a const one, as by broadcast
    // and a scope's spawn_broadcast.
    auto body = [&registry, func = std::decay_t<F>(std::forward<F>(f))](broadcast_context context) mutable noexcept {
        try {
            std::invoke(func, context);
        } catch (...) {
            registry.handle_panic(std::current_exception());
        }
    };
    activity_claim activity(registry); // throws pool_terminated
    spawn_broadcast_jobs(registry, std::move(body), release_activity_of{&registry});
    activity.hand_to_job();
}

} // namespace boost::forkjoin::detail

#endif // BOOST_FORKJOIN_DETAIL_BROADCAST_HPP
