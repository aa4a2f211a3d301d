// Copyright 2026 The Boost.ForkJoin developers.
// Distributed under the Boost Software License, Version 1.0.
// (See accompanying file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
#ifndef BOOST_FORKJOIN_SPIN_BUDGET_HPP
#define BOOST_FORKJOIN_SPIN_BUDGET_HPP

// How long a waiting thread should spin before it blocks, in time, learned
// from how its own recent waits ended.
//
// Blocking costs twice: a system call on each side, and, worse, the time the
// kernel (or, in a virtual machine, the hypervisor) takes to run a woken
// thread again, tens of microseconds on a VM whose virtual CPU had halted.
// Spinning costs the CPU it burns. So a thread should spin through the waits
// that spinning can catch, and block at once in those it cannot:
//
//   * a wait that ended while the thread spun says the budget was enough;
//   * a wait that outlasted the budget, but would have ended within the
//     limit, says a longer spin would have caught it: the budget becomes
//     twice that wait (at most the limit), so the next one like it is caught;
//   * a wait longer than the limit says spinning is no use for this thread's
//     waits now: the budget halves, down to the floor.
//
// A main-thread loop of short parallel jobs (waits of a few microseconds)
// keeps the whole budget; a job every millisecond, or a long job per frame,
// drives it to the floor within a few waits, so that idle CPU goes to the
// cost of the wake-ups alone. Budgets and the spin loop are in time, never in
// iterations: a `pause` costs ten times more on one CPU than on another.
//
// spin_budget is not thread-safe: each waiting thread (each worker, each
// thread outside the pool) owns one.

#include <boost/forkjoin/detail/cpu_relax.hpp>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <thread>

namespace boost::forkjoin {

// Whether a spinning thread offers its CPU to other runnable threads while it
// spins (spin_pause). Offering is what lets the thread we wait for run when
// it is queued behind us; keeping saves the two hand-overs of the CPU (to
// the other thread, and back once our event came) where the event comes
// sooner without that thread's help. The spin budget ends the spin either way.
enum class cpu_sharing {
    offer, // every microsecond
    keep,  // never while spinning
};

class spin_budget {
public:
    using clock = std::chrono::steady_clock;
    using duration = std::chrono::nanoseconds;

    // Twice the wake-up latency seen on the slowest machines we measured
    // (about 25 us on a 2-vCPU VM whose idle CPU had halted): enough to
    // bridge the gap between two short jobs of a main-thread loop, small
    // enough that an idle pool goes to sleep unnoticed.
    static constexpr duration default_limit = std::chrono::microseconds(50);

    // Never spin less than this before blocking: one or two looks at the
    // awaited event cost less than a futex round trip anywhere.
    static constexpr duration floor = std::chrono::microseconds(1);

    // The longest limit; a longer one is taken as this. Spinning for an hour
    // is spinning for ever in practice (what a limit of duration::max()
    // asks for), and a deadline of the clock's now plus the limit must not
    // overflow its 64-bit count of nanoseconds.
    static constexpr duration max_limit = std::chrono::hours(1);

    constexpr spin_budget() noexcept = default;
    // Precondition: limit >= 0.
    constexpr explicit spin_budget(duration limit) noexcept
        : limit_(std::min(limit, max_limit)), budget_(limit_)
    {
    }

    duration limit() const noexcept { return limit_; }

    // A thread that waits for several pools follows the limit of the one it
    // waits for now. Precondition: limit >= 0.
    void set_limit(duration limit) noexcept
    {
        limit_ = std::min(limit, max_limit);
        budget_ = std::clamp(budget_, least(), limit_);
    }
    // How long to spin in the next wait.
    duration current() const noexcept { return budget_; }

    // How long the last wait learnt from (caught or missed) lasted: zero
    // before the first.
    duration last_wait() const noexcept { return last_wait_; }

    // The awaited event came after `waited`, while the thread still spun.
    void caught(duration waited) noexcept
    {
        last_wait_ = waited;
        // Doubling at most the limit, which the result is clamped to
        // anyway: a wait of years must not overflow.
        budget_ = std::clamp(std::max(budget_, 2 * std::min(waited, limit_)), least(), limit_);
    }

