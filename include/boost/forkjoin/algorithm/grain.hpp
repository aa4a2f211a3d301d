// Copyright 2026 The Boost.ForkJoin developers.
// Distributed under the Boost Software License, Version 1.0.
// (See accompanying file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
#ifndef BOOST_FORKJOIN_ALGORITHM_GRAIN_HPP
#define BOOST_FORKJOIN_ALGORITHM_GRAIN_HPP

// grain: the one optional knob of the parallel algorithms. Passed as their
// first argument, it is the fewest elements a piece of work may have: the
// algorithm never splits a range into pieces smaller than this (a range that
// is smaller to begin with is one piece). Without it the algorithms split
// adaptively (detail/algorithm/splitter.hpp) and need no tuning; a grain is
// for an element function so cheap that even the adaptive pieces' bookkeeping
// shows, or for a user who wants pieces of a known size (oneTBB's grainsize,
// Rayon's with_min_len).

#include <cstddef>

namespace boost::forkjoin {

struct grain {
    // The fewest elements a piece may have; 0 means 1.
    std::size_t min_len = 1;
};

} // namespace boost::forkjoin

#endif // BOOST_FORKJOIN_ALGORITHM_GRAIN_HPP
