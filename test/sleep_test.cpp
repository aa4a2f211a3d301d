// Copyright 2026 The Boost.ForkJoin developers.
// Distributed under the Boost Software License, Version 1.0.
// (See accompanying file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)

// The sleep protocols under the situations their seeds warn about.

#define BOOST_TEST_MODULE sleep
#include <boost/test/unit_test.hpp>

#include "child_process.hpp"
#include "policies.hpp"
#include "thread_state.hpp"
#include "wait_until.hpp"
#include "watchdog.hpp"

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <mutex>
#include <random>
#include <stdexcept>
#include <thread>
#include <vector>

namespace fj = boost::forkjoin;
using namespace std::chrono_literals;
using clock_type = std::chrono::steady_clock;

namespace {

std::int64_t now_ns()
{
    return std::chrono::duration_cast<std::chrono::nanoseconds>(clock_type::now().time_since_epoch()).count();
}

double process_cpu_ms()
{
    timespec ts{};
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return static_cast<double>(ts.tv_sec) * 1e3 + static_cast<double>(ts.tv_nsec) / 1e6;
}

std::string describe(fj::pool_stats const& s)
{
    return "sleeps=" + std::to_string(s.sleeps) + " wakeups=" + std::to_string(s.wakeups)
           + " futile=" + std::to_string(s.futile_wakeups) + " injected=" + std::to_string(s.injected)
           + " steals=" + std::to_string(s.steals);
}


} // namespace

