// Copyright 2026 The Boost.ForkJoin developers.
// Distributed under the Boost Software License, Version 1.0.
// (See accompanying file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
#ifndef BOOST_FORKJOIN_DETAIL_THREAD_COUNT_HPP
#define BOOST_FORKJOIN_DETAIL_THREAD_COUNT_HPP

// How many workers a pool gets when its options leave the count open.

#include <cstddef>
#include <cstdlib>
#include <thread>

namespace boost::forkjoin::detail {

// No pool starts more threads than this, whatever its policy can count.
inline constexpr std::size_t registry_thread_limit = 0xFFFF;

inline std::size_t default_num_threads()
{
    if (char const* env = std::getenv("FORKJOIN_NUM_THREADS")) {
        char* end = nullptr;
        unsigned long long const n = std::strtoull(env, &end, 10);
        if (end != env && *end == '\0' && n > 0)
            return static_cast<std::size_t>(n);
    }
    unsigned const hw = std::thread::hardware_concurrency();
    return hw == 0 ? 1 : hw;
}

} // namespace boost::forkjoin::detail

#endif // BOOST_FORKJOIN_DETAIL_THREAD_COUNT_HPP
