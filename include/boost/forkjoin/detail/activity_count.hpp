// Copyright 2026 The Boost.ForkJoin developers.
// Distributed under the Boost Software License, Version 1.0.
// (See accompanying file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
#ifndef BOOST_FORKJOIN_DETAIL_ACTIVITY_COUNT_HPP
#define BOOST_FORKJOIN_DETAIL_ACTIVITY_COUNT_HPP

// What keeps a pool's workers: units of activity, of two kinds.
//
//  * Work units: the pool's handle, and each spawned job, install, scope
//    from outside, broadcast and future task in flight. Each stands for
//    work that will run.
//  * Tracked units: Asio's tracked executors and the work counted by
//    on_work_started, each standing for work that may still be submitted;
//    and the future tasks parked on another future, each standing for work
//    that may still be woken. A task's work unit becomes a tracked one when
//    it parks on a future (park_work), and a work unit again when it is
//    woken (try_unpark_work).
//
// The workers may leave once no work unit is held and either no tracked
// unit is held or tracked work was forgiven. The global pool's exit handler
// forgives it: at exit, the work guards and tracked executors still alive,
// and the promises that parked tasks wait for (on the stack of the thread
// calling std::exit, which is never unwound), would otherwise keep the
// handler waiting for ever, while all that is queued still runs. Anything
// submitted through them afterwards throws pool_terminated, and a parked
// task woken afterwards does not run. One woken by the pool's own work runs:
// its waker holds a work unit while it converts the task's unit back.
//
// Once reached, "may leave" is final: no unit is taken from then on (the
// takers check it in the same CAS), a give-back only lowers a count,
// forgiving only widens the condition, and on_work_finished gives nothing
// back any more. So exactly one RMW moves the word into it, and the thread
// that made it lets the workers go. test/model/activity_count.pml checks
// this with SPIN, with a mutant for each of these rules, and with a parked
// task, its waker and the fiber's state word beside the count.
//
// One 64-bit word, so that this is decided by one RMW: the work units in
// the low 32 bits, the tracked units in the next 31, the forgiveness in the
// top bit. Each unit is a live object (a queued job, an executor, a parked
// fiber and its stack), so neither count comes near its limit before memory
// runs out; the takers still refuse to wrap.

#include <boost/forkjoin/detail/termination.hpp>

#include <atomic>
#include <cstdint>

namespace boost::forkjoin::detail {

class activity_count {
public:
    // Takes one unit; false if the workers may leave already. Relaxed: a
    // taker publishes nothing, and needs nothing from the holders before
    // it; the work its unit keeps is handed over by the queue it goes
    // through.
    bool try_take_work() noexcept { return try_add(work_unit, work_mask, std::memory_order_relaxed); }
    bool try_take_tracked() noexcept { return try_add(tracked_unit, tracked_mask, std::memory_order_relaxed); }

    // Gives back a unit taken before. True if this made the workers free
    // to leave: the caller lets them go.
    bool give_back_work() noexcept
    {
        // A work unit was held, so the workers were not free before.
        return workers_may_leave(give_back(work_unit) - work_unit);
    }
    bool give_back_tracked() noexcept
    {
        // With tracked work forgiven, the workers may have been free before.
        std::uint64_t const before = give_back(tracked_unit);
        return frees_the_workers(before, before - tracked_unit);
    }

    // Gives back a tracked unit that try_take_tracked may have failed to
    // take, without knowing which (Asio's on_work_finished). A take fails
    // only once the workers may leave, and that is final. So before it,
    // every tracked unit counted is a taken one, and this gives one back.
    // From it on, nothing is given back: no count is waited for any more,
    // and with tracked work forgiven the count still holds the units of
    // tracked executors that will give theirs back later; giving one of
    // them back here for a take that failed would make theirs go below
    // zero, into the forgiven bit. True as give_back_tracked.
    bool give_back_tracked_if_taken() noexcept
    {
        std::uint64_t state = word_.load(std::memory_order_relaxed);
        do {
            if (workers_may_leave(state) || (state & tracked_mask) == 0)
                return false;
            // Acq-rel on success, as give_back; relaxed on failure, which
            // only rereads the word for the next try.
        } while (!word_.compare_exchange_weak(state, state - tracked_unit, std::memory_order_acq_rel,
                                              std::memory_order_relaxed));
        return frees_the_workers(state, state - tracked_unit);
    }

