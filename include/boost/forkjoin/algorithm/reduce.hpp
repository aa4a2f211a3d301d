// Copyright 2026 The Boost.ForkJoin developers.
// Distributed under the Boost Software License, Version 1.0.
// (See accompanying file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
#ifndef BOOST_FORKJOIN_ALGORITHM_REDUCE_HPP
#define BOOST_FORKJOIN_ALGORITHM_REDUCE_HPP

// The reductions: reduce, transform_reduce, count, count_if.
//
// Unlike std::reduce, these keep the elements' order: the result is
// init op x0 op x1 op ... op x(n-1) grouped some way, so an associative
// operation gives the serial result even if it is not commutative (a matrix
// product, string concatenation), as Rayon's reduce promises. Each piece is
// folded on its own (detail/algorithm/fold.hpp), and pieces are combined
// left piece on the left; init is applied once, on the far left.

#include <boost/forkjoin/algorithm/concepts.hpp>
#include <boost/forkjoin/algorithm/grain.hpp>
#include <boost/forkjoin/detail/algorithm/fold.hpp>
#include <boost/forkjoin/detail/algorithm/ranges.hpp>
#include <boost/forkjoin/detail/algorithm/splitter.hpp>

#include <concepts>
#include <cstddef>
#include <functional>
#include <iterator>
#include <ranges>
#include <utility>

