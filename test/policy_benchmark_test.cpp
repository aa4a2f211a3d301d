// Copyright 2026 The Boost.ForkJoin developers.
// Distributed under the Boost Software License, Version 1.0.
// (See accompanying file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)

// The policy bake-off (boost/forkjoin/policy_benchmark.hpp) on tiny
// workloads: every cell is there with every repetition, the repetitions are
// interleaved on fresh pools, the counters are deltas, the table and the
// JSON say the same, a user-written policy takes part like the built-in
// ones. Nothing here checks a timing.

#define BOOST_TEST_MODULE policy_benchmark
#include <boost/test/unit_test.hpp>

#include "policies.hpp"
#include "watchdog.hpp"

#include <boost/forkjoin/policy_benchmark.hpp>
#include <boost/json/src.hpp> // Boost.JSON, header-only: parses what to_json() wrote

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <memory>
#include <mutex>
#include <sstream>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

namespace fj = boost::forkjoin;
namespace json = boost::json;
using namespace std::chrono_literals;

namespace {

std::uint64_t fib(int n)
{
    if (n < 2)
        return static_cast<std::uint64_t>(n);
    auto [a, b] = fj::join([n] { return fib(n - 1); }, [n] { return fib(n - 2); });
    return a + b;
}

// A policy that names itself.
struct named_policy : example::spin_then_backoff {
    static constexpr std::string_view name = "my-backoff";
    using example::spin_then_backoff::spin_then_backoff;
};

// A policy with a data member called name: not the policy's name.
struct logging_policy : fj::sleep::jec {
    using fj::sleep::jec::jec;
    std::string name = "log";
};

fj::benchmark_options tiny(std::vector<std::size_t> threads, std::size_t repetitions)
{
    fj::benchmark_options options;
    options.threads = std::move(threads);
    options.repetitions = repetitions;
    options.warmup = 1;
    options.progress = nullptr;
    return options;
}

} // namespace

