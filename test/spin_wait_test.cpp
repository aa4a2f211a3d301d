// Copyright 2026 The Boost.ForkJoin developers.
// Distributed under the Boost Software License, Version 1.0.
// (See accompanying file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)

// Spinning before blocking: spin_budget's learning rule, and the latch a
// thread outside the pool waits on, which spins first and blocks after. The
// point of the stress cases is that no set() is ever lost whichever phase
// the waiter is in when it comes, and that the setter never touches a latch
// whose waiter has left (the latch lives in the waiter's frame; the ASan and
// TSan builds of this program see a late touch).

#define BOOST_TEST_MODULE spin_wait
#include <boost/test/unit_test.hpp>

#include "policies.hpp"
#include "thread_state.hpp"
#include "watchdog.hpp"

#include <boost/forkjoin/detail/cpu_sharing_learner.hpp>
#include <boost/forkjoin/detail/lock_latch.hpp>
#include <boost/forkjoin/detail/process_cpu_clock.hpp>
#include <boost/forkjoin/spin_budget.hpp>

#include <atomic>
#include <chrono>
#include <csignal>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <stdexcept>
#include <thread>
#include <vector>

#include <pthread.h>
#include <sched.h>
#include <unistd.h>

namespace fj = boost::forkjoin;
using namespace std::chrono_literals;
using fj::spin_budget;

namespace {

// Busy-waits for `d`: a sleep would give the waiter's phase away to the
// scheduler's granularity instead of placing set() inside it.
void busy_for(std::chrono::nanoseconds d)
{
    auto const end = std::chrono::steady_clock::now() + d;
    while (std::chrono::steady_clock::now() < end) {}
}

} // namespace

// --- spin_budget's rule --------------------------------------------------------

BOOST_AUTO_TEST_CASE(a_new_budget_spins_to_its_limit)
{
    BOOST_TEST(spin_budget().current().count() == spin_budget::default_limit.count());
    BOOST_TEST(spin_budget(7us).current().count() == std::chrono::nanoseconds(7us).count());
}

BOOST_AUTO_TEST_CASE(a_wait_spinning_could_not_catch_halves_the_budget_down_to_the_floor)
{
    spin_budget budget(64us);
    budget.missed(1ms);
    BOOST_TEST(budget.current().count() == std::chrono::nanoseconds(32us).count());
    for (int i = 0; i < 20; ++i)
        budget.missed(1ms);
    BOOST_TEST(budget.current().count() == std::chrono::nanoseconds(spin_budget::floor).count());
}

BOOST_AUTO_TEST_CASE(a_wait_a_longer_spin_would_have_caught_sets_the_budget_to_twice_it)
{
    spin_budget budget(64us);
    for (int i = 0; i < 20; ++i)
        budget.missed(1ms); // down to the floor
    budget.missed(10us);    // blocked, but 10 us of spinning would have done
    BOOST_TEST(budget.current().count() == std::chrono::nanoseconds(20us).count());
    budget.missed(50us); // twice is above the limit: the limit
    BOOST_TEST(budget.current().count() == std::chrono::nanoseconds(64us).count());
}

BOOST_AUTO_TEST_CASE(a_caught_wait_never_lowers_the_budget)
{
    spin_budget budget(64us);
    budget.caught(1us);
    BOOST_TEST(budget.current().count() == std::chrono::nanoseconds(64us).count());
    for (int i = 0; i < 20; ++i)
        budget.missed(1ms);
    budget.caught(3us); // caught within the floor's spin? it grows to twice
    BOOST_TEST(budget.current().count() == std::chrono::nanoseconds(6us).count());
}

// A caught wait of any length raises the budget to the limit: doubling the
// longest one overflowed (UBSan: signed integer overflow) and left the
// budget where it was.
BOOST_AUTO_TEST_CASE(a_caught_wait_of_any_length_raises_the_budget_to_the_limit)
{
    spin_budget budget(64us);
    for (int i = 0; i < 20; ++i)
        budget.missed(1ms);
    budget.caught(spin_budget::duration::max());
    BOOST_TEST(budget.current().count() == std::chrono::nanoseconds(64us).count());
}

