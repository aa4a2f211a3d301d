// Copyright 2026 The Boost.ForkJoin developers.
// Distributed under the Boost Software License, Version 1.0.
// (See accompanying file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
#ifndef BOOST_FORKJOIN_ALGORITHM_MINMAX_HPP
#define BOOST_FORKJOIN_ALGORITHM_MINMAX_HPP

// min_element, max_element, minmax_element: std's serial algorithm on each
// piece, then the pieces' answers combined left to right with std's tie
// rules: the first smallest, the first largest, and for minmax_element the
// first smallest and the last largest.

#include <boost/forkjoin/algorithm/concepts.hpp>
#include <boost/forkjoin/algorithm/grain.hpp>
#include <boost/forkjoin/detail/algorithm/ranges.hpp>
#include <boost/forkjoin/detail/algorithm/splitter.hpp>

#include <algorithm>
#include <cstddef>
#include <functional>
#include <iterator>
#include <ranges>
#include <utility>

namespace boost::forkjoin {

// ---------------------------------------------------------------------------
// min_element(first, last[, comp]): the first smallest element, or last.

template <std::random_access_iterator It, std::indirect_strict_weak_order<It> Compare = std::ranges::less>
It min_element(grain g, It first, It last, Compare comp = {})
{
    std::size_t const n = detail::length(first, last);
    if (n == 0)
        return last;
    auto const least = detail::reduce_pieces<It>(
        n, g,
        [&](std::size_t b, std::size_t e) {
            return std::min_element(detail::at(first, b), detail::at(first, e), std::ref(comp));
        },
        // On a tie the left one: it comes first.
        [&](It left, It right) { return std::invoke(comp, *right, *left) ? right : left; });
    return least;
}

template <std::random_access_iterator It, std::indirect_strict_weak_order<It> Compare = std::ranges::less>
It min_element(It first, It last, Compare comp = {})
{
    return forkjoin::min_element(grain{}, first, last, std::move(comp));
}

template <random_access_sized_range R,
          std::indirect_strict_weak_order<std::ranges::iterator_t<R>> Compare = std::ranges::less>
std::ranges::borrowed_iterator_t<R> min_element(grain g, R&& r, Compare comp = {})
{
    return detail::borrowed<R>(
        forkjoin::min_element(g, std::ranges::begin(r), detail::range_end(r), std::move(comp)));
}

template <random_access_sized_range R,
          std::indirect_strict_weak_order<std::ranges::iterator_t<R>> Compare = std::ranges::less>
std::ranges::borrowed_iterator_t<R> min_element(R&& r, Compare comp = {})
{
    return forkjoin::min_element(grain{}, std::forward<R>(r), std::move(comp));
}

// ---------------------------------------------------------------------------
// max_element(first, last[, comp]): the first largest element, or last.

template <std::random_access_iterator It, std::indirect_strict_weak_order<It> Compare = std::ranges::less>
It max_element(grain g, It first, It last, Compare comp = {})
{
    std::size_t const n = detail::length(first, last);
    if (n == 0)
        return last;
    return detail::reduce_pieces<It>(
        n, g,
        [&](std::size_t b, std::size_t e) {
            return std::max_element(detail::at(first, b), detail::at(first, e), std::ref(comp));
        },
        // The right one only if strictly larger: on a tie the first wins.
        [&](It left, It right) { return std::invoke(comp, *left, *right) ? right : left; });
}

template <std::random_access_iterator It, std::indirect_strict_weak_order<It> Compare = std::ranges::less>
It max_element(It first, It last, Compare comp = {})
{
    return forkjoin::max_element(grain{}, first, last, std::move(comp));
}

template <random_access_sized_range R,
          std::indirect_strict_weak_order<std::ranges::iterator_t<R>> Compare = std::ranges::less>
std::ranges::borrowed_iterator_t<R> max_element(grain g, R&& r, Compare comp = {})
{
    return detail::borrowed<R>(
        forkjoin::max_element(g, std::ranges::begin(r), detail::range_end(r), std::move(comp)));
}

template <random_access_sized_range R,
          std::indirect_strict_weak_order<std::ranges::iterator_t<R>> Compare = std::ranges::less>
std::ranges::borrowed_iterator_t<R> max_element(R&& r, Compare comp = {})
{
    return forkjoin::max_element(grain{}, std::forward<R>(r), std::move(comp));
}

// ---------------------------------------------------------------------------
// minmax_element(first, last[, comp]): {the first smallest, the last
// largest}, or {last, last}.

template <std::random_access_iterator It, std::indirect_strict_weak_order<It> Compare = std::ranges::less>
std::pair<It, It> minmax_element(grain g, It first, It last, Compare comp = {})
{
    std::size_t const n = detail::length(first, last);
    if (n == 0)
        return {last, last};
    return detail::reduce_pieces<std::pair<It, It>>(
        n, g,
        [&](std::size_t b, std::size_t e) {
            return std::minmax_element(detail::at(first, b), detail::at(first, e), std::ref(comp));
        },
        [&](std::pair<It, It> left, std::pair<It, It> right) {
            It const least = std::invoke(comp, *right.first, *left.first) ? right.first : left.first;
            // The right one unless strictly smaller: on a tie the last wins.
            It const greatest = std::invoke(comp, *right.second, *left.second) ? left.second : right.second;
            return std::pair<It, It>(least, greatest);
        });
}

template <std::random_access_iterator It, std::indirect_strict_weak_order<It> Compare = std::ranges::less>
std::pair<It, It> minmax_element(It first, It last, Compare comp = {})
{
    return forkjoin::minmax_element(grain{}, first, last, std::move(comp));
}

template <random_access_sized_range R,
          std::indirect_strict_weak_order<std::ranges::iterator_t<R>> Compare = std::ranges::less>
    requires std::ranges::borrowed_range<R>
std::pair<std::ranges::iterator_t<R>, std::ranges::iterator_t<R>> minmax_element(grain g, R&& r, Compare comp = {})
{
    return forkjoin::minmax_element(g, std::ranges::begin(r), detail::range_end(r), std::move(comp));
}

// A range form needs an lvalue (or borrowed) range: its iterators are
// returned.
template <random_access_sized_range R,
          std::indirect_strict_weak_order<std::ranges::iterator_t<R>> Compare = std::ranges::less>
    requires std::ranges::borrowed_range<R>
std::pair<std::ranges::iterator_t<R>, std::ranges::iterator_t<R>> minmax_element(R&& r, Compare comp = {})
{
    return forkjoin::minmax_element(grain{}, std::ranges::begin(r), detail::range_end(r), std::move(comp));
}

} // namespace boost::forkjoin

#endif // BOOST_FORKJOIN_ALGORITHM_MINMAX_HPP
