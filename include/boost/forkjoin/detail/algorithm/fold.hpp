// Copyright 2026 The Boost.ForkJoin developers.
// Distributed under the Boost Software License, Version 1.0.
// (See accompanying file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
#ifndef BOOST_FORKJOIN_DETAIL_ALGORITHM_FOLD_HPP
#define BOOST_FORKJOIN_DETAIL_ALGORITHM_FOLD_HPP

// The serial heart of reduce, transform_reduce, count and the scans' first
// pass: fold one piece, x[b] op x[b+1] op ... op x[e-1].
//
// A plain left fold is one long dependency chain: each op waits for the one
// before it (4 cycles a double add), so it runs at a quarter of what the
// core and memory could do, and std::reduce, which may reorder freely, would
// beat it fourfold. Our reductions promise order, not just associativity, so
// we may regroup but not reorder:
//
// * any operation: the piece is cut into four contiguous runs folded side by
//   side, then combined left to right: four independent chains, and the
//   result is the serial one for any associative operation;
// * std::plus / std::multiplies on an arithmetic type, which are also
//   commutative: eight interleaved accumulators, which the compiler turns
//   into vector adds. Integer results equal the serial ones exactly;
//   floating-point ones differ by rounding only, as any regrouping does.

#include <cstddef>
#include <functional>
#include <type_traits>
#include <utility>

namespace boost::forkjoin::detail {

template <class Op, class T>
inline constexpr bool commutative_arithmetic =
    std::is_arithmetic_v<T> && (std::is_same_v<Op, std::plus<>> || std::is_same_v<Op, std::plus<T>> ||
                                std::is_same_v<Op, std::multiplies<>> || std::is_same_v<Op, std::multiplies<T>>);

// get(i) is element i, already transformed; Op is applied as op(T, element)
// and op(T, T). Requires b < e.
template <class T, class Get, class Op>
T fold_nonempty(std::size_t b, std::size_t e, Get& get, Op& op)
{
    std::size_t const n = e - b;
    if constexpr (commutative_arithmetic<Op, T>) {
        constexpr std::size_t lanes = 8;
        if (n >= 2 * lanes) {
            // Counted loops over whole groups of `lanes`: the shape the
            // vectoriser recognises (one vector add per group, or two).
            std::size_t const groups = n / lanes;
            T acc[lanes];
            for (std::size_t j = 0; j < lanes; ++j)
                acc[j] = static_cast<T>(get(b + j));
            for (std::size_t k = 1; k < groups; ++k) {
                std::size_t const base = b + k * lanes;
                for (std::size_t j = 0; j < lanes; ++j)
                    acc[j] = op(acc[j], static_cast<T>(get(base + j)));
            }
            for (std::size_t j = 1; j < lanes; ++j)
                acc[0] = op(acc[0], acc[j]);
            for (std::size_t i = b + groups * lanes; i < e; ++i)
                acc[0] = op(acc[0], static_cast<T>(get(i)));
            return acc[0];
        }
    } else {
        constexpr std::size_t runs = 4;
        if (n >= 16 * runs) {
            std::size_t const len = n / runs;
            T a0(get(b)), a1(get(b + len)), a2(get(b + 2 * len)), a3(get(b + 3 * len));
            for (std::size_t i = 1; i < len; ++i) {
                a0 = op(std::move(a0), get(b + i));
                a1 = op(std::move(a1), get(b + len + i));
                a2 = op(std::move(a2), get(b + 2 * len + i));
                a3 = op(std::move(a3), get(b + 3 * len + i));
            }
            for (std::size_t i = b + runs * len; i < e; ++i)
                a3 = op(std::move(a3), get(i));
            a0 = op(std::move(a0), std::move(a1));
            a2 = op(std::move(a2), std::move(a3));
            return op(std::move(a0), std::move(a2));
        }
    }
    T acc(get(b));
    for (std::size_t i = b + 1; i < e; ++i)
        acc = op(std::move(acc), get(i));
    return acc;
}

} // namespace boost::forkjoin::detail

#endif // BOOST_FORKJOIN_DETAIL_ALGORITHM_FOLD_HPP
