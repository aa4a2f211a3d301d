// Copyright 2026 The Boost.ForkJoin developers.
// Distributed under the Boost Software License, Version 1.0.
// (See accompanying file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
#ifndef BOOST_FORKJOIN_ALGORITHM_SORT_HPP
#define BOOST_FORKJOIN_ALGORITHM_SORT_HPP

// fj::sort and fj::stable_sort: std::sort and std::stable_sort on the pool.
//
//   fj::sort(first, last [, comp])        fj::sort(range [, comp])
//   fj::stable_sort(first, last [, comp]) fj::stable_sort(range [, comp])
//
// each also with a leading fj::grain{n}. All return void, the range forms
// too (std::ranges::sort returns the end iterator; these do not).
//
// Requirements, checked at the call: random-access iterators (a sized
// random-access range), std::sortable<It, Comp> with comp a strict weak
// ordering (default std::less<>); stable_sort, values that can be
// move-constructed. comp is copied once and then called concurrently from
// several threads, as by std::sort(std::execution::par, ...): it must not
// change shared state without synchronization.
//
// sort: a pattern-defeating quicksort (detail/algorithm/pdqsort.hpp) with
// both sides of a partition sorted in a join, and the first partitions,
// while there are fewer ranges than threads, done in parallel too
// (detail/algorithm/parallel_pdqsort.hpp). No allocation; O(n log n) in the
// worst case. On a pool of one thread, or for a range no larger than the
// leaf size, it is the serial pdqsort and nothing else.
//
// stable_sort: a merge sort with both halves sorted in a join and large
// merges split in parallel (detail/algorithm/merge_sort.hpp). It allocates
// one buffer of n elements with ::operator new(std::nothrow), freed before
// it returns. If that allocation fails, or if the value type's move may
// throw, it sorts in place instead, merging by rotations: still stable,
// O(n log^2 n) comparisons and moves, no memory.
//
// grain{g}: ranges of at most max(g, 2048) elements are sorted serially
// (the default leaf is 2048; a grain never makes pieces smaller).
//
// Where it runs: on the calling worker's pool, or, called from outside
// every pool, inside one install into the global pool.
//
// Exceptions: an exception thrown by comp reaches the caller, after the
// pieces already running have finished and those not started were skipped.
// The sequence is then a permutation of its elements in an unspecified
// order: every element is in it exactly once (given moves and swaps that do
// not throw; the sorts move elements only by swaps, by moves into a hole
// that is filled on unwinding, and, in stable_sort, between the range and
// the buffer with the whole range moved back before the exception leaves).
// The buffer is destroyed and freed; the pool stays usable. An exception
// from a move or swap also reaches the caller, but then some elements may
// be left moved-from (stable_sort uses its buffer only for values whose
// moves are noexcept).

#include <boost/forkjoin/algorithm/concepts.hpp>
#include <boost/forkjoin/algorithm/grain.hpp>
#include <boost/forkjoin/detail/algorithm/in_pool.hpp>
#include <boost/forkjoin/detail/algorithm/merge_sort.hpp>
#include <boost/forkjoin/detail/algorithm/parallel_pdqsort.hpp>
#include <boost/forkjoin/detail/algorithm/pdqsort.hpp>

#include <algorithm>
#include <concepts>
#include <cstddef>
#include <functional>
#include <iterator>
#include <limits>
#include <ranges>

