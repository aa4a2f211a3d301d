// Copyright 2026 The Boost.ForkJoin developers.
// Distributed under the Boost Software License, Version 1.0.
// (See accompanying file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
#ifndef BOOST_FORKJOIN_IMPL_GLOBAL_POOL_IPP
#define BOOST_FORKJOIN_IMPL_GLOBAL_POOL_IPP

// How the global pool is built, published and shut down at exit
// (global_pool.hpp says what a user may rely on). Included by
// global_pool.hpp in header-only use, compiled once by src.hpp otherwise.

#include <boost/forkjoin/errors.hpp>
#include <boost/forkjoin/global_pool.hpp>
#include <boost/forkjoin/pool_options.hpp>
#include <boost/forkjoin/thread_pool.hpp>

#include <pthread.h>

#include <atomic>
#include <chrono>
#include <cstdlib>
#include <functional>
#include <mutex>
#include <new>
#include <stdexcept>
#include <thread>

namespace boost::forkjoin {

namespace detail {
inline constinit std::mutex global_pool_mutex;
inline constinit std::atomic<thread_pool*> global_pool_instance{nullptr};

inline void shut_down_global_pool() noexcept
{
    // Exchange, so that the pool is shut down once even if exit handlers
    // race. Acquire: we see the pool fully built (create_global_pool's
    // release store).
    static constinit std::atomic<bool> done{false};
    thread_pool* const pool = global_pool_instance.load(std::memory_order_acquire);
    if (pool == nullptr || done.exchange(true, std::memory_order_relaxed))
        return;
    if (pool->registry().owns(current_worker))
        return; // exit called on one of its workers: it cannot wait for itself
    pool->registry().shut_down_at_exit();
}

// A fork() while another thread holds global_pool_mutex (building the
// global pool) would leave the child's copy locked forever. In the child,
// where that thread does not exist, make it a fresh mutex; the pool it was
// building never gets published there.
inline void reset_global_pool_mutex_in_child() noexcept { new (&global_pool_mutex) std::mutex; }

inline void watch_global_pool_mutex_for_fork() noexcept
{
    // See watch_for_fork (fork_handling.hpp) for why not a static local.
    static constinit std::atomic<bool> registered{false};
    if (!registered.exchange(true, std::memory_order_relaxed))
        pthread_atfork(nullptr, nullptr, &reset_global_pool_mutex_in_child);
}

// Whether shut_down_global_pool is registered with atexit. Guarded by
// global_pool_mutex, and not a static local: a fork() while another thread
// ran a static local's initializer would leave the child waiting on its
// guard for ever (watch_for_fork, fork_handling.hpp, says the same). A child
// forked in between a registration and this flag registers the handler a
// second time, which shut_down_global_pool's own flag makes harmless.
inline constinit bool global_pool_exit_handler_registered = false;

// Sets one of the thread-local flags below for as long as it lives.
class raised_flag {
public:
    explicit raised_flag(bool& flag) noexcept : flag_(flag) { flag_ = true; }
    raised_flag(raised_flag const&) = delete;
    raised_flag& operator=(raised_flag const&) = delete;
    ~raised_flag() { flag_ = false; }

private:
    bool& flag_;
};

// True while this thread builds the global pool. Its thread_name or
// spawn_handler, which run then, would otherwise wait for ever for the
// mutex this thread holds if they used the global pool.
inline constinit thread_local bool building_global_pool_here = false;

inline void check_not_building_global_pool_here()
{
    if (building_global_pool_here)
        throw std::logic_error("boost::forkjoin: the global pool was used while it was being built, by its own "
                               "pool_options::thread_name or spawn_handler");
}

// True while this thread, a worker of the global pool, runs its
// start_handler or exit_handler. Those may run before the pool is published
// (start_handler), or while a build that failed stops the workers (both),
// under global_pool_mutex held by the building thread: global_pool() must
// not wait for that mutex there (wait_for_global_pool_being_built).
inline constinit thread_local bool in_a_global_pool_handler = false;

// The handler, run with in_a_global_pool_handler set; empty stays empty.
inline std::function<void(std::size_t)> marked_as_global_pool_handler(std::function<void(std::size_t)> handler)
{
    if (!handler)
        return handler;
    return [handler = std::move(handler)](std::size_t index) {
        raised_flag const in_handler(in_a_global_pool_handler);
        handler(index);
    };
}

// global_pool() from a handler of the global pool before it is published:
// its build is still under way on another thread, which holds the mutex.
// If the build succeeds the pool is published soon (the constructor does
// not wait for start handlers); if it fails, the builder stops the workers,
// still holding the mutex, and waits for this one. So poll for either: the
// pool, or this worker's order to leave. Rare, so a plain sleep.
[[nodiscard]] inline thread_pool& wait_for_global_pool_being_built()
{
    using namespace std::chrono_literals;
    for (;;) {
        // Acquire: pairs with the release store in create_global_pool.
        if (thread_pool* pool = global_pool_instance.load(std::memory_order_acquire))
            return *pool;
        if (current_worker->terminate_latch().probe())
            throw pool_terminated("boost::forkjoin: the global pool was used by its own start_handler or "
                                  "exit_handler while its build failed");
        std::this_thread::sleep_for(50us);
    }
}

// Precondition: global_pool_mutex is held and there is no global pool.
inline thread_pool& create_global_pool(pool_options options)
{
    if (options.use_current_thread)
        throw std::invalid_argument("boost::forkjoin::build_global: use_current_thread is not supported for the "
                                    "global pool: its exit handler could not wait for a worker that is the "
                                    "thread running exit");
    options.start_handler = marked_as_global_pool_handler(std::move(options.start_handler));
    options.exit_handler = marked_as_global_pool_handler(std::move(options.exit_handler));
    thread_pool* pool = nullptr;
    {
        raised_flag const building(building_global_pool_here);
        pool = new thread_pool(std::move(options));
    }
    // Before publication, so before any task of the pool can park.
    pool->registry().forgive_parked_tasks_at_exit();
    // If registration fails the pool simply lives to the end.
    if (!global_pool_exit_handler_registered)
        global_pool_exit_handler_registered = std::atexit(&shut_down_global_pool) == 0;
    // Release: a thread that loads the pointer sees a fully built pool.
    global_pool_instance.store(pool, std::memory_order_release);
    return *pool;
}
} // namespace detail

BOOST_FORKJOIN_NOINLINE BOOST_FORKJOIN_DECL thread_pool& global_pool()
{
    // Acquire: pairs with the release store in create_global_pool.
    if (thread_pool* pool = detail::global_pool_instance.load(std::memory_order_acquire))
        return *pool;
    detail::check_not_building_global_pool_here();
    if (detail::in_a_global_pool_handler)
        return detail::wait_for_global_pool_being_built();
    detail::watch_global_pool_mutex_for_fork();
    std::lock_guard lock(detail::global_pool_mutex);
    if (thread_pool* pool = detail::global_pool_instance.load(std::memory_order_relaxed))
        return *pool;
    return detail::create_global_pool({});
}

BOOST_FORKJOIN_DECL void build_global(pool_options options)
{
    detail::check_not_building_global_pool_here();
    // On a worker of the global pool, in its handler: the pool exists, or
    // is being built, and that build holds the lock (global_pool() says
    // why waiting for it there could be for ever).
    if (detail::in_a_global_pool_handler)
        throw global_pool_already_initialized();
    detail::watch_global_pool_mutex_for_fork();
    std::lock_guard lock(detail::global_pool_mutex);
    if (detail::global_pool_instance.load(std::memory_order_relaxed) != nullptr)
        throw global_pool_already_initialized();
    detail::create_global_pool(std::move(options));
}

} // namespace boost::forkjoin

#endif // BOOST_FORKJOIN_IMPL_GLOBAL_POOL_IPP
