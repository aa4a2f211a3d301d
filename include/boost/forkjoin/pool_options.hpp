// Copyright 2026 The Boost.ForkJoin developers.
// Distributed under the Boost Software License, Version 1.0.
// (See accompanying file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
#ifndef BOOST_FORKJOIN_POOL_OPTIONS_HPP
#define BOOST_FORKJOIN_POOL_OPTIONS_HPP

#include <cstddef>
#include <exception>
#include <functional>
#include <string>

namespace boost::forkjoin {

// Run-time settings of a pool, the counterpart of rayon's ThreadPoolBuilder.
// Every member has a usable default; set what you need with designated
// initializers: basic_thread_pool<P> pool{{.num_threads = 4}};
struct pool_options {
    // Worker count. 0 means: the FORKJOIN_NUM_THREADS environment variable if
    // it holds a positive number, else std::thread::hardware_concurrency().
    std::size_t num_threads = 0;

    // Name of worker `index` as the OS shows it (truncated to 15 bytes on
    // Linux). Empty: "forkjoin-<index>".
    std::function<std::string(std::size_t index)> thread_name;

    // Stack size of each worker in bytes; 0 keeps the OS default.
    std::size_t stack_size = 0;

    // Run on each worker when it starts and just before it exits. An
    // exception escaping them calls std::terminate.
    std::function<void(std::size_t index)> start_handler;
    std::function<void(std::size_t index)> exit_handler;

    // Receives exceptions that escape jobs started with spawn/spawn_fifo.
    // Without one, such an exception calls std::terminate, as a panic in a
    // rayon spawn aborts: the work is lost and nobody could be told.
    std::function<void(std::exception_ptr)> panic_handler;

    // Called when no worker is active and at least one is blocked in user
    // code (see mark_blocked). Called with an internal lock held: it must not
    // call mark_blocked/mark_unblocked itself; hand the news to another
    // thread.
    std::function<void()> deadlock_handler;

    // Workers take their own jobs oldest first (FIFO) instead of newest first.
    bool breadth_first = false;

    // The stack of each fiber that spawn_future starts (see future.hpp). A
    // fiber's stack is fixed: code it runs, and everything that code calls,
    // must fit. Stacks are cached per worker, so the size costs memory that
    // is touched, not system calls. At least min_fiber_stack_size, or the
    // pool's constructor throws std::invalid_argument.
    std::size_t fiber_stack_size = 64 * 1024;
    static constexpr std::size_t min_fiber_stack_size = 16 * 1024;

    // Put a PROT_NONE guard page below each fiber stack, so that an overflow
    // faults instead of silently overwriting other memory. Off by default:
    // each guarded stack is two kernel mappings and an mmap plus mprotect
    // when the per-worker cache is empty, and Linux's default
    // vm.max_map_count (65530) then caps the fibers alive at once at about
    // 32,000. Turn it on while developing, or when fibers run deep code.
    bool fiber_guard_pages = false;
};

} // namespace boost::forkjoin

#endif // BOOST_FORKJOIN_POOL_OPTIONS_HPP
