// Copyright 2026 The Boost.ForkJoin developers.
// Distributed under the Boost Software License, Version 1.0.
// (See accompanying file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
#ifndef BOOST_FORKJOIN_ALGORITHM_SCAN_HPP
#define BOOST_FORKJOIN_ALGORITHM_SCAN_HPP

// The prefix sums: inclusive_scan, exclusive_scan.
//
// Reduce, then scan (oneTBB's parallel_scan and libstdc++'s parallel scans
// do the same): the input is cut into blocks; the first pass folds every
// block but the last in parallel; a serial pass over the block totals gives
// each block the value that comes before it; the second pass scans every
// block in parallel from that value. Elements are combined in order, so an
// associative operation that is not commutative gives the serial result.
// The input is read twice, so a scan can at best run at two thirds of the
// memory traffic's speed-up; on one thread (or a small input) it is a
// plain serial scan, read once.
//
// In place (out == first) works: the first pass only reads, and the second
// pass's blocks each read and write only their own elements.

#include <boost/forkjoin/algorithm/concepts.hpp>
#include <boost/forkjoin/algorithm/grain.hpp>
#include <boost/forkjoin/detail/algorithm/fold.hpp>
#include <boost/forkjoin/detail/algorithm/ranges.hpp>
#include <boost/forkjoin/detail/algorithm/splitter.hpp>

#include <algorithm>
#include <concepts>
#include <cstddef>
#include <functional>
#include <iterator>
#include <optional>
#include <ranges>
#include <utility>
#include <vector>

