// Copyright 2026 The Boost.ForkJoin developers.
// Distributed under the Boost Software License, Version 1.0.
// (See accompanying file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
#ifndef BOOST_FORKJOIN_DETAIL_CPU_RELAX_HPP
#define BOOST_FORKJOIN_DETAIL_CPU_RELAX_HPP

// The spin-wait hint: tells the CPU that the thread is polling, so that it
// saves power, yields the core's resources to a hyper-thread sibling, and
// does not flood the memory system with speculative loads of the polled
// line. Hand-written because Boost 1.81 has no portable one (Boost.Core's
// yield primitives came later) and the standard library has none.

#if defined(__x86_64__) || defined(__i386__)
#  include <immintrin.h>
#endif

namespace boost::forkjoin::detail {

inline void cpu_relax() noexcept
{
#if defined(__x86_64__) || defined(__i386__)
    _mm_pause();
#elif defined(__aarch64__) || defined(__arm__)
    __asm__ __volatile__("yield" ::: "memory");
#else
    __asm__ __volatile__("" ::: "memory");
#endif
}

} // namespace boost::forkjoin::detail

#endif // BOOST_FORKJOIN_DETAIL_CPU_RELAX_HPP
