// Copyright 2026 The Boost.ForkJoin developers.
// Distributed under the Boost Software License, Version 1.0.
// (See accompanying file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
#ifndef BOOST_FORKJOIN_TEST_WATCHDOG_HPP
#define BOOST_FORKJOIN_TEST_WATCHDOG_HPP

// A guard against hangs, never a timing check: a test whose failure mode is
// a deadlock holds a watchdog, which ends the process with a message naming
// the test if the guarded region has not finished after a generous limit.
// A hung pool cannot be unwound (its workers wait forever), so the process
// exits rather than throwing. `report`, if given, says what the test had
// done by then (a pool's counters, say), so that a lost wake-up shows up as
// a failure with its evidence rather than as a CI time-out.

#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <mutex>
#include <string>
#include <thread>

namespace test {

class watchdog {
public:
    explicit watchdog(std::string what, std::chrono::seconds limit = std::chrono::seconds(120),
                      std::function<std::string()> report = {})
        : what_(std::move(what)), report_(std::move(report)), thread_([this, limit] { watch(limit); })
    {
    }

    watchdog(watchdog const&) = delete;
    watchdog& operator=(watchdog const&) = delete;

    ~watchdog()
    {
        {
            std::lock_guard lock(mutex_);
            done_ = true;
        }
        cv_.notify_one();
        thread_.join();
    }

private:
    void watch(std::chrono::seconds limit)
    {
        std::unique_lock lock(mutex_);
        if (!cv_.wait_for(lock, limit, [this] { return done_; })) {
            std::fprintf(stderr, "watchdog: '%s' still running after %lld s: hung%s%s\n", what_.c_str(),
                         static_cast<long long>(limit.count()), report_ ? "; " : "",
                         report_ ? report_().c_str() : "");
            std::fflush(stderr);
            std::_Exit(3);
        }
    }

    std::string what_;
    std::function<std::string()> report_;
    std::mutex mutex_;
    std::condition_variable cv_;
    bool done_ = false;
    std::thread thread_;
};

} // namespace test

#endif // BOOST_FORKJOIN_TEST_WATCHDOG_HPP
