// Copyright 2026 The Boost.ForkJoin developers.
// Distributed under the Boost Software License, Version 1.0.
// (See accompanying file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
#ifndef BOOST_FORKJOIN_TEST_CHANNEL_HPP
#define BOOST_FORKJOIN_TEST_CHANNEL_HPP

// The channel the ported rayon-core tests send their observations through:
// any thread sends, the test thread waits for a given number of values.
// Boost.Test is not thread-safe, so workers never check anything
// themselves. Pair a wait with a test::watchdog where a bug would hang it.

#include <condition_variable>
#include <cstddef>
#include <mutex>
#include <vector>

namespace test {

template <class T>
class channel {
public:
    void send(T value)
    {
        // Notify under the lock: the receiver may destroy the channel as soon
        // as it sees the value, so the sender must not touch it afterwards.
        std::lock_guard lock(mutex_);
        values_.push_back(std::move(value));
        cv_.notify_all();
    }

    // Waits until `count` values have been sent; returns all sent so far,
    // in the order they were sent.
    std::vector<T> receive(std::size_t count)
    {
        std::unique_lock lock(mutex_);
        cv_.wait(lock, [&] { return values_.size() >= count; });
        return values_;
    }

    // What has been sent so far.
    std::vector<T> received()
    {
        std::lock_guard lock(mutex_);
        return values_;
    }

private:
    std::mutex mutex_;
    std::condition_variable cv_;
    std::vector<T> values_;
};

} // namespace test

#endif // BOOST_FORKJOIN_TEST_CHANNEL_HPP
