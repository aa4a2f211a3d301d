// Copyright 2026 The Boost.ForkJoin developers.
// Distributed under the Boost Software License, Version 1.0.
// (See accompanying file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
#ifndef BOOST_FORKJOIN_DETAIL_STACK_OVERFLOW_HPP
#define BOOST_FORKJOIN_DETAIL_STACK_OVERFLOW_HPP

// A fiber that overflows its stack is reported, not left to a bare
// "Segmentation fault".
//
// A guarded fiber stack has a PROT_NONE region below it (stack_pool.hpp), so
// an overflow faults there. A SIGSEGV handler, running on an alternate
// signal stack (the faulting thread's own stack is the one that overflowed),
// asks the worker which fiber it is running (worker_thread::current_fiber,
// set around every resume anyway: nothing is added to a switch) and whether
// the faulting address lies in that fiber's guard region. If so it writes
//
//   boost::forkjoin: a future's fiber overflowed its stack of 65536 bytes;
//   raise pool_options::fiber_stack_size
//
// to stderr with write(2) and calls abort(), both async-signal-safe. Any
// other SIGSEGV is handed to the handler installed before ours, as if ours
// were not there: its SA_SIGINFO or plain form, its mask, its SA_RESETHAND;
// a default or ignored disposition is restored and the fault happens again
// on return (a kill(2)ed SIGSEGV is raised again instead), so a null
// pointer on a fiber still dies of a plain SIGSEGV with its core dump.
//
// Installation is on the cold path only: each time a worker maps a guarded
// stack afresh (prepare_stack_overflow_reports, from the stack allocator;
// never in the steady state, where stacks come from the worker's cache):
//  * the thread gets an alternate signal stack unless it has one already
//    (a thread_local of ours, disabled and freed when the thread exits);
//  * the process's SIGSEGV disposition is checked, and ours installed (the
//    old one kept to chain to) if it is not there. Checked each time rather
//    than once, because others replace it: Boost.Test installs and restores
//    its own around every test case, a forked child may reset it.
// Each check is a system call next to the mmap and mprotect of the stack.
//
// Not installed under AddressSanitizer or ThreadSanitizer, whose runtimes
// handle SIGSEGV themselves (ASan reports stack overflows on its own) and
// intercept sigaction: there an overflow is the sanitizer's report.
//
// What it cannot catch: a frame larger than the guard region (1 MiB), built
// without -fstack-clash-protection, can still step over it; an overflow of
// a stack without guard pages (pool_options::fiber_guard_pages = false)
// overwrites what lies below. Neither is reported.

#include <boost/forkjoin/detail/config.hpp>
#include <boost/forkjoin/detail/registry_base.hpp>
#include <boost/forkjoin/detail/running_fiber.hpp>
#include <boost/forkjoin/detail/stack_pool.hpp>

#include <cerrno>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <mutex>

#include <pthread.h>
#include <signal.h>
#include <sys/mman.h>
#include <unistd.h>

#if !defined(BOOST_FORKJOIN_ASAN) && !defined(BOOST_FORKJOIN_TSAN)
#  define BOOST_FORKJOIN_STACK_OVERFLOW_HANDLER 1
#endif

namespace boost::forkjoin::detail {

#if defined(BOOST_FORKJOIN_STACK_OVERFLOW_HANDLER)

class stack_overflow_handler {
public:
    // On a worker that has just mapped a guarded fiber stack. Best effort:
    // if the alternate stack cannot be had, an overflow is a plain SIGSEGV,
    // as before (the handler could not run on the overflowed stack).
    static void prepare() noexcept
    {
        this_thread_alternate_stack().ensure();
        install();
    }

private:
    // The disposition before ours, to chain to. Written under install_mutex
    // before our handler is installed (sigaction is the barrier: the
    // handler cannot run before the kernel knows it), read by the handler.
    // A replacement of our handler by someone else, then a reinstall of
    // ours, rewrites it while the kernel runs theirs, not ours.
    static inline struct sigaction previous_{};
    static inline std::mutex install_mutex_;

    static void install() noexcept
    {
        std::lock_guard<std::mutex> lock(install_mutex_);
        struct sigaction current{};
        if (::sigaction(SIGSEGV, nullptr, &current) != 0)
            return;
        if ((current.sa_flags & SA_SIGINFO) != 0 && current.sa_sigaction == &on_segv)
            return; // ours already
        previous_ = current;
        struct sigaction ours{};
        ours.sa_sigaction = &on_segv;
        sigemptyset(&ours.sa_mask);
        // SA_ONSTACK: the faulting stack is full. Not SA_RESETHAND: we are
        // installed for every fault, and chain the others.
        ours.sa_flags = SA_SIGINFO | SA_ONSTACK;
        ::sigaction(SIGSEGV, &ours, nullptr);
    }

    static void on_segv(int signal, siginfo_t* info, void* context) noexcept
    {
        int const saved_errno = errno;
        // si_code > 0: raised by the kernel for a fault, not sent by kill.
        // A constinit thread_local: no initialization on first use, and this
        // thread has read it already (it runs a fiber), so no allocation.
        if (info != nullptr && info->si_code > 0) {
            worker_thread const* const worker = current_worker;
            running_fiber const* const fiber = worker != nullptr ? worker->current_fiber() : nullptr;
            if (fiber != nullptr && fiber->overflowed_at(reinterpret_cast<std::uintptr_t>(info->si_addr)))
                report_and_abort(fiber->stack_size());
        }
        chain(signal, info, context);
        errno = saved_errno;
    }