namespace boost::forkjoin {

namespace detail {

// init op get(0) op ... op get(n-1), in order.
template <class T, class Get, class Op>
T fold_in_parallel(grain g, std::size_t n, T init, Get get, Op& op)
{
    if (n == 0)
        return init;
    T rest = reduce_pieces<T>(
        n, g, [&](std::size_t b, std::size_t e) { return fold_nonempty<T>(b, e, get, op); },
        [&](T&& left, T&& right) -> T { return op(std::move(left), std::move(right)); });
    return op(std::move(init), std::move(rest));
}

} // namespace detail

// ---------------------------------------------------------------------------
// reduce(first, last, init, op): init op first[0] op ... op first[n-1].
// reduce(first, last, init): with std::plus<>. reduce(first, last): with
// init = iter_value_t<It>{}.

template <std::random_access_iterator It, class T, class Op>
    requires fold_operation<Op, T, std::iter_reference_t<It>>
T reduce(grain g, It first, It last, T init, Op op)
{
    return detail::fold_in_parallel(
        g, detail::length(first, last), std::move(init),
        [first](std::size_t i) -> decltype(auto) { return *detail::at(first, i); }, op);
}

template <std::random_access_iterator It, class T, class Op>
    requires fold_operation<Op, T, std::iter_reference_t<It>>
T reduce(It first, It last, T init, Op op)
{
    return forkjoin::reduce(grain{}, first, last, std::move(init), std::move(op));
}

template <std::random_access_iterator It, class T>
    requires fold_operation<std::plus<>, T, std::iter_reference_t<It>>
T reduce(grain g, It first, It last, T init)
{
    return forkjoin::reduce(g, first, last, std::move(init), std::plus<>());
}

template <std::random_access_iterator It, class T>
    requires fold_operation<std::plus<>, T, std::iter_reference_t<It>>
T reduce(It first, It last, T init)
{
    return forkjoin::reduce(grain{}, first, last, std::move(init), std::plus<>());
}

template <std::random_access_iterator It>
    requires fold_operation<std::plus<>, std::iter_value_t<It>, std::iter_reference_t<It>>
std::iter_value_t<It> reduce(grain g, It first, It last)
{
    return forkjoin::reduce(g, first, last, std::iter_value_t<It>{}, std::plus<>());
}

template <std::random_access_iterator It>
    requires fold_operation<std::plus<>, std::iter_value_t<It>, std::iter_reference_t<It>>
std::iter_value_t<It> reduce(It first, It last)
{
    return forkjoin::reduce(grain{}, first, last, std::iter_value_t<It>{}, std::plus<>());
}

template <random_access_sized_range R, class T, class Op>
    requires fold_operation<Op, T, std::ranges::range_reference_t<R>>
T reduce(grain g, R&& r, T init, Op op)
{
    return forkjoin::reduce(g, std::ranges::begin(r), detail::range_end(r), std::move(init), std::move(op));
}

template <random_access_sized_range R, class T, class Op>
    requires fold_operation<Op, T, std::ranges::range_reference_t<R>>
T reduce(R&& r, T init, Op op)
{
    return forkjoin::reduce(grain{}, std::ranges::begin(r), detail::range_end(r), std::move(init), std::move(op));
}

template <random_access_sized_range R, class T>
    requires fold_operation<std::plus<>, T, std::ranges::range_reference_t<R>>
T reduce(grain g, R&& r, T init)
{
    return forkjoin::reduce(g, std::ranges::begin(r), detail::range_end(r), std::move(init), std::plus<>());
}

template <random_access_sized_range R, class T>
    requires fold_operation<std::plus<>, T, std::ranges::range_reference_t<R>>
T reduce(R&& r, T init)
{
    return forkjoin::reduce(grain{}, std::ranges::begin(r), detail::range_end(r), std::move(init), std::plus<>());
}

template <random_access_sized_range R>
    requires fold_operation<std::plus<>, std::ranges::range_value_t<R>, std::ranges::range_reference_t<R>>
std::ranges::range_value_t<R> reduce(grain g, R&& r)
{
    return forkjoin::reduce(g, std::ranges::begin(r), detail::range_end(r), std::ranges::range_value_t<R>{},
                            std::plus<>());
}

template <random_access_sized_range R>
    requires fold_operation<std::plus<>, std::ranges::range_value_t<R>, std::ranges::range_reference_t<R>>
std::ranges::range_value_t<R> reduce(R&& r)
{
    return forkjoin::reduce(grain{}, std::ranges::begin(r), detail::range_end(r), std::ranges::range_value_t<R>{},
                            std::plus<>());
}

// ---------------------------------------------------------------------------
// transform_reduce(first, last, init, reduce_op, transform_op):
//     init op t(first[0]) op ... op t(first[n-1]).
// transform_reduce(first1, last1, first2, init, reduce_op, transform_op):
//     init op t(first1[0], first2[0]) op ...
// transform_reduce(first1, last1, first2, init): an inner product, with
//     std::plus<> and std::multiplies<>.

template <std::random_access_iterator It, class T, class ReduceOp, class TransformOp>
    requires std::invocable<TransformOp&, std::iter_reference_t<It>> &&
             fold_operation<ReduceOp, T, std::invoke_result_t<TransformOp&, std::iter_reference_t<It>>>
T transform_reduce(grain g, It first, It last, T init, ReduceOp reduce_op, TransformOp transform_op)
{
    return detail::fold_in_parallel(
        g, detail::length(first, last), std::move(init),
        [&](std::size_t i) -> decltype(auto) { return std::invoke(transform_op, *detail::at(first, i)); },
        reduce_op);
}

template <std::random_access_iterator It, class T, class ReduceOp, class TransformOp>
    requires std::invocable<TransformOp&, std::iter_reference_t<It>> &&
             fold_operation<ReduceOp, T, std::invoke_result_t<TransformOp&, std::iter_reference_t<It>>>
T transform_reduce(It first, It last, T init, ReduceOp reduce_op, TransformOp transform_op)
{
    return forkjoin::transform_reduce(grain{}, first, last, std::move(init), std::move(reduce_op),
                                      std::move(transform_op));
}

template <random_access_sized_range R, class T, class ReduceOp, class TransformOp>
    requires std::invocable<TransformOp&, std::ranges::range_reference_t<R>> &&
             fold_operation<ReduceOp, T, std::invoke_result_t<TransformOp&, std::ranges::range_reference_t<R>>>
T transform_reduce(grain g, R&& r, T init, ReduceOp reduce_op, TransformOp transform_op)
{
    return forkjoin::transform_reduce(g, std::ranges::begin(r), detail::range_end(r), std::move(init),
                                      std::move(reduce_op), std::move(transform_op));
}

template <random_access_sized_range R, class T, class ReduceOp, class TransformOp>
    requires std::invocable<TransformOp&, std::ranges::range_reference_t<R>> &&
             fold_operation<ReduceOp, T, std::invoke_result_t<TransformOp&, std::ranges::range_reference_t<R>>>
T transform_reduce(R&& r, T init, ReduceOp reduce_op, TransformOp transform_op)
{
    return forkjoin::transform_reduce(grain{}, std::ranges::begin(r), detail::range_end(r), std::move(init),
                                      std::move(reduce_op), std::move(transform_op));
}

template <std::random_access_iterator It1, std::random_access_iterator It2, class T, class ReduceOp,
          class TransformOp>
    requires std::invocable<TransformOp&, std::iter_reference_t<It1>, std::iter_reference_t<It2>> &&
             fold_operation<ReduceOp, T,
                            std::invoke_result_t<TransformOp&, std::iter_reference_t<It1>, std::iter_reference_t<It2>>>
T transform_reduce(grain g, It1 first1, It1 last1, It2 first2, T init, ReduceOp reduce_op, TransformOp transform_op)
{
    return detail::fold_in_parallel(
        g, detail::length(first1, last1), std::move(init),
        [&](std::size_t i) -> decltype(auto) {
            return std::invoke(transform_op, *detail::at(first1, i), *detail::at(first2, i));
        },
        reduce_op);
}

template <std::random_access_iterator It1, std::random_access_iterator It2, class T, class ReduceOp,
          class TransformOp>
    requires std::invocable<TransformOp&, std::iter_reference_t<It1>, std::iter_reference_t<It2>> &&
             fold_operation<ReduceOp, T,
                            std::invoke_result_t<TransformOp&, std::iter_reference_t<It1>, std::iter_reference_t<It2>>>
T transform_reduce(It1 first1, It1 last1, It2 first2, T init, ReduceOp reduce_op, TransformOp transform_op)
{
    return forkjoin::transform_reduce(grain{}, first1, last1, first2, std::move(init), std::move(reduce_op),
                                      std::move(transform_op));
}

template <std::random_access_iterator It1, std::random_access_iterator It2, class T>
    requires std::invocable<std::multiplies<>&, std::iter_reference_t<It1>, std::iter_reference_t<It2>> &&
             fold_operation<std::plus<>, T,
                            std::invoke_result_t<std::multiplies<>&, std::iter_reference_t<It1>,
                                                 std::iter_reference_t<It2>>>
T transform_reduce(grain g, It1 first1, It1 last1, It2 first2, T init)
{
    return forkjoin::transform_reduce(g, first1, last1, first2, std::move(init), std::plus<>(), std::multiplies<>());
}

template <std::random_access_iterator It1, std::random_access_iterator It2, class T>
    requires std::invocable<std::multiplies<>&, std::iter_reference_t<It1>, std::iter_reference_t<It2>> &&
             fold_operation<std::plus<>, T,
                            std::invoke_result_t<std::multiplies<>&, std::iter_reference_t<It1>,
                                                 std::iter_reference_t<It2>>>
T transform_reduce(It1 first1, It1 last1, It2 first2, T init)
{
    return forkjoin::transform_reduce(grain{}, first1, last1, first2, std::move(init), std::plus<>(),
                                      std::multiplies<>());
}

// ---------------------------------------------------------------------------
// count_if(first, last, pred), count(first, last, value): how many elements
// satisfy pred, or equal value.

template <std::random_access_iterator It, std::indirect_unary_predicate<It> Pred>
std::iter_difference_t<It> count_if(grain g, It first, It last, Pred pred)
{
    using count_type = std::iter_difference_t<It>;
    return forkjoin::transform_reduce(g, first, last, count_type{0}, std::plus<>(),
                                      [&](auto&& x) { return static_cast<count_type>(std::invoke(pred, x) ? 1 : 0); });
}

template <std::random_access_iterator It, std::indirect_unary_predicate<It> Pred>
std::iter_difference_t<It> count_if(It first, It last, Pred pred)
{
    return forkjoin::count_if(grain{}, first, last, std::move(pred));
}

template <random_access_sized_range R, std::indirect_unary_predicate<std::ranges::iterator_t<R>> Pred>
std::ranges::range_difference_t<R> count_if(grain g, R&& r, Pred pred)
{
    return forkjoin::count_if(g, std::ranges::begin(r), detail::range_end(r), std::move(pred));
}

template <random_access_sized_range R, std::indirect_unary_predicate<std::ranges::iterator_t<R>> Pred>
std::ranges::range_difference_t<R> count_if(R&& r, Pred pred)
{
    return forkjoin::count_if(grain{}, std::ranges::begin(r), detail::range_end(r), std::move(pred));
}

template <std::random_access_iterator It, class T>
    requires std::indirect_binary_predicate<std::ranges::equal_to, It, T const*>
std::iter_difference_t<It> count(grain g, It first, It last, T const& value)
{
    return forkjoin::count_if(g, first, last, [&](auto&& x) { return x == value; });
}

template <std::random_access_iterator It, class T>
    requires std::indirect_binary_predicate<std::ranges::equal_to, It, T const*>
std::iter_difference_t<It> count(It first, It last, T const& value)
{
    return forkjoin::count(grain{}, first, last, value);
}

template <random_access_sized_range R, class T>
    requires std::indirect_binary_predicate<std::ranges::equal_to, std::ranges::iterator_t<R>, T const*>
std::ranges::range_difference_t<R> count(grain g, R&& r, T const& value)
{
    return forkjoin::count(g, std::ranges::begin(r), detail::range_end(r), value);
}

template <random_access_sized_range R, class T>
    requires std::indirect_binary_predicate<std::ranges::equal_to, std::ranges::iterator_t<R>, T const*>
std::ranges::range_difference_t<R> count(R&& r, T const& value)
{
    return forkjoin::count(grain{}, std::ranges::begin(r), detail::range_end(r), value);
}

} // namespace boost::forkjoin

#endif // BOOST_FORKJOIN_ALGORITHM_REDUCE_HPP
