// Copyright 2026 The Boost.ForkJoin developers.
// Distributed under the Boost Software License, Version 1.0.
// (See accompanying file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
#ifndef BOOST_FORKJOIN_DETAIL_START_GATE_HPP
#define BOOST_FORKJOIN_DETAIL_START_GATE_HPP

// Where a pool's workers wait until the pool's start() is done
// (registry_base::run_worker says why). Every worker waits at once, so not
// a lock_latch, which serves one waiter; and a worker blocks at once: the
// wait is as long as the rest of start(), and a spinning worker would slow
// the thread that hands the others out.

#include <condition_variable>
#include <mutex>

namespace boost::forkjoin::detail {

class start_gate {
public:
    // Opened once start() has handed out every worker, or when it gives up;
    // a second opening, by stop() after a failed start(), changes nothing.
    void open()
    {
        std::lock_guard const lock(mutex_);
        open_ = true;
        opened_.notify_all();
    }

    void wait()
    {
        std::unique_lock lock(mutex_);
        opened_.wait(lock, [this] { return open_; });
    }

private:
    std::mutex mutex_;
    std::condition_variable opened_;
    bool open_ = false; // guarded by mutex_
};

} // namespace boost::forkjoin::detail

#endif // BOOST_FORKJOIN_DETAIL_START_GATE_HPP
