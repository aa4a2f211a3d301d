// Copyright 2026 The Boost.ForkJoin developers.
// Distributed under the Boost Software License, Version 1.0.
// (See accompanying file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
#ifndef BOOST_FORKJOIN_SLEEP_JEC_HPP
#define BOOST_FORKJOIN_SLEEP_JEC_HPP

// sleep::jec: rayon's current sleep protocol with the jobs event counter
// (seeds/rayon-sleep-jec-README.md, seeds/blitz-sleep-wake-protocol.md,
// doc/sleep_jec.adoc). Read this file top to bottom beside the seeds.
//
// Thread states: *active* (running a job), *idle* (searching), *sleeping*
// (blocked on its own condition variable). Idle and sleeping together are
// *inactive*.
//
// One atomic word packs three counters (std::size_t, so the layout follows
// the platform):
//
//     64-bit:  bits 0..15 sleeping threads | 16..31 inactive threads | 32..63 JEC
//     32-bit:  bits 0..7  sleeping threads |  8..15 inactive threads | 16..31 JEC
//
// The jobs event counter (JEC) toggles between *sleepy* (even: no work was
// published since the last worker announced it was getting sleepy) and
// *active* (odd: some was). Publishing work makes an even JEC odd; a worker
// getting sleepy makes an odd JEC even and remembers the value *after* its
// own toggle. Before it sleeps it compares: any publication since made the
// counter move, so it searches again instead of sleeping.
//
// Each worker has its own mutex and condition variable, so a waker can wake
// exactly one worker, and exactly the one whose latch it set.
//
// How long an idle worker searches before it gets sleepy is a time, not a
// count of rounds: the worker's spin budget (spin_budget.hpp), learnt from
// how its own idle periods ended. A worker of a pool that gets a short job
// from the main thread every few microseconds stays awake between them; a
// worker that idles for milliseconds between jobs gets sleepy after a
// microsecond or two. Rayon searches 32 rounds, each ended by a yield: how
// long that is depends on the machine, and it is always too long for the
// second pool and too short for the first.

#include <boost/forkjoin/detail/config.hpp>
#include <boost/forkjoin/detail/deadlock_detector.hpp>
#include <boost/forkjoin/sleep_policy.hpp>
#include <boost/forkjoin/spin_budget.hpp>

#include <algorithm>
#include <atomic>
#include <climits>
#include <condition_variable>
#include <cstddef>
#include <memory>
#include <mutex>

namespace boost::forkjoin::sleep {

class jec {
    using word = std::size_t;

    static constexpr unsigned threads_bits = sizeof(word) * CHAR_BIT >= 64 ? 16 : 8;
    static constexpr unsigned inactive_shift = threads_bits;
    static constexpr unsigned jec_shift = 2 * threads_bits;
    static constexpr word threads_mask = (word{1} << threads_bits) - 1;
    static constexpr word one_sleeping = 1;
    static constexpr word one_inactive = word{1} << inactive_shift;
    static constexpr word one_jec = word{1} << jec_shift;

public:
    // A thread count must fit its field with room for all threads at once.
    static constexpr std::size_t max_threads = threads_mask;

    using clock = spin_budget::clock;

    // One idle period of one worker: from start_looking to work_found.
    struct idle_state {
        std::size_t worker_index;
        clock::time_point idle_since;
        // The worker searches (spin_pause between searches) until then, then
        // gets sleepy: announces it, searches once more, and sleeps.
        clock::time_point sleepy_at;
        spin_pause pause;
        // The JEC read right after our own sleepy toggle: no_snapshot while
        // not sleepy. The sentinel is never equal to a real counter, so a
        // stale snapshot cannot match.
        word jobs_counter = no_snapshot;
        // Another worker runs a job: search for the whole limit (see
        // spin_time). Set when the period begins, cleared once all are idle;
        // from then on, since quiet_since, the period teaches the budget
        // (see learn).
        bool others_busy = false;
        clock::time_point quiet_since{};
        bool slept = false; // blocked at least once since quiet_since
        // When we were last woken (if slept): what the budget learns from,
        // not the time we ran again (see learn).
        clock::time_point woken_at{};
    };

