// Copyright 2026 The Boost.ForkJoin developers.
// Distributed under the Boost Software License, Version 1.0.
// (See accompanying file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
#ifndef BOOST_FORKJOIN_TEST_SEPARATE_COMPILATION_OTHER_HPP
#define BOOST_FORKJOIN_TEST_SEPARATE_COMPILATION_OTHER_HPP

#include <boost/forkjoin/thread_pool.hpp>

boost::forkjoin::thread_pool* global_pool_seen_elsewhere();
long fib_elsewhere(int n);
// In a pool of another policy than the default: its registry is
// instantiated in the user's unit, on the compiled registry_base.
long fib_in_a_legacy_pool(int n);

#endif
