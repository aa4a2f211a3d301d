// Copyright 2026 The Boost.ForkJoin developers.
// Distributed under the Boost Software License, Version 1.0.
// (See accompanying file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
#ifndef BOOST_FORKJOIN_HPP
#define BOOST_FORKJOIN_HPP

// Boost.ForkJoin: work-stealing fork-join parallelism whose sleep/wake
// strategy is a compile-time policy.
//
// Every public header except two that most programs do not need and that
// would cost every unit their parse: asio.hpp (Boost.Asio) and
// policy_benchmark.hpp (compare_policies, with iostreams and a JSON
// writer). Include those where they are used.

#include <boost/forkjoin/algorithm.hpp>
#include <boost/forkjoin/broadcast.hpp>
#include <boost/forkjoin/broadcast_context.hpp>
#include <boost/forkjoin/capacity.hpp>
#include <boost/forkjoin/core_latch.hpp>
#include <boost/forkjoin/current_thread.hpp>
#include <boost/forkjoin/errors.hpp>
#include <boost/forkjoin/future.hpp>
#include <boost/forkjoin/global_pool.hpp>
#include <boost/forkjoin/join.hpp>
#include <boost/forkjoin/pool_options.hpp>
#include <boost/forkjoin/pool_stats.hpp>
#include <boost/forkjoin/scope.hpp>
#include <boost/forkjoin/sleep/jec.hpp>
#include <boost/forkjoin/sleep/legacy.hpp>
#include <boost/forkjoin/sleep/spin.hpp>
#include <boost/forkjoin/sleep_policy.hpp>
#include <boost/forkjoin/spawn.hpp>
#include <boost/forkjoin/thread_builder.hpp>
#include <boost/forkjoin/thread_pool.hpp>
#include <boost/forkjoin/when_all.hpp>
#include <boost/forkjoin/when_any.hpp>

#endif // BOOST_FORKJOIN_HPP
