// Copyright 2026 The Boost.ForkJoin developers.
// Distributed under the Boost Software License, Version 1.0.
// (See accompanying file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
#ifndef BOOST_FORKJOIN_DETAIL_DEADLOCK_DETECTOR_HPP
#define BOOST_FORKJOIN_DETAIL_DEADLOCK_DETECTOR_HPP

// The deadlock accounting of the legacy sleep README's last section, shared
// by the policies that block:
//
//   worker_count     threads in the pool
//   active_threads   neither asleep in the policy nor blocked in user code
//   blocked_threads  blocked in user code (between mark_blocked and
//                    mark_unblocked)
//
// A deadlock is: active_threads == 0 and blocked_threads > 0. The pool itself
// cannot deadlock (an idle pool with nobody blocked is just idle), so only
// user blocking can cause it, and this condition misses none. It is checked
// when a thread falls asleep and when one marks itself blocked. The handler
// runs with the lock held, as in rayon; it must hand the news to a thread
// outside the pool (the registry ends the program, with a message, on a
// call from the handler back into the pool, which would take the lock again:
// pool_handlers::refuse_calls_from_deadlock_handler).

#include <cstddef>
#include <functional>
#include <mutex>
#include <stdexcept>

namespace boost::forkjoin::detail {

class deadlock_detector {
public:
    deadlock_detector(std::size_t worker_count, std::function<void()> handler)
        : worker_count_(worker_count), active_threads_(worker_count), handler_(std::move(handler))
    {
    }

    // The calling worker is about to block in the policy.
    void thread_falling_asleep()
    {
        std::lock_guard lock(mutex_);
        --active_threads_;
        check();
    }

    // `count` sleeping workers were woken by another thread.
    void threads_woken(std::size_t count)
    {
        std::lock_guard lock(mutex_);
        active_threads_ += count;
    }

    // Every sleeping worker was woken (legacy's notify_all): all that are
    // not blocked in user code are active again.
    void all_threads_woken()
    {
        std::lock_guard lock(mutex_);
        active_threads_ = worker_count_ - blocked_threads_;
    }

    void mark_blocked()
    {
        std::lock_guard lock(mutex_);
        ++blocked_threads_;
        --active_threads_;
        check();
    }

    // Throws std::logic_error if no worker is marked blocked: the count
    // would wrap around, and no deadlock would be reported again.
    void mark_unblocked()
    {
        std::lock_guard lock(mutex_);
        if (blocked_threads_ == 0)
            throw std::logic_error("boost::forkjoin::mark_unblocked: no worker of the pool is marked blocked "
                                   "(each mark_unblocked must follow its own mark_blocked)");
        --blocked_threads_;
        ++active_threads_;
    }

private:
    // The registry hands policies a handler that routes its own exceptions
    // to the panic handler (pool_handlers::guarded_deadlock_handler), so
    // none escapes into the sleep path from here.
    void check()
    {
        if (active_threads_ == 0 && blocked_threads_ > 0 && handler_)
            handler_();
    }

    std::mutex mutex_;
    std::size_t const worker_count_;
    std::size_t active_threads_;
    std::size_t blocked_threads_ = 0;
    std::function<void()> const handler_;
};

} // namespace boost::forkjoin::detail

#endif // BOOST_FORKJOIN_DETAIL_DEADLOCK_DETECTOR_HPP
