// Copyright 2026 The Boost.ForkJoin developers.
// Distributed under the Boost Software License, Version 1.0.
// (See accompanying file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
#ifndef BOOST_FORKJOIN_DETAIL_ALGORITHM_CHAINED_SCAN_HPP
#define BOOST_FORKJOIN_DETAIL_ALGORITHM_CHAINED_SCAN_HPP

// The parallel prefix scan under fj::inclusive_scan and fj::exclusive_scan:
// one pass over memory, in blocks small enough to stay in cache.
//
// The classic parallel scan (reduce, then scan) reads its input twice from
// memory and writes it once; a scan is memory-bound, so that costs a third
// of what a second thread brings. Here the threads claim blocks in index
// order (one shared counter) and each block is read from memory once:
//
// 1. If what precedes the block (its prefix) is already known when the block
//    is claimed, the block is scanned from it, and the value after the block
//    is passed on as the next block's prefix.
// 2. Otherwise the block is folded first (read into cache), and its owner
//    waits a little for the prefix: the previous block was claimed just
//    before and is being worked on by another thread. When the prefix comes,
//    the owner passes on prefix op total at once, so the chain of prefixes
//    moves a block ahead of the scans, then scans its block from cache.
// 3. If the prefix does not come in time (the thread before was descheduled,
//    or an element operation works inside the pool and the previous block
//    sits below this one on the same thread's stack), the owner leaves the
//    block with its total and claims another. Whoever passes the prefix on
//    to a left block takes it over: combines its total, passes the prefix
//    on, and scans it. So nobody ever waits for a block indefinitely.
//
// Steps 2 and 3 meet at one atomic exchange on the block's state: the owner
// swaps in "left", the one passing the prefix on swaps in "prefix ready", and
// each sees whether the other came first. Exactly one of them scans the
// block.
//
// Elements are combined in order: a block's prefix is everything before it,
// combined left to right, so an associative operation need not commute.
//
// An exception from the operation or an element ends the pass: `stop` keeps
// the others from claiming, a block whose prefix never comes is left after
// the wait, and the exception reaches the caller through the join. The
// output is then unspecified.

#include <boost/forkjoin/algorithm/grain.hpp>
#include <boost/forkjoin/detail/algorithm/fold.hpp>
#include <boost/forkjoin/detail/algorithm/ranges.hpp>
#include <boost/forkjoin/detail/algorithm/splitter.hpp>
#include <boost/forkjoin/detail/cpu_relax.hpp>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstddef>
#include <memory>
#include <optional>
#include <utility>

namespace boost::forkjoin::detail {

// Elements of a block, for n elements on `threads` threads: an eighth of
// each thread's share, so that the claims balance and the chain of prefixes
// has blocks to run ahead on, and between 64 KiB and 1 MiB of values (at
// least 256 elements). A block read by its fold is still in cache when it
// is scanned; the larger the block, the longer each thread streams through
// memory before it jumps to its next one, the other threads' blocks lying
// in between. Measured on 50 M int64 at two threads (2-vCPU EPYC, 40
// interleaved rounds of 5, the median round and the range): 64 KiB blocks
// 29.7 ms (26.1-36.8), 256 KiB 27.0 (22.2-34.0), 1 MiB 24.9 (18.0-29.2),
// 4 MiB 25.1 (17.0-29.1), libstdc++'s two-pass std::inclusive_scan(par)
// 30.3 (21.9-36.9). On ranges that stay in cache (2.4 to 16 MB) an eighth
// of a thread's share beat 64 KiB blocks (95 against 99 us at 300 K, 664
// against 858 at 2 M), where 1 MiB blocks left too few of them (132
// against 99 us at 300 K).
template <class T>
std::size_t scan_block_len(std::size_t n, std::size_t threads) noexcept
{
    std::size_t const smallest = std::max<std::size_t>(64 * 1024 / sizeof(T), 256);
    std::size_t const largest = std::max<std::size_t>(1024 * 1024 / sizeof(T), 256);
    return std::clamp(n / (8 * threads), smallest, largest);
}

// How long a block's owner waits for its prefix at least; it also waits
// twice as long as its own fold took, the time the thread before needs for
// the same work.
inline constexpr std::chrono::microseconds scan_prefix_wait{20};

// Scans [b, e), b < e, of first into out from `before` (what precedes
// element b; empty only for an inclusive scan without init, at b == 0), and
// returns what precedes element e. The serial scan, as std's, element by
// element; an exclusive scan reads element i before writing out[i], for in
// place. `before` is moved from.
template <bool Inclusive, class T, class It, class Out, class Op>
T serial_scan(It first, Out out, std::size_t b, std::size_t e, std::optional<T>& before, Op& op)
{
    It in = at(first, b);
    Out o = at(out, b);
    if constexpr (Inclusive) {
        T acc = before ? T(op(std::move(*before), *in)) : T(*in);
        *o = acc;
        for (++b, ++in, ++o; b < e; ++b, ++in, ++o) {
            acc = op(std::move(acc), *in);
            *o = acc;
        }
        return acc;
    } else {
        T acc = std::move(*before);
        for (; b < e; ++b, ++in, ++o) {
            T next = op(acc, *in);
            *o = std::move(acc);
            acc = std::move(next);
        }
        return acc;
    }
}

template <bool Inclusive, class T, class It, class Out, class Op>
class chained_scan {
public:
    // Scans [first, first + n) into out, `before` preceding element 0
    // (empty: an inclusive scan without init), in blocks of block_len.
    chained_scan(It first, std::size_t n, Out out, std::optional<T> before, Op& op, std::size_t block_len)
        : first_(first), out_(out), n_(n), block_len_(block_len), blocks_((n + block_len - 1) / block_len),
          state_(new block_state[blocks_]), op_(op)
    {
        state_[0].prefix = std::move(before);
        state_[0].state.store(prefix_ready, std::memory_order_relaxed); // published by the joins that start the pass
    }

