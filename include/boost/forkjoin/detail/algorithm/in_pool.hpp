// Copyright 2026 The Boost.ForkJoin developers.
// Distributed under the Boost Software License, Version 1.0.
// (See accompanying file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
#ifndef BOOST_FORKJOIN_DETAIL_ALGORITHM_IN_POOL_HPP
#define BOOST_FORKJOIN_DETAIL_ALGORITHM_IN_POOL_HPP

// Where an algorithm runs: on the calling worker's pool, or, from outside
// every pool, inside one install into the global pool (as join does). One
// install for the whole algorithm, not one per split.

#include <boost/forkjoin/detail/registry_base.hpp>
#include <boost/forkjoin/global_pool.hpp>

#include <cstddef>

namespace boost::forkjoin::detail {

template <class F>
decltype(auto) run_in_pool(F&& f)
{
    if (current_worker != nullptr)
        return f();
    return global_pool().install(f);
}

// Workers of the pool the calling worker belongs to. Call inside run_in_pool.
inline std::size_t pool_threads() noexcept { return current_worker->registry().num_threads(); }

} // namespace boost::forkjoin::detail

#endif // BOOST_FORKJOIN_DETAIL_ALGORITHM_IN_POOL_HPP
