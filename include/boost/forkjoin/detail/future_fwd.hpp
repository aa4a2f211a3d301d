// Copyright 2026 The Boost.ForkJoin developers.
// Distributed under the Boost Software License, Version 1.0.
// (See accompanying file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
#ifndef BOOST_FORKJOIN_DETAIL_FUTURE_FWD_HPP
#define BOOST_FORKJOIN_DETAIL_FUTURE_FWD_HPP

// What a pool's and a scope's spawn_future member need to be declared:
// the names, not the fibers. A program that calls them includes
// <boost/forkjoin/future.hpp>, which defines both; one that only joins
// does not parse Boost.Context, <future> and the fiber machinery.

#include <boost/forkjoin/detail/job.hpp>

#include <type_traits>

namespace boost::forkjoin {

template <class T>
class future;

namespace detail {

class registry_base;
class count_latch;

template <class F>
using future_value_t = checked_invoke_result_t<std::decay_t<F>&>;

template <class F>
future<future_value_t<F>> spawn_future(registry_base& registry, F&& f, count_latch* scope_latch);

// Whether <boost/forkjoin/future.hpp> has been included: false while
// future<T> is only declared. Asked from the spawn_future members, where
// T depends on the caller's f, so the answer is the one at the end of the
// caller's translation unit, where function templates are instantiated.
template <class T, class = void>
inline constexpr bool is_defined = false;
template <class T>
inline constexpr bool is_defined<T, std::void_t<decltype(sizeof(T))>> = true;

// (int, not f's result: that may be a type future<T> refuses, which is
// the other static_assert's to report.)
template <class F>
inline constexpr bool future_header_included = is_defined<future<std::conditional_t<std::is_void_v<F>, int, int>>>;

} // namespace detail
} // namespace boost::forkjoin

#endif // BOOST_FORKJOIN_DETAIL_FUTURE_FWD_HPP