// An outside thread injects jobs one at a time with random pauses, so that
// injections land while workers spin, are getting sleepy, falling asleep or
// waking. No job may wait more than a second to start.
template <class Policy>
void inject_with_random_pauses(std::size_t jobs, fj::pool_options options)
{
    test::pool<Policy> pool(std::move(options));
    std::vector<std::atomic<std::int64_t>> submitted(jobs);
    std::vector<std::atomic<bool>> started(jobs);
    std::atomic<std::size_t> finished{0};
    std::atomic<std::int64_t> worst_wait_ns{0};
    std::atomic<bool> stuck{false};
    std::atomic<bool> submitting{true};

    // The watchdog scans for the oldest job not started yet.
    std::thread watchdog([&] {
        std::size_t cursor = 0;
        while (finished.load() < jobs) {
            std::this_thread::sleep_for(20ms);
            while (cursor < jobs && started[cursor].load())
                ++cursor;
            if (cursor < jobs) {
                std::int64_t const t = submitted[cursor].load();
                if (t != 0 && now_ns() - t > 1'000'000'000) {
                    std::fprintf(stderr, "job %zu waited over 1 s; %s\n", cursor, describe(pool.stats()).c_str());
                    stuck = true;
                    // Rescue the stuck job so the test ends as a failure,
                    // not a hang: another injection wakes someone.
                    pool.spawn([] {});
                    std::this_thread::sleep_for(100ms);
                }
            }
            if (!submitting.load() && stuck.load() && finished.load() < jobs) {
                static int rescues = 0;
                if (++rescues > 500) {
                    std::fprintf(stderr, "FATAL: pool stuck\n");
                    std::_Exit(3);
                }
            }
        }
    });

    std::mt19937 rng(42);
    std::uniform_int_distribution<int> pause_us(0, 200);
    for (std::size_t i = 0; i < jobs; ++i) {
        submitted[i].store(now_ns());
        pool.spawn([&, i] {
            std::int64_t const waited = now_ns() - submitted[i].load();
            std::int64_t worst = worst_wait_ns.load();
            while (waited > worst && !worst_wait_ns.compare_exchange_weak(worst, waited)) {}
            started[i].store(true);
            ++finished;
        });
        if (int const us = pause_us(rng); us > 0)
            std::this_thread::sleep_for(std::chrono::microseconds(us));
    }
    submitting = false;
    while (finished.load() < jobs)
        std::this_thread::sleep_for(1ms);
    watchdog.join();
    BOOST_TEST(!stuck.load());
    BOOST_TEST_MESSAGE("worst wait " << worst_wait_ns.load() / 1000 << " us; " << describe(pool.stats()));
    BOOST_TEST(worst_wait_ns.load() < 1'000'000'000);
}

// Jobs per policy: FORKJOIN_STRESS_JOBS, else 40,000 (about 7 s a policy
// on 2 cores, inside the suite's budget), else under the sanitizers 10,000:
// they run this again at a tenth of the speed, looking for races and bad
// accesses, which a shorter run exercises the same way. A long hunt for a
// rare lost wake-up sets the variable (test/run.sh passes it on).
std::size_t stress_jobs()
{
    if (char const* text = std::getenv("FORKJOIN_STRESS_JOBS")) {
        char* end = nullptr;
        unsigned long long const n = std::strtoull(text, &end, 10);
        if (*text != '\0' && *end == '\0' && n > 0)
            return static_cast<std::size_t>(n);
        BOOST_FAIL("FORKJOIN_STRESS_JOBS must be a positive number, not '" << text << "'");
    }
    return BOOST_FORKJOIN_TEST_SANITIZED ? 10'000 : 40'000;
}

BOOST_AUTO_TEST_CASE_TEMPLATE(no_lost_wakeup_for_injected_jobs, Policy, test::all_policies)
{
    inject_with_random_pauses<Policy>(stress_jobs(), test::threads(2));
}

// The same with the workers' spin budgets at both ends: never spinning
// (every idle period ends asleep, the most sleeps and wake-ups there can be)
// and spinning up to a millisecond (the pauses fall inside the spin).
BOOST_AUTO_TEST_CASE_TEMPLATE(no_lost_wakeup_at_any_spin_limit, Policy, test::all_policies)
{
    for (std::chrono::nanoseconds const limit : {std::chrono::nanoseconds(0), std::chrono::nanoseconds(1ms)}) {
        fj::pool_options options = test::threads(2);
        options.spin_limit = limit;
        inject_with_random_pauses<Policy>(8'000, options);
    }
}

// The seed's scenario: A joins (forks T1, runs T2); B steals T1, forks T3
// and runs T4; A finishes T2, waits for T1 and steals T3; B finishes T4 and
// waits for T3, possibly falling asleep; A finishes T3 and sets its latch:
// that wake-up must reach B, or A waits for T1 forever.
template <class Policy>
void run_latch_scenario(int reps, fj::pool_options options)
{
    test::pool<Policy> pool(std::move(options));
    test::watchdog const watchdog("latch scenario", 60s, [&pool] { return describe(pool.stats()); });
    std::mt19937 rng(7);
    std::uniform_int_distribution<int> t3_us(0, 150);
    int scripted = 0;
    for (int rep = 0; rep < reps; ++rep) {
        std::atomic<bool> t1_started{false}, t3_started{false};
        int const t3_duration = t3_us(rng);
        auto spin_until = [](std::atomic<bool>& flag) {
            auto const deadline = clock_type::now() + 2s;
            while (!flag.load() && clock_type::now() < deadline)
                std::this_thread::yield();
            return flag.load();
        };
        bool ok = pool.install([&] {
            auto [t2_ok, t1_ok] = fj::join(
                [&] { return spin_until(t1_started); }, // T2: until B has stolen T1
                [&] {                                   // T1, on B
                    t1_started = true;
                    auto [t4_ok, t3_ok] = fj::join(
                        [&] { return spin_until(t3_started); }, // T4: until A has stolen T3
                        [&] {                                   // T3, on A
                            t3_started = true;
                            auto const end = clock_type::now() + std::chrono::microseconds(t3_duration);
                            while (clock_type::now() < end) {}
                            return true;
                        });
                    return t4_ok && t3_ok;
                });
            return t2_ok && t1_ok;
        });
        // A spin gives up after 2 s if the threads did not interleave as
        // scripted (a starved core): slow, not wrong, so it is only counted.
        // A lost wake-up is a hang, which the watchdog turns into a failure.
        scripted += ok;
    }
    fj::pool_stats const stats = pool.stats();
    BOOST_TEST_MESSAGE(describe(stats) << "; scripted interleavings " << scripted << " of " << reps);
    BOOST_TEST(scripted >= reps * 9 / 10);
    BOOST_TEST(stats.steals >= 2u * static_cast<unsigned>(scripted)); // T1 and T3 were stolen each time
}

BOOST_AUTO_TEST_CASE_TEMPLATE(latch_set_while_its_owner_falls_asleep, Policy, test::all_policies)
{
    run_latch_scenario<Policy>(10'000, test::threads(2));
}

// B never spins: it falls asleep on its latch in nearly every repetition.
BOOST_AUTO_TEST_CASE_TEMPLATE(latch_set_while_its_owner_falls_asleep_at_once, Policy, test::all_policies)
{
    fj::pool_options options = test::threads(2);
    options.spin_limit = std::chrono::nanoseconds(0);
    run_latch_scenario<Policy>(2'000, options);
}

// One job injected into a pool whose workers are all asleep: `jec` wakes one
// worker, `legacy` wakes them all.
template <class Policy>
double wakeups_per_injected_job(std::size_t num_threads, fj::pool_stats& delta)
{
    test::pool<Policy> pool(test::threads(num_threads));
    std::vector<pid_t> const workers = pool.broadcast([](fj::broadcast_context const&) { return ::gettid(); });
    // Each try starts with every worker asleep: a worker still awake, idle
    // or spinning, takes the job itself, and nobody needs waking.
    auto const all_asleep = [&] {
        bool const asleep = test::wait_until_all_sleep(workers);
        BOOST_TEST_REQUIRE(asleep, "the idle workers did not all fall asleep within 10 s");
    };
    constexpr int tries = 20;
    all_asleep();
    fj::pool_stats const before = pool.stats();
    for (int i = 0; i < tries; ++i) {
        std::atomic<bool> ran{false};
        pool.spawn([&] { ran = true; });
        while (!ran.load())
            std::this_thread::sleep_for(100us);
        all_asleep(); // and every woken worker has counted its wake-up
    }
    fj::pool_stats const after = pool.stats();
    delta.sleeps = after.sleeps - before.sleeps;
    delta.wakeups = after.wakeups - before.wakeups;
    delta.futile_wakeups = after.futile_wakeups - before.futile_wakeups;
    delta.injected = after.injected - before.injected;
    delta.steals = after.steals - before.steals;
    return static_cast<double>(delta.wakeups) / tries;
}

BOOST_AUTO_TEST_CASE(jec_wakes_about_one_worker_per_injected_job)
{
    fj::pool_stats delta;
    double const per_job = wakeups_per_injected_job<fj::sleep::jec>(4, delta);
    BOOST_TEST_MESSAGE("jec: " << per_job << " wake-ups per job; " << describe(delta));
    BOOST_TEST(delta.injected == 20u);
    BOOST_TEST(per_job >= 0.95);
    BOOST_TEST(per_job <= 1.2);
}

BOOST_AUTO_TEST_CASE(legacy_wakes_every_worker_per_injected_job)
{
    fj::pool_stats delta;
    double const per_job = wakeups_per_injected_job<fj::sleep::legacy>(4, delta);
    BOOST_TEST_MESSAGE("legacy: " << per_job << " wake-ups per job; " << describe(delta));
    BOOST_TEST(per_job >= 3.8); // all four, but for a worker caught on its way to sleep by the check
    BOOST_TEST(delta.futile_wakeups >= 20u * 2u);
}

// The spin budget learns from the quiet part of an idle period only (since
// every worker went idle): a sleep taken before, while another worker was
// busy, is not part of it. Driven through the policy's own interface, on
// two workers: worker 0 sleeps while worker 1 runs and is woken; then
// worker 1 goes idle too, and worker 0 finds work 2 us into the quiet part,
// while spinning. That teaches a budget of at least the 50 us it had; the
// wake-up time of the earlier sleep used to make the quiet part negative
// and drop the budget to its 1 us floor.
BOOST_AUTO_TEST_CASE_TEMPLATE(a_sleep_before_the_pool_went_quiet_teaches_no_budget, Policy,
                              test::blocking_policies)
{
    using namespace std::chrono_literals;
    using clock = fj::spin_budget::clock;
    Policy policy(fj::sleep_context{2, {}, 50us});
    fj::core_latch unset;
    auto const nothing_injected = [] { return false; };

    auto worker0 = policy.start_looking(0); // worker 1 is busy
    std::thread waker([&] {
        std::this_thread::sleep_for(20ms); // worker 0 is asleep by then
        if constexpr (std::is_same_v<Policy, fj::sleep::jec>)
            policy.notify_worker(0);
        else
            policy.new_internal_jobs(1, false);
    });
    fj::sleep_result slept;
    while ((slept = policy.no_work_found(worker0, unset, nothing_injected)) == fj::sleep_result::none) {
    }
    waker.join();
    BOOST_TEST((slept == fj::sleep_result::woken));

    auto worker1 = policy.start_looking(1); // the pool is quiet from here
    BOOST_TEST((policy.no_work_found(worker0, unset, nothing_injected) == fj::sleep_result::none));
    std::this_thread::sleep_for(2us);
    policy.work_found(worker0); // caught by spinning
    policy.work_found(worker1);

    // The next quiet period spins for the budget: the sleepy point (jec) or
    // the asleep point (legacy) is that far from its start.
    auto later1 = policy.start_looking(1);
    auto later0 = policy.start_looking(0);
    clock::time_point spin_ends;
    if constexpr (std::is_same_v<Policy, fj::sleep::jec>)
        spin_ends = later0.sleepy_at;
    else
        spin_ends = later0.asleep_at;
    BOOST_TEST((spin_ends - later0.idle_since >= 25us),
               "spins " << (spin_ends - later0.idle_since).count() << " ns in the next quiet period");
    policy.work_found(later0);
    policy.work_found(later1);
}

// Idle pools of the blocking policies cost (almost) no CPU.
BOOST_AUTO_TEST_CASE_TEMPLATE(idle_pool_uses_no_cpu, Policy, test::blocking_policies)
{
    test::pool<Policy> pool(test::threads(2));
    long const r = pool.install([] {
        auto [a, b] = fj::join([] { return 1L; }, [] { return 2L; });
        return a + b;
    });
    BOOST_TEST(r == 3);
    std::this_thread::sleep_for(100ms); // grace period
    double const start = process_cpu_ms();
    std::this_thread::sleep_for(500ms);
    double const used = process_cpu_ms() - start;
    BOOST_TEST_MESSAGE("CPU over 500 ms idle: " << used << " ms");
    BOOST_TEST(used < 5.0);
}

// Deadlock detection: a worker blocked in user code while the other one has
// nothing to do and falls asleep.
BOOST_AUTO_TEST_CASE_TEMPLATE(deadlock_handler_fires_in_a_scripted_deadlock, Policy, test::blocking_policies)
{
    std::mutex m;
    std::condition_variable cv;
    bool released = false;
    std::atomic<int> handler_calls{0};
    fj::pool_options options = test::threads(2);
    options.deadlock_handler = [&] {
        ++handler_calls;
        // Called with the pool's lock held: only hand the news over.
        std::lock_guard lock(m);
        released = true;
        cv.notify_all();
    };
    test::pool<Policy> pool(options);
    bool const released_by_handler = pool.install([&] {
        fj::mark_blocked();
        std::unique_lock lock(m);
        bool const ok = cv.wait_for(lock, 10s, [&] { return released; });
        lock.unlock();
        fj::mark_unblocked();
        return ok;
    });
    BOOST_TEST(released_by_handler);
    BOOST_TEST(handler_calls.load() >= 1);
}

BOOST_AUTO_TEST_CASE_TEMPLATE(deadlock_handler_silent_in_normal_blocking, Policy, test::blocking_policies)
{
    std::atomic<int> handler_calls{0};
    fj::pool_options options = test::threads(2);
    options.deadlock_handler = [&] { ++handler_calls; };
    test::pool<Policy> pool(options);
    test::watchdog const guard("deadlock_handler_silent_in_normal_blocking", std::chrono::seconds(120),
                               [&] { return describe(pool.stats()); });
    for (int rep = 0; rep < 20; ++rep) {
        std::mutex m;
        std::condition_variable cv;
        bool marked = false;
        bool done = false;
        pool.install([&] {
            // The job we will wait for exists before we say we block; the
            // other worker runs it, and unblocks us only once we are marked
            // (a mark_unblocked before our mark_blocked is an error).
            fj::spawn([&] {
                std::unique_lock lock(m);
                cv.wait(lock, [&] { return marked; });
                pool.mark_unblocked();
                done = true;
                cv.notify_all();
            });
            fj::mark_blocked();
            std::unique_lock lock(m);
            marked = true;
            cv.notify_all();
            cv.wait(lock, [&] { return done; });
        });
        std::this_thread::sleep_for(2ms); // let the workers fall asleep between rounds
    }
    BOOST_TEST(handler_calls.load() == 0);
}

// A policy whose pushes never notify: every push as if it lost the
// store-buffering race with a worker getting sleepy (doc/sleep_legacy.adoc,
// "Memory orderings"), which a real push loses only now and then. The
// protocol tolerates it because the pusher runs its own job later; a pusher
// that marks itself blocked will not, so mark_blocked must hand its jobs
// over. (That is what legacy and jec are tested for here: spin never
// sleeps, and the example policy's timed waits search again by themselves.)
template <class Policy>
struct silent_pushes : Policy {
    using Policy::Policy;
    fj::push_filter filter_pushes() const noexcept { return {&never, 0, 0}; }
    static inline std::atomic<std::size_t> const never{0};
};

BOOST_AUTO_TEST_CASE_TEMPLATE(blocked_worker_hands_its_jobs_over, Policy, test::all_policies)
{
    static_assert(fj::sleep_policy<silent_pushes<Policy>>);
    std::atomic<int> handler_calls{0};
    fj::pool_options options = test::threads(2);
    options.spin_limit = std::chrono::nanoseconds(0); // an idle worker falls asleep at once
    options.deadlock_handler = [&] { ++handler_calls; };
    test::pool<silent_pushes<Policy>> pool(options);
    for (int rep = 0; rep < 5; ++rep) {
        bool const taken = pool.install([&] {
            std::this_thread::sleep_for(20ms); // the other worker is asleep by now
            // Seq-cst (the defaults): test code, and each flag is a handshake.
            std::atomic<bool> marked{false}; // we are counted blocked
            std::atomic<bool> unblocked{false}; // whoever sets it first unblocks us
            std::atomic<bool> ran{false};
            fj::spawn([&] { // no notification
                // A worker that was still searching may take the job before
                // we mark ourselves blocked (a slow host deschedules it for
                // longer than our sleep): unblocking us then would be an
                // error, thrown in a job, so the job waits for the mark.
                while (!marked.load())
                    std::this_thread::yield();
                if (!unblocked.exchange(true))
                    pool.mark_unblocked();
                ran = true;
            });
            fj::mark_blocked();
            marked = true;
            bool const taken_by_the_other = test::wait_until([&] { return ran.load(); });
            if (!unblocked.exchange(true))
                fj::mark_unblocked();
            // Not handed over: run it ourselves, so that the test fails
            // rather than hangs or leaves a job that refers to our frame.
            while (!ran.load())
                fj::yield_local();
            return taken_by_the_other;
        });
        BOOST_TEST(taken);
    }
    BOOST_TEST(handler_calls.load() == 0); // the sleeper was counted awake before we counted blocked
}

// A user policy may take the has-injected-jobs predicate by `F&`, by
// `F const&` or by value: each models the concept, so each must build a
// pool (the registry once passed a temporary, which `F&` cannot bind).
template <class Policy>
struct predicate_by_reference : Policy {
    using Policy::Policy;
    template <class HasInjectedJobs>
    fj::sleep_result no_work_found(typename Policy::idle_state& idle, fj::core_latch& latch,
                                   HasInjectedJobs& has_injected_jobs)
    {
        return Policy::no_work_found(idle, latch, has_injected_jobs);
    }
};

template <class Policy>
struct predicate_by_value : Policy {
    using Policy::Policy;
    template <class HasInjectedJobs>
    fj::sleep_result no_work_found(typename Policy::idle_state& idle, fj::core_latch& latch,
                                   HasInjectedJobs has_injected_jobs)
    {
        return Policy::no_work_found(idle, latch, has_injected_jobs);
    }
};

template <class Policy>
void sums_on_a_pool_of()
{
    static_assert(fj::sleep_policy<Policy>);
    test::pool<Policy> pool(test::threads(2));
    for (int i = 0; i < 50; ++i) {
        auto const [a, b] = pool.install([] { return fj::join([] { return 1; }, [] { return 2; }); });
        BOOST_TEST_REQUIRE(a + b == 3);
        std::this_thread::sleep_for(std::chrono::microseconds(i * 20)); // workers idle, some fall asleep
    }
}

BOOST_AUTO_TEST_CASE_TEMPLATE(a_policy_may_take_the_predicate_by_reference_or_value, Policy, test::all_policies)
{
    sums_on_a_pool_of<predicate_by_reference<Policy>>();
    sums_on_a_pool_of<predicate_by_value<Policy>>();
}

// A user policy whose hook throws after the pool has changed its state (the
// job pushed, here) ends the program with that exception, instead of
// unwinding into the spawn: spawn's strong guarantee would free a job that
// is already queued (a use-after-free under ASan, found by a review), and
// spawn_fifo would take its job back from under its placeholder.
template <class Policy>
struct throwing_after_push : Policy {
    using Policy::Policy;
    // Every push notifies.
    fj::push_filter filter_pushes() const noexcept { return {&always, 0, 1}; }
    void new_internal_jobs(std::size_t count, bool queue_was_empty)
    {
        if (armed.exchange(false))
            throw std::runtime_error("the policy failed");
        Policy::new_internal_jobs(count, queue_was_empty);
    }
    static inline std::atomic<std::size_t> const always{1};
    static inline std::atomic<bool> armed{false};
};

BOOST_AUTO_TEST_CASE_TEMPLATE(a_policy_hook_that_throws_ends_the_program, Policy, test::all_policies)
{
    using throwing = throwing_after_push<Policy>;
    static_assert(fj::sleep_policy<throwing>);
    for (bool const fifo : {false, true}) {
        test::child_result const r = test::run_in_child([fifo] {
            test::pool<throwing> pool(test::threads(1));
            pool.install([fifo] {
                throwing::armed = true;
                try {
                    if (fifo)
                        fj::spawn_fifo([] {});
                    else
                        fj::spawn([] {});
                } catch (std::runtime_error const&) {
                    std::printf("the spawn threw, its job still queued\n");
                }
            });
            std::fflush(stdout);
            std::_Exit(0);
        });
        BOOST_TEST(r.aborted(), r);
        BOOST_TEST(r.says("the policy failed"), r);
        BOOST_TEST(!r.says("the spawn threw"), r);
    }
}

BOOST_AUTO_TEST_CASE(mark_blocked_outside_a_pool_is_an_error)
{
    BOOST_CHECK_THROW(fj::mark_blocked(), std::logic_error);
    fj::thread_pool pool(test::threads(1));
    BOOST_CHECK_THROW(pool.mark_blocked(), std::logic_error);
}