    // The thread spun its whole budget, then blocked; the event came after
    // `waited` in all.
    //
    // `waited` ends when the event came (the latch was set, the sleeper was
    // woken), not when the blocked thread ran again: the wake-up latency is
    // what blocking added, and a spin would not have paid it. Counting it
    // would make a wait a little shorter than the limit look longer than the
    // limit once the thread blocked (tens of microseconds to wake on a VM),
    // halve the budget, and make the thread block again next time: a loop of
    // 20 us jobs, or of jobs 40 us apart, would never spin again. So whoever
    // ends a blocked wait stamps the time, under the mutex it already holds.
    void missed(duration waited) noexcept
    {
        last_wait_ = waited;
        if (waited <= limit_)
            budget_ = std::clamp(2 * waited, least(), limit_);
        else
            budget_ = std::max(budget_ / 2, least());
    }

    // A wait that lasted `waited` is over: caught() if the thread never
    // blocked in it, missed() if it did.
    void learn(duration waited, bool blocked) noexcept { blocked ? missed(waited) : caught(waited); }

    // Spins until `done()` is true, or `current()` has passed, or
    // `may_spin()` is false; returns whether `done()` became true, and
    // learns from the outcome if it did (a miss is learnt by the caller once
    // the blocked wait ends, with missed()). `started` is when the wait began;
    // `sharing` says whether the spin offers the CPU (spin_pause).
    template <class Done, class MaySpin>
    bool spin(Done&& done, MaySpin&& may_spin, clock::time_point started = clock::now(),
              cpu_sharing sharing = cpu_sharing::offer);

    template <class Done>
    bool spin(Done&& done, clock::time_point started = clock::now())
    {
        return spin(done, [] { return true; }, started);
    }

private:
    // The floor, unless the limit is lower (a limit of zero: never spin).
    duration least() const noexcept { return std::min(floor, limit_); }

    duration limit_ = default_limit;
    duration budget_ = default_limit;
    duration last_wait_{0};
};

// What a spinning thread does between two looks at what it waits for: a few
// `pause`s, doubling up to a bound, and, every microsecond unless told to keep
// the CPU, an offer of the CPU to any other runnable thread. On a machine
// with more runnable threads than CPUs the thread we wait for may be queued
// behind us.
class spin_pause {
public:
    explicit spin_pause(spin_budget::clock::time_point started, cpu_sharing sharing = cpu_sharing::offer) noexcept
        : next_yield_(sharing == cpu_sharing::offer ? started + yield_interval : spin_budget::clock::time_point::max())
    {
    }

    // `now` is the caller's latest reading of the clock.
    void operator()(spin_budget::clock::time_point now) noexcept
    {
        for (unsigned i = 0; i < pauses_; ++i)
            detail::cpu_relax();
        pauses_ = std::min(2 * pauses_, max_pauses);
        if (now >= next_yield_) {
            std::this_thread::yield();
            next_yield_ = now + yield_interval;
        }
    }

private:
    // The longest stretch of spinning without offering the CPU, and the
    // most pauses between two looks (under a microsecond on any CPU).
    //
    // Each offer taken costs a hand-over of the CPU (1.5 to 2.4 us on a
    // 2-vCPU VM), and each stretch between offers delays the thread queued
    // behind us. On that VM, increment-all at 2 threads with a waiting
    // caller (three spinning threads on two CPUs) took 15.4-17.5 us a pass
    // with offers every 1 us, 16.2-17.1 every 2 us, 17.0-20.0 every 4 us,
    // and 21.5-29.8 every 1 us plus one at the spin's first look (p50 of
    // 1,000 passes; 15 repetitions each, 30 for 1 us; processes alternating).
    static constexpr spin_budget::duration yield_interval = std::chrono::microseconds(1);
    static constexpr unsigned max_pauses = 16;

    spin_budget::clock::time_point next_yield_;
    unsigned pauses_ = 1;
};

template <class Done, class MaySpin>
bool spin_budget::spin(Done&& done, MaySpin&& may_spin, clock::time_point started, cpu_sharing sharing)
{
    clock::time_point const deadline = started + budget_;
    spin_pause pause(started, sharing);
    for (;;) {
        if (done()) {
            caught(clock::now() - started);
            return true;
        }
        clock::time_point const now = clock::now();
        if (now >= deadline || !may_spin())
            return false;
        pause(now);
    }
}

} // namespace boost::forkjoin

#endif // BOOST_FORKJOIN_SPIN_BUDGET_HPP
