// Copyright 2026 The Boost.ForkJoin developers.
// Distributed under the Boost Software License, Version 1.0.
// (See accompanying file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
#ifndef BOOST_FORKJOIN_DETAIL_ALGORITHM_PARALLEL_PARTITION_HPP
#define BOOST_FORKJOIN_DETAIL_ALGORITHM_PARALLEL_PARTITION_HPP

// An in-place partition that runs on every thread: the top partitions of
// fj::sort, which a serial partition would leave to one thread while the
// others wait (a partition of all n elements before the first join is 1/log n
// of the work, but all of it serial).
//
// Two steps, each a tree of joins:
// 1. The range is cut into pieces (a few per thread, at most
//    max_partition_pieces), and every piece is partitioned on its own with
//    the serial partition (pdqsort.hpp). Piece i is then [left_i | right_i].
// 2. With L the sum of the left sizes, the final boundary is first + L. The
//    right parts that lie before it and the left parts that lie after it are
//    the misplaced elements; there are as many of each. The k-th misplaced
//    element before the boundary is swapped with the k-th after it, the
//    misplaced elements numbered across pieces, and the swaps split over
//    the threads by that number.
//
// Only swaps move elements, so an exception from goes_left leaves every
// element in the range once. Pieces whose results are missing (a piece
// that threw or never ran) count as all-right; step 2's counts then still
// match, so it stays a permutation, and the caller rethrows.

#include <boost/forkjoin/detail/algorithm/pdqsort.hpp>
#include <boost/forkjoin/join.hpp>

#include <algorithm>
#include <array>
#include <cstddef>
#include <iterator>
#include <utility>

namespace boost::forkjoin::detail {

// Pieces of a parallel partition, and so also the most misplaced spans on
// each side of its boundary; a fixed bound keeps the bookkeeping on the
// stack: a sort does not allocate.
inline constexpr std::size_t max_partition_pieces = 64;

// The fewest elements a piece of a parallel partition, or of its swap step,
// is given: below this a join costs more than it saves.
inline constexpr std::size_t min_partition_piece = 1 << 14;

// Calls f(i) for every i in [lo, hi), the calls spread by a tree of joins.
template <class F>
void join_for_each_index(std::size_t lo, std::size_t hi, F const& f)
{
    if (hi - lo == 1) {
        f(lo);
    } else if (hi > lo) {
        std::size_t const mid = lo + (hi - lo) / 2;
        boost::forkjoin::join([&] { join_for_each_index(lo, mid, f); }, [&] { join_for_each_index(mid, hi, f); });
    }
}

// Disjoint spans [begin, end) of offsets into the range, numbered in order:
// the misplaced elements on one side of the boundary.
struct misplaced_spans {
    std::array<std::size_t, max_partition_pieces> begin{};
    std::array<std::size_t, max_partition_pieces> end{};
    std::size_t count = 0;

    void add(std::size_t b, std::size_t e) noexcept
    {
        if (b < e) {
            begin[count] = b;
            end[count] = e;
            ++count;
        }
    }

    // The span holding misplaced element number k, and k's offset into the
    // range.
    std::pair<std::size_t, std::size_t> find(std::size_t k) const noexcept
    {
        std::size_t span = 0;
        while (k >= end[span] - begin[span]) {
            k -= end[span] - begin[span];
            ++span;
        }
        return {span, begin[span] + k};
    }
};

// Partitions [first, last) so that the elements for which goes_left is true
// come first, on up to `pieces` threads' worth of pieces. Returns the
// boundary and whether nothing had to move. Comp only picks the serial
// partition of a piece (pdq::partition_by).
template <class It, class Comp, class Pred>
std::pair<It, bool> parallel_partition(It first, It last, Pred const& goes_left, std::size_t pieces)
{
    std::size_t const n = static_cast<std::size_t>(last - first);
    pieces = std::clamp<std::size_t>(pieces, 1, max_partition_pieces);
    std::size_t const piece_len = std::max((n + pieces - 1) / pieces, min_partition_piece);
    pieces = (n + piece_len - 1) / piece_len;

    // Step 1: each piece on its own.
    std::array<std::size_t, max_partition_pieces> left_len{};
    std::array<bool, max_partition_pieces> piece_placed{};
    join_for_each_index(0, pieces, [&](std::size_t i) {
        It const b = first + static_cast<std::ptrdiff_t>(i * piece_len);
        It const e = first + static_cast<std::ptrdiff_t>(std::min(n, (i + 1) * piece_len));
        auto const [mid, placed] = pdq::partition_by<It, Comp>(b, e, goes_left);
        left_len[i] = static_cast<std::size_t>(mid - b);
        piece_placed[i] = placed;
    });

    // Step 2: where the misplaced elements are.
    std::size_t boundary = 0;
    for (std::size_t i = 0; i < pieces; ++i)
        boundary += left_len[i];
    misplaced_spans before, after; // right parts before the boundary, left parts after it
    bool placed = true;
    for (std::size_t i = 0; i < pieces; ++i) {
        std::size_t const b = i * piece_len;
        std::size_t const e = std::min(n, b + piece_len);
        std::size_t const mid = b + left_len[i];
        before.add(mid, std::min(e, boundary));
        after.add(std::max(b, boundary), mid);
        placed = placed && piece_placed[i];
    }
    std::size_t misplaced = 0;
    for (std::size_t s = 0; s < before.count; ++s)
        misplaced += before.end[s] - before.begin[s];
    if (misplaced == 0)
        return {first + static_cast<std::ptrdiff_t>(boundary), placed};

    // ... and their swaps, in pieces of consecutive numbers.
    std::size_t const swap_len = std::max((misplaced + pieces - 1) / pieces, min_partition_piece);
    std::size_t const swap_pieces = (misplaced + swap_len - 1) / swap_len;
    join_for_each_index(0, swap_pieces, [&](std::size_t i) {
        std::size_t k = i * swap_len;
        std::size_t const k_end = std::min(misplaced, k + swap_len);
        auto [l_span, l_at] = before.find(k);
        auto [r_span, r_at] = after.find(k);
        while (k < k_end) {
            std::size_t const len = std::min({k_end - k, before.end[l_span] - l_at, after.end[r_span] - r_at});
            std::swap_ranges(first + static_cast<std::ptrdiff_t>(l_at), first + static_cast<std::ptrdiff_t>(l_at + len),
                             first + static_cast<std::ptrdiff_t>(r_at));
            k += len;
            l_at += len;
            r_at += len;
            if (l_at == before.end[l_span] && ++l_span < before.count)
                l_at = before.begin[l_span];
            if (r_at == after.end[r_span] && ++r_span < after.count)
                r_at = after.begin[r_span];
        }
    });
    return {first + static_cast<std::ptrdiff_t>(boundary), false};
}

} // namespace boost::forkjoin::detail

#endif // BOOST_FORKJOIN_DETAIL_ALGORITHM_PARALLEL_PARTITION_HPP
