// Copyright 2026 The Boost.ForkJoin developers.
// Distributed under the Boost Software License, Version 1.0.
// (See accompanying file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
#ifndef BOOST_FORKJOIN_DETAIL_FORK_HANDLING_HPP
#define BOOST_FORKJOIN_DETAIL_FORK_HANDLING_HPP

// --- fork() -------------------------------------------------------------------
//
// fork() copies only the calling thread. In the child, every pool that
// existed in the parent has no workers, and its mutexes and condition
// variables may be held or waited on by threads that do not exist there: one
// lock, one notify, one join or one pthread_cond_destroy can hang the child.
// So the child must not touch those pools at all. A pthread_atfork handler
// counts forks in the child; a registry remembers the count it was built
// under (fork_stamp), and one built under an older count is *forked away*:
// submitting to it throws, and destroying it keeps its memory instead of
// joining and freeing (registry_base::shut_down, fork_stamp::keep_forever).

// The count itself is fork_generation (fork_generation.hpp), which the
// latches check too.

#include <boost/forkjoin/detail/config.hpp>
#include <boost/forkjoin/detail/current_worker.hpp>
#include <boost/forkjoin/detail/fork_generation.hpp>
#include <boost/forkjoin/errors.hpp>

#include <pthread.h>

#include <atomic>
#include <cstdint>
#include <memory>
#include <utility>

namespace boost::forkjoin::detail {

inline void note_fork_in_child() noexcept
{
    fork_generation.fetch_add(1, std::memory_order_relaxed);
    // If fork() was called by a job, this thread is no worker in the child.
    current_worker = nullptr;
}

inline void watch_for_fork() noexcept
{
    // An exchange instead of a function-local static: a fork that lands in
    // another thread's static initialization would leave the child waiting
    // on the initialization guard forever. Relaxed: two racing first calls
    // both see a registration done or underway, and pthread_atfork and fork
    // exclude each other.
    static constinit std::atomic<bool> registered{false};
    if (!registered.exchange(true, std::memory_order_relaxed))
        pthread_atfork(nullptr, nullptr, &note_fork_in_child);
}

// The fork generation a registry was built under, and what the registry
// does about being forked away.
class fork_stamp {
public:
    // Registers the atfork handler (once per process) before reading the
    // count: a fork after this point is counted in its child.
    fork_stamp() noexcept : fork_generation_((watch_for_fork(), fork_generation.load(std::memory_order_relaxed)))
    {
    }
    fork_stamp(fork_stamp const&) = delete;
    fork_stamp& operator=(fork_stamp const&) = delete;

    // Whether this registry was built in a parent process, before a fork()
    // that made this process.
    bool forked_away() const noexcept
    {
        return fork_generation_ != current_fork_generation();
    }

    // Called where a job returns into the pool (a worker's loop, a caller
    // slot's holder, a policy hook that a job's completion signal calls):
    // ends a child that a job forked and that got back here instead of
    // calling exec or _exit, before it runs another of the parent's jobs or
    // touches a lock of the parent's. On cold paths only: a job taken from
    // a queue, a notification.
    void refuse_a_return_after_fork() const noexcept
    {
        if (BOOST_FORKJOIN_UNLIKELY(forked_away()))
            fail_job_returned_after_fork();
    }

    // Throws pool_terminated if this registry was forked away.
    void check_not_forked_away() const
    {
        if (BOOST_FORKJOIN_UNLIKELY(forked_away()))
            throw pool_terminated(forked_away_message);
    }

    // A registry forked away is never destroyed: its mutexes and condition
    // variables may be held or waited on by threads of the parent, and
    // destroying them hangs (pthread_cond_destroy with waiters). It keeps
    // itself alive (`self`: the registry, from shared_from_this), on a list
    // that keeps it reachable for leak checkers.
    void keep_forever(std::shared_ptr<void> self) noexcept
    {
        kept_after_fork_ = std::move(self);
        // Release: a reader of the list sees the node complete; relaxed
        // failure, the loop rereads.
        fork_stamp* head = forked_away_registries.load(std::memory_order_relaxed);
        do
            next_forked_away_ = head;
        while (!forked_away_registries.compare_exchange_weak(head, this, std::memory_order_release,
                                                              std::memory_order_relaxed));
    }

private:
    static constexpr char const* forked_away_message =
        "boost::forkjoin: this pool was built before fork() and has no threads in the child process; build a "
        "new pool in the child";

    static inline constinit std::atomic<fork_stamp*> forked_away_registries{nullptr};

    std::uint32_t const fork_generation_;
    // A registry destroyed in a forked child keeps itself (keep_forever).
    std::shared_ptr<void> kept_after_fork_;
    fork_stamp* next_forked_away_ = nullptr;
};

} // namespace boost::forkjoin::detail

#endif // BOOST_FORKJOIN_DETAIL_FORK_HANDLING_HPP