BOOST_AUTO_TEST_CASE(learn_is_caught_or_missed_as_the_wait_blocked)
{
    spin_budget learnt(64us), by_hand(64us);
    std::chrono::nanoseconds const waits[] = {1ms, 3us, 1ms, 1ms, 10us, 200us, 2us};
    bool const blocked[] = {true, false, true, true, true, true, false};
    for (std::size_t i = 0; i < std::size(waits); ++i) {
        learnt.learn(waits[i], blocked[i]);
        if (blocked[i])
            by_hand.missed(waits[i]);
        else
            by_hand.caught(waits[i]);
        BOOST_TEST(learnt.current().count() == by_hand.current().count());
    }
}

BOOST_AUTO_TEST_CASE(a_zero_limit_never_spins)
{
    spin_budget budget(0ns);
    BOOST_TEST(budget.current().count() == 0);
    budget.missed(10us);
    budget.caught(10us);
    budget.missed(1ms);
    BOOST_TEST(budget.current().count() == 0);
    int looks = 0;
    BOOST_TEST(!budget.spin([&] {
        ++looks;
        return false;
    }));
    BOOST_TEST(looks == 1); // it looks once, then gives up
}

BOOST_AUTO_TEST_CASE(set_limit_clamps_the_budget)
{
    spin_budget budget(64us);
    budget.set_limit(10us);
    BOOST_TEST(budget.current().count() == std::chrono::nanoseconds(10us).count());
    budget.set_limit(1ms); // a larger limit lets it grow, it does not jump
    BOOST_TEST(budget.current().count() == std::chrono::nanoseconds(10us).count());
    budget.missed(300us);
    BOOST_TEST(budget.current().count() == std::chrono::nanoseconds(600us).count());
}

// Both ways of spinning, offering the CPU between looks or keeping it, see
// the event and give up with the budget.
fj::cpu_sharing const both_sharings[] = {fj::cpu_sharing::offer, fj::cpu_sharing::keep};

BOOST_AUTO_TEST_CASE(spin_returns_when_the_event_comes_and_learns_it)
{
    for (fj::cpu_sharing const sharing : both_sharings) {
        spin_budget budget(1s);
        std::atomic<bool> flag{false};
        // The wait starts before the setter can: taken after the thread's
        // start, a busy machine could hold this thread back for part of
        // the setter's 2 ms, and the wait would then measure less.
        auto const started = spin_budget::clock::now();
        std::thread setter([&] {
            std::this_thread::sleep_for(2ms);
            flag = true;
        });
        BOOST_TEST(budget.spin([&] { return flag.load(); }, [] { return true; }, started, sharing));
        setter.join();
        BOOST_TEST((budget.last_wait() >= 2ms));
        // Caught after about 2 ms: the budget became at least twice that wait
        // (it was the limit already, so it stays there).
        BOOST_TEST(budget.current().count() == std::chrono::nanoseconds(1s).count());
    }
}

BOOST_AUTO_TEST_CASE(spin_gives_up_when_the_budget_has_passed)
{
    for (fj::cpu_sharing const sharing : both_sharings) {
        spin_budget budget(200us);
        auto const start = std::chrono::steady_clock::now();
        BOOST_TEST(!budget.spin([] { return false; }, [] { return true; }, start, sharing));
        BOOST_TEST((std::chrono::steady_clock::now() - start >= 200us));
    }
}

BOOST_AUTO_TEST_CASE(spin_stops_as_soon_as_it_may_not_spin)
{
    spin_budget budget(1s);
    int looks = 0;
    auto const start = std::chrono::steady_clock::now();
    BOOST_TEST(!budget.spin(
        [&] {
            ++looks;
            return false;
        },
        [&] { return looks < 3; }));
    BOOST_TEST(looks == 3);
    BOOST_TEST((std::chrono::steady_clock::now() - start < 500ms));
}

BOOST_AUTO_TEST_CASE(last_wait_is_the_wait_caught_or_missed_last)
{
    spin_budget budget(100us);
    BOOST_TEST(budget.last_wait().count() == 0);
    budget.caught(3us);
    BOOST_TEST(budget.last_wait().count() == std::chrono::nanoseconds(3us).count());
    budget.missed(70us);
    BOOST_TEST(budget.last_wait().count() == std::chrono::nanoseconds(70us).count());
    budget.learn(5us, false);
    BOOST_TEST(budget.last_wait().count() == std::chrono::nanoseconds(5us).count());
}

