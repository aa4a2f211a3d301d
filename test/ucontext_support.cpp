// Copyright 2026 The Boost.ForkJoin developers.
// Distributed under the Boost Software License, Version 1.0.
// (See accompanying file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)

// The one definition that Boost.Context's header-only ucontext back end
// (BOOST_USE_UCONTEXT) expects from its compiled library. The sanitizers
// need that back end: it is the one that tells AddressSanitizer
// (BOOST_USE_ASAN) and ThreadSanitizer (BOOST_USE_TSAN) about every switch
// of stacks. Debian's libboost_context is built for the fcontext back end
// and does not have it; with it here, and with the library's own stack
// allocator (detail/stack_pool.hpp, which does not use Boost.Context's
// compiled stack_traits), a ucontext program needs nothing from
// libboost_context and does not link it.
//
// Compile exactly one such file into a program built with
// BOOST_USE_UCONTEXT against a Boost.Context library built for fcontext.

#if !defined(BOOST_USE_UCONTEXT)
#  error "ucontext_support.cpp is for programs built with BOOST_USE_UCONTEXT"
#endif

#include <boost/context/fiber.hpp>

namespace boost::context::detail {

namespace {
// The record of the thread's own context (the one it runs on when no fiber
// does), made on the thread's first switch and freed when it exits. By then
// the thread is back on its own context, so `current` is that record again.
struct thread_context {
    fiber_activation_record* const own = new fiber_activation_record();
    fiber_activation_record* current = own;

    thread_context() = default;
    thread_context(thread_context const&) = delete;
    thread_context& operator=(thread_context const&) = delete;
    ~thread_context() { delete own; }
};
} // namespace

// The record of whatever runs on this thread now: read and replaced by
// every resume.
fiber_activation_record*& fiber_activation_record::current() noexcept
{
    thread_local thread_context context;
    return context.current;
}

} // namespace boost::context::detail