    explicit jec(sleep_context const& context)
        : worker_states_(std::make_unique<worker_sleep_state[]>(context.num_threads)),
          num_threads_(context.num_threads), deadlocks_(context.num_threads, context.deadlock_handler)
    {
        for (std::size_t i = 0; i < num_threads_; ++i)
            worker_states_[i].budget = spin_budget(context.spin_limit);
    }

    // A push needs us when the JEC is even (a sleepy worker must see that
    // work appeared) or when someone sleeps (maybe wake one). Otherwise
    // new_jobs below would do nothing, so skipping it changes nothing:
    //     ((counters ^ one_jec) & (one_jec | sleeping mask)) != 0
    push_filter filter_pushes() const noexcept { return {&counters_, one_jec, one_jec | threads_mask}; }

    idle_state start_looking(std::size_t worker_index) noexcept
    {
        // Seq-cst like every counters RMW, so that the wake decisions of
        // publishers read one consistent history of the word.
        word const c = counters_.fetch_add(one_inactive, std::memory_order_seq_cst) + one_inactive;
        bool const others_busy = inactive_threads(c) < num_threads_;
        clock::time_point const now = clock::now();
        return {worker_index, now, now + spin_time(worker_index, others_busy), spin_pause(now), no_snapshot,
                others_busy, now};
    }

    void work_found(idle_state& idle) noexcept
    {
        // Rayon also wakes up to two sleepers here, betting that found work
        // fans out. We do not: a worker that pushes new jobs calls
        // new_internal_jobs, which wakes sleepers when no idle thread is left
        // to take them, and the extra wake-ups are mostly futile (they
        // would give about three wake-ups per job injected into an idle pool).
        counters_.fetch_sub(one_inactive, std::memory_order_seq_cst);
        learn(idle);
    }

    template <class HasInjectedJobs>
    sleep_result no_work_found(idle_state& idle, core_latch& latch, HasInjectedJobs&& has_injected_jobs)
    {
        // The search after announcing found nothing: sleep.
        if (idle.jobs_counter != no_snapshot)
            return sleep(idle, latch, has_injected_jobs);
        clock::time_point const now = clock::now();
        // Relaxed: a hint; the sleep protocol does not depend on it.
        if (idle.others_busy && inactive_threads(counters_.load(std::memory_order_relaxed)) == num_threads_) {
            // Everybody is idle now: the learnt budget governs, and the rest
            // of the period, a wait for new work from outside, teaches it.
            idle.others_busy = false;
            idle.quiet_since = now;
            // A sleep before now was in the busy part, which teaches
            // nothing: its wake-up time would make the quiet part negative.
            idle.slept = false;
            idle.sleepy_at = std::min(idle.sleepy_at, now + spin_time(idle.worker_index, false));
        }
        if (now < idle.sleepy_at) {
            idle.pause(now);
        } else {
            idle.jobs_counter = announce_sleepy(); // then one more search
            // Our half of the pair with a worker that blocks with jobs on
            // its deque (registry::hand_over_local_jobs), whose push was
            // only a release store: a seq-cst access of the counters does
            // not order our next relaxed look at a deque's bottom, a seq-cst
            // fence does. Either its fence precedes ours, and the search
            // after this sees its jobs, or ours precedes its, and its
            // new_jobs sees the even JEC (and toggles it) or us sleeping.
            std::atomic_thread_fence(std::memory_order_seq_cst);
        }
        return sleep_result::none;
    }

    void new_internal_jobs(std::size_t count, bool queue_was_empty) { new_jobs(count, queue_was_empty); }

    void new_injected_jobs(std::size_t count, bool queue_was_empty)
    {
        // The first of the two fences (jec README, "Using seq-cst fences"):
        // orders the injection before our read of the sleeping count. Either
        // this fence precedes the sleeper's fence, and the sleeper's final
        // injector check sees our job, or it follows, and we see the sleeper
        // counted below and wake it.
        std::atomic_thread_fence(std::memory_order_seq_cst);
        new_jobs(count, queue_was_empty);
    }

    void notify_latch_set(std::size_t target, bool target_was_sleeping)
    {
        // Only a latch that its worker moved to SLEEPING needs a wake-up:
        // otherwise the worker is awake and will see the latch, or is in
        // sleep() before fall_asleep, whose CAS fails on a set latch.
        if (target_was_sleeping)
            wake_specific_thread(target);
    }

