// Copyright 2026 The Boost.ForkJoin developers.
// Distributed under the Boost Software License, Version 1.0.
// (See accompanying file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
#ifndef BOOST_FORKJOIN_SLEEP_LEGACY_HPP
#define BOOST_FORKJOIN_SLEEP_LEGACY_HPP

// sleep::legacy: rayon's first sleep protocol (seeds/rayon-sleep-legacy-README.md,
// doc/sleep_legacy.adoc). Read this file top to bottom beside the seed.
//
// One atomic word holds the whole state:
//
//     bit 0             some worker is asleep (or on its way, holding the lock)
//     bits 1..          (index + 1) of the one *sleepy* worker, 0 if none
//
//     0: all awake   1: some asleep   2: worker 0 sleepy   3: both
//
// A worker that fails to find work keeps searching for the first half of its
// spin budget (spin_budget.hpp: a time, learnt from how the worker's own idle
// periods ended; the seed counts 32 yields), or of the whole spin limit while
// another worker is busy, as sleep::jec does. Then it tries to become *the*
// sleepy worker (a CAS); while sleepy it keeps searching, for the second
// half of the budget and at least once more; then it swaps "me sleepy" for
// "someone asleep" under the mutex and blocks on the one condition variable.
//
// Whoever publishes work (a push, an injection, a latch set) tickles: one
// seq-cst load; if a worker is only sleepy, one CAS to 0 (which tells it it
// must not sleep); only if a worker is asleep, the mutex, a swap to 0 and
// notify_all. This is the seed's tickle, with a CAS where the seed swaps
// (see tickle_cold).
//
// Beside the word, a relaxed count of idle workers says how long to search
// (see spin_time); no step of the protocol reads it.
//
// Trade-offs: a tickle on the hot path is a single load; but a wake-up is
// all-or-nothing (every sleeper wakes, most go back to sleep) and only one
// worker at a time can be on its way to sleep.

#include <boost/forkjoin/detail/config.hpp>
#include <boost/forkjoin/detail/deadlock_detector.hpp>
#include <boost/forkjoin/sleep_policy.hpp>
#include <boost/forkjoin/spin_budget.hpp>

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <mutex>

namespace boost::forkjoin::sleep {

class legacy {
public:
    // Indices are stored as (index + 1) << 1 in a size_t.
    static constexpr std::size_t max_threads = (static_cast<std::size_t>(-1) >> 2) - 1;

    using clock = spin_budget::clock;

    // One idle period of one worker: from start_looking to work_found.
    struct idle_state {
        std::size_t worker_index;
        clock::time_point idle_since;
        // Searching until sleepy_at, then trying to get sleepy; sleepy until
        // asleep_at (and for one search at least), then asleep.
        clock::time_point sleepy_at;
        clock::time_point asleep_at;
        spin_pause pause;
        bool sleepy = false; // we are *the* sleepy worker
        bool slept = false;  // blocked at least once since quiet_since
        // Another worker runs a job: search for the whole limit (see
        // spin_time). Set when the period begins, cleared once all are idle;
        // from then on, since quiet_since, the period teaches the budget
        // (see work_found).
        bool others_busy = false;
        clock::time_point quiet_since{};
        // When the tickle that woke us last came (if slept): what the budget
        // learns from, not the time we ran again (see work_found).
        clock::time_point woken_at{};
    };

    explicit legacy(sleep_context const& context)
        : budgets_(std::make_unique<worker_budget[]>(context.num_threads)), num_threads_(context.num_threads),
          deadlocks_(context.num_threads, context.deadlock_handler)
    {
        for (std::size_t i = 0; i < context.num_threads; ++i)
            budgets_[i].budget = spin_budget(context.spin_limit);
    }

    // A push tickles: call us whenever the word is non-zero.
    push_filter filter_pushes() const noexcept { return {&state_, 0, ~std::size_t{0}}; }