    // A future task parks on another future: the work unit it holds
    // becomes a tracked unit. Called by the task's worker before the task's
    // state says PARKED, so that its waker, which converts the unit back
    // only after it has read PARKED, always finds the tracked unit counted
    // (fiber_task.hpp). True as give_back_work: with tracked work forgiven,
    // a parked task may be the last thing the workers stayed for.
    bool park_work() noexcept
    {
        std::uint64_t state = word_.load(std::memory_order_relaxed);
        do
            check_room(state, tracked_mask);
        // Acq-rel on success, as give_back: a work unit goes; relaxed on
        // failure, which only rereads the word for the next try.
        while (!word_.compare_exchange_weak(state, state - work_unit + tracked_unit, std::memory_order_acq_rel,
                                            std::memory_order_relaxed));
        return frees_the_workers(state, state - work_unit + tracked_unit);
    }

    // The parked task is woken: its tracked unit becomes a work unit again.
    // False once the workers may leave (then only at exit, with tracked
    // work forgiven): nothing changes, and the task must not be queued.
    bool try_unpark_work() noexcept
    {
        // Acq-rel, as park_work, whose move it undoes. The difference wraps
        // (unsigned), and the sum does not: the task's tracked unit is in
        // the word.
        return try_add(work_unit - tracked_unit, work_mask, std::memory_order_acq_rel);
    }

    // From now on, tracked units no longer keep the workers. True as
    // give_back_work.
    bool forgive_tracked() noexcept
    {
        // Acq-rel, as a give-back: it may be the RMW that frees the workers.
        std::uint64_t const before = word_.fetch_or(tracked_forgiven, std::memory_order_acq_rel);
        return frees_the_workers(before, before | tracked_forgiven);
    }

    // Whether any unit is held beside the handle's: a snapshot, for a
    // thread that waits for the work submitted so far to finish (the
    // bake-off, between repetitions), parked tasks included. Acquire: one
    // that reads a holder's give-back also sees what the holder's work
    // wrote.
    bool held_beside_the_handle() const noexcept
    {
        std::uint64_t const state = word_.load(std::memory_order_acquire);
        return (state & work_mask) > work_unit || (state & tracked_mask) != 0;
    }

    // Synchronizes with every give-back before it (each RMW extends the
    // release sequence): for a thread that found the workers free to leave
    // and reads what their last holder wrote.
    void acquire_final_state() const noexcept { (void)word_.load(std::memory_order_acquire); }

private:
    static constexpr std::uint64_t work_unit = 1;
    static constexpr std::uint64_t tracked_unit = std::uint64_t{1} << 32;
    static constexpr std::uint64_t tracked_forgiven = std::uint64_t{1} << 63;
    static constexpr std::uint64_t work_mask = tracked_unit - 1;
    static constexpr std::uint64_t tracked_mask = tracked_forgiven - tracked_unit;

    static constexpr bool workers_may_leave(std::uint64_t state) noexcept
    {
        return (state & work_mask) == 0 && ((state & tracked_mask) == 0 || (state & tracked_forgiven) != 0);
    }

    static constexpr bool frees_the_workers(std::uint64_t before, std::uint64_t after) noexcept
    {
        return !workers_may_leave(before) && workers_may_leave(after);
    }

    // Adds `delta` to the word, unless the workers may leave; the count
    // under `mask` is the one it raises. `success` is the CAS's ordering
    // (the callers say why); relaxed on failure, which only rereads the
    // word for the next try.
    bool try_add(std::uint64_t delta, std::uint64_t mask, std::memory_order success) noexcept
    {
        std::uint64_t state = word_.load(std::memory_order_relaxed);
        do {
            if (workers_may_leave(state))
                return false;
            check_room(state, mask);
        } while (!word_.compare_exchange_weak(state, state + delta, success, std::memory_order_relaxed));
        return true;
    }

    // The takers refuse to wrap (see the top of this file).
    static void check_room(std::uint64_t state, std::uint64_t mask) noexcept
    {
        if ((state & mask) == mask)
            terminate_with_message("boost::forkjoin: more units of a pool's activity held at once than its count "
                                   "can hold (2^32 - 1 jobs in flight, or 2^31 - 1 tracked executors, work guards "
                                   "and parked future tasks)");
    }

    // Returns the word before.
    std::uint64_t give_back(std::uint64_t unit) noexcept
    {
        // Acq-rel: the RMW that frees the workers must see everything the
        // other holders did before their give-back, and the workers it lets
        // go see it too (through the terminate latches' seq-cst set).
        return word_.fetch_sub(unit, std::memory_order_acq_rel);
    }

    // The handle's unit.
    std::atomic<std::uint64_t> word_{work_unit};
};

} // namespace boost::forkjoin::detail

#endif // BOOST_FORKJOIN_DETAIL_ACTIVITY_COUNT_HPP
