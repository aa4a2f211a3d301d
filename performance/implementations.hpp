// Copyright 2026 The Boost.ForkJoin developers.
// Distributed under the Boost Software License, Version 1.0.
// (See accompanying file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
#ifndef BOOST_FORKJOIN_PERFORMANCE_IMPLEMENTATIONS_HPP
#define BOOST_FORKJOIN_PERFORMANCE_IMPLEMENTATIONS_HPP

// The rows of the report: the implementations forkjoin_bench compares, in
// report order (the reference first, then the library's policies, then the
// peers).

#include <algorithm>
#include <iterator>
#include <string_view>

namespace forkjoin_bench {

struct implementation {
    std::string_view name;
    std::string_view description;
};

inline constexpr implementation implementations[] = {
    {"serial", "join = a() then b() (algorithm workloads: std:: without a policy); the reference for 'vs serial'"},
    {"forkjoin-jec", "boost::forkjoin::basic_thread_pool<sleep::jec> (the default thread_pool)"},
    {"forkjoin-legacy", "boost::forkjoin::basic_thread_pool<sleep::legacy>"},
    {"forkjoin-spin", "boost::forkjoin::basic_thread_pool<sleep::spin>"},
    {"forkjoin-main", "thread_pool (sleep::jec) with use_current_thread: the main thread is worker 0"},
    {"forkjoin-slot", "thread_pool (sleep::jec) with caller_slot: a caller of install takes worker 0's place"},
    {"forkjoin-lazy", "basic_thread_pool<sleep::jec, lazy_joins>: joins publish their second half only for idle workers"},
    {"forkjoin-lazy-slot", "basic_thread_pool<sleep::jec, lazy_joins> with caller_slot"},
    {"tbb", "oneTBB task_arena + parallel_invoke / enqueue"},
    {"omp", "OpenMP parallel + single + task/taskwait (libgomp)"},
    {"std-par", "std:: parallel algorithms, std::execution::par (libstdc++ PSTL on oneTBB); the algorithm workloads only"},
    {"rayon", "Rayon ThreadPool::install + rayon::join / spawn (child process rayon-bench)"},
};

inline bool is_implementation(std::string_view name)
{
    return std::any_of(std::begin(implementations), std::end(implementations),
                       [&](implementation const& i) { return i.name == name; });
}

// The library's policy rows, in the order child.cpp passes their policies
// to compare_policies. They are measured together, in one child process per
// (workload, thread count): the policies' repetitions interleaved, each on a
// fresh pool. forkjoin-main and forkjoin-slot are not among them: the
// first's pool must be built on the child's main thread, and both are one
// policy with another option; each runs in a child of its own, as the
// peers do. `--impls forkjoin` means these.
inline constexpr std::string_view policy_rows[] = {"forkjoin-jec", "forkjoin-legacy", "forkjoin-spin"};

inline bool is_forkjoin(std::string_view name)
{
    return std::find(std::begin(policy_rows), std::end(policy_rows), name) != std::end(policy_rows);
}

} // namespace forkjoin_bench

#endif // BOOST_FORKJOIN_PERFORMANCE_IMPLEMENTATIONS_HPP