    void notify_worker(std::size_t index) { wake_specific_thread(index); }

    void mark_blocked() { deadlocks_.mark_blocked(); }
    void mark_unblocked() { deadlocks_.mark_unblocked(); }

private:
    static constexpr word no_snapshot = static_cast<word>(-1);

    static word sleeping_threads(word c) noexcept { return c & threads_mask; }
    static word inactive_threads(word c) noexcept { return (c >> inactive_shift) & threads_mask; }
    static word jobs_counter(word c) noexcept { return c >> jec_shift; }
    static bool jec_is_sleepy(word c) noexcept { return (jobs_counter(c) & 1) == 0; }

    struct alignas(detail::cache_line_size) worker_sleep_state {
        std::mutex mutex;
        std::condition_variable cv;
        bool is_blocked = false;         // guarded by mutex
        clock::time_point woken_at{};    // guarded by mutex: set by the waker
        spin_budget budget;              // its worker's alone
    };

    // Increments the JEC if `wanted(its parity)` and returns the counters as
    // they are now (after our increment, if any).
    template <class Predicate>
    word increment_jobs_counter_if(Predicate wanted) noexcept
    {
        // Seq-cst throughout: the wake decision and the pre-sleep check are
        // reasoned about in one total order of this word's accesses.
        word old_value = counters_.load(std::memory_order_seq_cst);
        for (;;) {
            if (!wanted(old_value))
                return old_value;
            word const new_value = old_value + one_jec;
            if (counters_.compare_exchange_weak(old_value, new_value, std::memory_order_seq_cst,
                                                std::memory_order_seq_cst))
                return new_value;
        }
    }

    // Makes the JEC even if it was odd, and returns the value after the
    // toggle: the snapshot to compare against before sleeping. Keeping the
    // value from *before* the toggle would make a worker take its own toggle
    // for new work: a futile "partial wake" (search again, announce again)
    // before every sleep, Blitz's partial wake storm. The model checks this
    // (test/model, mutant JEC_BEFORE_TOGGLE).
    word announce_sleepy() noexcept
    {
        return jobs_counter(increment_jobs_counter_if([](word c) { return !jec_is_sleepy(c); }));
    }

    template <class HasInjectedJobs>
    sleep_result sleep(idle_state& idle, core_latch& latch, HasInjectedJobs& has_injected_jobs)
    {
        std::size_t const index = idle.worker_index;
        // UNSET -> SLEEPY: fails if the latch we wait for got set.
        if (!latch.get_sleepy()) {
            wake_fully(idle, false);
            return sleep_result::none;
        }
        worker_sleep_state& state = worker_states_[index];
        std::unique_lock lock(state.mutex);
        // SLEEPY -> SLEEPING, under our mutex: from now on a latch setter
        // sees SLEEPING and comes to this mutex to wake us.
        if (!latch.fall_asleep()) {
            wake_fully(idle, false);
            return sleep_result::none;
        }
        // Register as sleeping unless work was published since we got
        // sleepy; both in one CAS on the counters.
        for (;;) {
            word const c = counters_.load(std::memory_order_seq_cst);
            if (jobs_counter(c) != idle.jobs_counter) {
                // Search once more, then get sleepy again (sleepy_at has
                // passed).
                idle.jobs_counter = no_snapshot;
                latch.wake_up();
                return sleep_result::none;
            }
            word expected = c;
            if (counters_.compare_exchange_weak(expected, c + one_sleeping, std::memory_order_seq_cst,
                                                std::memory_order_seq_cst))
                break;
        }
        // The second fence: after counting ourselves as sleeping, before the
        // final check of the injector (the pair of new_injected_jobs's fence).
        // It also covers a JEC that rolled over to our snapshot.
        std::atomic_thread_fence(std::memory_order_seq_cst);
        sleep_result result = sleep_result::none;
        if (has_injected_jobs()) {
            // Undo our count ourselves: no waker has seen us blocked.
            counters_.fetch_sub(one_sleeping, std::memory_order_seq_cst);
        } else {
            deadlocks_.thread_falling_asleep();
            state.is_blocked = true;
            // The waker clears is_blocked; anything else is spurious.
            state.cv.wait(lock, [&state] { return !state.is_blocked; });
            idle.woken_at = state.woken_at;
            result = sleep_result::woken;
        }
        wake_fully(idle, result == sleep_result::woken);
        latch.wake_up();
        return result;
    }

