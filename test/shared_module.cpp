// Copyright 2026 The Boost.ForkJoin developers.
// Distributed under the Boost Software License, Version 1.0.
// (See accompanying file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)

// A shared library that uses the pool, loaded by shared_library_test.cpp
// with dlopen(). Built twice: as is, and with
// BOOST_FORKJOIN_NO_INITIAL_EXEC_TLS (config.hpp).

#include <boost/forkjoin.hpp>

#include <cstdint>
#include <stdexcept>

namespace {

namespace fj = boost::forkjoin;

// The sum of 1..2^depth - 1 over a complete binary tree numbered in
// heap order, a join at every inner node.
std::uint64_t heap_tree_sum(std::uint64_t index, unsigned depth)
{
    if (depth == 1)
        return index;
    auto [left, right] = fj::join([=] { return heap_tree_sum(2 * index, depth - 1); },
                                  [=] { return heap_tree_sum(2 * index + 1, depth - 1); });
    return index + left + right;
}

template <class Pool>
std::uint64_t tree_sum_in(unsigned depth, unsigned threads, bool throw_in_a_leaf)
{
    Pool pool{{.num_threads = threads}};
    return pool.install([&] {
        if (throw_in_a_leaf)
            fj::join([] {}, [] { throw std::runtime_error("leaf"); });
        return heap_tree_sum(1, depth);
    });
}

} // namespace

// Its own pools only: a global pool's threads would run this library's
// code after the test has no more use for it.
extern "C" __attribute__((visibility("default"))) std::uint64_t
forkjoin_module_tree_sum(unsigned depth, unsigned threads, bool lazy, bool throw_in_a_leaf)
{
    if (lazy)
        return tree_sum_in<fj::basic_thread_pool<fj::sleep::jec, fj::lazy_joins>>(depth, threads, throw_in_a_leaf);
    return tree_sum_in<fj::thread_pool>(depth, threads, throw_in_a_leaf);
}
