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

// The thread_locals on the library's fast paths (the worker pointer every
// join reads twice, a fiber switch's exception state) use the initial-exec
// TLS model in code compiled for a shared library (-fPIC, ELF). There a
// thread_local is otherwise read through a call of __tls_get_addr, which
// cost a lazy join in a shared library a third of its time, two calls per
// join (doc/benchmark.adoc, "Joins in a shared library"); initial-exec
// reads it with two instructions and no call. Not in code compiled for a
// program (-fPIE, or neither): the compiler's own choice there,
// local-exec, is one instruction, and initial-exec would cost a register.
// (A program compiled with -fPIC, as b2 compiles everything, cannot be
// told from a shared library here; it should be compiled with -fPIE.)
//
// The price, as for jemalloc's initial-exec TLS: a shared library that is
// loaded with dlopen() after the program started must then find room for
// all of its thread_locals in the little static TLS that glibc keeps for
// such libraries (a few hundred bytes, shared by all of them), or dlopen()
// fails ("cannot allocate memory in static TLS block"). Define
// BOOST_FORKJOIN_NO_INITIAL_EXEC_TLS in a library that hits that.
#if defined(__ELF__) && defined(__PIC__) && !defined(__PIE__) && !defined(BOOST_FORKJOIN_NO_INITIAL_EXEC_TLS)
#  define BOOST_FORKJOIN_INITIAL_EXEC_TLS __attribute__((tls_model("initial-exec")))
#else
#  define BOOST_FORKJOIN_INITIAL_EXEC_TLS
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
