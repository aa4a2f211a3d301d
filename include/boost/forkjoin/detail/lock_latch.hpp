// Copyright 2026 The Boost.ForkJoin developers.
// Distributed under the Boost Software License, Version 1.0.
// (See accompanying file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
#ifndef BOOST_FORKJOIN_DETAIL_LOCK_LATCH_HPP
#define BOOST_FORKJOIN_DETAIL_LOCK_LATCH_HPP

// lock_latch: a mutex and condition variable for threads outside any pool,
// which have nothing better to do than block.

#include <condition_variable>
#include <mutex>

namespace boost::forkjoin::detail {

class lock_latch {
public:
    void set()
    {
        // Notify while holding the lock: the waiter may destroy the latch as
        // soon as it sees is_set_, so the notify must not come after unlock.
        std::lock_guard lock(mutex_);
        is_set_ = true;
        cv_.notify_all();
    }

    void wait()
    {
        std::unique_lock lock(mutex_);
        cv_.wait(lock, [this] { return is_set_; });
    }

private:
    std::mutex mutex_;
    std::condition_variable cv_;
    bool is_set_ = false;
};

} // namespace boost::forkjoin::detail

#endif // BOOST_FORKJOIN_DETAIL_LOCK_LATCH_HPP
