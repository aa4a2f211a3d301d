// Copyright 2026 The Boost.ForkJoin developers.
// Distributed under the Boost Software License, Version 1.0.
// (See accompanying file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
#ifndef BOOST_FORKJOIN_DETAIL_CPU_RELAX_HPP
#define BOOST_FORKJOIN_DETAIL_CPU_RELAX_HPP

// The spin-wait hint: tells the CPU that the thread is polling, so that it
// saves power, yields the core's resources to a hyper-thread sibling, and
// does not flood the memory system with speculative loads of the polled
// line. Hand-written because Boost 1.81 has no portable one (Boost.Core's
// yield primitives came later) and the standard library has none. The x86
// hint is GCC's and Clang's builtin rather than _mm_pause from
// <immintrin.h>: that header declares every vector intrinsic and costs more
// compile time than the rest of join.hpp's own headers together.

#if defined(_MSC_VER) && !defined(__clang__) && (defined(_M_X64) || defined(_M_IX86))
#  include <intrin.h>
#endif

namespace boost::forkjoin::detail {

inline void cpu_relax() noexcept
{
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#elif defined(_MSC_VER) && (defined(_M_X64) || defined(_M_IX86))
    _mm_pause();
#elif defined(__aarch64__) || defined(__arm__)
    __asm__ __volatile__("yield" ::: "memory");
#else
    __asm__ __volatile__("" ::: "memory");
#endif
}

} // namespace boost::forkjoin::detail

#endif // BOOST_FORKJOIN_DETAIL_CPU_RELAX_HPP
