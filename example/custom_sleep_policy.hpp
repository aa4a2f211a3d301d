// Copyright 2026 The Boost.ForkJoin developers.
// Distributed under the Boost Software License, Version 1.0.
// (See accompanying file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
#ifndef BOOST_FORKJOIN_EXAMPLE_CUSTOM_SLEEP_POLICY_HPP
#define BOOST_FORKJOIN_EXAMPLE_CUSTOM_SLEEP_POLICY_HPP

// A sleep policy written against the public concept only: spin, then back
// off with timed sleeps.
//
// An idle worker first searches for the pool's spin limit (a time: the
// library's spin_pause between searches), then sleeps on a condition
// variable with a timeout that doubles from `min_backoff` to `max_backoff`.
// Publishers notify while someone sleeps. (The library's own policies also
// learn, per worker, how long to spin: spin_budget.hpp. This one keeps the
// limit fixed, to stay short.)
//
// The protocol is deliberately simple. Injected jobs and set latches are
// never missed: the worker counts itself in `sleepers_` and then checks them
// under the mutex, while a publisher publishes and then reads `sleepers_`,
// all seq-cst, so one of the two sees the other. A push onto some worker's
// deque between our last search and our wait can be missed; that costs at
// most `max_backoff` of latency, since the timed wait searches again by
// itself, even when the pusher blocks in user code and so never pops the
// job (doc/sleep_policy.adoc, "Jobs left on a blocked worker's deque"). The price of the timeouts is a wake-up every `max_backoff` while
// idle, a little CPU that `sleep::jec` does not spend.

#include <boost/forkjoin/sleep_policy.hpp>
#include <boost/forkjoin/spin_budget.hpp>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <mutex>

namespace example {

class spin_then_backoff {
public:
    using clock = boost::forkjoin::spin_budget::clock;
    static constexpr std::size_t max_threads = 4096;
    static constexpr std::chrono::microseconds min_backoff{50};
    static constexpr std::chrono::microseconds max_backoff{2000};

    struct idle_state {
        clock::time_point spin_until;
        boost::forkjoin::spin_pause pause;
        std::chrono::microseconds backoff = min_backoff;
    };

    explicit spin_then_backoff(boost::forkjoin::sleep_context const& context) : spin_for_(context.spin_limit) {}

    // Pushes call new_internal_jobs only while someone sleeps.
    boost::forkjoin::push_filter filter_pushes() const noexcept { return {&sleepers_, 0, ~std::size_t{0}}; }

    idle_state start_looking(std::size_t) noexcept
    {
        clock::time_point const now = clock::now();
        return {now + spin_for_, boost::forkjoin::spin_pause(now)};
    }
    void work_found(idle_state&) noexcept {}

    template <class HasInjectedJobs>
    boost::forkjoin::sleep_result no_work_found(idle_state& idle, boost::forkjoin::core_latch& latch,
                                                HasInjectedJobs&& has_injected_jobs)
    {
        using boost::forkjoin::sleep_result;
        if (clock::time_point const now = clock::now(); now < idle.spin_until) {
            idle.pause(now);
            return sleep_result::none;
        }
        // Seq-cst: pairs with the publishers' seq-cst load of sleepers_ (in
        // the push filter and below), so that most races are caught; the
        // timeout covers the rest.
        sleepers_.fetch_add(1, std::memory_order_seq_cst);
        sleep_result result = sleep_result::none;
        {
            std::unique_lock lock(mutex_);
            if (!latch.probe() && !has_injected_jobs())
                result = cv_.wait_for(lock, idle.backoff) == std::cv_status::timeout ? sleep_result::timed_out
                                                                                      : sleep_result::woken;
        }
        sleepers_.fetch_sub(1, std::memory_order_seq_cst);
        idle.backoff = std::min(idle.backoff * 2, max_backoff);
        return result;
    }

    void new_internal_jobs(std::size_t, bool) { wake_all(); }
    void new_injected_jobs(std::size_t, bool) { wake_all(); }
    void notify_latch_set(std::size_t, bool) { wake_all(); }
    void notify_worker(std::size_t) { wake_all(); }

    // No deadlock detection: a worker in back-off wakes up by itself, so it
    // never counts as inactive.
    void mark_blocked() noexcept {}
    void mark_unblocked() noexcept {}

private:
    void wake_all()
    {
        if (sleepers_.load(std::memory_order_seq_cst) == 0)
            return;
        std::lock_guard lock(mutex_); // so that a worker between its checks and its wait is not missed
        cv_.notify_all();
    }

    std::chrono::nanoseconds const spin_for_;
    std::atomic<std::size_t> sleepers_{0};
    std::mutex mutex_;
    std::condition_variable cv_;
};

static_assert(boost::forkjoin::sleep_policy<spin_then_backoff>);

} // namespace example

#endif // BOOST_FORKJOIN_EXAMPLE_CUSTOM_SLEEP_POLICY_HPP