BOOST_AUTO_TEST_CASE(every_cell_is_there_and_the_json_parses)
{
    std::atomic<int> wrong{0};
    auto options = tiny({1, 2}, 3);
    options.title = "fib(15) \"tiny\"";
    auto const result =
        fj::compare_policies<fj::sleep::spin, fj::sleep::legacy, fj::sleep::jec, example::spin_then_backoff>(
            options, [&](auto& pool) {
                if (pool.install([] { return fib(15); }) != 610)
                    ++wrong;
            });
    BOOST_TEST(wrong.load() == 0);

    std::vector<std::string> const policies{"sleep::spin", "sleep::legacy", "sleep::jec", "example::spin_then_backoff"};
    BOOST_TEST(result.policies == policies, boost::test_tools::per_element());
    BOOST_TEST(result.threads == (std::vector<std::size_t>{1, 2}), boost::test_tools::per_element());
    BOOST_REQUIRE(result.cells.size() == 8u);
    for (std::size_t threads : {1u, 2u}) {
        for (auto const& policy : policies) {
            fj::benchmark_cell const& c = result.cell(policy, threads);
            BOOST_TEST(c.wall_seconds.size() == 3u);
            BOOST_TEST(c.cpu_seconds.size() == 3u);
            BOOST_TEST(c.stats.size() == 3u);
            auto const wall = c.wall();
            BOOST_TEST(wall.min > 0.0);
            BOOST_TEST(wall.min <= wall.median);
            BOOST_TEST(wall.median <= wall.max);
            // One install per repetition: one job through the injector.
            BOOST_TEST(c.stat(&fj::pool_stats::injected).median == 1.0);
        }
        BOOST_TEST(result.wall_ratio(result.cell("sleep::spin", threads)) == 1.0);
    }
    BOOST_CHECK_THROW(result.cell("sleep::spin", 3), std::out_of_range);

    // The JSON holds the same cells, every repetition, and the title with
    // its quotes.
    json::value const doc = json::parse(result.to_json());
    BOOST_TEST(doc.at("title").as_string() == "fib(15) \"tiny\"");
    BOOST_TEST(doc.at("repetitions").as_int64() == 3);
    json::array const& cells = doc.at("cells").as_array();
    BOOST_REQUIRE(cells.size() == 8u);
    for (std::size_t i = 0; i < cells.size(); ++i) {
        json::object const& c = cells[i].as_object();
        fj::benchmark_cell const& expected = result.cells[i];
        BOOST_TEST(c.at("policy").as_string() == expected.policy);
        BOOST_TEST(c.at("threads").as_int64() == static_cast<std::int64_t>(expected.threads));
        json::array const& samples = c.at("wall_seconds").at("samples").as_array();
        BOOST_REQUIRE(samples.size() == 3u);
        for (std::size_t r = 0; r < 3; ++r)
            BOOST_TEST(samples[r].to_number<double>() == expected.wall_seconds[r]); // round trip, bit for bit
        BOOST_TEST(c.at("wall_seconds").at("median").to_number<double>() == expected.wall().median);
        BOOST_TEST(c.at("cpu_seconds").at("samples").as_array().size() == 3u);
        json::array const& stats = c.at("stats").as_array();
        BOOST_REQUIRE(stats.size() == 3u);
        for (std::size_t r = 0; r < 3; ++r) {
            BOOST_TEST(stats[r].at("injected").to_number<std::uint64_t>() == expected.stats[r].injected);
            BOOST_TEST(stats[r].at("steals").to_number<std::uint64_t>() == expected.stats[r].steals);
            for (char const* key : {"sleeps", "wakeups", "futile_wakeups"})
                BOOST_TEST(stats[r].as_object().contains(key));
        }
        BOOST_TEST(c.at("ratio_to_first").at("wall").is_number());
    }

    // The table: a heading and one row per cell, in the same order.
    std::ostringstream table;
    table << result;
    std::istringstream lines(table.str());
    std::vector<std::string> rows;
    for (std::string line; std::getline(lines, line);)
        rows.push_back(line);
    BOOST_REQUIRE(rows.size() == 2u + 2u + 8u); // title, legend, heading, rule, cells
    BOOST_TEST(rows[0].find("fib(15) \"tiny\"") != std::string::npos);
    BOOST_TEST(rows[2].find("x first") != std::string::npos);
    for (std::size_t i = 0; i < 8; ++i) {
        std::istringstream row(rows[4 + i]);
        std::size_t threads = 0;
        std::string policy;
        row >> threads >> policy;
        BOOST_TEST(threads == result.cells[i].threads);
        BOOST_TEST(policy == result.cells[i].policy);
        BOOST_TEST(rows[4 + i].size() == rows[2].size()); // aligned under the heading
    }
}

BOOST_AUTO_TEST_CASE(repetitions_are_interleaved_each_on_a_fresh_pool_alone)
{
    // The worker threads alive, counted by the pools' start and exit
    // handlers: during a run only the pool being measured may have any.
    std::atomic<int> live_workers{0};
    std::atomic<int> pools_built{0};
    std::atomic<int> crowded{0};
    std::mutex mutex;
    std::vector<std::string> order; // the policy of every call, warm-ups included

    auto options = tiny({2}, 4);
    options.warmup = 2;
    options.pool.start_handler = [&](std::size_t index) {
        if (index == 0)
            ++pools_built;
        ++live_workers;
    };
    options.pool.exit_handler = [&](std::size_t) { --live_workers; };

    auto const result = fj::compare_policies<fj::sleep::legacy, fj::sleep::jec, example::spin_then_backoff>(
        options, [&](auto& pool) {
            using policy = typename std::remove_reference_t<decltype(pool)>::sleep_policy_type;
            pool.broadcast([](fj::broadcast_context const&) {}); // every worker has started
            if (live_workers.load() != static_cast<int>(pool.num_threads()))
                ++crowded;
            std::lock_guard const lock(mutex);
            order.push_back(fj::policy_name<policy>());
        });

    BOOST_TEST(crowded.load() == 0);
    BOOST_TEST(live_workers.load() == 0);
    BOOST_TEST(pools_built.load() == 3 * 4); // one pool per measured repetition
    // Each pool runs its two warm-ups and then its measured repetition, and
    // round r runs every policy once, starting with policy r mod 3.
    std::vector<std::string> const p = result.policies;
    std::vector<std::string> expected;
    for (std::size_t round = 0; round < 4; ++round)
        for (std::size_t k = 0; k < 3; ++k)
            for (int call = 0; call < 3; ++call)
                expected.push_back(p[(round + k) % 3]);
    BOOST_TEST(order == expected, boost::test_tools::per_element());
}