    idle_state start_looking(std::size_t worker_index) noexcept
    {
        idle_state idle{worker_index, clock::now(), {}, {}, spin_pause(clock::now())};
        // Relaxed: a hint for how long to spin, which no step of the sleep
        // protocol reads; it only has to become exact once the pool is quiet.
        idle.others_busy = idle_workers_.fetch_add(1, std::memory_order_relaxed) + 1 < num_threads_;
        idle.quiet_since = idle.idle_since;
        start_searching(idle, idle.idle_since);
        return idle;
    }

    void work_found(idle_state& idle)
    {
        // If we were the sleepy worker, give the role up so that another
        // worker can become sleepy. Tickling also wakes sleepers, more than
        // needed, but that is the protocol as rayon shipped it.
        if (idle.sleepy)
            tickle();
        // Relaxed, as in start_looking: the count is a hint.
        idle_workers_.fetch_sub(1, std::memory_order_relaxed);
        if (idle.others_busy)
            return;
        // A period we slept in ended when the tickle came, not when we ran
        // again (spin_budget::missed says why).
        clock::time_point const ended = idle.slept ? idle.woken_at : clock::now();
        budgets_[idle.worker_index].budget.learn(ended - idle.quiet_since, idle.slept);
    }

    template <class HasInjectedJobs>
    sleep_result no_work_found(idle_state& idle, core_latch&, HasInjectedJobs&&)
    {
        clock::time_point const now = clock::now();
        // Relaxed: a hint; a stale read only spins longer or shorter.
        if (idle.others_busy && idle_workers_.load(std::memory_order_relaxed) == num_threads_) {
            // Everybody is idle now: the learnt budget governs, and the rest
            // of the period, a wait for new work from outside, teaches it.
            idle.others_busy = false;
            idle.quiet_since = now;
            // A sleep before now was in the busy part, which teaches
            // nothing: its tickle's time would make the quiet part negative.
            idle.slept = false;
            spin_budget::duration const budget = spin_time(idle);
            idle.sleepy_at = std::min(idle.sleepy_at, now + budget / 2);
            idle.asleep_at = std::min(idle.asleep_at, now + budget);
        }
        if (!idle.sleepy) {
            // Only one worker may be sleepy: if another is, wait our turn.
            if (now < idle.sleepy_at || !get_sleepy(idle.worker_index))
                idle.pause(now);
            else
                idle.sleepy = true; // and search at least once more
            return sleep_result::none;
        }
        if (!still_sleepy(idle.worker_index)) {
            // A tickle since we got sleepy means new work: start over.
            start_searching(idle, now);
            return sleep_result::none;
        }
        if (now < idle.asleep_at) {
            idle.pause(now);
            return sleep_result::none;
        }
        sleep_result const result = sleep(idle.worker_index, idle.woken_at);
        start_searching(idle, clock::now());
        idle.slept |= result == sleep_result::woken;
        return result;
    }

    // Every publication is a tickle; the counts and hints do not matter.
    void new_internal_jobs(std::size_t, bool) { tickle(); }
    void new_injected_jobs(std::size_t, bool) { tickle(); }
    void notify_latch_set(std::size_t, bool) { tickle(); }
    void notify_worker(std::size_t) { tickle(); }

    void mark_blocked() { deadlocks_.mark_blocked(); }
    void mark_unblocked() { deadlocks_.mark_unblocked(); }

private:
    static constexpr std::size_t awake = 0;

    struct alignas(detail::cache_line_size) worker_budget {
        spin_budget budget; // its worker's alone
    };

    // How long to search before sleeping, as in sleep::jec: while another
    // worker runs a job, more work is likely within microseconds (the other
    // half of a join, the next split of a loop), so the whole limit; once
    // the pool is quiet, the learnt budget. Only the quiet part of a period
    // teaches the budget: the many short gaps inside one parallel job would
    // otherwise raise the spin after its last job, which in a frame loop is
    // pure waste.
    spin_budget::duration spin_time(idle_state const& idle) const noexcept
    {
        spin_budget const& budget = budgets_[idle.worker_index].budget;
        return idle.others_busy ? budget.limit() : budget.current();
    }

