// Copyright 2026 The Boost.ForkJoin developers.
// Distributed under the Boost Software License, Version 1.0.
// (See accompanying file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
#ifndef BOOST_FORKJOIN_DETAIL_WORKER_COUNTERS_HPP
#define BOOST_FORKJOIN_DETAIL_WORKER_COUNTERS_HPP

#include <atomic>
#include <cstdint>

namespace boost::forkjoin::detail {

// Counters that only their worker writes: a relaxed load and store instead
// of a locked RMW, read by stats() with relaxed loads.
struct worker_counters {
    std::atomic<std::uint64_t> steals{0};
    std::atomic<std::uint64_t> sleeps{0};
    std::atomic<std::uint64_t> wakeups{0};
    std::atomic<std::uint64_t> futile_wakeups{0};

    static void bump(std::atomic<std::uint64_t>& counter) noexcept
    {
        counter.store(counter.load(std::memory_order_relaxed) + 1, std::memory_order_relaxed);
    }
};

} // namespace boost::forkjoin::detail

#endif // BOOST_FORKJOIN_DETAIL_WORKER_COUNTERS_HPP
