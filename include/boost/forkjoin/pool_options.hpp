// Copyright 2026 The Boost.ForkJoin developers.
// Distributed under the Boost Software License, Version 1.0.
// (See accompanying file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
#ifndef BOOST_FORKJOIN_POOL_OPTIONS_HPP
#define BOOST_FORKJOIN_POOL_OPTIONS_HPP

#include <boost/forkjoin/spin_budget.hpp>
#include <boost/forkjoin/thread_builder.hpp>

#include <chrono>
#include <cstddef>
#include <exception>
#include <functional>
#include <string>

namespace boost::forkjoin {

// How the deques order an owner's pop against a thief's steal (a
// store-buffering pair that needs a full fence on each side). See
// doc/design.adoc, "Asymmetric fences".
enum class fence_mode {
    // adaptive for pools of at most 8 workers where membarrier works,
    // symmetric otherwise.
    automatic,
    // The owner's pop pays only a compiler barrier; each steal pays a
    // membarrier(2) system call, which interrupts every CPU running a thread
    // of the process. Falls back to symmetric where membarrier is missing or
    // has failed.
    asymmetric,
    // A seq-cst fence on both sides: a locked instruction on every pop, no
    // system call.
    symmetric,
    // Each deque on its own: asymmetric while it is rarely stolen from,
    // symmetric while it is stolen from often. A thief that paid for a
    // membarrier asks the owner to fence; the owner fences until its fences
    // have cost about what one membarrier costs with no steal seen meanwhile,
    // then goes back (ski rental: never more than twice the cost of the
    // better fixed choice, whatever the work). Falls back to symmetric where
    // membarrier is missing or has failed.
    adaptive,
};

// Run-time settings of a pool, the counterpart of rayon's ThreadPoolBuilder.
// Every member has a usable default; set what you need with designated
// initializers: basic_thread_pool<P> pool{{.num_threads = 4}};
struct pool_options {
    // Worker count. 0 means: the FORKJOIN_NUM_THREADS environment variable if
    // it is set and not empty (a positive decimal number; anything else
    // makes the constructor throw std::invalid_argument), else the CPUs the
    // process may use: the hardware's count narrowed by the affinity mask and
    // the cgroup CPU quota (detail/available_parallelism.hpp), at most the
    // policy's max_threads.
    std::size_t num_threads = 0;

    // Name of worker `index` as the OS shows it (truncated to 15 bytes on
    // Linux). Empty: "forkjoin-<index>". Called on the thread that builds
    // the pool, before worker `index` starts: what it throws, the pool's
    // constructor throws.
    std::function<std::string(std::size_t index)> thread_name = {};

    // Stack size of each worker in bytes; 0 keeps the OS default.
    std::size_t stack_size = 0;

    // Run on each worker when it starts and just before it exits. An
    // exception escaping them goes to panic_handler; without one it calls
    // std::terminate.
    std::function<void(std::size_t index)> start_handler = {};
    std::function<void(std::size_t index)> exit_handler = {};

    // Receives exceptions that escape jobs started with spawn, spawn_fifo and
    // spawn_broadcast (the pool's, not a scope's). Without one, such an
    // exception calls std::terminate, as a panic in a rayon spawn aborts:
    // the work is lost and nobody could be told.
    std::function<void(std::exception_ptr)> panic_handler = {};

    // Called when no worker is active and at least one is blocked in user
    // code (see mark_blocked). Called with the sleep policy's locks held: it
    // must not call back into this pool (submit work, set something the pool
    // waits for, wait on a worker, mark_blocked/mark_unblocked), which ends
    // the program with a message; hand the news to another thread. An
    // exception escaping it goes to panic_handler (still under the locks);
    // without one it calls std::terminate.
    std::function<void()> deadlock_handler = {};

    // Workers take their own jobs oldest first (FIFO) instead of newest
    // first, while fewer than 64 jobs are nested on the worker's stack
    // (newest first beyond, or a recursive join overflows the stack). Not
    // for join (rayon deprecated it): a join waiting for its second half
    // runs older, unrelated jobs nested in its frame. spawn_fifo and
    // scope_fifo give FIFO order without these limits.
    bool breadth_first = false;

    // The stack of each fiber that spawn_future starts (see future.hpp):
    // 64 KiB by default. A fiber's stack is fixed: code it runs, and
    // everything that code calls, must fit; with fiber_guard_pages an
    // overflow ends the process with a message naming this option. Stacks
    // are cached per worker, so the size costs memory that is touched, not
    // system calls. At least min_fiber_stack_size, or the pool's constructor
    // throws std::invalid_argument.
    std::size_t fiber_stack_size = 64 * 1024;
    static constexpr std::size_t min_fiber_stack_size = 16 * 1024;