    // Every thread of the pool runs one claimant (in a join tree); a
    // claimant that starts late finds fewer blocks left.
    void run(std::size_t threads)
    {
        stop_flag stop;
        auto claimant = [&](std::size_t, std::size_t) {
            while (!stop.raised()) {
                // Relaxed: the add alone makes the claims disjoint.
                std::size_t const k = next_.fetch_add(1, std::memory_order_relaxed);
                if (k >= blocks_)
                    return;
                work_on(k, stop);
            }
        };
        for_each_piece_in_pool(threads, grain{1}, claimant, stop);
    }

private:
    enum : unsigned char { unknown, prefix_ready, owner_left };

    struct block_state {
        // What the owner and the one passing the prefix on exchange, see the
        // top of this file.
        std::atomic<unsigned char> state{unknown};
        std::optional<T> prefix; // what precedes the block; written before prefix_ready
        std::optional<T> total;  // the block folded; written before owner_left
    };

    std::size_t begin_of(std::size_t k) const noexcept { return k * block_len_; }
    std::size_t end_of(std::size_t k) const noexcept { return std::min(n_, (k + 1) * block_len_); }

    void work_on(std::size_t k, stop_flag const& stop)
    {
        block_state& block = state_[k];
        // Acquire: the prefix written before prefix_ready.
        if (block.state.load(std::memory_order_acquire) == prefix_ready) {
            pass_on(k + 1, scan(k));
            return;
        }
        auto const get = [this](std::size_t i) -> decltype(auto) { return *at(first_, i); };
        auto const fold_start = std::chrono::steady_clock::now();
        block.total.emplace(fold_nonempty<T>(begin_of(k), end_of(k), get, op_));
        auto const now = std::chrono::steady_clock::now();
        auto const deadline = now + std::max<std::chrono::steady_clock::duration>(scan_prefix_wait, 2 * (now - fold_start));
        for (unsigned spins = 1;; ++spins) {
            if (block.state.load(std::memory_order_acquire) == prefix_ready)
                break;
            if (spins % 64 == 0 && (stop.raised() || std::chrono::steady_clock::now() > deadline)) {
                // Acq_rel: releases the total to whoever passes the prefix
                // on; acquires the prefix if that came first after all.
                if (block.state.exchange(owner_left, std::memory_order_acq_rel) != prefix_ready)
                    return; // the one passing the prefix on scans this block
                break;
            }
            cpu_relax();
        }
        pass_on(k + 1, op_(T(*block.prefix), std::move(*block.total)));
        scan(k);
    }

    // Gives block k its prefix, and takes over (combines, passes on, then
    // scans) every block from k on whose owner has left.
    void pass_on(std::size_t k, T after)
    {
        std::size_t const first_taken = k;
        for (; k < blocks_; ++k) {
            block_state& block = state_[k];
            block.prefix.emplace(std::move(after));
            // Acq_rel: releases the prefix to the owner; acquires the total
            // if the owner has left.
            if (block.state.exchange(prefix_ready, std::memory_order_acq_rel) != owner_left)
                break;
            after = op_(T(*block.prefix), std::move(*block.total));
        }
        for (std::size_t taken = first_taken; taken < k; ++taken)
            scan(taken);
    }

    // Scans block k from its prefix; returns what precedes block k + 1.
    T scan(std::size_t k)
    {
        return serial_scan<Inclusive, T>(first_, out_, begin_of(k), end_of(k), state_[k].prefix, op_);
    }

    It first_;
    Out out_;
    std::size_t n_;
    std::size_t block_len_;
    std::size_t blocks_;
    std::unique_ptr<block_state[]> state_;
    Op& op_;
    std::atomic<std::size_t> next_{0};
};

} // namespace boost::forkjoin::detail

#endif // BOOST_FORKJOIN_DETAIL_ALGORITHM_CHAINED_SCAN_HPP
