// Copyright 2026 The Boost.ForkJoin developers.
// Distributed under the Boost Software License, Version 1.0.
// (See accompanying file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
#ifndef BOOST_FORKJOIN_PERFORMANCE_FUTURES_WORKLOADS_HPP
#define BOOST_FORKJOIN_PERFORMANCE_FUTURES_WORKLOADS_HPP

// The two futures rows of the benchmark (reserved in workloads.hpp as
// `park-unpark` and `spawn-future`). Boost.ForkJoin only: the other
// implementations have no fibers to compare with. Each function builds its
// own pool and returns nanoseconds; nothing here prints.
//
//  * park_unpark: two fibers on one worker hand a token back and forth
//    through promises (on a pool of several workers, a try whose fibers
//    started on two is dropped and made again). One hand-off is: set_value
//    (publish + take the waiter), unpark (one CAS + a push on the home's
//    resume queue), the setter's own await (register + switch out + the
//    EXECUTING -> PARKED CAS), the worker's pop, and the switch into the
//    other fiber. The promises are made before the clock starts. Also measured: a bare Boost.Context
//    switch pair on the same machine, the floor under all of it.
//  * spawn_future_vs_spawn: N empty tasks, from a worker of the pool, and
//    wait for all of them: a scope's spawn (a heap job) against spawn_future
//    plus get (a task object, a fiber on a cached stack, two switches).
//
// Each function comes in two forms: one that builds its own pool of type
// Pool (park_unpark: one worker), and one that runs on a pool it is given.
// forkjoin_bench uses the second, on the pool its executor already owns, so
// that no second, idle pool (whose sleep::spin workers would never block)
// competes for the cores during the measure.

#include <boost/context/fiber.hpp>
#include <boost/forkjoin.hpp>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <stdexcept>
#include <vector>

#include <fmt/format.h>