BOOST_AUTO_TEST_CASE(a_user_policy_is_named_like_the_built_in_ones)
{
    BOOST_TEST(fj::policy_name<fj::sleep::jec>() == "sleep::jec");
    BOOST_TEST(fj::policy_name<example::spin_then_backoff>() == "example::spin_then_backoff");
    BOOST_TEST(fj::policy_name<named_policy>() == "my-backoff");
    BOOST_TEST(fj::policy_name<logging_policy>() == "(anonymous namespace)::logging_policy"); // a data member is no name
    auto const result = fj::compare_policies<named_policy, fj::sleep::jec>(
        tiny({1}, 1), [](auto& pool) { pool.install([] { return fib(10); }); });
    BOOST_TEST(result.cell("my-backoff", 1).wall_seconds.size() == 1u);
    BOOST_TEST(result.cell("sleep::jec", 1).wall_seconds.size() == 1u);
}

// Eager against lazy joins (lazy_joins.hpp) on one workload: the lazy
// entry's pool is basic_thread_pool<P, lazy_joins>, and it has its name.
BOOST_AUTO_TEST_CASE(eager_and_lazy_joins_compare_as_two_policies)
{
    BOOST_TEST(fj::policy_name<fj::with_lazy_joins<fj::sleep::jec>>() == "sleep::jec + lazy_joins");
    std::vector<bool> lazy_pools;
    auto const result = fj::compare_policies<fj::sleep::jec, fj::with_lazy_joins<fj::sleep::jec>>(
        tiny({2}, 2), [&](auto& pool) {
            lazy_pools.push_back(std::remove_reference_t<decltype(pool)>::has_lazy_joins);
            BOOST_TEST(pool.install([] { return fib(15); }) == 610);
        });
    BOOST_TEST(result.cell("sleep::jec", 2).wall_seconds.size() == 2u);
    BOOST_TEST(result.cell("sleep::jec + lazy_joins", 2).wall_seconds.size() == 2u);
    BOOST_TEST(std::count(lazy_pools.begin(), lazy_pools.end(), true) == std::count(lazy_pools.begin(), lazy_pools.end(), false));
}

BOOST_AUTO_TEST_CASE(default_thread_counts)
{
    auto options = tiny({}, 1);
    options.warmup = 0;
    auto const result = fj::compare_policies<fj::sleep::jec>(options, [](auto&) {});
    std::vector<std::size_t> expected{1, 2};
    if (unsigned const hw = std::thread::hardware_concurrency(); hw > 2)
        expected.push_back(hw);
    BOOST_TEST(result.threads == expected, boost::test_tools::per_element());
    BOOST_TEST(result.cells.size() == expected.size());
}

BOOST_AUTO_TEST_CASE(bad_options_and_failing_workloads_are_errors)
{
    auto nothing = [](auto&) {};
    BOOST_CHECK_THROW(fj::compare_policies<fj::sleep::jec>(tiny({1}, 0), nothing), std::invalid_argument);
    BOOST_CHECK_THROW(fj::compare_policies<fj::sleep::jec>(tiny({0}, 1), nothing), std::invalid_argument);
    BOOST_CHECK_THROW(fj::compare_policies<fj::sleep::jec>(tiny({1}, 1),
                                                           [](auto&) { throw std::runtime_error("workload"); }),
                      std::runtime_error);
    // Two policies of one name: cell() could not find both.
    BOOST_CHECK_THROW((fj::compare_policies<fj::sleep::jec, fj::sleep::jec>(tiny({1}, 1), nothing)),
                      std::invalid_argument);
    // More threads than a policy supports: the pool's own error.
    BOOST_CHECK_THROW(fj::compare_policies<fj::sleep::jec>(tiny({1'000'000}, 1), nothing), fj::too_many_threads);
}

