// Copyright 2026 The Boost.ForkJoin developers.
// Distributed under the Boost Software License, Version 1.0.
// (See accompanying file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
#ifndef BOOST_FORKJOIN_CAPACITY_HPP
#define BOOST_FORKJOIN_CAPACITY_HPP

// Compile-time options of basic_thread_pool, in the style of Boost.Lockfree:
//
//     basic_thread_pool<sleep::jec, deque_capacity<1024>> pool;

#include <cstddef>
#include <type_traits>

namespace boost::forkjoin {

// Initial slots of each worker's deque (rounded up to a power of two). The
// deque grows by doubling when full; a larger start avoids growth in deep
// recursions. Default 256; at most 2^30.
template <std::size_t N>
struct deque_capacity : std::integral_constant<std::size_t, N> {};

// Nodes the injector preallocates. It allocates more when they run out.
// Default 128.
template <std::size_t N>
struct injector_capacity : std::integral_constant<std::size_t, N> {};

namespace detail {

template <template <std::size_t> class Option, class T>
struct is_size_option : std::false_type {};
template <template <std::size_t> class Option, std::size_t N>
struct is_size_option<Option, Option<N>> : std::true_type {};

// The value of the last Option<N> among Options, or Default. Options of
// other kinds (lazy_joins, with no value) are skipped.
template <template <std::size_t> class Option, std::size_t Default, class... Options>
constexpr std::size_t size_option_v = [] {
    std::size_t value = Default;
    (
        [&] {
            if constexpr (is_size_option<Option, Options>::value)
                value = Options::value;
        }(),
        ...);
    return value;
}();

template <class T>
inline constexpr bool is_pool_option_v =
    is_size_option<deque_capacity, T>::value || is_size_option<injector_capacity, T>::value;

} // namespace detail
} // namespace boost::forkjoin

#endif // BOOST_FORKJOIN_CAPACITY_HPP