namespace boost::forkjoin {

namespace detail {

// Below this many elements a block's bookkeeping outweighs what a second
// thread could save.
inline constexpr std::size_t scan_block_min = 16 * 1024;

// Scans get(0..n) into out; `before` is what precedes element 0 (empty for
// an inclusive scan without init). Exclusive: out[i] excludes element i.
template <bool Inclusive, class T, class It, class Out, class Op>
Out scan_in_parallel(grain g, It first, std::size_t n, Out out, std::optional<T> before, Op& op)
{
    // One block, b < e: the serial scan, exactly as std's, element by
    // element. An exclusive scan reads element i before writing out[i], for
    // in place.
    auto scan_block = [&](std::size_t b, std::size_t e, std::optional<T> before) {
        It in = at(first, b);
        Out o = at(out, b);
        if constexpr (Inclusive) {
            T acc = before ? T(op(std::move(*before), *in)) : T(*in);
            *o = acc;
            for (++b, ++in, ++o; b < e; ++b, ++in, ++o) {
                acc = op(std::move(acc), *in);
                *o = acc;
            }
        } else {
            T acc = std::move(*before);
            for (; b < e; ++b, ++in, ++o) {
                T next = op(acc, *in);
                *o = std::move(acc);
                acc = std::move(next);
            }
        }
    };
    if (n == 0)
        return out;
    run_in_pool([&] {
        std::size_t const threads = pool_threads();
        std::size_t const block = std::max({scan_block_min, g.min_len, n / (8 * threads) + 1});
        std::size_t const blocks = (n + block - 1) / block;
        if (threads == 1 || blocks == 1) {
            scan_block(0, n, std::move(before));
            return;
        }
        auto get = [first](std::size_t i) -> decltype(auto) { return *at(first, i); };
        // Pass 1: the total of every block but the last.
        std::vector<std::optional<T>> totals(blocks - 1);
        stop_flag stop;
        auto fold_blocks = [&](std::size_t kb, std::size_t ke) {
            for (std::size_t k = kb; k < ke; ++k)
                totals[k].emplace(fold_nonempty<T>(k * block, (k + 1) * block, get, op));
        };
        for_each_piece_in_pool(blocks - 1, grain{1}, fold_blocks, stop);
        // What precedes each block: a serial pass over `blocks` values.
        std::vector<std::optional<T>> starts(blocks);
        starts[0] = std::move(before);
        for (std::size_t k = 1; k < blocks; ++k)
            starts[k].emplace(starts[k - 1] ? op(*starts[k - 1], std::move(*totals[k - 1]))
                                            : std::move(*totals[k - 1]));
        // Pass 2: every block from its start.
        auto scan_blocks = [&](std::size_t kb, std::size_t ke) {
            for (std::size_t k = kb; k < ke; ++k)
                scan_block(k * block, std::min(n, (k + 1) * block), std::move(starts[k]));
        };
        for_each_piece_in_pool(blocks, grain{1}, scan_blocks, stop);
    });
    return at(out, n);
}

} // namespace detail

// ---------------------------------------------------------------------------
// inclusive_scan(first, last, out[, op[, init]]):
//     out[i] = [init op] first[0] op ... op first[i]; returns out + n.
// Without init the accumulator is an iter_value_t<It>; without op, std::plus<>.

template <std::random_access_iterator It, std::random_access_iterator Out, class Op, class T>
    requires fold_operation<Op, T, std::iter_reference_t<It>> && std::indirectly_writable<Out, T const&>
Out inclusive_scan(grain g, It first, It last, Out out, Op op, T init)
{
    return detail::scan_in_parallel<true, T>(g, first, detail::length(first, last), out,
                                             std::optional<T>(std::move(init)), op);
}

template <std::random_access_iterator It, std::random_access_iterator Out, class Op, class T>
    requires fold_operation<Op, T, std::iter_reference_t<It>> && std::indirectly_writable<Out, T const&>
Out inclusive_scan(It first, It last, Out out, Op op, T init)
{
    return forkjoin::inclusive_scan(grain{}, first, last, out, std::move(op), std::move(init));
}

template <std::random_access_iterator It, std::random_access_iterator Out, class Op>
    requires fold_operation<Op, std::iter_value_t<It>, std::iter_reference_t<It>> &&
             std::indirectly_writable<Out, std::iter_value_t<It> const&>
Out inclusive_scan(grain g, It first, It last, Out out, Op op)
{
    using T = std::iter_value_t<It>;
    return detail::scan_in_parallel<true, T>(g, first, detail::length(first, last), out, std::optional<T>(), op);
}

template <std::random_access_iterator It, std::random_access_iterator Out, class Op>
    requires fold_operation<Op, std::iter_value_t<It>, std::iter_reference_t<It>> &&
             std::indirectly_writable<Out, std::iter_value_t<It> const&>
Out inclusive_scan(It first, It last, Out out, Op op)
{
    return forkjoin::inclusive_scan(grain{}, first, last, out, std::move(op));
}

template <std::random_access_iterator It, std::random_access_iterator Out>
    requires fold_operation<std::plus<>, std::iter_value_t<It>, std::iter_reference_t<It>> &&
             std::indirectly_writable<Out, std::iter_value_t<It> const&>
Out inclusive_scan(grain g, It first, It last, Out out)
{
    return forkjoin::inclusive_scan(g, first, last, out, std::plus<>());
}

template <std::random_access_iterator It, std::random_access_iterator Out>
    requires fold_operation<std::plus<>, std::iter_value_t<It>, std::iter_reference_t<It>> &&
             std::indirectly_writable<Out, std::iter_value_t<It> const&>
Out inclusive_scan(It first, It last, Out out)
{
    return forkjoin::inclusive_scan(grain{}, first, last, out, std::plus<>());
}

template <random_access_sized_range R, std::random_access_iterator Out, class Op, class T>
    requires fold_operation<Op, T, std::ranges::range_reference_t<R>> && std::indirectly_writable<Out, T const&>
Out inclusive_scan(grain g, R&& r, Out out, Op op, T init)
{
    return forkjoin::inclusive_scan(g, std::ranges::begin(r), detail::range_end(r), out, std::move(op),
                                    std::move(init));
}

template <random_access_sized_range R, std::random_access_iterator Out, class Op, class T>
    requires fold_operation<Op, T, std::ranges::range_reference_t<R>> && std::indirectly_writable<Out, T const&>
Out inclusive_scan(R&& r, Out out, Op op, T init)
{
    return forkjoin::inclusive_scan(grain{}, std::ranges::begin(r), detail::range_end(r), out, std::move(op),
                                    std::move(init));
}

template <random_access_sized_range R, std::random_access_iterator Out, class Op = std::plus<>>
    requires fold_operation<Op, std::ranges::range_value_t<R>, std::ranges::range_reference_t<R>> &&
             std::indirectly_writable<Out, std::ranges::range_value_t<R> const&>
Out inclusive_scan(grain g, R&& r, Out out, Op op = {})
{
    return forkjoin::inclusive_scan(g, std::ranges::begin(r), detail::range_end(r), out, std::move(op));
}

template <random_access_sized_range R, std::random_access_iterator Out, class Op = std::plus<>>
    requires fold_operation<Op, std::ranges::range_value_t<R>, std::ranges::range_reference_t<R>> &&
             std::indirectly_writable<Out, std::ranges::range_value_t<R> const&>
Out inclusive_scan(R&& r, Out out, Op op = {})
{
    return forkjoin::inclusive_scan(grain{}, std::ranges::begin(r), detail::range_end(r), out, std::move(op));
}

// ---------------------------------------------------------------------------
// exclusive_scan(first, last, out, init[, op]):
//     out[i] = init op first[0] op ... op first[i-1]; returns out + n.

template <std::random_access_iterator It, std::random_access_iterator Out, class T, class Op>
    requires fold_operation<Op, T, std::iter_reference_t<It>> && std::indirectly_writable<Out, T>
Out exclusive_scan(grain g, It first, It last, Out out, T init, Op op)
{
    return detail::scan_in_parallel<false, T>(g, first, detail::length(first, last), out,
                                              std::optional<T>(std::move(init)), op);
}

template <std::random_access_iterator It, std::random_access_iterator Out, class T, class Op>
    requires fold_operation<Op, T, std::iter_reference_t<It>> && std::indirectly_writable<Out, T>
Out exclusive_scan(It first, It last, Out out, T init, Op op)
{
    return forkjoin::exclusive_scan(grain{}, first, last, out, std::move(init), std::move(op));
}

template <std::random_access_iterator It, std::random_access_iterator Out, class T>
    requires fold_operation<std::plus<>, T, std::iter_reference_t<It>> && std::indirectly_writable<Out, T>
Out exclusive_scan(grain g, It first, It last, Out out, T init)
{
    return forkjoin::exclusive_scan(g, first, last, out, std::move(init), std::plus<>());
}

template <std::random_access_iterator It, std::random_access_iterator Out, class T>
    requires fold_operation<std::plus<>, T, std::iter_reference_t<It>> && std::indirectly_writable<Out, T>
Out exclusive_scan(It first, It last, Out out, T init)
{
    return forkjoin::exclusive_scan(grain{}, first, last, out, std::move(init), std::plus<>());
}

template <random_access_sized_range R, std::random_access_iterator Out, class T, class Op = std::plus<>>
    requires fold_operation<Op, T, std::ranges::range_reference_t<R>> && std::indirectly_writable<Out, T>
Out exclusive_scan(grain g, R&& r, Out out, T init, Op op = {})
{
    return forkjoin::exclusive_scan(g, std::ranges::begin(r), detail::range_end(r), out, std::move(init),
                                    std::move(op));
}

template <random_access_sized_range R, std::random_access_iterator Out, class T, class Op = std::plus<>>
    requires fold_operation<Op, T, std::ranges::range_reference_t<R>> && std::indirectly_writable<Out, T>
Out exclusive_scan(R&& r, Out out, T init, Op op = {})
{
    return forkjoin::exclusive_scan(grain{}, std::ranges::begin(r), detail::range_end(r), out, std::move(init),
                                    std::move(op));
}

} // namespace boost::forkjoin

#endif // BOOST_FORKJOIN_ALGORITHM_SCAN_HPP