namespace forkjoin_bench::futures {

using clock = std::chrono::steady_clock;

inline double ns_since(clock::time_point start, std::size_t count)
{
    return std::chrono::duration<double, std::nano>(clock::now() - start).count() / static_cast<double>(count);
}

struct park_unpark_result {
    double handoff_ns;        // one park + unpark + resume of the other fiber
    double context_switch_ns; // one bare Boost.Context switch (half a resume pair)
    std::uint64_t reruns;     // EXECUTING_UNPARKED taken during the run
    std::uint64_t split_tries; // tries dropped: the fibers started on two workers
};

// One try on `pool`, from outside it: a round trip (two hand-offs) per
// promise of `to_a`, and the hand-off in ns; or nothing, and no promise
// used, when the two fibers started on different workers. A fiber runs on
// the worker that started it (its home) until it ends, so fibers with two
// homes hand the token across cores every time, a different and slower
// measure (about 300 ns on the reference machine). On a pool of two or more
// workers an idle one can steal either fiber as it is spawned, so A starts
// B itself and the two compare homes before the clock starts. (Spawning
// both from the install, B first, left B on the deque while the worker
// spawned A and ran it: under sleep::jec, whose idle worker searches all
// along while another is busy, a thief took B in every one of 100 tries in
// a row.)
template <class Pool>
std::optional<double> park_unpark_on_one_worker(Pool& pool, std::vector<boost::forkjoin::promise<void>>& to_a,
                                                std::vector<boost::forkjoin::promise<void>>& to_b)
{
    namespace fj = boost::forkjoin;
    std::size_t const rounds = to_a.size();
    std::vector<fj::future<void>> a_waits, b_waits;
    a_waits.reserve(rounds);
    b_waits.reserve(rounds);
    for (std::size_t i = 0; i < rounds; ++i) {
        a_waits.push_back(to_a[i].get_future());
        b_waits.push_back(to_b[i].get_future());
    }
    fj::promise<bool> same_home;
    auto go = same_home.get_future();
    fj::promise<std::optional<std::size_t>> b_started;
    auto b_home = b_started.get_future();
    auto b_body = [&] {
        b_started.set_value(fj::current_thread_index());
        if (!fj::await(go))
            return;
        for (std::size_t i = 0; i < rounds; ++i) {
            fj::await(b_waits[i]);
            to_a[i].set_value();
        }
    };
    auto a_body = [&]() -> std::optional<double> {
        // A parks right after spawning B, so its worker runs B next unless
        // a thief takes B within those few nanoseconds; B parks until A has
        // compared homes.
        auto b = pool.spawn_future(b_body);
        bool const together = fj::await(b_home) == fj::current_thread_index();
        same_home.set_value(together);
        if (!together) {
            fj::await(b);
            return std::nullopt;
        }
        auto const start = clock::now();
        for (std::size_t i = 0; i < rounds; ++i) {
            to_b[i].set_value();
            fj::await(a_waits[i]);
        }
        double const ns = ns_since(start, 2 * rounds);
        fj::await(b);
        return ns;
    };
    return pool.install([&] { return pool.spawn_future(a_body).get(); });
}

// `rounds` round trips on `pool`, both fibers on one worker: tries again
// (at most max_tries times in all) while they start on two. Called from
// outside the pool.
template <class Pool>
park_unpark_result park_unpark(Pool& pool, std::size_t rounds)
{
    namespace ctx = boost::context;
    namespace fj = boost::forkjoin;
    park_unpark_result result{};

    // The floor: resume a fiber that immediately resumes us back.
    {
        std::size_t const n = rounds * 4;
        ctx::fiber f([n](ctx::fiber&& main) {
            for (std::size_t i = 0; i < n; ++i)
                main = std::move(main).resume();
            return std::move(main);
        });
        f = std::move(f).resume(); // warm: the first switch faults the stack in
        auto const start = clock::now();
        for (std::size_t i = 1; i < n; ++i)
            f = std::move(f).resume();
        result.context_switch_ns = ns_since(start, 2 * (n - 1));
        f = std::move(f).resume(); // let it finish
    }

    constexpr std::uint64_t max_tries = 100;
    std::uint64_t const reruns_before = fj::detail::fiber_stats::reruns.load();
    for (;;) {
        // Made before the clock starts, and afresh for each try: a promise
        // hands out its future once.
        std::vector<fj::promise<void>> to_a(rounds), to_b(rounds);
        if (auto ns = park_unpark_on_one_worker(pool, to_a, to_b)) {
            result.handoff_ns = *ns;
            break;
        }
        if (++result.split_tries == max_tries)
            throw std::runtime_error(fmt::format("park-unpark: the two fibers started on different workers in "
                                                 "{} tries in a row",
                                                 max_tries));
    }
    result.reruns = fj::detail::fiber_stats::reruns.load() - reruns_before;
    return result;
}

// The same on a pool of its own with one worker.
template <class Pool = boost::forkjoin::thread_pool>
park_unpark_result park_unpark(std::size_t rounds)
{
    Pool pool(boost::forkjoin::pool_options{.num_threads = 1});
    return park_unpark(pool, rounds);
}

struct spawn_future_result {
    double spawn_ns;        // per task: scope spawn, run, scope end
    double spawn_future_ns; // per task: spawn_future, run on a fiber, get
};

// Best of `repetitions` on `pool`, called from outside the pool.
template <class Pool>
spawn_future_result spawn_future_vs_spawn(Pool& pool, std::size_t tasks, int repetitions = 5)
{
    namespace fj = boost::forkjoin;
    spawn_future_result best{1e300, 1e300};
    std::vector<fj::future<void>> futures;
    futures.reserve(tasks);
    std::atomic<std::size_t> sink{0};
    for (int r = 0; r < repetitions; ++r) {
        pool.install([&] {
            auto const start = clock::now();
            fj::scope([&](fj::lifo_scope& s) {
                for (std::size_t i = 0; i < tasks; ++i)
                    s.spawn([&sink] { sink.fetch_add(1, std::memory_order_relaxed); });
            });
            best.spawn_ns = std::min(best.spawn_ns, ns_since(start, tasks));
        });
        pool.install([&] {
            auto const start = clock::now();
            for (std::size_t i = 0; i < tasks; ++i)
                futures.push_back(pool.spawn_future([&sink] { sink.fetch_add(1, std::memory_order_relaxed); }));
            for (auto& f : futures)
                f.get();
            best.spawn_future_ns = std::min(best.spawn_future_ns, ns_since(start, tasks));
            futures.clear();
        });
    }
    return best;
}

// The same on a pool of its own with `threads` workers.
template <class Pool = boost::forkjoin::thread_pool>
spawn_future_result spawn_future_vs_spawn(std::size_t threads, std::size_t tasks, int repetitions = 5)
{
    Pool pool(boost::forkjoin::pool_options{.num_threads = threads});
    return spawn_future_vs_spawn(pool, tasks, repetitions);
}

} // namespace forkjoin_bench::futures

#endif // BOOST_FORKJOIN_PERFORMANCE_FUTURES_WORKLOADS_HPP
