// Copyright 2026 The Boost.ForkJoin developers.
// Distributed under the Boost Software License, Version 1.0.
// (See accompanying file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
#ifndef BOOST_FORKJOIN_BROADCAST_CONTEXT_HPP
#define BOOST_FORKJOIN_BROADCAST_CONTEXT_HPP

#include <cstddef>

namespace boost::forkjoin {

// What a broadcast function learns about where it runs.
class broadcast_context {
public:
    broadcast_context(std::size_t index, std::size_t num_threads) noexcept : index_(index), num_threads_(num_threads) {}
    std::size_t index() const noexcept { return index_; }
    std::size_t num_threads() const noexcept { return num_threads_; }

private:
    std::size_t index_;
    std::size_t num_threads_;
};

} // namespace boost::forkjoin

#endif // BOOST_FORKJOIN_BROADCAST_CONTEXT_HPP
