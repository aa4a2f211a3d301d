// Copyright 2026 The Boost.ForkJoin developers.
// Distributed under the Boost Software License, Version 1.0.
// (See accompanying file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
#ifndef BOOST_FORKJOIN_DETAIL_BROADCAST_HPP
#define BOOST_FORKJOIN_DETAIL_BROADCAST_HPP

// Running a function once on every worker of a registry.

#include <boost/forkjoin/broadcast_context.hpp>
#include <boost/forkjoin/detail/count_latch.hpp>
#include <boost/forkjoin/detail/job.hpp>
#include <boost/forkjoin/detail/registry_base.hpp>
#include <boost/forkjoin/detail/submit.hpp>

#include <cstddef>
#include <type_traits>
#include <vector>

namespace boost::forkjoin {
namespace detail {

// Each worker gets its own job in its private broadcast queue, which only it
// takes from. The caller waits on a count latch: running other jobs if it is
// a worker of this pool, blocking otherwise (a worker of another pool must
// not be kept waiting on a latch of a registry it does not belong to).
template <class F>
auto broadcast(registry_base& registry, F& f)
{
    using raw_result = std::invoke_result_t<F&, broadcast_context>;
    using value_type = value_or_monostate<raw_result>;

    struct broadcast_job {
        F* func;
        std::size_t index;
        std::size_t num_threads;
        job_result<value_type> result;
        count_latch* latch;

        static void execute(void* self_ptr) noexcept
        {
            auto* self = static_cast<broadcast_job*>(self_ptr);
            broadcast_context const context(self->index, self->num_threads);
            self->result.capture([self, &context]() -> raw_result { return (*self->func)(context); });
            self->latch->set();
        }
    };

    activity_guard const keep_workers(registry);
    std::size_t const n = registry.num_threads();
    worker_thread* const worker = current_worker;
    bool const own_worker = registry.owns(worker);
    count_latch latch(own_worker ? worker : nullptr);

    std::vector<broadcast_job> jobs;
    std::vector<job_ref> refs;
    jobs.reserve(n);
    refs.reserve(n);
    for (std::size_t i = 0; i < n; ++i) {
        jobs.push_back(broadcast_job{&f, i, n, {}, &latch});
        latch.increment();
    }
    for (auto& job : jobs)
        refs.push_back({&broadcast_job::execute, &job});
    registry.inject_broadcast(refs.data());
    latch.complete_and_wait();

    // Every worker ran; report the first failure by worker index.
    for (auto& job : jobs)
        if (job.result.error())
            std::rethrow_exception(job.result.error());
    if constexpr (std::is_void_v<raw_result>) {
        return;
    } else {
        std::vector<raw_result> values;
        values.reserve(n);
        for (auto& job : jobs)
            values.push_back(job.result.take());
        return values;
    }
}

} // namespace detail
} // namespace boost::forkjoin

#endif // BOOST_FORKJOIN_DETAIL_BROADCAST_HPP
