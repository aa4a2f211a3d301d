// Copyright 2026 The Boost.ForkJoin developers.
// Distributed under the Boost Software License, Version 1.0.
// (See accompanying file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
#ifndef BOOST_FORKJOIN_CORE_LATCH_HPP
#define BOOST_FORKJOIN_CORE_LATCH_HPP

// core_latch: the four-state word a *worker* waits on. Public because the
// sleep_policy concept hands it to a policy (no_work_found): a policy that
// blocks moves it to SLEEPY and SLEEPING on its way to sleep, so that the
// thread that sets the latch knows it must wake that worker.
//
//                    UNSET --get_sleepy--> SLEEPY --fall_asleep--> SLEEPING
//                      ^                     |                        |
//                      +------ wake_up ------+-------- wake_up -------+
//                 any state --set--> SET   (final)
//
// The registry owns every core_latch; a policy only calls get_sleepy,
// fall_asleep, wake_up and probe on the latch it is given, and learns of a
// set() through sleep_policy's notify_latch_set(index, was_sleeping). See
// doc/sleep_policy.adoc for the protocol and doc/reference.adoc for the
// members.

#include <atomic>
#include <cstdint>

namespace boost::forkjoin {

class core_latch {
public:
    enum state : std::uint32_t { unset = 0, sleepy = 1, sleeping = 2, set_state = 3 };

    // Orderings. Every access that decides or publishes (probe, the CASes on
    // success, set) is seq-cst; wake_up's first look and the CAS failure
    // orders are relaxed because a later CAS decides. `jec` needs
    // acquire/release only, but `legacy` requires that a latch write which precedes a tickle be
    // seq-cst, and that the waiter's probe be seq-cst, so that a worker that
    // got sleepy after the tickle cannot miss the latch (legacy README,
    // scenario 2). On x86 a seq-cst load is a plain load and every RMW is
    // already a full barrier, so the uniform choice costs nothing there.

    // True once set. The waiter then also sees everything the setter wrote
    // before set().
    bool probe() const noexcept { return state_.load(std::memory_order_seq_cst) == set_state; }

    // UNSET -> SLEEPY. Fails if the latch was set meanwhile.
    bool get_sleepy() noexcept
    {
        std::uint32_t expected = unset;
        return state_.compare_exchange_strong(expected, sleepy, std::memory_order_seq_cst,
                                              std::memory_order_relaxed);
    }

    // SLEEPY -> SLEEPING. Fails if the latch was set meanwhile.
    bool fall_asleep() noexcept
    {
        std::uint32_t expected = sleepy;
        return state_.compare_exchange_strong(expected, sleeping, std::memory_order_seq_cst,
                                              std::memory_order_relaxed);
    }

    // SLEEPY or SLEEPING -> UNSET, unless set meanwhile (then it stays SET).
    void wake_up() noexcept
    {
        std::uint32_t current = state_.load(std::memory_order_relaxed);
        while (current != set_state && current != unset) {
            if (state_.compare_exchange_weak(current, unset, std::memory_order_seq_cst,
                                             std::memory_order_relaxed))
                return;
        }
    }

    // Sets the latch. Returns true if the waiter was SLEEPING, i.e. blocked
    // (or about to block) and must be woken by the caller.
    bool set() noexcept { return state_.exchange(set_state, std::memory_order_seq_cst) == sleeping; }

private:
    std::atomic<std::uint32_t> state_{unset};
};

} // namespace boost::forkjoin

#endif // BOOST_FORKJOIN_CORE_LATCH_HPP
