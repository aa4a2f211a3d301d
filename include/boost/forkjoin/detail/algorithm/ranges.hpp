// Copyright 2026 The Boost.ForkJoin developers.
// Distributed under the Boost Software License, Version 1.0.
// (See accompanying file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
#ifndef BOOST_FORKJOIN_DETAIL_ALGORITHM_RANGES_HPP
#define BOOST_FORKJOIN_DETAIL_ALGORITHM_RANGES_HPP

// The range forms of the algorithms call the iterator forms with a pair of
// iterators of one type (begin, begin + size), so a range whose end is a
// sentinel of another type works too; and they return what std::ranges
// returns, std::ranges::dangling for an iterator into a temporary.

#include <cstddef>
#include <iterator>
#include <ranges>

namespace boost::forkjoin::detail {

template <class R>
auto range_end(R& r)
{
    return std::ranges::begin(r) + std::ranges::distance(r);
}

template <class R, class It>
std::ranges::borrowed_iterator_t<R> borrowed(It it)
{
    if constexpr (std::ranges::borrowed_range<R>)
        return it;
    else
        return std::ranges::dangling{};
}

// Index i of [first, first + n) as an iterator, whatever the difference type.
template <class It>
It at(It first, std::size_t i)
{
    return first + static_cast<std::iter_difference_t<It>>(i);
}

template <class It>
std::size_t length(It first, It last)
{
    auto const n = last - first;
    return n > 0 ? static_cast<std::size_t>(n) : 0;
}

} // namespace boost::forkjoin::detail

#endif // BOOST_FORKJOIN_DETAIL_ALGORITHM_RANGES_HPP
