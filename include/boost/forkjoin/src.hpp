// Copyright 2026 The Boost.ForkJoin developers.
// Distributed under the Boost Software License, Version 1.0.
// (See accompanying file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
#ifndef BOOST_FORKJOIN_SRC_HPP
#define BOOST_FORKJOIN_SRC_HPP

// The compiled part of the library, for programs built with
// BOOST_FORKJOIN_SEPARATE_COMPILATION defined in every translation unit:
// include this header in exactly one of them (or build it as a library of
// its own). It defines the pool's cold code once, the code that each unit
// would otherwise parse and generate again: starting and stopping a pool,
// the global pool, a worker's search, the caller slot's protocol, the
// injector, and the default pool's registry. As Boost.Asio's
// <boost/asio/impl/src.hpp>; doc/reference.adoc, "Separate compilation".

#if !defined(BOOST_FORKJOIN_SEPARATE_COMPILATION)
#  error "boost/forkjoin/src.hpp: define BOOST_FORKJOIN_SEPARATE_COMPILATION in every translation unit of the program (without it the library is header-only and needs no compiled part)"
#endif
#if defined(BOOST_FORKJOIN_HPP) || defined(BOOST_FORKJOIN_DETAIL_CONFIG_HPP)
#  error "boost/forkjoin/src.hpp must be included before any other header of Boost.ForkJoin in its translation unit"
#endif

#define BOOST_FORKJOIN_SOURCE

#include <boost/forkjoin/detail/registry_base.hpp>
#include <boost/forkjoin/global_pool.hpp>
#include <boost/forkjoin/thread_pool.hpp>

namespace boost::forkjoin {
template basic_thread_pool<sleep::jec>::basic_thread_pool(pool_options);
template basic_thread_pool<sleep::jec>::~basic_thread_pool();
namespace detail {
template class registry<sleep::jec>;
} // namespace detail
} // namespace boost::forkjoin

#endif // BOOST_FORKJOIN_SRC_HPP
