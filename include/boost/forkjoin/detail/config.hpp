// Copyright 2026 The Boost.ForkJoin developers.
// Distributed under the Boost Software License, Version 1.0.
// (See accompanying file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
#ifndef BOOST_FORKJOIN_DETAIL_CONFIG_HPP
#define BOOST_FORKJOIN_DETAIL_CONFIG_HPP

// What the library needs beyond C++20: GCC or Clang (the join fast path
// relies on their always_inline, noinline and __builtin_expect, and the
// tests and benchmark on their inline asm), and POSIX threads (each worker
// is a pthread, so that its stack size and name can be set:
// detail/native_thread.hpp). Say so at once rather than fail somewhere deep.
#if !defined(__GNUC__) && !defined(__clang__)
#  error "Boost.ForkJoin requires GCC or Clang"
#endif
#if !__has_include(<pthread.h>)
#  error "Boost.ForkJoin requires POSIX threads (<pthread.h>)"
#endif

#include <cstddef>
#include <new>

namespace boost::forkjoin::detail {

// Two objects written by different threads are kept this far apart so that
// one thread's writes do not invalidate the other's cache line. 128 rather
// than 64 because adjacent-line prefetchers on x86 pull lines in pairs.
inline constexpr std::size_t cache_line_size = 128;

} // namespace boost::forkjoin::detail

// Header-only by default. With BOOST_FORKJOIN_SEPARATE_COMPILATION defined
// in every translation unit of a program, the pool's cold code (starting
// and stopping, the global pool, a worker's search, the caller slot's
// protocol, the injector) is compiled once, in the one translation unit
// that includes <boost/forkjoin/src.hpp>, as Boost.Asio does it: the other
// units then neither parse nor generate it (doc/reference.adoc,
// "Separate compilation"). BOOST_FORKJOIN_DECL marks such a function;
// BOOST_FORKJOIN_DEFINE_COMPILED is 1 where its definition is to be seen.
#if defined(BOOST_FORKJOIN_SEPARATE_COMPILATION)
#  define BOOST_FORKJOIN_DECL
#  if defined(BOOST_FORKJOIN_SOURCE)
#    define BOOST_FORKJOIN_DEFINE_COMPILED 1
#  else
#    define BOOST_FORKJOIN_DEFINE_COMPILED 0
#  endif
#else
#  define BOOST_FORKJOIN_DECL inline
#  define BOOST_FORKJOIN_DEFINE_COMPILED 1
#endif

// The sanitizers whose presence changes the library's code: ThreadSanitizer
// (the injector's queue, detail/injector.hpp) and AddressSanitizer (fiber
// stacks, detail/stack_pool.hpp); neither has guard pages for fibers then
// (detail/stack_overflow.hpp).
#if defined(__SANITIZE_THREAD__)
#  define BOOST_FORKJOIN_TSAN 1
#elif defined(__has_feature)
#  if __has_feature(thread_sanitizer)
#    define BOOST_FORKJOIN_TSAN 1
#  endif
#endif
#if defined(__SANITIZE_ADDRESS__)
#  define BOOST_FORKJOIN_ASAN 1
#elif defined(__has_feature)
#  if __has_feature(address_sanitizer)
#    define BOOST_FORKJOIN_ASAN 1
#  endif
#endif

#define BOOST_FORKJOIN_LIKELY(x) __builtin_expect(!!(x), 1)
#define BOOST_FORKJOIN_UNLIKELY(x) __builtin_expect(!!(x), 0)
#define BOOST_FORKJOIN_NOINLINE __attribute__((noinline))
// The few functions of the join fast path (push, pop, the push filter). The
// compiler's inliner weighs them per translation unit, and in a large one it
// was seen to call them out of line, adding two calls to every join (about
// a third of a join's cost): their inlining is not left to chance.
#define BOOST_FORKJOIN_FORCEINLINE inline __attribute__((always_inline))

#endif // BOOST_FORKJOIN_DETAIL_CONFIG_HPP
