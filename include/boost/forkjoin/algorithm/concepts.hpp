// Copyright 2026 The Boost.ForkJoin developers.
// Distributed under the Boost Software License, Version 1.0.
// (See accompanying file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
#ifndef BOOST_FORKJOIN_ALGORITHM_CONCEPTS_HPP
#define BOOST_FORKJOIN_ALGORITHM_CONCEPTS_HPP

// What the parallel algorithms ask of their arguments, named so that a
// compiler's "constraints not satisfied" note says it in the user's terms.

#include <concepts>
#include <functional>
#include <iterator>
#include <ranges>

namespace boost::forkjoin {

// A range the algorithms can cut anywhere in O(1): random access and a known
// size (a std::vector, std::span, std::array, std::views::iota(0, n)).
template <class R>
concept random_access_sized_range = std::ranges::random_access_range<R> && std::ranges::sized_range<R>;

// An operation the reductions and scans may apply to any two partial results
// and to a partial result and an element, in the order the elements come
// (associative; it need not be commutative).
template <class Op, class T, class Element>
concept fold_operation = std::copy_constructible<T> && std::invocable<Op&, T, T> &&
                         std::invocable<Op&, T, Element> && std::convertible_to<std::invoke_result_t<Op&, T, T>, T> &&
                         std::convertible_to<std::invoke_result_t<Op&, T, Element>, T>;

} // namespace boost::forkjoin

#endif // BOOST_FORKJOIN_ALGORITHM_CONCEPTS_HPP
