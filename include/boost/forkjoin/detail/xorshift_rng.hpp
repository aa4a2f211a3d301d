// Copyright 2026 The Boost.ForkJoin developers.
// Distributed under the Boost Software License, Version 1.0.
// (See accompanying file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
#ifndef BOOST_FORKJOIN_DETAIL_XORSHIFT_RNG_HPP
#define BOOST_FORKJOIN_DETAIL_XORSHIFT_RNG_HPP

#include <cstdint>

namespace boost::forkjoin::detail {

// xorshift64*: victim selection needs speed and spread, not quality.
class xorshift_rng {
public:
    constexpr explicit xorshift_rng(std::uint64_t seed) noexcept : state_(seed * 0x9E3779B97F4A7C15ull + 1) {}

    std::uint64_t next() noexcept
    {
        state_ ^= state_ >> 12;
        state_ ^= state_ << 25;
        state_ ^= state_ >> 27;
        return state_ * 0x2545F4914F6CDD1Dull;
    }

private:
    std::uint64_t state_;
};

} // namespace boost::forkjoin::detail

#endif // BOOST_FORKJOIN_DETAIL_XORSHIFT_RNG_HPP
