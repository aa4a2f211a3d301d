// Copyright 2026 The Boost.ForkJoin developers.
// Distributed under the Boost Software License, Version 1.0.
// (See accompanying file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
#ifndef BOOST_FORKJOIN_DETAIL_THREAD_COUNT_HPP
#define BOOST_FORKJOIN_DETAIL_THREAD_COUNT_HPP

// How many workers a pool gets when its options leave the count open.

#include <boost/forkjoin/detail/available_parallelism.hpp>
#include <boost/forkjoin/errors.hpp>

#include <algorithm>
#include <cstddef>
#include <cstdlib>
#include <stdexcept>
#include <string>
#include <string_view>
#include <thread>

namespace boost::forkjoin::detail {

// No pool starts more threads than this, whatever its policy can count.
inline constexpr std::size_t registry_thread_limit = 0xFFFF;

inline constexpr char const* num_threads_variable = "FORKJOIN_NUM_THREADS";

// The value of FORKJOIN_NUM_THREADS, or 0 when it is unset or empty.
// Only a plain positive decimal is a thread count: digits and nothing else,
// no sign, no space, at most registry_thread_limit. Anything else is a
// mistake the user should hear about rather than a value to guess at
// (strtoull would read "-1" as 2^64 - 1 and skip a leading space).
inline std::size_t num_threads_from_environment()
{
    char const* const env = std::getenv(num_threads_variable);
    if (env == nullptr || *env == '\0')
        return 0;
    std::string_view const text(env);
    auto quoted = [&] { return std::string(num_threads_variable) + "=\"" + std::string(text) + "\""; };
    std::size_t n = 0;
    for (char const c : text) {
        if (c < '0' || c > '9')
            throw std::invalid_argument("boost::forkjoin: " + quoted()
                                        + " is not a thread count: use a positive decimal number such as 4");
        // Saturate instead of overflowing: every count above the limit is
        // reported the same way.
        n = std::min(n * 10 + static_cast<std::size_t>(c - '0'), registry_thread_limit + 1);
    }
    if (n == 0)
        throw std::invalid_argument("boost::forkjoin: " + quoted()
                                    + " is not a thread count: it must be at least 1 (unset it for the default)");
    if (n > registry_thread_limit)
        throw too_many_threads("boost::forkjoin: " + quoted() + " asks for more threads than the "
                               + std::to_string(registry_thread_limit) + " a pool may have");
    return n;
}

// The default count: the CPUs this process may really use, affinity mask
// and cgroup quota included (available_parallelism.hpp); 1 where the
// platform cannot tell.
inline std::size_t hardware_num_threads() { return available_parallelism(); }

} // namespace boost::forkjoin::detail

#endif // BOOST_FORKJOIN_DETAIL_THREAD_COUNT_HPP
