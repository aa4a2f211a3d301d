// Copyright 2026 The Boost.ForkJoin developers.
// Distributed under the Boost Software License, Version 1.0.
// (See accompanying file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
#ifndef BOOST_FORKJOIN_DETAIL_FIBER_EXCEPTIONS_HPP
#define BOOST_FORKJOIN_DETAIL_FIBER_EXCEPTIONS_HPP

// Each fiber's own exception-handling state.
//
// The Itanium C++ ABI keeps, per thread, the stack of exceptions being
// handled (the `catch` blocks entered and not yet left, which `throw;` and
// std::current_exception read) and the count of exceptions thrown and not
// yet caught (std::uncaught_exceptions). Both live in the thread's
// __cxa_eh_globals. Fibers switched on one thread share it: a fiber that
// parks inside a `catch` block leaves its exception on top of the thread's
// stack, the next fiber's `catch` pushes on top of it, and whichever leaves
// first pops the other's (the caught-exception stack is a linked list
// through the exception objects). `throw;` then rethrows another fiber's
// exception, or none; before this file, 2,000 tasks that awaited inside a
// `catch` block rethrew their own exception 417 times.
//
// So the state is per fiber (folly::fibers does the same): the worker swaps the thread's state with the fiber's
// saved one when it resumes the fiber, and swaps back when the fiber
// switches out (fiber_task_base::run, the one place where a worker enters
// and leaves a fiber). The worker's own state (it may resume a fiber from
// inside a `catch` block of a job on its stack) is kept in the fiber's slot
// meanwhile. Two swaps of two words per switch, on memory the switch
// touches anyway; the thread's globals are found once per run of the job
// (this_thread_eh_globals).
//
// The layout is the ABI's (Itanium C++ ABI 2.2.2, "__cxa_eh_globals"), as
// libstdc++'s libsupc++ and LLVM's libc++abi both define it; the ARM EHABI
// unwinder adds a third field.

#include <boost/forkjoin/detail/config.hpp>

#if defined(__has_include)
#  if __has_include(<cxxabi.h>)
#    include <cxxabi.h>
#    define BOOST_FORKJOIN_FIBER_EH_GLOBALS 1
#  endif
#endif

#include <cstring>

namespace boost::forkjoin::detail {

#if defined(BOOST_FORKJOIN_FIBER_EH_GLOBALS)

struct eh_globals {
    void* caught_exceptions = nullptr;   // the innermost exception being handled
    unsigned int uncaught_exceptions = 0; // std::uncaught_exceptions()
#  if defined(__ARM_EABI_UNWINDER__)
    void* propagating_exceptions = nullptr;
#  endif
};

// The calling thread's state. Only the thread itself reads or writes it.
// __cxa_get_globals is a call into the C++ runtime: with a shared
// libstdc++, through the PLT and __tls_get_addr, about 20 instructions,
// which cost 80 instructions per park-unpark round trip (two resumes) when
// called once per resume (callgrind, test program's worker thread). The
// address is fixed for the thread's life, so it is kept in a constinit
// thread_local of ours, which a program reads with one or two instructions
// (initial-exec, config.hpp).
inline eh_globals* this_thread_eh_globals() noexcept
{
    static constinit thread_local eh_globals* cached BOOST_FORKJOIN_INITIAL_EXEC_TLS = nullptr;
    eh_globals* globals = cached;
    if (BOOST_FORKJOIN_UNLIKELY(globals == nullptr))
        cached = globals = reinterpret_cast<eh_globals*>(abi::__cxa_get_globals());
    return globals;
}

class fiber_exceptions {
public:
    // On the worker, right before it resumes the fiber: the thread takes
    // the fiber's state, the fiber's slot keeps the worker's. A new fiber's
    // state is empty (nothing caught, nothing in flight), as a new thread's.
    void enter(eh_globals* thread) noexcept { swap(thread); }
    // On the worker, right after the fiber switched back: the reverse.
    void leave(eh_globals* thread) noexcept { swap(thread); }

private:
    // The whole object, padding included (it is the runtime's object too,
    // of the same size): on x86-64 two 16-byte loads and two stores, where
    // a member-wise std::swap took nine instructions.
    void swap(eh_globals* thread) noexcept
    {
        unsigned char held[sizeof(eh_globals)];
        std::memcpy(held, thread, sizeof held);
        std::memcpy(static_cast<void*>(thread), &saved_, sizeof held);
        std::memcpy(static_cast<void*>(&saved_), held, sizeof held);
    }

    eh_globals saved_{};
};

#else

// An ABI without __cxa_eh_globals (none this library builds on today):
// nothing to swap, and awaiting inside a `catch` block is not supported.
struct eh_globals {};
inline eh_globals* this_thread_eh_globals() noexcept { return nullptr; }
class fiber_exceptions {
public:
    void enter(eh_globals*) noexcept {}
    void leave(eh_globals*) noexcept {}
};

#endif

} // namespace boost::forkjoin::detail

#endif // BOOST_FORKJOIN_DETAIL_FIBER_EXCEPTIONS_HPP