    // How long to search before getting sleepy. While another worker runs a
    // job, more work is likely to appear within microseconds (the other
    // half of a join, the next split of a loop), and a thief that sleeps
    // now costs a system call on each side to bring back: search for the
    // whole limit, as Go keeps a spinning thread while any processor runs.
    // The learnt budget is for the pool going quiet, when everybody is idle
    // and only a new job from outside ends the wait; so only the quiet part
    // of a period teaches it (learn), and a frame's many short gaps do not
    // inflate the spin after its last job. A thief that went idle while the
    // owner finished the job still learns from the gap that follows, or it
    // would keep its first budget, the whole limit, for ever.
    spin_budget::duration spin_time(std::size_t worker_index, bool others_busy) const noexcept
    {
        spin_budget const& budget = worker_states_[worker_index].budget;
        return others_busy ? budget.limit() : budget.current();
    }

    // Back to searching, with a fresh spin: a worker that was woken is
    // likely to find work, and one that was not sleeps again after it.
    void wake_fully(idle_state& idle, bool slept) noexcept
    {
        clock::time_point const now = clock::now();
        idle.sleepy_at = now + spin_time(idle.worker_index, idle.others_busy);
        idle.pause = spin_pause(now);
        idle.jobs_counter = no_snapshot;
        idle.slept |= slept;
    }

    // The idle period is over: did spinning carry the worker through its
    // quiet part? One we slept in ended when we were woken, not when we ran
    // again (spin_budget::missed says why).
    void learn(idle_state const& idle) noexcept
    {
        if (idle.others_busy)
            return;
        clock::time_point const ended = idle.slept ? idle.woken_at : clock::now();
        worker_states_[idle.worker_index].budget.learn(ended - idle.quiet_since, idle.slept);
    }

    // Rayon's wake decision. Awake-but-idle threads will find the new jobs
    // on their own; wake sleepers only for the jobs they cannot cover.
    void new_jobs(std::size_t count, bool queue_was_empty)
    {
        word const c = increment_jobs_counter_if(jec_is_sleepy);
        word const sleepers = sleeping_threads(c);
        if (sleepers == 0)
            return;
        word const inactive = inactive_threads(c);
        word const awake_but_idle = inactive > sleepers ? inactive - sleepers : 0;
        if (!queue_was_empty)
            wake_any_threads(std::min<word>(count, sleepers));
        else if (awake_but_idle < count)
            wake_any_threads(std::min<word>(count - awake_but_idle, sleepers));
    }

    void wake_any_threads(word count)
    {
        for (std::size_t i = 0; i < num_threads_ && count > 0; ++i)
            if (wake_specific_thread(i))
                --count;
    }

    bool wake_specific_thread(std::size_t index)
    {
        worker_sleep_state& state = worker_states_[index];
        std::lock_guard lock(state.mutex);
        if (!state.is_blocked)
            return false;
        // Count it active first: a thread that sees the wake (is_blocked
        // false, or the sleeping count down) and then marks itself blocked
        // must not find the pool without an active thread.
        deadlocks_.threads_woken(1);
        state.is_blocked = false;
        state.woken_at = clock::now();
        state.cv.notify_one();
        // The waker decrements the sleeping count, not the sleeper: the
        // sleeper may take a while to run, and publishers in between must
        // not count it as asleep (and skip waking someone else).
        counters_.fetch_sub(one_sleeping, std::memory_order_seq_cst);
        return true;
    }

    alignas(detail::cache_line_size) std::atomic<word> counters_{0};
    std::unique_ptr<worker_sleep_state[]> worker_states_;
    std::size_t const num_threads_;
    detail::deadlock_detector deadlocks_;
};

static_assert(sleep_policy<jec>);

} // namespace boost::forkjoin::sleep

#endif // BOOST_FORKJOIN_SLEEP_JEC_HPP
