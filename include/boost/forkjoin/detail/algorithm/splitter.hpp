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
// A piece the splitter no longer cuts still runs a chunk at a time
// (piece_chunks): between chunks its worker looks whether more of the
// pool's workers are idle than its deque offers jobs, and if so hands what
// is left of the piece back to the splitter, as if it had been stolen.
// Without that look, a piece (up to a 2 x threads-th of the work) runs to
// its end while the workers that ran out of pieces wait: the tail of every
// even loop, and the costly rows of an uneven one. Rayon's splitter has
// that tail; oneTBB's auto_partitioner shortens it by cutting finer from
// the start.
//
// A piece that throws raises a stop flag before its exception travels up
// through join; pieces, and chunks, that have not started yet see the flag
// and do nothing, so an error ends the algorithm after the chunks already
// running, not after all of them.

#include <boost/forkjoin/algorithm/grain.hpp>
#include <boost/forkjoin/detail/algorithm/chunk_length.hpp>
#include <boost/forkjoin/detail/algorithm/in_pool.hpp>
#include <boost/forkjoin/detail/config.hpp>
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

    std::size_t min_len() const noexcept { return min_len_; }

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

// The chunks of one running piece, as long as chunk_length makes them;
// between two of them an idle worker can take the rest of the piece.
class piece_chunks {
public:
    piece_chunks(std::size_t begin, std::size_t end, std::size_t min_len) noexcept
        : next_(begin), end_(end), min_len_(min_len)
    {
    }

    // The next chunk, [first, first + len), or false when the piece is
    // done, the stop flag is raised, or the rest is to be split: then
    // rest() is where it begins (end if nothing is left).
    //
    // Forced inline: in a file with several loops through the splitter
    // GCC called it out of line, and the element loop between its calls
    // then ran 5-10 % slower at two threads (the benchmark's transform,
    // doc/benchmark.adoc), although it does not touch the loop's data.
    BOOST_FORKJOIN_FORCEINLINE bool next(std::size_t& first, std::size_t& len, stop_flag const& stop) noexcept
    {
        if (next_ == end_ || stop.raised())
            return false;
        bool const after_a_chunk = length_.started();
        std::size_t const chunk = length_.next(end_ - next_);
        // Split only a rest whose halves keep the grain.
        if (after_a_chunk && (end_ - next_) / 2 >= min_len_ && current_worker->idle_workers_without_jobs() != 0) {
            split_ = true;
            return false;
        }
        first = next_;
        len = chunk;
        next_ += chunk;
        return true;
    }

    // After next() returned false: whether what is left should be split.
    bool rest_wanted() const noexcept { return split_; }
    std::size_t rest() const noexcept { return next_; }

private:
    std::size_t next_;
    std::size_t end_;
    std::size_t min_len_;
    chunk_length length_;
    bool split_ = false;
};

// Runs [begin, end) by the splitter's cuts and, within a piece, by
// piece_chunks.
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
    piece_chunks chunks(begin, end, splitter.min_len());
    try {
        for (std::size_t first, len; chunks.next(first, len, stop);)
            leaf(first, first + len);
    } catch (...) {
        stop.raise();
        throw;
    }
    if (chunks.rest_wanted()) {
        // Another worker ran dry: cut the rest as a stolen range is cut.
        current_worker->unpublished_joins().look_at_next_join();
        split_for(splitter, chunks.rest(), end, true, leaf, stop);
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
    // Empty only where the stop flag cut a piece short, and then an
    // exception or the caller's own flag decides the outcome.
    auto combined = [&](std::optional<R> left, std::optional<R> right) {
        if (!left)
            return right;
        if (!right)
            return left;
        return std::optional<R>(std::in_place, combine(std::move(*left), std::move(*right)));
    };
    if (splitter.try_split(end - begin, migrated)) {
        std::size_t const mid = begin + (end - begin) / 2;
        auto [left, right] = join_context(
            [&](fn_context c) { return split_reduce<R>(splitter, begin, mid, c.migrated(), leaf, combine, stop); },
            [&](fn_context c) { return split_reduce<R>(splitter, mid, end, c.migrated(), leaf, combine, stop); });
        return combined(std::move(left), std::move(right));
    }
    piece_chunks chunks(begin, end, splitter.min_len());
    std::optional<R> sum;
    try {
        for (std::size_t first, len; chunks.next(first, len, stop);) {
            if (sum) {
                // Left to right, as the splits combine.
                R next = combine(std::move(*sum), leaf(first, first + len));
                sum.emplace(std::move(next));
            } else {
                sum.emplace(leaf(first, first + len));
            }
        }
    } catch (...) {
        stop.raise();
        throw;
    }
    if (!chunks.rest_wanted())
        return sum;
    current_worker->unpublished_joins().look_at_next_join();
    return combined(std::move(sum), split_reduce<R>(splitter, chunks.rest(), end, true, leaf, combine, stop));
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
