// Copyright 2026 The Boost.ForkJoin developers.
// Distributed under the Boost Software License, Version 1.0.
// (See accompanying file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
#ifndef BOOST_FORKJOIN_DETAIL_ALGORITHM_SPLITTER_HPP
#define BOOST_FORKJOIN_DETAIL_ALGORITHM_SPLITTER_HPP

// How the algorithms cut an index range [0, n) into pieces, and run them.
//
// The splitter is Rayon's adaptive one (rayon/src/iter/plumbing): a range
// starts with a budget of about as many splits as the pool has threads, and
// each split halves the budget of both halves, so an undisturbed worker cuts
// its range into about 2 x threads pieces and then runs them back to back.
// When a half is stolen, the thief resets that half's budget to at least the
// thread count: work that moved is evidence that some thread ran dry, so the
// stolen part is cut finer and can be shared again. Uneven work (Mandelbrot
// rows) therefore splits where the time is, and cheap, even work (a sum)
// costs a handful of joins per thread, whatever n is. No knob needs setting;
// fj::grain only puts a floor under the size of a piece.
//
// A piece that throws raises a stop flag before its exception travels up
// through join; pieces that have not started yet see the flag and do
// nothing, so an error ends the algorithm after the pieces already running,
// not after all of them.

#include <boost/forkjoin/algorithm/grain.hpp>
#include <boost/forkjoin/detail/algorithm/in_pool.hpp>
#include <boost/forkjoin/join.hpp>

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <optional>
#include <utility>

namespace boost::forkjoin::detail {

class adaptive_splitter {
public:
    adaptive_splitter(std::size_t threads, grain g) noexcept
        : threads_(threads), splits_(threads), min_len_(std::max<std::size_t>(g.min_len, 1))
    {
    }

    // Whether a piece of len elements should be cut in two, and if so, the
    // budget both halves inherit. `migrated`: the piece runs on another
    // thread than the one that cut it off.
    bool try_split(std::size_t len, bool migrated) noexcept
    {
        if (len / 2 < min_len_)
            return false;
        if (migrated) {
            splits_ = std::max(threads_, splits_ / 2);
            return true;
        }
        if (splits_ == 0)
            return false;
        splits_ /= 2;
        return true;
    }

private:
    std::size_t threads_;
    std::size_t splits_;
    std::size_t min_len_;
};

// Raised by a piece that threw, or by a search that has its answer. Relaxed
// everywhere: the flag only spares work. What a piece computed reaches the
// caller through join, whose latches order it; a piece that misses the flag
// does redundant work, never wrong work.
class stop_flag {
public:
    bool raised() const noexcept { return raised_.load(std::memory_order_relaxed); }
    void raise() noexcept { raised_.store(true, std::memory_order_relaxed); }

private:
    std::atomic<bool> raised_{false};
};

template <class Leaf>
void split_for(adaptive_splitter splitter, std::size_t begin, std::size_t end, bool migrated, Leaf& leaf,
               stop_flag& stop)
{
    if (stop.raised())
        return;
    if (splitter.try_split(end - begin, migrated)) {
        std::size_t const mid = begin + (end - begin) / 2;
        join_context([&](fn_context c) { split_for(splitter, begin, mid, c.migrated(), leaf, stop); },
                     [&](fn_context c) { split_for(splitter, mid, end, c.migrated(), leaf, stop); });
        return;
    }
    try {
        leaf(begin, end);
    } catch (...) {
        stop.raise();
        throw;
    }
}

// Calls leaf(begin, end) on pieces that cover [0, n) exactly once, in
// parallel, on the current pool (or the global pool from outside). Called
// inside run_in_pool.
template <class Leaf>
void for_each_piece_in_pool(std::size_t n, grain g, Leaf& leaf, stop_flag& stop)
{
    if (n == 0)
        return;
    std::size_t const threads = pool_threads();
    if (threads == 1) {
        leaf(std::size_t{0}, n);
        return;
    }
    split_for(adaptive_splitter(threads, g), 0, n, false, leaf, stop);
}

template <class Leaf>
void for_each_piece(std::size_t n, grain g, Leaf leaf)
{
    if (n == 0)
        return;
    run_in_pool([&] {
        stop_flag stop;
        for_each_piece_in_pool(n, g, leaf, stop);
    });
}

template <class R, class Leaf, class Combine>
std::optional<R> split_reduce(adaptive_splitter splitter, std::size_t begin, std::size_t end, bool migrated,
                              Leaf& leaf, Combine& combine, stop_flag& stop)
{
    if (stop.raised())
        return std::nullopt;
    if (splitter.try_split(end - begin, migrated)) {
        std::size_t const mid = begin + (end - begin) / 2;
        auto [left, right] = join_context(
            [&](fn_context c) { return split_reduce<R>(splitter, begin, mid, c.migrated(), leaf, combine, stop); },
            [&](fn_context c) { return split_reduce<R>(splitter, mid, end, c.migrated(), leaf, combine, stop); });
        // Empty only where the stop flag cut a piece short, and then an
        // exception or the caller's own flag decides the outcome.
        if (!left)
            return right;
        if (!right)
            return left;
        return std::optional<R>(std::in_place, combine(std::move(*left), std::move(*right)));
    }
    try {
        return std::optional<R>(std::in_place, leaf(begin, end));
    } catch (...) {
        stop.raise();
        throw;
    }
}

// Reduces [0, n), n > 0, to leaf(piece) values combined left to right:
// combine(left, right) always has the lower indices on the left, so an
// associative combine needs no commutativity. Empty only when `stop` was
// raised (by the caller's leaves; an exception propagates instead).
template <class R, class Leaf, class Combine>
std::optional<R> reduce_pieces_in_pool(std::size_t n, grain g, Leaf& leaf, Combine& combine, stop_flag& stop)
{
    std::size_t const threads = pool_threads();
    if (threads == 1)
        return std::optional<R>(std::in_place, leaf(std::size_t{0}, n));
    return split_reduce<R>(adaptive_splitter(threads, g), 0, n, false, leaf, combine, stop);
}

template <class R, class Leaf, class Combine>
R reduce_pieces(std::size_t n, grain g, Leaf leaf, Combine combine)
{
    return run_in_pool([&] {
        stop_flag stop;
        // Only an exception raises this stop flag, and it is rethrown
        // before we get here: the result is always engaged.
        return *reduce_pieces_in_pool<R>(n, g, leaf, combine, stop);
    });
}

} // namespace boost::forkjoin::detail

#endif // BOOST_FORKJOIN_DETAIL_ALGORITHM_SPLITTER_HPP