    // Not sleepy: search for half the time, then get sleepy, then search
    // for the other half.
    void start_searching(idle_state& idle, clock::time_point now) noexcept
    {
        spin_budget::duration const budget = spin_time(idle);
        idle.sleepy = false;
        idle.sleepy_at = now + budget / 2;
        idle.asleep_at = now + budget;
        idle.pause = spin_pause(now);
    }
    static constexpr std::size_t sleeping_bit = 1;

    static bool anyone_sleeping(std::size_t state) noexcept { return (state & sleeping_bit) != 0; }
    static bool any_worker_is_sleepy(std::size_t state) noexcept { return (state >> 1) != 0; }
    static bool worker_is_sleepy(std::size_t state, std::size_t index) noexcept { return (state >> 1) == index + 1; }
    static std::size_t with_sleepy_worker(std::size_t state, std::size_t index) noexcept
    {
        return ((index + 1) << 1) | (state & sleeping_bit);
    }

    void tickle()
    {
        // Seq-cst load (scenario 1 of the README): if a worker got sleepy
        // before this point in the single total order, we must see it now,
        // not eventually. And (scenario 2) a worker that gets sleepy after
        // it then reads, in its next search, the seq-cst publication that
        // preceded this tickle (a latch set, an injected-job count).
        std::size_t const state = state_.load(std::memory_order_seq_cst);
        if (state != awake)
            tickle_cold(state);
    }

    // As the seed: a sleepy worker is released by a write to the word alone,
    // and only sleepers cost the mutex and a notify_all.
    void tickle_cold(std::size_t state)
    {
        while (!anyone_sleeping(state)) {
            // Only a sleepy worker: clear the word without the mutex. A CAS
            // where the seed swaps, so that this write never clears the
            // sleeping bit: a worker may have fallen asleep since our load,
            // and the bit must then be cleared by wake_sleepers() only,
            // after the deadlock accounting counts the sleepers active (see
            // there). Release suffices, as for the swap: getting sleepy and
            // falling asleep are RMWs on this word, so each is ordered
            // before or after this CAS in its modification order. After:
            // the sleepy worker's CAS fails, or it reads our AWAKE and,
            // through release/acquire, the published work. Before: it
            // changed the word and our CAS fails.
            if (state_.compare_exchange_weak(state, awake, std::memory_order_release, std::memory_order_relaxed))
                return;
            // Relaxed failure: the new value is later than the one our
            // seq-cst load read. AWAKE: another tickle released the sleepy
            // worker, and whoever gets sleepy from now on does so after our
            // load in the total order, so sees our publication (scenario 2).
            // A new sleepy worker: clear it too. The sleeping bit: wake.
            if (state == awake)
                return;
        }
        wake_sleepers();
    }

    void wake_sleepers()
    {
        // Under the mutex, because workers fall asleep only under it: the
        // sleeping bit cannot appear or vanish until we are done.
        std::lock_guard lock(mutex_);
        // Relaxed: the bit is set only under this mutex, which we hold, and
        // cleared only here.
        bool const sleepers = anyone_sleeping(state_.load(std::memory_order_relaxed));
        // Count the sleepers active again *before* the swap shows anyone that
        // they are being woken. Otherwise a worker that reads the cleared
        // word (so does not tickle) and then marks itself blocked would find
        // no active thread and report a deadlock that this very tickle is
        // about to end. (Rayon updated the count after the swap and had
        // that false positive; the deadlock test found it here.)
        if (sleepers)
            deadlocks_.all_threads_woken();
        // Release suffices, as for the CAS in tickle_cold. A worker that
        // fell asleep before it did so under the mutex we now hold: we
        // synchronized with it and wake it below.
        state_.exchange(awake, std::memory_order_release);
        if (sleepers) {
            ++wake_generation_;
            woken_at_ = clock::now();
            wake_all_.notify_all();
        }
    }

