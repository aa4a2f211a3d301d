// Copyright 2026 The Boost.ForkJoin developers.
// Distributed under the Boost Software License, Version 1.0.
// (See accompanying file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
#ifndef BOOST_FORKJOIN_TEST_PANICS_HPP
#define BOOST_FORKJOIN_TEST_PANICS_HPP

// A panic handler for tests that check where the exceptions of their jobs
// or handlers go: it counts the std::runtime_errors whose what() is `what`.
// Any other exception escapes the handler, and the pool then terminates, so
// a test never counts what it did not throw.

#include <atomic>
#include <exception>
#include <functional>
#include <stdexcept>
#include <string>
#include <utility>

namespace test {

inline std::function<void(std::exception_ptr)> count_panics(std::atomic<int>& count, std::string what)
{
    return [&count, what = std::move(what)](std::exception_ptr e) {
        try {
            std::rethrow_exception(e);
        } catch (std::runtime_error const& error) {
            if (error.what() == what)
                ++count;
        }
    };
}

} // namespace test

#endif // BOOST_FORKJOIN_TEST_PANICS_HPP