BOOST_AUTO_TEST_CASE(progress_only_for_runs_over_a_second)
{
    std::ostringstream quick_progress;
    auto quick = tiny({1}, 2);
    quick.progress = &quick_progress;
    fj::compare_policies<fj::sleep::jec>(quick, [](auto&) {});
    BOOST_TEST(quick_progress.str().empty());

    std::ostringstream slow_progress;
    auto slow = tiny({1}, 4);
    slow.warmup = 0;
    slow.progress = &slow_progress;
    fj::compare_policies<fj::sleep::jec>(slow, [](auto&) { std::this_thread::sleep_for(400ms); });
    std::string const text = slow_progress.str();
    BOOST_TEST(text.find("compare_policies: 1 thread, round") != std::string::npos);
    BOOST_TEST(text.find("compare_policies: done, 4 runs") != std::string::npos);
}

BOOST_AUTO_TEST_CASE(a_repetition_lasts_until_the_work_it_spawned_has_run)
{
    // Two spawned jobs of 20 ms each, not waited for by the workload: the
    // repetition is their work, not their submission, and the warm-up's
    // jobs are done before the measured call starts.
    std::atomic<int> running{0};
    std::atomic<int> overlapped{0};
    auto const result = fj::compare_policies<fj::sleep::jec, fj::sleep::legacy>(tiny({2}, 2), [&](auto& pool) {
        if (running.load() != 0)
            ++overlapped;
        for (int i = 0; i < 2; ++i) {
            ++running;
            pool.spawn([&] {
                std::this_thread::sleep_for(20ms);
                --running;
            });
        }
    });
    BOOST_TEST(overlapped.load() == 0);
    for (fj::benchmark_cell const& cell : result.cells)
        for (double const seconds : cell.wall_seconds)
            BOOST_TEST(seconds >= 0.020);
}

// A future task parked on a promise that a thread outside the pool fulfils
// 20 ms later is work in flight too, whichever kind of unit of the pool's
// activity it holds while parked (a tracked one in the global pool): the
// repetition lasts until it has run.
BOOST_AUTO_TEST_CASE(a_repetition_lasts_until_its_parked_future_tasks_have_run)
{
    std::vector<fj::future<int>> kept; // a dropped future would cancel its task
    std::vector<std::thread> setters;
    std::atomic<int> running{0};
    std::atomic<int> overlapped{0};
    auto const result = fj::compare_policies<fj::sleep::jec, fj::sleep::legacy>(tiny({2}, 2), [&](auto& pool) {
        if (running.load() != 0)
            ++overlapped;
        ++running;
        auto const promise = std::make_shared<fj::promise<int>>();
        kept.push_back(pool.spawn_future([&running, f = promise->get_future()]() mutable {
            int const value = fj::await(f);
            --running;
            return value;
        }));
        setters.emplace_back([promise] {
            std::this_thread::sleep_for(20ms);
            promise->set_value(1);
        });
    });
    for (std::thread& t : setters)
        t.join();
    BOOST_TEST(overlapped.load() == 0);
    for (fj::benchmark_cell const& cell : result.cells)
        for (double const seconds : cell.wall_seconds)
            BOOST_TEST(seconds >= 0.020);
}

// With use_current_thread the calling thread is worker 0 of every measured
// pool. In a pool of one the work it spawned sits on its own deque, where
// only it can run it while it waits for the repetition's end (it polled for
// ever before). Every call runs its job: 2 policies x 2 counts x 2
// repetitions, each a warm-up call and a measured one on a fresh pool.
BOOST_AUTO_TEST_CASE(a_repetition_on_the_callers_own_pool_runs_its_work)
{
    test::watchdog const hang_guard("a_repetition_on_the_callers_own_pool_runs_its_work", 60s);
    fj::benchmark_options options = tiny({1, 2}, 2);
    options.pool.use_current_thread = true;
    std::atomic<int> ran{0};
    auto const result = fj::compare_policies<fj::sleep::jec, fj::sleep::legacy>(
        options, [&](auto& pool) { pool.spawn([&] { ++ran; }); });
    BOOST_TEST(result.cells.size() == 4u);
    BOOST_TEST(ran.load() == 2 * 2 * 2 * 2);
}