    bool get_sleepy(std::size_t index)
    {
        for (;;) {
            // Acquire suffices: if another worker is sleepy we just wait our
            // turn; otherwise the CAS below decides.
            std::size_t const state = state_.load(std::memory_order_acquire);
            if (any_worker_is_sleepy(state))
                return false;
            // Seq-cst on success: any later tickle must see that we are
            // sleepy (scenario 1), and we must see what preceded any earlier
            // tickle that only loaded the word (scenario 2). The failure
            // order does not matter: we loop and load again.
            std::size_t expected = state;
            if (state_.compare_exchange_strong(expected, with_sleepy_worker(state, index),
                                               std::memory_order_seq_cst, std::memory_order_relaxed)) {
                // Our half of the pair with a worker that blocks with jobs on
                // its deque (registry::hand_over_local_jobs), whose push was
                // only a release store: a seq-cst CAS does not order our
                // next relaxed look at a deque's bottom, a seq-cst fence
                // does. Either its fence precedes ours, and our search after
                // this sees its jobs, or ours precedes its, and its tickle
                // sees us sleepy. Once per sleepy spell: free beside the
                // search that follows.
                std::atomic_thread_fence(std::memory_order_seq_cst);
                return true;
            }
        }
    }

    bool still_sleepy(std::size_t index) const noexcept
    {
        return worker_is_sleepy(state_.load(std::memory_order_seq_cst), index);
    }

    // `woken_at`: set, if we slept, to when the tickle that woke us came.
    sleep_result sleep(std::size_t index, clock::time_point& woken_at)
    {
        for (;;) {
            // Acquire suffices: if we are still sleepy nothing was published
            // that we must see (it would have tickled us out of it), and the
            // CAS below synchronizes; if the word changed, a tickle did it
            // and we acquire what preceded it.
            std::size_t const state = state_.load(std::memory_order_acquire);
            if (!worker_is_sleepy(state, index))
                return sleep_result::none;
            // The CAS must happen under the lock. Otherwise: we set SLEEPING,
            // a tickle resets to AWAKE and notifies nobody (we do not wait
            // yet), another worker sets SLEEPING again, and we block, having
            // missed the tickle. With the lock, a tickle that saw our bit
            // notifies only after we wait.
            std::unique_lock lock(mutex_);
            std::size_t expected = state;
            // Seq-cst on success, for the same two reasons as get_sleepy.
            if (state_.compare_exchange_strong(expected, sleeping_bit, std::memory_order_seq_cst,
                                               std::memory_order_relaxed)) {
                deadlocks_.thread_falling_asleep();
                // Wait for the next tickle that finds sleepers, not on the
                // word: looping on the word could not tell a real tickle from
                // a later worker falling asleep again (ABA). The generation,
                // bumped under this mutex by wake_sleepers, tells exactly, and
                // so filters spurious wake-ups, which would otherwise return
                // without the deadlock accounting counting us active again.
                std::uint64_t const generation = wake_generation_;
                wake_all_.wait(lock, [&] { return wake_generation_ != generation; });
                woken_at = woken_at_;
                return sleep_result::woken;
            }
        }
    }

    alignas(detail::cache_line_size) std::atomic<std::size_t> state_{awake};
    std::unique_ptr<worker_budget[]> budgets_;
    std::size_t const num_threads_;
    // Workers between start_looking and work_found, asleep or not: the
    // others_busy hint, on a line of its own so that idle transitions do
    // not disturb the state word's readers.
    alignas(detail::cache_line_size) std::atomic<std::size_t> idle_workers_{0};
    std::mutex mutex_;
    std::condition_variable wake_all_;
    std::uint64_t wake_generation_ = 0; // guarded by mutex_
    clock::time_point woken_at_{};      // guarded by mutex_: the last wake_sleepers that found sleepers
    detail::deadlock_detector deadlocks_;
};

static_assert(sleep_policy<legacy>);

} // namespace boost::forkjoin::sleep

#endif // BOOST_FORKJOIN_SLEEP_LEGACY_HPP
