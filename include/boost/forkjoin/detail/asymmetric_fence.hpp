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
// The heavy side costs an interrupt (IPI) to every CPU that is running a
// thread of the process, and many kernels serialize these calls behind one
// mutex; whether that beats a fence on every pop depends on the machine and
// the work, so a pool chooses (pool_options::fences, doc/design.adoc).
//
// Where membarrier is missing (not Linux, an old kernel, a sandbox that
// forbids it) or disabled with BOOST_FORKJOIN_NO_MEMBARRIER, only symmetric
// fences exist. A call that fails later (ENOMEM, or a seccomp filter
// installed after the pool started) is reported to the caller, which must
// then not rely on it: the owner's side was only a compiler barrier. The
// deque handles that (chase_lev_deque::steal) and the failure is remembered
// for the whole process, so that no pool chooses asymmetric fences again.

#include <boost/forkjoin/detail/config.hpp>
#include <boost/forkjoin/pool_options.hpp>

#include <atomic>
#include <cstddef>

#if defined(__linux__) && !defined(BOOST_FORKJOIN_NO_MEMBARRIER)
#  include <linux/membarrier.h>
#  include <sys/syscall.h>
#  include <unistd.h>
#  define BOOST_FORKJOIN_HAS_MEMBARRIER 1
#endif

namespace boost::forkjoin::detail {

// Set, never cleared, when a membarrier call failed after registration.
// Relaxed everywhere: it only steers later choices; what a failure means for
// the deque that saw it is ordered by that deque's own state word.
inline std::atomic<bool> membarrier_failed{false};

// True if this process may use asymmetric fences: registered for expedited
// private membarriers, a first call succeeded (both done once per process,
// before any pool that uses them starts its workers), and no call failed
// since.
inline bool asymmetric_fences_available() noexcept
{
#if defined(BOOST_FORKJOIN_HAS_MEMBARRIER)
    static bool const registered = [] {
        long const supported = syscall(__NR_membarrier, MEMBARRIER_CMD_QUERY, 0, 0);
        if (supported < 0 || (supported & MEMBARRIER_CMD_PRIVATE_EXPEDITED) == 0)
            return false;
        return syscall(__NR_membarrier, MEMBARRIER_CMD_REGISTER_PRIVATE_EXPEDITED, 0, 0) == 0
               && syscall(__NR_membarrier, MEMBARRIER_CMD_PRIVATE_EXPEDITED, 0, 0) == 0;
    }();
    return registered && !membarrier_failed.load(std::memory_order_relaxed);
#else
    return false;
#endif
}

// Pools with more workers than this get symmetric fences under
// fence_mode::automatic. See doc/design.adoc, "Choosing the fence mode":
// below it the barrier interrupts few CPUs and a steal-heavy pool loses
// little; above it each steal interrupts every busy worker and the kernel
// serializes the calls, while the fences they save cost the same at any
// size.
inline constexpr std::size_t asymmetric_fences_max_threads = 8;

// The mode a pool of `num_threads` workers runs with: asymmetric or
// symmetric, never automatic.
inline fence_mode resolve_fence_mode(fence_mode requested, std::size_t num_threads) noexcept
{
    switch (requested) {
    case fence_mode::symmetric:
        return fence_mode::symmetric;
    case fence_mode::asymmetric:
        return asymmetric_fences_available() ? fence_mode::asymmetric : fence_mode::symmetric;
    case fence_mode::automatic:
        break;
    }
    return num_threads <= asymmetric_fences_max_threads && asymmetric_fences_available() ? fence_mode::asymmetric
                                                                                         : fence_mode::symmetric;
}

// The frequent side: a compiler barrier in asymmetric mode, else a seq-cst
// fence.
BOOST_FORKJOIN_FORCEINLINE void light_fence(bool asymmetric) noexcept
{
    if (asymmetric)
        std::atomic_signal_fence(std::memory_order_seq_cst); // the compiler must not reorder
    else
        std::atomic_thread_fence(std::memory_order_seq_cst);
}

// The rare side of an asymmetric pair: a barrier on every running thread of
// the process. Returns false if the call failed; the caller must then act as
// if no fence was made (and the process never chooses asymmetric fences
// again).
inline bool heavy_fence() noexcept
{
#if defined(BOOST_FORKJOIN_HAS_MEMBARRIER)
    if (syscall(__NR_membarrier, MEMBARRIER_CMD_PRIVATE_EXPEDITED, 0, 0) == 0)
        return true;
#endif
    membarrier_failed.store(true, std::memory_order_relaxed);
    return false;
}

} // namespace boost::forkjoin::detail

#endif // BOOST_FORKJOIN_DETAIL_ASYMMETRIC_FENCE_HPP
