// Copyright 2026 The Boost.ForkJoin developers.
// Distributed under the Boost Software License, Version 1.0.
// (See accompanying file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
#ifndef BOOST_FORKJOIN_DETAIL_BROADCAST_HPP
#define BOOST_FORKJOIN_DETAIL_BROADCAST_HPP

// Running a function once on every worker of a registry.
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
        std::vector<raw_result> values;
        values.reserve(n);
        for (std::size_t i = 0; i < n; ++i)
            values.push_back(jobs[i].result.take());
        return values;
    }
}

} // namespace boost::forkjoin::detail

#endif // BOOST_FORKJOIN_DETAIL_BROADCAST_HPP
