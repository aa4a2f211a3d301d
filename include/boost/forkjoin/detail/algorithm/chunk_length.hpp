// Copyright 2026 The Boost.ForkJoin developers.
// Distributed under the Boost Software License, Version 1.0.
// (See accompanying file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
#ifndef BOOST_FORKJOIN_DETAIL_ALGORITHM_CHUNK_LENGTH_HPP
#define BOOST_FORKJOIN_DETAIL_ALGORITHM_CHUNK_LENGTH_HPP

// How many elements a running loop takes between two looks outside itself
// (whether another worker ran dry, whether another thread found a match):
// a length that follows the clock. From one element, it doubles while a
// chunk takes less than half of chunk_time and halves while one takes more
// than twice that. So the look between two chunks (a clock read and a load
// or two, some 35 ns) costs under 0.2 % of the loop whatever an element
// costs, from a fraction of a nanosecond (a sum) to milliseconds (a
// Mandelbrot row), and what the look is for waits about one chunk.
// Used by the splitter's pieces (splitter.hpp) and by find_if's blocks
// (find.hpp).

#include <boost/forkjoin/detail/config.hpp>

#include <chrono>
#include <cstddef>

namespace boost::forkjoin::detail {

class chunk_length {
public:
    using clock = std::chrono::steady_clock;

    // Long enough for the look to vanish beside it, short beside the tens
    // of microseconds a sleeping worker takes to wake for the split.
    static constexpr clock::duration chunk_time = std::chrono::microseconds(20);

    // The length of the next chunk, at most `left`, retuned by how long the
    // last one took. A chunk cut short by `left` says nothing about the
    // length, so it does not double it: else a loop over many short ranges
    // would double it without bound.
    BOOST_FORKJOIN_FORCEINLINE std::size_t next(std::size_t left) noexcept
    {
        clock::time_point const now = clock::now();
        if (started_) {
            if (auto const took = now - last_; took < chunk_time / 2) {
                if (last_was_full_)
                    len_ *= 2;
            } else if (took > 2 * chunk_time && len_ > 1) {
                len_ /= 2;
            }
        }
        started_ = true;
        last_ = now;
        last_was_full_ = len_ <= left;
        return last_was_full_ ? len_ : left;
    }

    // Whether next() was called before.
    bool started() const noexcept { return started_; }

private:
    std::size_t len_ = 1;
    bool started_ = false;
    bool last_was_full_ = false;
    clock::time_point last_{};
};

} // namespace boost::forkjoin::detail

#endif // BOOST_FORKJOIN_DETAIL_ALGORITHM_CHUNK_LENGTH_HPP
