// Copyright 2026 The Boost.ForkJoin developers.
// Distributed under the Boost Software License, Version 1.0.
// (See accompanying file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
#ifndef BOOST_FORKJOIN_DETAIL_ASYMMETRIC_FENCE_HPP
#define BOOST_FORKJOIN_DETAIL_ASYMMETRIC_FENCE_HPP

// Asymmetric fences: a store-buffering pair where one side runs millions of
// times (the deque owner's pop) and the other rarely (a thief's steal).
//
// A seq-cst fence on both sides costs the frequent side a locked instruction
// (about 6 ns on the reference machine: two thirds of a join). Instead the
// frequent side issues only a compiler barrier, and the rare side calls
// Linux membarrier(MEMBARRIER_CMD_PRIVATE_EXPEDITED), which makes every
// running thread of the process execute a full memory barrier before it
// returns. For the pair
//
//     owner:  store A; light(); load B        thief: store/load B'; heavy(); load A
//
// either the owner's store A was issued before the barrier the kernel
// forced on its CPU, and is then visible to the thief's load A, or it was
// issued after, and then the owner's load B also executes after that barrier
// and sees every store the thief made visible before calling heavy(). The
// technique is folly's asymmetricLightBarrier/asymmetricHeavyBarrier and
// liburcu's; see also Morrison and Afek, "Fence-free work stealing on
// bounded TSO processors" (ASPLOS 2014).
//
// Where membarrier is missing (not Linux, an old kernel, a sandbox that
// forbids it) or disabled with BOOST_FORKJOIN_NO_MEMBARRIER, both sides use
// a seq-cst fence: correct everywhere, slower on the owner's side.

#include <atomic>

#if defined(__linux__) && !defined(BOOST_FORKJOIN_NO_MEMBARRIER)
#  include <linux/membarrier.h>
#  include <sys/syscall.h>
#  include <unistd.h>
#  define BOOST_FORKJOIN_HAS_MEMBARRIER 1
#endif

namespace boost::forkjoin::detail {

// True once the process is registered for expedited private membarriers.
// Decided once, before any pool starts its workers.
inline bool asymmetric_fences_available() noexcept
{
#if defined(BOOST_FORKJOIN_HAS_MEMBARRIER)
    static bool const available = [] {
        long const supported = syscall(__NR_membarrier, MEMBARRIER_CMD_QUERY, 0, 0);
        if (supported < 0 || (supported & MEMBARRIER_CMD_PRIVATE_EXPEDITED) == 0)
            return false;
        return syscall(__NR_membarrier, MEMBARRIER_CMD_REGISTER_PRIVATE_EXPEDITED, 0, 0) == 0;
    }();
    return available;
#else
    return false;
#endif
}

// The frequent side. `asymmetric` is asymmetric_fences_available(), cached
// by the caller next to its hot data.
inline void light_fence(bool asymmetric) noexcept
{
    if (asymmetric)
        std::atomic_signal_fence(std::memory_order_seq_cst); // the compiler must not reorder
    else
        std::atomic_thread_fence(std::memory_order_seq_cst);
}

// The rare side.
inline void heavy_fence(bool asymmetric) noexcept
{
#if defined(BOOST_FORKJOIN_HAS_MEMBARRIER)
    if (asymmetric) {
        syscall(__NR_membarrier, MEMBARRIER_CMD_PRIVATE_EXPEDITED, 0, 0);
        return;
    }
#endif
    (void)asymmetric;
    std::atomic_thread_fence(std::memory_order_seq_cst);
}

} // namespace boost::forkjoin::detail

#endif // BOOST_FORKJOIN_DETAIL_ASYMMETRIC_FENCE_HPP
