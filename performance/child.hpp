// Copyright 2026 The Boost.ForkJoin developers.
// Distributed under the Boost Software License, Version 1.0.
// (See accompanying file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
#ifndef BOOST_FORKJOIN_PERFORMANCE_CHILD_HPP
#define BOOST_FORKJOIN_PERFORMANCE_CHILD_HPP

// The child process that measures the C++ implementations:
//
//   forkjoin_bench --child IMPLS KERNEL --threads N --reps R [--warmup W] [--param key=value]...
//
// The same argument shape as rayon-bench's (plus IMPLS). It prints the
// `rep key=value ...` lines of measure.hpp.
//
// IMPLS is one implementation, or a comma-separated list of the library's
// policies (forkjoin-jec,forkjoin-legacy,forkjoin-spin), which it measures
// with boost::forkjoin::compare_policies, the harness users run on their
// own workloads: the policies' repetitions interleaved, each on a pool
// built for it after W warm-up runs on that pool. Each kernel call is
// preceded by `impl NAME`, and after the last one comes, per measured
// repetition, `pool impl=NAME rep=I sleeps=... wakeups=... futile_wakeups=...
// steals=... injected=...`: the pool's counters over that kernel call.

namespace forkjoin_bench {

int child_main(int argc, char** argv);

} // namespace forkjoin_bench

#endif // BOOST_FORKJOIN_PERFORMANCE_CHILD_HPP
