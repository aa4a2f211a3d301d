// Copyright 2026 The Boost.ForkJoin developers.
// Distributed under the Boost Software License, Version 1.0.
// (See accompanying file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
#ifndef BOOST_FORKJOIN_TEST_SPAWN_ORDER_HPP
#define BOOST_FORKJOIN_TEST_SPAWN_ORDER_HPP

// The order rayon's lifo_order/fifo_order tests expect from 10 outer jobs
// that each spawn 10 inner ones and record outer * 10 + inner: the tens and
// the units each counting down (newest first) or up (oldest first).

#include <vector>

namespace test {

inline std::vector<int> tens_then_units(bool tens_down, bool units_down)
{
    std::vector<int> v;
    for (int a = 0; a < 10; ++a)
        for (int b = 0; b < 10; ++b)
            v.push_back((tens_down ? 9 - a : a) * 10 + (units_down ? 9 - b : b));
    return v;
}

} // namespace test

#endif // BOOST_FORKJOIN_TEST_SPAWN_ORDER_HPP
