// Copyright 2026 The Boost.ForkJoin developers.
// Distributed under the Boost Software License, Version 1.0.
// (See accompanying file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
#ifndef BOOST_FORKJOIN_TEST_THREAD_STATE_HPP
#define BOOST_FORKJOIN_TEST_THREAD_STATE_HPP

// What the kernel says a thread of this process is doing, for tests whose
// scenario needs a thread to be blocked before they go on. Waiting for the
// state, not for a time that should be long enough, keeps such a test right
// on a host that holds a thread up for hundreds of milliseconds (a loaded
// CI machine under a sanitizer does). Linux only, like the suite.

#include <sys/types.h>
#include <unistd.h>

#include "wait_until.hpp"

#include <algorithm>
#include <chrono>
#include <fstream>
#include <span>
#include <string>

namespace test {

// Whether the thread `tid` of this process sleeps (state S): blocked in the
// kernel, a futex for the pools' workers, not spinning or yielding.
inline bool is_sleeping(pid_t tid)
{
    std::ifstream stat("/proc/self/task/" + std::to_string(tid) + "/stat");
    std::string line;
    std::getline(stat, line);
    auto const after_name = line.rfind(')'); // the name may hold spaces
    return after_name != std::string::npos && after_name + 2 < line.size() && line[after_name + 2] == 'S';
}

// Waits until every thread of `tids` sleeps at two looks a millisecond
// apart (one look could catch a worker blocked on a mutex for a moment);
// false if that has not happened within `limit`.
inline bool wait_until_all_sleep(std::span<pid_t const> tids,
                                 std::chrono::milliseconds limit = std::chrono::milliseconds(10'000))
{
    int looks_in_a_row = 0;
    return wait_until(
        [&] {
            bool const all_sleep = std::ranges::all_of(tids, is_sleeping);
            looks_in_a_row = all_sleep ? looks_in_a_row + 1 : 0;
            return looks_in_a_row == 2;
        },
        limit, std::chrono::milliseconds(1));
}

} // namespace test

#endif // BOOST_FORKJOIN_TEST_THREAD_STATE_HPP