    // A PROT_NONE guard region (1 MiB of address space, no memory) below
    // each fiber stack, so that an overflow faults there, and is reported
    // ("a future's fiber overflowed its stack of N bytes; raise
    // pool_options::fiber_stack_size", then abort) instead of overwriting
    // other memory or dying of a bare SIGSEGV. On by default: stacks are
    // cached per worker, so the guard costs an mmap and an mprotect only
    // when a worker's cache is empty. Each guarded stack is two kernel
    // mappings, and Linux's default vm.max_map_count (65530) caps the
    // guarded fibers alive at once at about 32,000; beyond, a future's task
    // fails with std::system_error. A program that keeps more fibers alive
    // at once turns this off, and overflows then go undetected.
    bool fiber_guard_pages = true;

    // The longest an idle worker, or a thread outside the pool waiting for
    // it (install, a scope's end, a future's get), spins before it blocks.
    // Within this limit each thread learns how long its own waits last and
    // spins only through the ones spinning can catch (spin_budget.hpp): a
    // main-thread loop of short jobs finds its workers awake and is told of
    // the result without a system call, while a pool that gets a job every
    // millisecond goes to sleep a microsecond after each. Zero: never spin.
    // The default suits every machine measured; see
    // doc/policies_compared.adoc before changing it.
    std::chrono::nanoseconds spin_limit = spin_budget::default_limit;

    // The fences of the work-stealing deques (see fence_mode). The default
    // needs no tuning; choose symmetric for steal-heavy work on many cores,
    // asymmetric for fine-grained joins on a large pool that rarely steals
    // (doc/design.adoc, "Choosing the fence mode"). basic_thread_pool::
    // fences() tells which one the pool runs with.
    fence_mode fences = fence_mode::automatic;
    // Creates the thread of each worker, instead of the pool: called on the
    // constructing thread once per worker (but worker 0 with
    // use_current_thread or caller_slot), in index order, with a
    // thread_builder that a new thread must run() (see thread_builder.hpp).
    // What it throws, the constructor throws, after stopping the workers
    // already handed out.
    // The pool's destructor waits until every worker has returned from
    // run(). Empty: the pool starts its own threads, named by thread_name,
    // with stack_size.
    std::function<void(thread_builder)> spawn_handler = {};

    // The thread that builds the pool becomes its worker 0 instead of a new
    // thread (no start_handler or exit_handler runs for it). It runs the
    // pool's jobs only while it waits in the pool (a join whose other half
    // was stolen, the end of a scope, a broadcast) or yields (yield_now); it
    // must destroy the pool itself, outside any work of the pool. Not for
    // the global pool.
    bool use_current_thread = false;

    // Worker 0 gets no thread of its own: a thread outside every pool that
    // calls install takes worker 0's place for that call and works on its
    // job beside the pool's num_threads - 1 threads, as oneTBB's arena
    // seats its caller in a slot it keeps for it. A loop of short jobs from
    // one outside thread then runs with num_threads threads in all, none of
    // them waiting for another: on a machine with no more CPUs than
    // workers, a waiting caller is one runnable thread too many
    // (doc/policies_compared.adoc). One caller holds the place at a time;
    // the others wait for their jobs as without it. Jobs that find the
    // place empty run on the pool's threads (spawn, a future task's first
    // run, worker 0's share of a broadcast). Ignored with num_threads 1,
    // which would leave the pool no thread; not with use_current_thread.
    bool caller_slot = false;

    // Pools with lazy_joins only (lazy_joins.hpp): the longest a busy
    // worker keeps the second halves of its joins to itself while another
    // worker is idle, give or take the time its code runs between two
    // joins. At least once a heartbeat (and at the first join after it
    // found work) such a worker looks, and if workers are idle publishes
    // its oldest unpublished second halves, one per idle worker less the
    // jobs its deque already holds. Shorter:
    // thieves find work sooner, and the busy worker reads the clock more
    // often. Zero: look at every join. Negative: the constructor throws
    // std::invalid_argument. The default suits every workload measured
    // (doc/lazy_joins.adoc).
    std::chrono::nanoseconds heartbeat = std::chrono::microseconds(100);
};

} // namespace boost::forkjoin

#endif // BOOST_FORKJOIN_POOL_OPTIONS_HPP