    [[noreturn]] static void report_and_abort(std::size_t size) noexcept
    {
        char digits[24];
        std::size_t n = 0;
        do {
            digits[n++] = static_cast<char>('0' + size % 10);
            size /= 10;
        } while (size != 0 && n < sizeof digits);
        char message[192];
        std::size_t length = 0;
        auto append = [&](char const* text) {
            while (*text != '\0' && length < sizeof message)
                message[length++] = *text++;
        };
        append("boost::forkjoin: a future's fiber overflowed its stack of ");
        while (n != 0 && length < sizeof message)
            message[length++] = digits[--n];
        append(" bytes; raise pool_options::fiber_stack_size\n");
        for (std::size_t written = 0; written < length;) {
            ssize_t const w = ::write(STDERR_FILENO, message + written, length - written);
            if (w <= 0 && errno != EINTR)
                break;
            if (w > 0)
                written += static_cast<std::size_t>(w);
        }
        std::abort();
    }

    // What would have happened without us.
    static void chain(int signal, siginfo_t* info, void* context) noexcept
    {
        struct sigaction const previous = previous_;
        bool const is_function = (previous.sa_flags & SA_SIGINFO) != 0
                                     ? previous.sa_sigaction != nullptr
                                     : previous.sa_handler != SIG_DFL && previous.sa_handler != SIG_IGN;
        if (!is_function) {
            bool const sent = info == nullptr || info->si_code <= 0;
            if (previous.sa_handler == SIG_IGN && sent)
                return; // an ignored SIGSEGV from kill(2) stays ignored
            // The default action. A fault happens again when we return
            // (the kernel kills even through SIG_IGN for a fault); a sent
            // signal is sent again, delivered once we return (SIGSEGV is
            // blocked while its handler runs).
            struct sigaction default_action{};
            default_action.sa_handler = SIG_DFL;
            sigemptyset(&default_action.sa_mask);
            ::sigaction(SIGSEGV, &default_action, nullptr);
            if (sent)
                ::raise(SIGSEGV);
            return;
        }
        // Its handler, as the kernel would have run it: its one-shot flag
        // honoured, its mask added (the kernel restores ours on return).
        if ((previous.sa_flags & SA_RESETHAND) != 0) {
            struct sigaction default_action{};
            default_action.sa_handler = SIG_DFL;
            sigemptyset(&default_action.sa_mask);
            ::sigaction(SIGSEGV, &default_action, nullptr);
        }
        sigset_t mask = previous.sa_mask;
        if ((previous.sa_flags & SA_NODEFER) == 0)
            sigaddset(&mask, signal);
        ::pthread_sigmask(SIG_BLOCK, &mask, nullptr);
        if ((previous.sa_flags & SA_SIGINFO) != 0)
            previous.sa_sigaction(signal, info, context);
        else
            previous.sa_handler(signal);
    }

    // This thread's alternate signal stack, if it had none of its own.
    class alternate_stack {
    public:
        alternate_stack() = default;
        alternate_stack(alternate_stack const&) = delete;
        alternate_stack& operator=(alternate_stack const&) = delete;

        ~alternate_stack()
        {
            if (memory_ == nullptr)
                return;
            stack_t current{};
            if (::sigaltstack(nullptr, &current) == 0 && (current.ss_flags & SS_DISABLE) == 0
                && current.ss_sp == memory_) {
                stack_t off{};
                off.ss_flags = SS_DISABLE;
                ::sigaltstack(&off, nullptr);
            }
            ::munmap(memory_, size);
        }

        // A thread that has an alternate stack (Boost.Test's main thread,
        // a user's) keeps it. Checked each time: a forked child may have
        // disabled ours.
        void ensure() noexcept
        {
            stack_t current{};
            if (::sigaltstack(nullptr, &current) != 0 || (current.ss_flags & SS_DISABLE) == 0)
                return;
            if (memory_ == nullptr) {
                void* const memory =
                    ::mmap(nullptr, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
                if (memory == MAP_FAILED)
                    return;
                memory_ = memory;
            }
            stack_t ours{};
            ours.ss_sp = memory_;
            ours.ss_size = size;
            ours.ss_flags = 0;
            ::sigaltstack(&ours, nullptr);
        }

    private:
        // Room for our handler and for a chained one (SIGSTKSZ is 8 KiB on
        // glibc, and not a constant from 2.34 on); only touched pages cost.
        static constexpr std::size_t size = 64 * 1024;
        void* memory_ = nullptr;
    };

    static alternate_stack& this_thread_alternate_stack() noexcept
    {
        static thread_local alternate_stack stack;
        return stack;
    }
};

inline void prepare_stack_overflow_reports() noexcept { stack_overflow_handler::prepare(); }

#else

inline void prepare_stack_overflow_reports() noexcept {}

#endif

} // namespace boost::forkjoin::detail

#endif // BOOST_FORKJOIN_DETAIL_STACK_OVERFLOW_HPP
