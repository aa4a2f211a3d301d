// Copyright 2026 The Boost.ForkJoin developers.
// Distributed under the Boost Software License, Version 1.0.
// (See accompanying file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)

#include "child.hpp"

#include "executors.hpp"
#include "implementations.hpp"
#include "measure.hpp"
#include "options.hpp"
#include "workloads.hpp"

#include <boost/forkjoin/policy_benchmark.hpp>
#include <fmt/format.h>

#include <algorithm>
#include <cstdio>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

namespace forkjoin_bench {

namespace {

// Calls f(executor) with an executor of the named implementation (not the
// library's: those go through measure_policies).
template <class F>
bool with_executor(std::string_view impl, std::size_t threads, F&& f)
{
    auto run = [&]<class Ex>(std::type_identity<Ex>) {
        Ex ex(threads);
        f(ex);
        return true;
    };
    if (impl == "serial")
        return run(std::type_identity<serial_executor>{});
    if (impl == "tbb")
        return run(std::type_identity<tbb_executor>{});
    if (impl == "omp")
        return run(std::type_identity<omp_executor>{});
    if (impl == "std-par")
        return run(std::type_identity<stdpar_executor>{});
    if (impl == "forkjoin-main")
        return run(std::type_identity<forkjoin_main_executor>{});
    if (impl == "forkjoin-slot")
        return run(std::type_identity<forkjoin_slot_executor>{});
    if (impl == "forkjoin-lazy")
        return run(std::type_identity<forkjoin_lazy_executor>{});
    if (impl == "forkjoin-lazy-slot")
        return run(std::type_identity<forkjoin_lazy_slot_executor>{});
    return false;
}

// The library's policies, in the order of policy_rows (implementations.hpp).
namespace sleep = boost::forkjoin::sleep;
static_assert(policy_rows[0] == policy_name<sleep::jec>::value && policy_rows[1] == policy_name<sleep::legacy>::value &&
                  policy_rows[2] == policy_name<sleep::spin>::value && std::size(policy_rows) == 3,
              "compare_policies below measures the policies in the order of policy_rows");

// Runs `kernel` for each selected policy (`impls`, a subset of policy_rows)
// with compare_policies. Returns false for an unknown kernel.
bool measure_policies(std::vector<std::string> const& impls, std::string_view kernel, std::size_t threads,
                      params const& args, int warmup, int reps)
{
    boost::forkjoin::benchmark_options options;
    options.threads = {threads};
    options.repetitions = static_cast<std::size_t>(reps);
    // Each pool gets one call of the kernel, which prepares its data, runs
    // its warm-up repetitions and then the measured one, back to back on
    // that data, as the other implementations' rows do. A warm-up call of
    // its own would leave the pool asleep through the measured call's data
    // preparation (hundreds of milliseconds for the algorithm workloads),
    // so that its one measured repetition, and no other row's, started by
    // waking every worker from a long sleep.
    options.warmup = 0;
    options.progress = nullptr; // stdout is the protocol; the driver shows progress

    auto const selected = [&](std::string_view name) {
        return std::find(impls.begin(), impls.end(), name) != impls.end();
    };
    bool found = true;
    auto workload = [&](auto& pool) {
        using policy = typename std::remove_reference_t<decltype(pool)>::sleep_policy_type;
        std::string_view const name = policy_name<policy>::value;
        if (!selected(name))
            return; // a policy that was not asked for: its pool idles for a moment
        fmt::print("impl {}\n", name);
        forkjoin_executor<policy> ex(pool);
        run_context const ctx{args, warmup, 1};
        found = found && run_kernel(kernel, ex, ctx);
        std::fflush(stdout);
    };
    auto const result = boost::forkjoin::compare_policies<sleep::jec, sleep::legacy, sleep::spin>(options, workload);
    if (!found)
        return false;

    for (std::size_t p = 0; p < std::size(policy_rows); ++p) {
        if (!selected(policy_rows[p]))
            continue;
        auto const& cell = result.cell(result.policies[p], threads);
        for (std::size_t r = 0; r < cell.stats.size(); ++r) {
            auto const& s = cell.stats[r];
            fmt::print("pool impl={} rep={} sleeps={} wakeups={} futile_wakeups={} steals={} injected={}\n",
                       policy_rows[p], r, s.sleeps, s.wakeups, s.futile_wakeups, s.steals, s.injected);
        }
    }
    std::fflush(stdout);
    return true;
}

} // namespace

int child_main(int argc, char** argv)
{
    if (argc < 4) {
        fmt::print(stderr,
                   "forkjoin_bench --child IMPLS KERNEL [--threads N] [--reps R] [--warmup W] [--param k=v]...\n");
        return 2;
    }
    std::vector<std::string> const impls = split_list(argv[2]);
    std::string_view kernel = argv[3];
    std::size_t threads = 1;
    int reps = 1, warmup = 1;
    params args;
    for (int i = 4; i + 1 < argc; i += 2) {
        std::string_view flag = argv[i];
        std::string value = argv[i + 1];
        if (flag == "--threads")
            threads = std::stoul(value);
        else if (flag == "--reps")
            reps = std::stoi(value);
        else if (flag == "--warmup")
            warmup = std::stoi(value);
        else if (flag == "--param" && value.find('=') != std::string::npos)
            args.set(value.substr(0, value.find('=')), value.substr(value.find('=') + 1));
        else {
            fmt::print(stderr, "forkjoin_bench --child: bad argument '{}'\n", flag);
            return 2;
        }
    }
    if (reps < 1 || warmup < 0 || threads == 0 || impls.empty()) {
        fmt::print(stderr, "forkjoin_bench --child: needs a thread count and repetitions above 0\n");
        return 2;
    }

    if (std::all_of(impls.begin(), impls.end(), [](auto const& i) { return is_forkjoin(i); })) {
        for (auto const& i : impls)
            if (std::find(std::begin(policy_rows), std::end(policy_rows), i) == std::end(policy_rows)) {
                fmt::print(stderr, "forkjoin_bench --child: unknown implementation '{}'\n", i);
                return 2;
            }
        if (!measure_policies(impls, kernel, threads, args, warmup, reps)) {
            fmt::print(stderr, "forkjoin_bench --child: unknown kernel '{}'\n", kernel);
            return 2;
        }
        return 0;
    }
    if (impls.size() != 1) {
        fmt::print(stderr, "forkjoin_bench --child: only the library's policies run together\n");
        return 2;
    }

    run_context ctx{args, warmup, reps};
    bool found_kernel = true;
    bool found_impl = with_executor(impls[0], threads, [&](auto& ex) { found_kernel = run_kernel(kernel, ex, ctx); });
    if (!found_impl || !found_kernel) {
        fmt::print(stderr, "forkjoin_bench --child: unknown {} '{}'\n", found_impl ? "kernel" : "implementation",
                   found_impl ? kernel : std::string_view(impls[0]));
        return 2;
    }
    return 0;
}

} // namespace forkjoin_bench
