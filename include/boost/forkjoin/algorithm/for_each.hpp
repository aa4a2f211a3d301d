// Copyright 2026 The Boost.ForkJoin developers.
// Distributed under the Boost Software License, Version 1.0.
// (See accompanying file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
#ifndef BOOST_FORKJOIN_ALGORITHM_FOR_EACH_HPP
#define BOOST_FORKJOIN_ALGORITHM_FOR_EACH_HPP

// The element-wise algorithms: for_each, for_each_n, transform, fill, copy.
// Each cuts its range with the adaptive splitter and runs std's serial
// algorithm on every piece, so a piece's loop is the one the standard
// library already optimised (memmove for copy, a vectorised fill).
//
// Every algorithm comes in four forms: (first, last, ...), (range, ...), and
// the two with a leading fj::grain.

#include <boost/forkjoin/algorithm/concepts.hpp>
#include <boost/forkjoin/algorithm/grain.hpp>
#include <boost/forkjoin/detail/algorithm/ranges.hpp>
#include <boost/forkjoin/detail/algorithm/splitter.hpp>

#include <algorithm>
#include <concepts>
#include <cstddef>
#include <functional>
#include <iterator>
#include <ranges>
#include <utility>

namespace boost::forkjoin {

// ---------------------------------------------------------------------------
// for_each(first, last, f): f(*it) for every it, in parallel.

template <std::random_access_iterator It, class F>
    requires std::invocable<F&, std::iter_reference_t<It>>
void for_each(grain g, It first, It last, F f)
{
    detail::for_each_piece(detail::length(first, last), g, [&](std::size_t b, std::size_t e) {
        for (It it = detail::at(first, b), end = detail::at(first, e); it != end; ++it)
            std::invoke(f, *it);
    });
}

template <std::random_access_iterator It, class F>
    requires std::invocable<F&, std::iter_reference_t<It>>
void for_each(It first, It last, F f)
{
    forkjoin::for_each(grain{}, first, last, std::move(f));
}

template <random_access_sized_range R, class F>
    requires std::invocable<F&, std::ranges::range_reference_t<R>>
void for_each(grain g, R&& r, F f)
{
    forkjoin::for_each(g, std::ranges::begin(r), detail::range_end(r), std::move(f));
}

template <random_access_sized_range R, class F>
    requires std::invocable<F&, std::ranges::range_reference_t<R>>
void for_each(R&& r, F f)
{
    forkjoin::for_each(grain{}, std::ranges::begin(r), detail::range_end(r), std::move(f));
}

// ---------------------------------------------------------------------------
// for_each_n(first, n, f): for_each on [first, first + n); returns first + n
// (first if n <= 0).

template <std::random_access_iterator It, std::integral Size, class F>
    requires std::invocable<F&, std::iter_reference_t<It>>
It for_each_n(grain g, It first, Size n, F f)
{
    if (n <= 0)
        return first;
    It const last = first + static_cast<std::iter_difference_t<It>>(n);
    forkjoin::for_each(g, first, last, std::move(f));
    return last;
}

template <std::random_access_iterator It, std::integral Size, class F>
    requires std::invocable<F&, std::iter_reference_t<It>>
It for_each_n(It first, Size n, F f)
{
    return forkjoin::for_each_n(grain{}, first, n, std::move(f));
}

// ---------------------------------------------------------------------------
// transform(first, last, out, f): out[i] = f(first[i]); returns out + n.
// transform(first1, last1, first2, out, f): out[i] = f(first1[i], first2[i]).

template <std::random_access_iterator It, std::random_access_iterator Out, class F>
    requires std::invocable<F&, std::iter_reference_t<It>> &&
             std::indirectly_writable<Out, std::invoke_result_t<F&, std::iter_reference_t<It>>>
Out transform(grain g, It first, It last, Out out, F f)
{
    std::size_t const n = detail::length(first, last);
    detail::for_each_piece(n, g, [&](std::size_t b, std::size_t e) {
        std::transform(detail::at(first, b), detail::at(first, e), detail::at(out, b), std::ref(f));
    });
    return detail::at(out, n);
}

template <std::random_access_iterator It, std::random_access_iterator Out, class F>
    requires std::invocable<F&, std::iter_reference_t<It>> &&
             std::indirectly_writable<Out, std::invoke_result_t<F&, std::iter_reference_t<It>>>
Out transform(It first, It last, Out out, F f)
{
    return forkjoin::transform(grain{}, first, last, out, std::move(f));
}

template <random_access_sized_range R, std::random_access_iterator Out, class F>
    requires std::invocable<F&, std::ranges::range_reference_t<R>> &&
             std::indirectly_writable<Out, std::invoke_result_t<F&, std::ranges::range_reference_t<R>>>
Out transform(grain g, R&& r, Out out, F f)
{
    return forkjoin::transform(g, std::ranges::begin(r), detail::range_end(r), out, std::move(f));
}

template <random_access_sized_range R, std::random_access_iterator Out, class F>
    requires std::invocable<F&, std::ranges::range_reference_t<R>> &&
             std::indirectly_writable<Out, std::invoke_result_t<F&, std::ranges::range_reference_t<R>>>
Out transform(R&& r, Out out, F f)
{
    return forkjoin::transform(grain{}, std::ranges::begin(r), detail::range_end(r), out, std::move(f));
}

template <std::random_access_iterator It1, std::random_access_iterator It2, std::random_access_iterator Out, class F>
    requires std::invocable<F&, std::iter_reference_t<It1>, std::iter_reference_t<It2>> &&
             std::indirectly_writable<Out,
                                      std::invoke_result_t<F&, std::iter_reference_t<It1>, std::iter_reference_t<It2>>>
Out transform(grain g, It1 first1, It1 last1, It2 first2, Out out, F f)
{
    std::size_t const n = detail::length(first1, last1);
    detail::for_each_piece(n, g, [&](std::size_t b, std::size_t e) {
        std::transform(detail::at(first1, b), detail::at(first1, e), detail::at(first2, b), detail::at(out, b),
                       std::ref(f));
    });
    return detail::at(out, n);
}

template <std::random_access_iterator It1, std::random_access_iterator It2, std::random_access_iterator Out, class F>
    requires std::invocable<F&, std::iter_reference_t<It1>, std::iter_reference_t<It2>> &&
             std::indirectly_writable<Out,
                                      std::invoke_result_t<F&, std::iter_reference_t<It1>, std::iter_reference_t<It2>>>
Out transform(It1 first1, It1 last1, It2 first2, Out out, F f)
{
    return forkjoin::transform(grain{}, first1, last1, first2, out, std::move(f));
}

// The range form of the binary transform reads as many elements as the
// shorter range has, as std::ranges::transform does.
template <random_access_sized_range R1, random_access_sized_range R2, std::random_access_iterator Out, class F>
    requires std::invocable<F&, std::ranges::range_reference_t<R1>, std::ranges::range_reference_t<R2>> &&
             std::indirectly_writable<Out, std::invoke_result_t<F&, std::ranges::range_reference_t<R1>,
                                                                std::ranges::range_reference_t<R2>>>
Out transform(grain g, R1&& r1, R2&& r2, Out out, F f)
{
    auto const n = std::min<std::size_t>(std::ranges::size(r1), std::ranges::size(r2));
    auto const first1 = std::ranges::begin(r1);
    return forkjoin::transform(g, first1, detail::at(first1, n), std::ranges::begin(r2), out, std::move(f));
}

template <random_access_sized_range R1, random_access_sized_range R2, std::random_access_iterator Out, class F>
    requires std::invocable<F&, std::ranges::range_reference_t<R1>, std::ranges::range_reference_t<R2>> &&
             std::indirectly_writable<Out, std::invoke_result_t<F&, std::ranges::range_reference_t<R1>,
                                                                std::ranges::range_reference_t<R2>>>
Out transform(R1&& r1, R2&& r2, Out out, F f)
{
    return forkjoin::transform(grain{}, std::forward<R1>(r1), std::forward<R2>(r2), out, std::move(f));
}

// ---------------------------------------------------------------------------
// fill(first, last, value): every element becomes a copy of value.

template <std::random_access_iterator It, class T>
    requires std::indirectly_writable<It, T const&>
void fill(grain g, It first, It last, T const& value)
{
    detail::for_each_piece(detail::length(first, last), g, [&](std::size_t b, std::size_t e) {
        std::fill(detail::at(first, b), detail::at(first, e), value);
    });
}

template <std::random_access_iterator It, class T>
    requires std::indirectly_writable<It, T const&>
void fill(It first, It last, T const& value)
{
    forkjoin::fill(grain{}, first, last, value);
}

template <random_access_sized_range R, class T>
    requires std::indirectly_writable<std::ranges::iterator_t<R>, T const&>
void fill(grain g, R&& r, T const& value)
{
    forkjoin::fill(g, std::ranges::begin(r), detail::range_end(r), value);
}

template <random_access_sized_range R, class T>
    requires std::indirectly_writable<std::ranges::iterator_t<R>, T const&>
void fill(R&& r, T const& value)
{
    forkjoin::fill(grain{}, std::ranges::begin(r), detail::range_end(r), value);
}

// ---------------------------------------------------------------------------
// copy(first, last, out): out[i] = first[i]; returns out + n. The ranges
// must not overlap.

template <std::random_access_iterator It, std::random_access_iterator Out>
    requires std::indirectly_copyable<It, Out>
Out copy(grain g, It first, It last, Out out)
{
    std::size_t const n = detail::length(first, last);
    detail::for_each_piece(n, g, [&](std::size_t b, std::size_t e) {
        std::copy(detail::at(first, b), detail::at(first, e), detail::at(out, b));
    });
    return detail::at(out, n);
}

template <std::random_access_iterator It, std::random_access_iterator Out>
    requires std::indirectly_copyable<It, Out>
Out copy(It first, It last, Out out)
{
    return forkjoin::copy(grain{}, first, last, out);
}

template <random_access_sized_range R, std::random_access_iterator Out>
    requires std::indirectly_copyable<std::ranges::iterator_t<R>, Out>
Out copy(grain g, R&& r, Out out)
{
    return forkjoin::copy(g, std::ranges::begin(r), detail::range_end(r), out);
}

template <random_access_sized_range R, std::random_access_iterator Out>
    requires std::indirectly_copyable<std::ranges::iterator_t<R>, Out>
Out copy(R&& r, Out out)
{
    return forkjoin::copy(grain{}, std::ranges::begin(r), detail::range_end(r), out);
}

} // namespace boost::forkjoin

#endif // BOOST_FORKJOIN_ALGORITHM_FOR_EACH_HPP
