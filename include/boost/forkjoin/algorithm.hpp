// Copyright 2026 The Boost.ForkJoin developers.
// Distributed under the Boost Software License, Version 1.0.
// (See accompanying file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
#ifndef BOOST_FORKJOIN_ALGORITHM_HPP
#define BOOST_FORKJOIN_ALGORITHM_HPP

// The parallel algorithms: std's loops, reductions, scans, searches and
// sorts, run on the calling worker's pool (the global pool from outside
// every pool), with the arguments of their std:: counterparts and no
// execution policy. One header per family; this one includes them all.

#include <boost/forkjoin/algorithm/concepts.hpp>
#include <boost/forkjoin/algorithm/find.hpp>
#include <boost/forkjoin/algorithm/for_each.hpp>
#include <boost/forkjoin/algorithm/grain.hpp>
#include <boost/forkjoin/algorithm/minmax.hpp>
#include <boost/forkjoin/algorithm/reduce.hpp>
#include <boost/forkjoin/algorithm/scan.hpp>
#include <boost/forkjoin/algorithm/sort.hpp>

#endif // BOOST_FORKJOIN_ALGORITHM_HPP
