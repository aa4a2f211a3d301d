// Copyright 2026 The Boost.ForkJoin developers.
// Distributed under the Boost Software License, Version 1.0.
// (See accompanying file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
#ifndef BOOST_FORKJOIN_DETAIL_WORKER_SEARCH_HPP
#define BOOST_FORKJOIN_DETAIL_WORKER_SEARCH_HPP

// Where a worker that has no job of its own looks for one: its own queues,
// the other workers' deques (steal), the injector, and worker 0's broadcast
// queue while the caller slot's place is vacant. The worker_thread members
// that search the whole pool, for the idle loop (registry.hpp) and
// yield_now (current_thread.hpp).

#include <boost/forkjoin/detail/caller_slot.hpp>
#include <boost/forkjoin/detail/chase_lev_deque.hpp>
#include <boost/forkjoin/detail/config.hpp>
#include <boost/forkjoin/detail/job.hpp>
#include <boost/forkjoin/detail/registry_base.hpp>
#include <boost/forkjoin/detail/worker_counters.hpp>
#include <boost/forkjoin/detail/worker_thread.hpp>

#include <cstddef>
#include <optional>

namespace boost::forkjoin::detail {

#if BOOST_FORKJOIN_DEFINE_COMPILED

BOOST_FORKJOIN_DECL std::optional<job_ref> worker_thread::steal()
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

BOOST_FORKJOIN_DECL std::optional<job_ref> worker_thread::find_work()
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

BOOST_FORKJOIN_DECL bool worker_thread::has_injected_jobs() const noexcept
{
    return !broadcasts_.empty() || resumes_.has_work() || registry_.has_injected_jobs() ||
           registry_.vacant_slot_has_work();
}

#endif // BOOST_FORKJOIN_DEFINE_COMPILED

} // namespace boost::forkjoin::detail

#endif // BOOST_FORKJOIN_DETAIL_WORKER_SEARCH_HPP
