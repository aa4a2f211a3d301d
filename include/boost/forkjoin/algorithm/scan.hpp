// Copyright 2026 The Boost.ForkJoin developers.
// Distributed under the Boost Software License, Version 1.0.
// (See accompanying file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
#ifndef BOOST_FORKJOIN_ALGORITHM_SCAN_HPP
#define BOOST_FORKJOIN_ALGORITHM_SCAN_HPP

// The prefix sums: inclusive_scan, exclusive_scan.
//
// One pass over memory, in blocks that stay in cache, chained from the
// front: detail/algorithm/chained_scan.hpp. Elements are combined in
// order, so an associative operation that is not commutative gives the
// serial result. On one thread, or for an input of a single block, it is a
// plain serial scan.
//
// In place (out == first) works: a block's fold only reads it, and its scan
// reads and writes only its own elements.

#include <boost/forkjoin/algorithm/concepts.hpp>
#include <boost/forkjoin/algorithm/grain.hpp>
#include <boost/forkjoin/detail/algorithm/chained_scan.hpp>
#include <boost/forkjoin/detail/algorithm/in_pool.hpp>
#include <boost/forkjoin/detail/algorithm/ranges.hpp>

#include <algorithm>
#include <concepts>
#include <cstddef>
#include <functional>
#include <iterator>
#include <optional>
#include <ranges>
#include <utility>

namespace boost::forkjoin {

namespace detail {

// Scans [first, first + n) into out; `before` is what precedes element 0
// (empty for an inclusive scan without init). Exclusive: out[i] excludes
// element i.
template <bool Inclusive, class T, class It, class Out, class Op>
Out scan_in_parallel(grain g, It first, std::size_t n, Out out, std::optional<T> before, Op& op)
{
    if (n == 0)
        return out;
    run_in_pool([&] {
        std::size_t const threads = pool_threads();
        std::size_t const block = std::max(scan_block_len<T>(n, threads), g.min_len);
        // One thread, or too little for two blocks: the serial scan, with
        // no blocks to keep track of.
        if (threads == 1 || n <= block)
            serial_scan<Inclusive, T>(first, out, 0, n, before, op);
        else
            chained_scan<Inclusive, T, It, Out, Op>(first, n, out, std::move(before), op, block).run(threads);
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
