// Copyright 2026 The Boost.ForkJoin developers.
// Distributed under the Boost Software License, Version 1.0.
// (See accompanying file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
#ifndef BOOST_FORKJOIN_DETAIL_PROCESS_CPU_CLOCK_HPP
#define BOOST_FORKJOIN_DETAIL_PROCESS_CPU_CLOCK_HPP

// CPU time used so far by every thread of the process: what a pool's idle
// workers cost shows here and not in wall-clock time. In integer
// nanoseconds, so that the difference of two readings is exact.

#include <chrono>
#include <ctime>
#include <stdexcept>

#if defined(_POSIX_CPUTIME) || defined(__unix__) || defined(__APPLE__)
#include <time.h>
#define BOOST_FORKJOIN_HAS_PROCESS_CPUTIME 1
#endif

namespace boost::forkjoin::detail {

inline std::chrono::nanoseconds process_cpu_time()
{
#if defined(BOOST_FORKJOIN_HAS_PROCESS_CPUTIME) && defined(CLOCK_PROCESS_CPUTIME_ID)
    timespec ts{};
    if (::clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts) != 0)
        throw std::runtime_error("boost::forkjoin: clock_gettime(CLOCK_PROCESS_CPUTIME_ID) failed");
    return std::chrono::seconds(ts.tv_sec) + std::chrono::nanoseconds(ts.tv_nsec);
#else
    // The standard's process clock: coarser, and it wraps after a while on
    // some systems, but it counts every thread.
    return std::chrono::duration_cast<std::chrono::nanoseconds>(
        std::chrono::duration<double>(static_cast<double>(std::clock()) / CLOCKS_PER_SEC));
#endif
}

} // namespace boost::forkjoin::detail

#endif // BOOST_FORKJOIN_DETAIL_PROCESS_CPU_CLOCK_HPP
