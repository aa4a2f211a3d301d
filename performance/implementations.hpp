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
    {"serial", "join = a() then b(); the reference for 'vs serial'"},
    {"forkjoin-jec", "boost::forkjoin::basic_thread_pool<sleep::jec> (the default thread_pool)"},
    {"forkjoin-legacy", "boost::forkjoin::basic_thread_pool<sleep::legacy>"},
    {"forkjoin-spin", "boost::forkjoin::basic_thread_pool<sleep::spin>"},
    {"tbb", "oneTBB task_arena + parallel_invoke / enqueue"},
    {"omp", "OpenMP parallel + single + task/taskwait (libgomp)"},
    {"rayon", "Rayon ThreadPool::install + rayon::join / spawn (child process rayon-bench)"},
};

inline bool is_implementation(std::string_view name)
{
    return std::any_of(std::begin(implementations), std::end(implementations),
                       [&](implementation const& i) { return i.name == name; });
}

// The library's own rows. They are measured together, in one child process
// per (workload, thread count), by boost::forkjoin::compare_policies: the
// policies' repetitions interleaved, each on a fresh pool (child.cpp).
inline bool is_forkjoin(std::string_view name) { return name.starts_with("forkjoin-"); }

} // namespace forkjoin_bench

#endif // BOOST_FORKJOIN_PERFORMANCE_IMPLEMENTATIONS_HPP
