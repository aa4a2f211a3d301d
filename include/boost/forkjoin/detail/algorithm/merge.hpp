// Copyright 2026 The Boost.ForkJoin developers.
// Distributed under the Boost Software License, Version 1.0.
// (See accompanying file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
#ifndef BOOST_FORKJOIN_DETAIL_ALGORITHM_MERGE_HPP
#define BOOST_FORKJOIN_DETAIL_ALGORITHM_MERGE_HPP

// The stable merges under fj::stable_sort (merge_sort.hpp).
//
// move_merge: merges two sorted runs into a third place, moving. Stable: on
// equal keys the first run's element goes first. Two runs of one iterator
// type lie in one sequence (the halves of a range or of the buffer).
//
// parallel_move_merge: the same, split in two independent merges until the
// pieces are small: the longer run is cut at its middle element x, the other
// run where x belongs (lower_bound if x is from the first run, upper_bound
// if from the second, so that equal keys keep their order), and the two
// halves of the output are merged in a join.
//
// parallel_inplace_merge: merges two adjacent sorted runs with no buffer, by
// the same split followed by a rotation that brings the two middle pieces
// into order, then the two halves in a join. O(n log n) moves instead of n:
// the fallback when no buffer could be allocated.
//
// Exceptions (from the comparator): move_merge and parallel_move_merge fill
// the output with every element of both runs anyway (the unmerged rest is
// moved over unmerged), so the caller knows where all elements are. The
// in-place merge moves elements only in rotations, which compare nothing,
// so every element stays in the range.

#include <boost/forkjoin/join.hpp>

#include <algorithm>
#include <concepts>
#include <cstddef>
#include <iterator>

namespace boost::forkjoin::detail {

template <class In1, class In2, class Out, class Comp>
Out move_merge(In1 a, In1 a_end, In2 b, In2 b_end, Out out, Comp& comp)
{
    try {
        if constexpr (std::same_as<In1, In2> && std::random_access_iterator<In1>) {
            // The runs are two parts of one sequence (merge_sort.hpp merges
            // the halves of a range or of the buffer), so b - a is defined
            // and the element to move can be picked by arithmetic instead of
            // a branch: on random keys the branch mispredicts every other
            // element, and compilers keep it a branch even when written
            // with ?:. About twice as fast on 10 M random u32 or pairs.
            while (a != a_end && b != b_end) {
                bool const take_b = comp(*b, *a);
                In1 const from = a + ((b - a) & -static_cast<std::iter_difference_t<In1>>(take_b));
                *out = std::ranges::iter_move(from);
                ++out;
                b += take_b;
                a += !take_b;
            }
        } else {
            while (a != a_end && b != b_end) {
                if (comp(*b, *a)) {
                    *out = std::ranges::iter_move(b);
                    ++b;
                } else {
                    *out = std::ranges::iter_move(a);
                    ++a;
                }
                ++out;
            }
        }
    } catch (...) {
        std::ranges::move(b, b_end, std::ranges::move(a, a_end, out).out);
        throw;
    }
    return std::ranges::move(b, b_end, std::ranges::move(a, a_end, out).out).out;
}

// As move_merge; merges of more than serial_below elements are split.
template <class In1, class In2, class Out, class Comp>
void parallel_move_merge(In1 a, In1 a_end, In2 b, In2 b_end, Out out, Comp& comp, std::ptrdiff_t serial_below)
{
    std::ptrdiff_t const a_n = a_end - a;
    std::ptrdiff_t const b_n = b_end - b;
    if (a_n + b_n <= serial_below || a_n == 0 || b_n == 0) {
        move_merge(a, a_end, b, b_end, out, comp);
        return;
    }
    In1 a_mid;
    In2 b_mid;
    try {
        if (a_n >= b_n) {
            a_mid = a + a_n / 2;
            b_mid = std::lower_bound(b, b_end, *a_mid, comp); // b's elements equal to *a_mid go after it
        } else {
            b_mid = b + b_n / 2;
            a_mid = std::upper_bound(a, a_end, *b_mid, comp); // a's elements equal to *b_mid go before it
        }
    } catch (...) {
        std::ranges::move(b, b_end, std::ranges::move(a, a_end, out).out);
        throw;
    }
    Out const out_mid = out + ((a_mid - a) + (b_mid - b));
    boost::forkjoin::join([&] { parallel_move_merge(a, a_mid, b, b_mid, out, comp, serial_below); },
                          [&] { parallel_move_merge(a_mid, a_end, b_mid, b_end, out_mid, comp, serial_below); });
}

// Merges the sorted runs [first, mid) and [mid, last) in place; merges of
// more than serial_below elements run their two halves in a join.
template <class It, class Comp>
void parallel_inplace_merge(It first, It mid, It last, Comp& comp, std::ptrdiff_t serial_below)
{
    std::ptrdiff_t const a_n = mid - first;
    std::ptrdiff_t const b_n = last - mid;
    if (a_n == 0 || b_n == 0 || !comp(*mid, *(mid - 1)))
        return; // already in order
    It a_cut, b_cut;
    if (a_n >= b_n) {
        a_cut = first + a_n / 2;
        b_cut = std::lower_bound(mid, last, *a_cut, comp);
    } else {
        b_cut = mid + b_n / 2;
        a_cut = std::upper_bound(first, mid, *b_cut, comp);
    }
    // [first, a_cut) [a_cut, mid) [mid, b_cut) [b_cut, last) becomes
    // [first, a_cut) [mid, b_cut) [a_cut, mid) [b_cut, last): two merges.
    It const new_mid = std::rotate(a_cut, mid, b_cut);
    if (a_n + b_n <= serial_below) {
        parallel_inplace_merge(first, a_cut, new_mid, comp, serial_below);
        parallel_inplace_merge(new_mid, b_cut, last, comp, serial_below);
    } else {
        boost::forkjoin::join([&] { parallel_inplace_merge(first, a_cut, new_mid, comp, serial_below); },
                              [&] { parallel_inplace_merge(new_mid, b_cut, last, comp, serial_below); });
    }
}

} // namespace boost::forkjoin::detail

#endif // BOOST_FORKJOIN_DETAIL_ALGORITHM_MERGE_HPP
