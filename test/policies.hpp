// Copyright 2026 The Boost.ForkJoin developers.
// Distributed under the Boost Software License, Version 1.0.
// (See accompanying file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
#ifndef BOOST_FORKJOIN_TEST_POLICIES_HPP
#define BOOST_FORKJOIN_TEST_POLICIES_HPP

// Every test that touches a pool runs once per sleep policy, including the
// one a user wrote in example/, so that a new policy is covered by adding it
// here.

#include "../example/custom_sleep_policy.hpp"

#include <boost/forkjoin.hpp>

#include <tuple>

namespace test {

// Under the sanitizers (test/run.sh builds every test again with TSan and
// with ASan+UBSan) the example policy is left out: the registry, jobs and
// latches it would exercise are the same code the three library policies
// run, its own protocol is checked by the plain build, and a fourth copy of
// every test template costs the suite minutes of compile time.
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define BOOST_FORKJOIN_TEST_SANITIZED 1
using all_policies = std::tuple<boost::forkjoin::sleep::spin, boost::forkjoin::sleep::legacy,
                                boost::forkjoin::sleep::jec>;
#else
#define BOOST_FORKJOIN_TEST_SANITIZED 0
using all_policies = std::tuple<boost::forkjoin::sleep::spin, boost::forkjoin::sleep::legacy,
                                boost::forkjoin::sleep::jec, example::spin_then_backoff>;
#endif

// The tests of the pool's API (scope, spawn, install, broadcast, futures,
// the pool's life, Asio) under AddressSanitizer run on the default policy
// alone: the memory they allocate and free (jobs, latches, fibers, shared
// states, workers) is the registry's, whatever the policy, and each
// policy's own state is exercised under ASan by the protocol tests (join,
// sleep, spin_wait, fence), which keep all_policies. Under ThreadSanitizer,
// where the interleavings do depend on the policy, and in the plain build
// they run under every policy of all_policies.
#if defined(__SANITIZE_ADDRESS__)
using api_policies = std::tuple<boost::forkjoin::sleep::jec>;
#else
using api_policies = all_policies;
#endif

// The parallel algorithms reach the pool only through join and install,
// whose every policy the other programs cover under the sanitizers; there,
// the algorithms' tests run on the default policy alone, which keeps their
// template-heavy programs from dominating the sanitizer builds' time. The
// plain build runs them under every policy.
#if BOOST_FORKJOIN_TEST_SANITIZED
using algorithm_policies = std::tuple<boost::forkjoin::sleep::jec>;
#else
using algorithm_policies = all_policies;
#endif

// The policies that block and so can detect deadlocks and save idle CPU.
using blocking_policies = std::tuple<boost::forkjoin::sleep::legacy, boost::forkjoin::sleep::jec>;

template <class Policy>
using pool = boost::forkjoin::basic_thread_pool<Policy>;

inline boost::forkjoin::pool_options threads(std::size_t n)
{
    boost::forkjoin::pool_options options;
    options.num_threads = n;
    return options;
}

} // namespace test

#endif // BOOST_FORKJOIN_TEST_POLICIES_HPP