// --- Offering or keeping the CPU while waiting from outside ----------------------

using fj::cpu_sharing;
using fj::detail::cpu_sharing_learner;

namespace {

// How often `choice` is made in `n` choices.
int times_chosen(cpu_sharing_learner& learner, cpu_sharing choice, int n)
{
    int count = 0;
    for (int i = 0; i < n; ++i)
        count += learner.choose() == choice;
    return count;
}

} // namespace

BOOST_AUTO_TEST_CASE(a_new_learner_offers_then_keeps_then_makes_the_faster_choice)
{
    cpu_sharing_learner learner;
    BOOST_TEST((learner.choose() == cpu_sharing::offer));
    learner.learn(cpu_sharing::offer, 10us);
    BOOST_TEST((learner.choose() == cpu_sharing::keep));
    learner.learn(cpu_sharing::keep, 6us);
    // Keeping was faster, though not 4 times: offering is tried again in
    // about one wait in 16 (625 of 10,000).
    int const offers = times_chosen(learner, cpu_sharing::offer, 10'000);
    BOOST_TEST_MESSAGE("offered in " << offers << " of 10000");
    BOOST_TEST(offers > 300);
    BOOST_TEST(offers < 1'000);
    // Offering becomes the faster: it is made from now on.
    for (int i = 0; i < 50; ++i)
        learner.learn(cpu_sharing::offer, 3us);
    BOOST_TEST(times_chosen(learner, cpu_sharing::offer, 10'000) > 9'000);
}

BOOST_AUTO_TEST_CASE(a_clearly_worse_choice_is_tried_only_rarely)
{
    cpu_sharing_learner learner;
    learner.learn(cpu_sharing::offer, 2us);
    learner.learn(cpu_sharing::keep, 50us); // a kept CPU on a lone CPU: the whole budget
    // About one wait in 256 (39 of 10,000).
    int const keeps = times_chosen(learner, cpu_sharing::keep, 10'000);
    BOOST_TEST_MESSAGE("kept in " << keeps << " of 10000");
    BOOST_TEST(keeps > 5);
    BOOST_TEST(keeps < 150);
}

BOOST_AUTO_TEST_CASE(the_averages_follow_recent_waits_and_a_zero_wait_counts)
{
    cpu_sharing_learner learner;
    learner.learn(cpu_sharing::keep, 8us);
    for (int i = 0; i < 100; ++i)
        learner.learn(cpu_sharing::keep, 16us);
    BOOST_TEST((learner.average(cpu_sharing::keep) > 15us));
    BOOST_TEST((learner.average(cpu_sharing::keep) <= 16us));
    // A wait that was over before its first look is still a wait made.
    learner.learn(cpu_sharing::offer, 0ns);
    BOOST_TEST((learner.average(cpu_sharing::offer) > 0ns));
    BOOST_TEST((learner.choose() == cpu_sharing::offer));
}

// --- The latch of a thread outside the pool --------------------------------------

BOOST_AUTO_TEST_CASE(a_latch_set_before_the_wait_returns_at_once)
{
    fj::detail::lock_latch latch;
    latch.set();
    latch.wait(0ns); // would block forever if the SET were not seen
}

namespace {

// The setter comes at random times around the waiter's spin budget: while it
// spins, as it gives up, after it blocked. Each latch lives in the waiter's
// frame and is gone as soon as wait() returns.
void set_latches_at_random_moments(int rounds)
{
    std::mt19937 rng(11);
    // Limits: never spin, shorter than most delays, longer than all.
    std::chrono::nanoseconds const limits[] = {0ns, 5us, 200us};
    std::uniform_int_distribution<int> delay_ns(0, 30'000);
    std::atomic<fj::detail::lock_latch*> handoff{nullptr};
    std::atomic<bool> stop{false};
    std::vector<int> delays(rounds);
    for (auto& d : delays)
        d = delay_ns(rng);
    std::thread setter([&] {
        for (int i = 0; i < rounds; ++i) {
            fj::detail::lock_latch* latch;
            while ((latch = handoff.exchange(nullptr)) == nullptr)
                if (stop.load())
                    return;
            busy_for(std::chrono::nanoseconds(delays[i]));
            latch->set();
        }
    });
    for (int i = 0; i < rounds; ++i) {
        fj::detail::lock_latch latch;
        handoff.store(&latch);
        latch.wait(limits[i % 3]);
    }
    stop = true;
    setter.join();
}

} // namespace

BOOST_AUTO_TEST_CASE(no_set_is_lost_in_any_phase_of_the_wait)
{
    test::watchdog const guard("latch stress", std::chrono::seconds(120));
    set_latches_at_random_moments(20'000);
}

// The same with a waiter that has learnt to keep its CPU while it spins (its
// waits while offering it were taught to look 1 s long), so that nearly
// every wait spins without a yield.
BOOST_AUTO_TEST_CASE(no_set_is_lost_while_the_waiter_keeps_its_cpu)
{
    test::watchdog const guard("latch stress, CPU kept", std::chrono::seconds(120));
    cpu_sharing_learner& learner = fj::detail::outside_cpu_sharing;
    learner = cpu_sharing_learner();
    learner.learn(cpu_sharing::offer, 1s);
    learner.learn(cpu_sharing::keep, 1us);
    set_latches_at_random_moments(10'000);
    BOOST_TEST_MESSAGE("average wait: keeping " << learner.average(cpu_sharing::keep).count() << " ns, offering "
                                                << learner.average(cpu_sharing::offer).count() << " ns");
    learner = cpu_sharing_learner();
}

BOOST_AUTO_TEST_CASE(a_waiter_blocked_for_long_is_woken)
{
    test::watchdog const guard("blocked waiter", std::chrono::seconds(60));
    for (int i = 0; i < 20; ++i) {
        fj::detail::lock_latch latch;
        std::thread setter([&] {
            std::this_thread::sleep_for(5ms); // far beyond any spin
            latch.set();
        });
        latch.wait(spin_budget::default_limit);
        setter.join();
    }
}

// Holding a thread up in a signal handler, as a slow wake-up on a busy VM
// would: the two tests below hold a waiter up after the event it waits for
// has come, to check what its spin budget learns from.
namespace held_up {

// Seq-cst (the defaults): test code, nothing hot; the handler reads the hold
// the test stored before it installed the handler.
std::atomic<std::int64_t> hold_ns{0};
std::atomic<bool> in_handler{false};

extern "C" void hold_the_thread(int)
{
    in_handler.store(true);
    busy_for(std::chrono::nanoseconds(hold_ns.load()));
}

// hold_the_thread handles SIGUSR1, holding a thread up for `hold`, while
// this lives.
class handler {
public:
    explicit handler(std::chrono::nanoseconds hold)
    {
        hold_ns.store(hold.count());
        struct sigaction action {};
        action.sa_handler = hold_the_thread;
        sigemptyset(&action.sa_mask);
        action.sa_flags = SA_RESTART;
        BOOST_REQUIRE(::sigaction(SIGUSR1, &action, &previous_) == 0);
    }
    handler(handler const&) = delete;
    handler& operator=(handler const&) = delete;
    ~handler() { ::sigaction(SIGUSR1, &previous_, nullptr); }

private:
    struct sigaction previous_ {};
};

// Holds `thread` up in the handler; returns once the hold has begun.
void hold_up(pthread_t thread)
{
    in_handler.store(false);
    ::pthread_kill(thread, SIGUSR1);
    while (!in_handler.load())
        std::this_thread::yield();
}

} // namespace held_up

// A waiter that blocked learns from when the latch was set, not from when it
// ran again. Here its thread is held up after the set for far longer than
// the limit (100 ms): the wait itself lasted a fraction of the limit, so
// the next one should spin for it. Learning from the return instead would
// halve the budget, and a loop of such waits would block forever after.

BOOST_AUTO_TEST_CASE(a_blocked_waiter_learns_from_the_set_not_from_its_wake_up)
{
#if defined(__SANITIZE_THREAD__)
    BOOST_TEST_MESSAGE("skipped under TSan, which defers signal handlers");
#else
    test::watchdog const guard("held-up waiter", std::chrono::seconds(120));
    held_up::handler const holds_for(100ms);

    // Far above the time the waiter takes to block, even on a loaded
    // machine, and far below the 100 ms it is held up for.
    constexpr auto limit = std::chrono::nanoseconds(20ms);
    spin_budget& budget = fj::detail::outside_spin_budget;
    budget.set_limit(limit);

    // The script needs the set within the limit of the wait's start. A host
    // that holds the setter up for longer (a loaded CI machine does, for
    // tens of ms) teaches the budget a miss rightly, so such a try proves
    // nothing and is run again.
    bool scripted = false;
    for (int attempt = 0; attempt < 10 && !scripted; ++attempt) {
        for (int i = 0; i < 64; ++i)
            budget.missed(10 * limit); // down to the floor
        auto const floor = budget.current();
        BOOST_REQUIRE((floor == spin_budget::floor));

        fj::detail::lock_latch latch;
        std::atomic<bool> waiting{false};
        std::chrono::nanoseconds set_after{}; // the setter's; read after the join
        pthread_t const waiter = ::pthread_self();
        pid_t const waiter_tid = ::gettid();
        auto const started = std::chrono::steady_clock::now();
        std::thread setter([&] {
            while (!waiting.load())
                std::this_thread::yield();
            // The signal must come once the waiter is blocked in the latch
            // (it may not spin, and nothing else on its way there sleeps):
            // a signal before would hold it up before it blocked, and it
            // would find the latch set, never having blocked.
            while (!test::is_sleeping(waiter_tid))
                std::this_thread::sleep_for(100us);
            held_up::hold_up(waiter);
            set_after = std::chrono::steady_clock::now() - started;
            latch.set(); // while the waiter's thread is held up for 100 ms
        });
        waiting.store(true);
        latch.wait(limit, [] { return false; });
        auto const returned = std::chrono::steady_clock::now() - started;
        setter.join();

        BOOST_TEST_MESSAGE("set after " << set_after.count() / 1000 << " us, returned after "
                                        << returned.count() / 1000 << " us; budget now "
                                        << budget.current().count() / 1000 << " us");
        BOOST_TEST((returned >= 100ms));
        if (set_after > limit)
            continue; // not the script: the host held the setter up
        scripted = true;
        // The set came within the limit: the budget becomes twice that wait,
        // well above the floor. Learning from the return (over 100 ms,
        // beyond the limit) would have left it at the floor.
        BOOST_TEST((budget.current() > 4 * floor));
    }
    BOOST_TEST(scripted, "the host held the setter up past the limit in all 10 tries");
#endif
}

// The same rule for a worker that slept between two jobs: it learns from
// when it was woken, not from when it ran again. The worker's budget is
// driven down by long gaps; then, in a gap shorter than the limit, it is
// asleep when its thread is held up for 30 ms (longer than the limit) by a
// signal, and the next job's wake-up comes during that hold. The gap it
// learns from is the 10 ms up to the wake-up, so the next 10 ms gap is spun
// through: no sleep. Learning from the return (over 40 ms, beyond the
// limit) would halve the budget, and the worker would sleep in that gap.
BOOST_AUTO_TEST_CASE_TEMPLATE(a_woken_worker_learns_from_the_wake_up_not_from_its_return, Policy,
                              test::blocking_policies)
{
#if defined(__SANITIZE_THREAD__)
    BOOST_TEST_MESSAGE("skipped under TSan, which defers signal handlers");
#else
    test::watchdog const guard("held-up worker", std::chrono::seconds(120));
    held_up::handler const holds_for(30ms);
    using clock = std::chrono::steady_clock;
    // Both gaps of the script must stay under the 20 ms limit, with 2 ms to
    // spare for what the worker's own clock reads differ by. A host that holds the test's thread up for longer (a loaded CI
    // machine does, for tens of ms) makes a gap the worker rightly treats
    // as a miss, so such a try proves nothing and is run again.
    constexpr auto within_script = std::chrono::nanoseconds(18ms);

    bool scripted = false;
    for (int attempt = 0; attempt < 10 && !scripted; ++attempt) {
        fj::pool_options options = test::threads(1);
        options.spin_limit = 20ms;
        test::pool<Policy> pool(options);
        pthread_t worker{};
        pid_t worker_tid = 0;
        pool.install([&] {
            worker = ::pthread_self();
            worker_tid = ::gettid();
        });

        // Five gaps far beyond the limit: the budget halves to about 1 ms.
        clock::time_point idle_from;
        for (int i = 0; i < 5; ++i) {
            std::this_thread::sleep_for(100ms);
            pool.install([&] { idle_from = clock::now(); });
        }
        // A 10 ms gap: the worker sleeps in it (its budget is shorter). It
        // is held up while asleep; the job's wake-up comes during the hold.
        while (clock::now() - idle_from < 10ms || !test::is_sleeping(worker_tid))
            std::this_thread::sleep_for(100us);
        held_up::hold_up(worker);
        auto const first_gap = clock::now() - idle_from;
        pool.install([&] { idle_from = clock::now(); }); // wakes the worker at once; it runs 30 ms later

        // Another 10 ms gap: a worker that learnt from its wake-up spins
        // through it.
        auto const sleeps_before = pool.stats().sleeps;
        busy_for(10ms);
        auto const second_gap = clock::now() - idle_from;
        pool.install([] {});
        auto const sleeps_in_gap = pool.stats().sleeps - sleeps_before;

        BOOST_TEST_MESSAGE("gaps " << std::chrono::nanoseconds(first_gap).count() / 1000 << " and "
                                   << std::chrono::nanoseconds(second_gap).count() / 1000 << " us; "
                                   << sleeps_in_gap << " sleeps in the second");
        if (first_gap > within_script || second_gap > within_script)
            continue; // not the script: the host held the test's thread up
        scripted = true;
        BOOST_TEST(sleeps_in_gap == 0u);
    }
    BOOST_TEST(scripted, "the host stretched a gap past the script in all 10 tries");
#endif
}

// The gaps inside one parallel job do not raise the spin after it. Each
// frame's job keeps one worker busy for 5 ms while the other waits for the
// next split, which it catches: a wait a spin could catch, which would raise
// the budget to 10 ms if it taught. Only the quiet part of a period, once
// every worker is idle, teaches, and those parts end in the 40-ms gaps
// between frames (beyond the 20-ms limit), so after the job both workers go
// to sleep within about a microsecond of spinning. The gaps' CPU says it: a
// thief that learnt only from periods that began with everybody idle never
// learnt at all and spun its first budget, the whole limit, after every job
// (9.9 ms of CPU a gap).
BOOST_AUTO_TEST_CASE_TEMPLATE(the_gaps_inside_a_job_do_not_raise_the_spin_after_it, Policy, test::blocking_policies)
{
    test::watchdog const guard("frame loop", std::chrono::seconds(60));
    fj::pool_options options = test::threads(2);
    options.spin_limit = 20ms;
    test::pool<Policy> pool(options);
    auto const frame = [] {
        fj::join(
            [] {
                busy_for(5ms);
                fj::join([] { busy_for(1ms); }, [] {});
            },
            [] {});
    };
    for (int i = 0; i < 10; ++i) { // the budgets settle
        pool.install(frame);
        std::this_thread::sleep_for(40ms);
    }
    constexpr int frames = 10;
    std::chrono::nanoseconds in_gaps{0};
    for (int i = 0; i < frames; ++i) {
        pool.install(frame);
        auto const start = fj::detail::process_cpu_time();
        std::this_thread::sleep_for(40ms);
        in_gaps += fj::detail::process_cpu_time() - start;
    }
    auto const per_gap = std::chrono::duration<double, std::milli>(in_gaps).count() / frames;
    BOOST_TEST_MESSAGE("CPU in a 40-ms gap after a job: " << per_gap << " ms");
    BOOST_TEST(per_gap < 3.0);
}

// --- Pools waited for from outside ------------------------------------------------

// Four outside threads install jobs whose lengths straddle the spin budget,
// under three limits: every install returns with its own result.
BOOST_AUTO_TEST_CASE_TEMPLATE(installs_of_every_length_return_under_every_spin_limit, Policy, test::all_policies)
{
    test::watchdog const guard("installs", std::chrono::seconds(300));
    for (std::chrono::nanoseconds const limit : {std::chrono::nanoseconds(0ns), std::chrono::nanoseconds(20us),
                                                 std::chrono::nanoseconds(2ms)}) {
        fj::pool_options options = test::threads(2);
        options.spin_limit = limit;
        test::pool<Policy> pool(options);
        std::vector<std::thread> callers;
        std::atomic<int> wrong{0};
        for (int t = 0; t < 4; ++t)
            callers.emplace_back([&, t] {
                std::mt19937 rng(static_cast<unsigned>(t));
                std::uniform_int_distribution<int> work_ns(0, 100'000);
                for (int i = 0; i < 1'500; ++i) {
                    int const ns = i % 4 == 0 ? 0 : work_ns(rng);
                    int const got = pool.install([&] {
                        busy_for(std::chrono::nanoseconds(ns));
                        return i * 4 + t;
                    });
                    wrong += got != i * 4 + t;
                }
            });
        for (auto& c : callers)
            c.join();
        BOOST_TEST(wrong.load() == 0);
    }
}

// On one CPU a caller that keeps its CPU holds up the worker it waits for
// until its spin ends (with the budget, or when no worker is idle). Every
// install returns either way, and the caller comes to make whichever choice
// its own waits showed to be faster.
//
// Which one that is depends on who else runs on CPU 0: on a quiet CPU the
// worker takes an offered CPU and offering wins (on the 2-vCPU EPYC, about
// 5 us a wait offered against 50 us kept); beside another process (a build
// next to the suite on a shared CI machine) each offer can cost that
// process's time slice, and keeping is rightly the faster choice (190 us
// offered against 41 us kept, in a run beside a compiler). So the test
// checks the learner against the averages it measured, not against a
// machine it cannot choose; which choice won is in the log.
BOOST_AUTO_TEST_CASE_TEMPLATE(on_one_cpu_installs_return_and_the_caller_makes_the_faster_choice, Policy,
                              test::blocking_policies)
{
    test::watchdog const guard("installs on one CPU", std::chrono::seconds(120));
    int pinned = -1, wrong = 0, best_chosen = 0;
    std::chrono::nanoseconds offering{}, keeping{};
    std::thread caller([&] {
        cpu_set_t one;
        CPU_ZERO(&one);
        CPU_SET(0, &one);
        // The pool's threads inherit the caller's affinity.
        pinned = ::pthread_setaffinity_np(::pthread_self(), sizeof one, &one);
        if (pinned != 0)
            return;
        test::pool<Policy> pool(test::threads(1));
        for (int i = 0; i < 3'000; ++i)
            wrong += pool.install([i] { return i; }) != i;
        cpu_sharing_learner& learner = fj::detail::outside_cpu_sharing;
        offering = learner.average(cpu_sharing::offer);
        keeping = learner.average(cpu_sharing::keep);
        // As choose() ranks them: keep only if strictly faster.
        cpu_sharing const best = keeping < offering ? cpu_sharing::keep : cpu_sharing::offer;
        best_chosen = times_chosen(learner, best, 1'000);
    });
    caller.join();
    BOOST_TEST_REQUIRE(pinned == 0);
    BOOST_TEST(wrong == 0);
    BOOST_TEST_MESSAGE("average wait: offering " << offering.count() << " ns, keeping " << keeping.count()
                                                 << " ns; the faster choice made " << best_chosen << " of 1000 times");
    // Both were tried: a learner tries each choice before it compares them.
    BOOST_TEST(offering.count() > 0);
    BOOST_TEST(keeping.count() > 0);
    // Nearly always the faster one; the rest explores (1 in explore_odds).
    BOOST_TEST(best_chosen > 900);
}

// A scope entered from outside (its jobs go to the global pool) waits on the
// same latch.
BOOST_AUTO_TEST_CASE(in_place_scopes_from_outside_see_every_job)
{
    test::watchdog const guard("scopes", std::chrono::seconds(120));
    for (int i = 0; i < 2'000; ++i) {
        std::atomic<int> ran{0};
        fj::in_place_scope([&](fj::lifo_scope& s) {
            for (int j = 0; j < 3; ++j)
                s.spawn([&] {
                    busy_for(std::chrono::nanoseconds((i % 7) * 5'000));
                    ++ran;
                });
        });
        BOOST_TEST_REQUIRE(ran.load() == 3);
    }
}

// Every wait from outside for a pool's work (install, the end of a scope or
// a broadcast entered from outside, a future's get) spins within that
// pool's spin_limit. All but the future's also stop spinning as soon as no
// worker leaves a CPU free (a future may outlive its pool, and its wait
// reads nothing of the pool).
BOOST_AUTO_TEST_CASE_TEMPLATE(every_wait_from_outside_follows_the_pools_spin_limit, Policy, test::all_policies)
{
    spin_budget& budget = fj::detail::outside_spin_budget;
    for (auto const limit : {0us, 7us}) {
        fj::pool_options options = test::threads(1);
        options.spin_limit = limit;
        test::pool<Policy> pool(options);
        auto const job = [] { busy_for(20us); };
        budget.set_limit(spin_budget::default_limit);
        pool.install(job);
        BOOST_TEST(budget.limit() == limit);
        budget.set_limit(spin_budget::default_limit);
        pool.in_place_scope([&](fj::lifo_scope& s) { s.spawn(job); });
        BOOST_TEST(budget.limit() == limit);
        budget.set_limit(spin_budget::default_limit);
        pool.in_place_scope_fifo([&](fj::fifo_scope& s) { s.spawn(job); });
        BOOST_TEST(budget.limit() == limit);
        budget.set_limit(spin_budget::default_limit);
        pool.broadcast([&](fj::broadcast_context const&) { job(); });
        BOOST_TEST(budget.limit() == limit);
        // A future's get(): the task runs until a second thread lets it
        // end, so get() waits, unless this thread was held up for longer
        // than that; then it tries again (a get() that did not wait leaves
        // the budget's limit as it was, the default, and fails the check).
        for (int attempt = 0; attempt < 10; ++attempt) {
            budget.set_limit(spin_budget::default_limit);
            std::atomic<bool> released{false};
            auto task = pool.spawn_future([&] {
                while (!released.load())
                    busy_for(1us);
            });
            std::thread releaser([&] {
                std::this_thread::sleep_for(2ms);
                released = true;
            });
            task.get();
            releaser.join();
            if (budget.limit() == limit)
                break;
        }
        BOOST_TEST(budget.limit() == limit);
    }
}

// duration::max() asks to spin for ever: it is taken as spin_budget's
// max_limit (an hour), and no deadline overflows (UBSan checks that in the
// sanitized build of this test).
BOOST_AUTO_TEST_CASE_TEMPLATE(a_spin_limit_of_max_spins_within_an_hour, Policy, test::all_policies)
{
    BOOST_TEST(spin_budget(std::chrono::nanoseconds::max()).limit() == spin_budget::max_limit);
    spin_budget budget;
    budget.set_limit(std::chrono::nanoseconds::max());
    BOOST_TEST(budget.limit() == spin_budget::max_limit);

    fj::pool_options options = test::threads(2);
    options.spin_limit = std::chrono::nanoseconds::max();
    test::pool<Policy> pool(options);
    BOOST_TEST(pool.registry().options().spin_limit == spin_budget::max_limit);
    for (int i = 0; i < 20; ++i) {
        auto const [a, b] = pool.install([] { return fj::join([] { busy_for(200us); return 1; }, [] { return 2; }); });
        BOOST_TEST_REQUIRE(a + b == 3);
    }
    BOOST_TEST(pool.install([] { return 4; }) == 4);
    BOOST_TEST(fj::detail::outside_spin_budget.limit() == spin_budget::max_limit);
}

BOOST_AUTO_TEST_CASE(a_negative_spin_limit_is_rejected)
{
    fj::pool_options options = test::threads(1);
    options.spin_limit = -1us;
    BOOST_CHECK_THROW(fj::thread_pool pool(options), std::invalid_argument);
}
