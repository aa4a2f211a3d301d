// Copyright 2026 The Boost.ForkJoin developers.
// Distributed under the Boost Software License, Version 1.0.
// (See accompanying file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
#ifndef BOOST_FORKJOIN_POOL_STATS_HPP
#define BOOST_FORKJOIN_POOL_STATS_HPP

#include <cstdint>

namespace boost::forkjoin {

// A snapshot of a pool's counters since it started. Each counter is summed
// over the workers without stopping them, so the fields are only mutually
// consistent when the pool is quiet.
//
// None of these is touched by push, pop or an un-stolen join: they count
// events of the slow paths (a steal, a block, an injection), so keeping them
// always on costs nothing on the join path (see doc/benchmark.adoc).
struct pool_stats {
    std::uint64_t sleeps = 0;         // times a worker blocked in its sleep policy (counted as it resumes)
    std::uint64_t wakeups = 0;        // of those, the ones ended by a notification (not a timeout)
    std::uint64_t futile_wakeups = 0; // woken, then blocked again without finding work
    std::uint64_t injected = 0;       // jobs entered through the injector or a broadcast queue
    std::uint64_t steals = 0;         // jobs taken from another worker's deque
};

} // namespace boost::forkjoin

#endif // BOOST_FORKJOIN_POOL_STATS_HPP
