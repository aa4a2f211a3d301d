// Copyright 2026 The Boost.ForkJoin developers.
// Distributed under the Boost Software License, Version 1.0.
// (See accompanying file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
#ifndef BOOST_FORKJOIN_DETAIL_CONFIG_HPP
#define BOOST_FORKJOIN_DETAIL_CONFIG_HPP

#include <cstddef>
#include <new>

namespace boost::forkjoin::detail {

// Two objects written by different threads are kept this far apart so that
// one thread's writes do not invalidate the other's cache line. 128 rather
// than 64 because adjacent-line prefetchers on x86 pull lines in pairs.
inline constexpr std::size_t cache_line_size = 128;

} // namespace boost::forkjoin::detail

#if defined(__GNUC__) || defined(__clang__)
#  define BOOST_FORKJOIN_LIKELY(x) __builtin_expect(!!(x), 1)
#  define BOOST_FORKJOIN_UNLIKELY(x) __builtin_expect(!!(x), 0)
#  define BOOST_FORKJOIN_NOINLINE __attribute__((noinline))
// The few functions of the join fast path (push, pop, the push filter). The
// compiler's inliner weighs them per translation unit, and in a large one it
// was seen to call them out of line, adding two calls to every join (about
// a third of a join's cost): their inlining is not left to chance.
#  define BOOST_FORKJOIN_FORCEINLINE inline __attribute__((always_inline))
#else
#  define BOOST_FORKJOIN_FORCEINLINE inline
#  define BOOST_FORKJOIN_LIKELY(x) (x)
#  define BOOST_FORKJOIN_UNLIKELY(x) (x)
#  define BOOST_FORKJOIN_NOINLINE
#endif

#endif // BOOST_FORKJOIN_DETAIL_CONFIG_HPP
