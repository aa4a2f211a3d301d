// Copyright 2026 The Boost.ForkJoin developers.
// Distributed under the Boost Software License, Version 1.0.
// (See accompanying file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
#ifndef BOOST_FORKJOIN_DETAIL_CHECKED_OPTIONS_HPP
#define BOOST_FORKJOIN_DETAIL_CHECKED_OPTIONS_HPP

// The checks and resolutions that a registry's constructor applies to the
// pool_options it is given, before anything is built.

#include <boost/forkjoin/detail/thread_count.hpp>
#include <boost/forkjoin/errors.hpp>
#include <boost/forkjoin/pool_options.hpp>
#include <boost/forkjoin/spin_budget.hpp>

#include <algorithm>
#include <chrono>
#include <cstddef>
#include <stdexcept>
#include <string>

namespace boost::forkjoin::detail {

inline std::size_t resolve_num_threads(std::size_t requested, std::size_t policy_max, std::string const& policy_name)
{
    std::size_t const limit = std::min(policy_max, registry_thread_limit);
    std::size_t const from_environment = requested != 0 ? 0 : num_threads_from_environment();
    // The hardware's count is a default, not a request: like rayon's
    // (max_num_threads), it gives way to the policy's limit.
    if (requested == 0 && from_environment == 0)
        return std::min(hardware_num_threads(), limit);
    std::size_t const n = requested != 0 ? requested : from_environment;
    if (n > limit)
        throw too_many_threads("boost::forkjoin: " + std::to_string(n) + " threads requested"
                               + (requested == 0 ? std::string(" (by ") + num_threads_variable + ")" : "")
                               + ", but a pool with " + policy_name + " supports at most "
                               + std::to_string(limit));
    return n;
}

// Throws for a negative spin_limit; takes one above spin_budget's
// max_limit as that, here, so that the policies and the threads that
// wait from outside all spin within the same limit.
inline pool_options with_spin_limit_in_range(pool_options options)
{
    if (options.spin_limit < std::chrono::nanoseconds::zero())
        throw std::invalid_argument("boost::forkjoin: pool_options::spin_limit must not be negative");
    options.spin_limit = std::min(options.spin_limit, spin_budget::max_limit);
    return options;
}

// Below the minimum, the fiber's own frames (Boost.Context's record at
// the top of the stack, the task's entry, an exception's unwinding, a
// signal handler) would overrun a stack before user code runs at all.
inline void check_fiber_stack_size(std::size_t size)
{
    if (size < pool_options::min_fiber_stack_size)
        throw std::invalid_argument("boost::forkjoin: pool_options::fiber_stack_size is " + std::to_string(size)
                                    + " bytes; the minimum is " + std::to_string(pool_options::min_fiber_stack_size)
                                    + " (pool_options::min_fiber_stack_size)");
}

} // namespace boost::forkjoin::detail

#endif // BOOST_FORKJOIN_DETAIL_CHECKED_OPTIONS_HPP
