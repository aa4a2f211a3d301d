// Copyright 2026 The Boost.ForkJoin developers.
// Distributed under the Boost Software License, Version 1.0.
// (See accompanying file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
#ifndef BOOST_FORKJOIN_TEST_WAIT_UNTIL_HPP
#define BOOST_FORKJOIN_TEST_WAIT_UNTIL_HPP

// Waiting for another thread to get somewhere: a guard against a hang, never
// a timing check, so the limits are generous and the caller fails the test
// (or acts on it) when one passes.

#include <chrono>
#include <thread>

namespace test {

// Looks at `done()` every `poll` until it holds; false if it has not within
// `limit`. `done` may keep state between looks (to ask for two in a row).
template <class Done>
bool wait_until(Done done, std::chrono::nanoseconds limit = std::chrono::seconds(10),
                std::chrono::nanoseconds poll = std::chrono::microseconds(100))
{
    auto const deadline = std::chrono::steady_clock::now() + limit;
    while (!done()) {
        if (std::chrono::steady_clock::now() > deadline)
            return false;
        std::this_thread::sleep_for(poll);
    }
    return true;
}

} // namespace test

#endif // BOOST_FORKJOIN_TEST_WAIT_UNTIL_HPP
