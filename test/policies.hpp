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
// the pool's life, Asio) run on the library's three policies in the plain
// build, and on the default policy alone under the sanitizers. A policy
// acts only in the sleep and wake-up hooks (registry.hpp); everything else
// these tests reach (jobs, latches, fibers, shared states, the caller slot,
// the workers' lives) is the same code under every policy. The protocol
// tests (join, sleep, spin_wait, fence) run every policy of all_policies
// in every build: that is where a policy's own code and its interleavings
// are checked. Without this cut the suite's builds alone
// took longer than its 25-minute budget on two cores.
#if BOOST_FORKJOIN_TEST_SANITIZED
using api_policies = std::tuple<boost::forkjoin::sleep::jec>;
#else
using api_policies =
    std::tuple<boost::forkjoin::sleep::spin, boost::forkjoin::sleep::legacy, boost::forkjoin::sleep::jec>;
#endif

// The parallel algorithms reach the pool only through join and install:
// their tests run where the API's do.
// The parallel algorithms reach the pool only through join and install,
// which are the same code whatever the pool's policy: most of their cases
// run on the default policy alone, and one case in each of algorithm_test
// and sort_test runs them on api_policies. Each policy more instantiates
// every algorithm again, and these two programs were the suite's slowest
// to compile.
using algorithm_policies = std::tuple<boost::forkjoin::sleep::jec>;

// The policies that block and so can detect deadlocks and save idle CPU.
using blocking_policies = std::tuple<boost::forkjoin::sleep::legacy, boost::forkjoin::sleep::jec>;

// A test's Policy parameter lazy<P>: the pool of policy P with lazy joins
// (lazy_joins.hpp).
template <class Policy>
struct lazy {};

template <class Policy>
struct pool_of {
    using type = boost::forkjoin::basic_thread_pool<Policy>;
};
template <class Policy>
struct pool_of<lazy<Policy>> {
    using type = boost::forkjoin::basic_thread_pool<Policy, boost::forkjoin::lazy_joins>;
};

template <class Policy>
using pool = typename pool_of<Policy>::type;

// The join tests run on every policy eagerly, and lazily on the default
// policy and on the one that never sleeps (where idle workers are always
// searching, so lazy joins publish the most); under the sanitizers, lazily
// on the default policy.
#if BOOST_FORKJOIN_TEST_SANITIZED
using join_policies = std::tuple<boost::forkjoin::sleep::spin, boost::forkjoin::sleep::legacy,
                                 boost::forkjoin::sleep::jec, lazy<boost::forkjoin::sleep::jec>>;
#else
using join_policies =
    std::tuple<boost::forkjoin::sleep::spin, boost::forkjoin::sleep::legacy, boost::forkjoin::sleep::jec,
               example::spin_then_backoff, lazy<boost::forkjoin::sleep::jec>, lazy<boost::forkjoin::sleep::spin>>;
#endif

// The one case of algorithm_test and of sort_test that runs on every pool
// kind: api_policies, and lazy joins on the default policy.
#if BOOST_FORKJOIN_TEST_SANITIZED
using algorithm_pool_kinds = std::tuple<boost::forkjoin::sleep::jec, lazy<boost::forkjoin::sleep::jec>>;
#else
using algorithm_pool_kinds = std::tuple<boost::forkjoin::sleep::spin, boost::forkjoin::sleep::legacy,
                                        boost::forkjoin::sleep::jec, lazy<boost::forkjoin::sleep::jec>>;
#endif

inline boost::forkjoin::pool_options threads(std::size_t n)
{
    boost::forkjoin::pool_options options;
    options.num_threads = n;
    return options;
}

} // namespace test

#endif // BOOST_FORKJOIN_TEST_POLICIES_HPP
