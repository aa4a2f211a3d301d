// Copyright 2026 The Boost.ForkJoin developers.
// Distributed under the Boost Software License, Version 1.0.
// (See accompanying file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
#ifndef BOOST_FORKJOIN_DETAIL_CPU_SHARING_LEARNER_HPP
#define BOOST_FORKJOIN_DETAIL_CPU_SHARING_LEARNER_HPP

// Whether a thread outside the pool, spinning while its job runs, should
// offer its CPU (cpu_sharing::offer) or keep it (cpu_sharing::keep).
//
// A pool as large as the machine (the default) plus the waiting caller is one
// runnable thread more than there are CPUs, so while the caller spins a
// worker is queued behind it. Offering the CPU lets that worker help with the
// job, and costs two hand-overs of the CPU: to the worker, and back to the
// caller once the job is done (1.5 to 2.4 us each on a 2-vCPU VM, less on
// bare metal). A job of 15 us of work gains more than that from a second
// worker; a tree of 1,023 empty joins (5 us) loses: at 2 threads it took
// 10.7 us a sum with the CPU offered and 7.3 us with it kept. Which one wins
// depends on the job and on the machine, and both are the caller's own, so
// each caller measures: it keeps a moving average of its waits under each
// choice, makes the faster one, and now and then the other, to notice when
// that has changed.
//
// Keeping the CPU never stops the job: the spin still ends with the budget,
// or as soon as no worker is idle (registry_base::leaves_a_cpu_free), and the
// caller then blocks. On one CPU a kept CPU makes every wait last the whole
// budget, so the average says so after the first try, and the other choice
// is then tried only rarely.
//
// Not thread-safe: each thread outside the pools owns one, whatever pool it
// waits for, as it owns one spin budget: a thread that alternates between
// pools of different sizes learns from the mix, and its choice is then
// merely the one that served the mix best.

#include <boost/forkjoin/detail/xorshift_rng.hpp>
#include <boost/forkjoin/spin_budget.hpp>

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>

namespace boost::forkjoin::detail {

class cpu_sharing_learner {
public:
    using duration = spin_budget::duration;

    // The choice for the next wait: a choice never made yet (offering first,
    // as a caller that knows nothing should), else the one with the shorter
    // average wait, except for one wait in explore_odds, chosen at random
    // (a fixed period would keep landing on the same job of a loop that
    // alternates two), or one in rare_explore_odds when the other choice's
    // waits were more than clearly_worse times as long.
    cpu_sharing choose() noexcept
    {
        if (average(cpu_sharing::offer) == duration::zero())
            return cpu_sharing::offer;
        if (average(cpu_sharing::keep) == duration::zero())
            return cpu_sharing::keep;
        cpu_sharing const best =
            average(cpu_sharing::keep) < average(cpu_sharing::offer) ? cpu_sharing::keep : cpu_sharing::offer;
        cpu_sharing const other = best == cpu_sharing::keep ? cpu_sharing::offer : cpu_sharing::keep;
        std::uint64_t const odds =
            average(other) > clearly_worse * average(best) ? rare_explore_odds : explore_odds;
        return rng_.next() % odds == 0 ? other : best;
    }

    // A wait made with `choice` lasted `waited` (up to the event, as the spin
    // budget measures it).
    void learn(cpu_sharing choice, duration waited) noexcept
    {
        // A wait of zero would read as "never tried".
        waited = std::max(waited, duration(1));
        duration& average = averages_[index(choice)];
        average = average == duration::zero() ? waited : average + (waited - average) / smoothing;
    }

    // The moving average of the waits made with `choice`: zero if none was.
    duration average(cpu_sharing choice) const noexcept { return averages_[index(choice)]; }

private:
    static constexpr std::uint64_t explore_odds = 16;
    static constexpr std::uint64_t rare_explore_odds = 256;
    static constexpr std::int64_t clearly_worse = 4;

    // Each new wait weighs one eighth: a loop settles within a few dozen
    // jobs, and one slow job (a page fault, a preempted worker) moves the
    // average by an eighth of its excess.
    static constexpr std::int64_t smoothing = 8;

    static std::size_t index(cpu_sharing choice) noexcept { return choice == cpu_sharing::offer ? 0 : 1; }

    std::array<duration, 2> averages_{};
    xorshift_rng rng_{0x5eed};
};

} // namespace boost::forkjoin::detail

#endif // BOOST_FORKJOIN_DETAIL_CPU_SHARING_LEARNER_HPP