namespace boost::forkjoin {

namespace detail {

// Ranges of at most this many elements are sorted without a join: a leaf
// takes tens of microseconds, a join well under one.
inline constexpr std::size_t default_sort_leaf = 2048;

// A leaf size that no range exceeds: sort without any join.
inline constexpr std::size_t never_split = std::numeric_limits<std::ptrdiff_t>::max();

inline std::size_t sort_leaf(grain g) noexcept { return std::clamp(g.min_len, default_sort_leaf, never_split); }

template <class It, class Comp>
void sort(It first, It last, Comp& comp, grain g)
{
    std::ptrdiff_t const n = last - first;
    std::size_t const leaf = sort_leaf(g);
    if (static_cast<std::size_t>(n) <= leaf) {
        pdq::pdqsort(first, last, comp);
        return;
    }
    detail::run_in_pool([&] {
        std::size_t const threads = detail::pool_threads();
        if (threads == 1)
            pdq::pdqsort(first, last, comp);
        else
            parallel_pdqsort<It, Comp>(comp, static_cast<std::ptrdiff_t>(leaf), n, threads)(first, last);
    });
}

// Allocate: where the buffer comes from (see nothrow_new); tests pass one
// that fails.
template <class It, class Comp, class Allocate = nothrow_new>
void stable_sort(It first, It last, Comp& comp, grain g, Allocate const& allocate = {})
{
    std::size_t const n = static_cast<std::size_t>(last - first);
    if (n <= insertion_leaf) {
        pdq::insertion_sort(first, last, comp);
        return;
    }
    std::size_t const leaf = sort_leaf(g);
    if (n <= leaf) {
        stable_sort_on_pool(first, last, comp, never_split, 1, allocate);
        return;
    }
    detail::run_in_pool([&] {
        std::size_t const threads = detail::pool_threads();
        stable_sort_on_pool(first, last, comp, threads == 1 ? never_split : leaf, threads,
                            allocate);
    });
}

template <class It>
concept stable_sortable_values = std::move_constructible<std::iter_value_t<It>>;

} // namespace detail

// sort

template <std::random_access_iterator It, class Comp = std::less<>>
    requires std::sortable<It, Comp>
void sort(grain g, It first, It last, Comp comp = {})
{
    detail::sort(first, last, comp, g);
}

template <std::random_access_iterator It, class Comp = std::less<>>
    requires std::sortable<It, Comp>
void sort(It first, It last, Comp comp = {})
{
    detail::sort(first, last, comp, grain{});
}

template <random_access_sized_range R, class Comp = std::less<>>
    requires std::sortable<std::ranges::iterator_t<R>, Comp>
void sort(grain g, R&& r, Comp comp = {})
{
    detail::sort(std::ranges::begin(r), std::ranges::begin(r) + std::ranges::distance(r), comp, g);
}

template <random_access_sized_range R, class Comp = std::less<>>
    requires std::sortable<std::ranges::iterator_t<R>, Comp>
void sort(R&& r, Comp comp = {})
{
    detail::sort(std::ranges::begin(r), std::ranges::begin(r) + std::ranges::distance(r), comp, grain{});
}

// stable_sort

template <std::random_access_iterator It, class Comp = std::less<>>
    requires std::sortable<It, Comp> && detail::stable_sortable_values<It>
void stable_sort(grain g, It first, It last, Comp comp = {})
{
    detail::stable_sort(first, last, comp, g);
}

template <std::random_access_iterator It, class Comp = std::less<>>
    requires std::sortable<It, Comp> && detail::stable_sortable_values<It>
void stable_sort(It first, It last, Comp comp = {})
{
    detail::stable_sort(first, last, comp, grain{});
}

template <random_access_sized_range R, class Comp = std::less<>>
    requires std::sortable<std::ranges::iterator_t<R>, Comp> &&
             detail::stable_sortable_values<std::ranges::iterator_t<R>>
void stable_sort(grain g, R&& r, Comp comp = {})
{
    detail::stable_sort(std::ranges::begin(r), std::ranges::begin(r) + std::ranges::distance(r), comp, g);
}

template <random_access_sized_range R, class Comp = std::less<>>
    requires std::sortable<std::ranges::iterator_t<R>, Comp> &&
             detail::stable_sortable_values<std::ranges::iterator_t<R>>
void stable_sort(R&& r, Comp comp = {})
{
    detail::stable_sort(std::ranges::begin(r), std::ranges::begin(r) + std::ranges::distance(r), comp, grain{});
}

} // namespace boost::forkjoin

#endif // BOOST_FORKJOIN_ALGORITHM_SORT_HPP
