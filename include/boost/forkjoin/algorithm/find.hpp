// Copyright 2026 The Boost.ForkJoin developers.
// Distributed under the Boost Software License, Version 1.0.
// (See accompanying file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
#ifndef BOOST_FORKJOIN_ALGORITHM_FIND_HPP
#define BOOST_FORKJOIN_ALGORITHM_FIND_HPP

// The searches: find_if, find, any_of, all_of, none_of.
//
// find_if returns the first match, as std::find_if does, and does little
// more work than the serial search would. Cutting the whole range among the
// threads would not do that: with a match at a quarter of the range, the
// thread given the first half still scans everything before the match alone.
// So the threads claim blocks of the range in index order from a shared
// counter, each searching its block and claiming the next, as OpenMP's
// dynamic schedule hands out iterations: at any moment the blocks being
// searched are the lowest ones left, a match stops every block past it, and
// the whole search is one parallel pass. Blocks grow with their distance
// from the front (an eighth of it per thread) and shrink again towards the
// end (half of what is left per thread), as OpenMP's guided schedule does:
// few claims on a long search, a balanced end, and a match at k costs at
// most about k / 8 more elements. The lowest match so far is shared; a
// running block looks at it between chunks that the clock keeps at about
// 20 us each (chunk_length), whatever the predicate costs.
//
// any_of, all_of and none_of need any match, not the first: the range is cut
// by the adaptive splitter, whose chunks already look at the stop flag, and
// the first match found stops every piece.

#include <boost/forkjoin/algorithm/concepts.hpp>
#include <boost/forkjoin/algorithm/grain.hpp>
#include <boost/forkjoin/detail/algorithm/chunk_length.hpp>
#include <boost/forkjoin/detail/algorithm/ranges.hpp>
#include <boost/forkjoin/detail/algorithm/splitter.hpp>

#include <algorithm>
#include <atomic>
#include <concepts>
#include <cstddef>
#include <functional>
#include <iterator>
#include <ranges>
#include <utility>

namespace boost::forkjoin {

namespace detail {

// A running search looks at what the other threads found between chunks
// of chunk_length (about 20 us each). A fixed 1,024 elements made that
// look (a relaxed load, the loop around the serial search) a quarter of
// the time of a cheap predicate's search that stays in cache: 1 M u32 at
// two threads, 122 against 90 us with chunks of 8,192 (median of 301,
// caller-slot pool; std::find_if(par) 89); and it made an expensive
// predicate's search run on for 1,024 elements after a match. One
// chunk_time is also about how long a search runs on once another thread
// has found a match before it.

// The smallest block a thread claims: 16 Ki elements, tens of microseconds
// for a cheap predicate, so that the claims (an atomic update of a shared
// line each) are noise. Ranges too short for 16 such blocks per thread get
// smaller ones, so that an expensive predicate still spreads over the pool.
inline constexpr std::size_t find_block = 16 * 1024;

// The lowest index in [0, n) whose element matches, or n. first_match(b, e)
// is the serial search of [b, e): the lowest match there, or e.
template <class FirstMatch>
std::size_t find_first_index(grain g, std::size_t n, FirstMatch& first_match)
{
    if (n == 0)
        return 0;
    return run_in_pool([&] {
        std::size_t const threads = pool_threads();
        if (threads == 1)
            return first_match(std::size_t{0}, n);
        std::size_t const block =
            std::max(std::clamp(n / (16 * threads), std::size_t{1}, find_block), g.min_len);
        // The first index no thread has claimed yet. Relaxed: the
        // compare-exchange itself makes the claims disjoint, and nothing
        // else is published through it.
        std::atomic<std::size_t> next{0};
        // The lowest match so far, n for none. Relaxed: it only prunes
        // work; the final value is read after the joins, whose latches order
        // it. A stale value costs a chunk of work, never a wrong answer: a
        // block stops only below a real match's index.
        std::atomic<std::size_t> lowest{n};
        stop_flag stop;
        auto search = [&](std::size_t b, std::size_t e, chunk_length& chunks) {
            for (std::size_t chunk = b; chunk < e;) {
                if (lowest.load(std::memory_order_relaxed) < chunk)
                    return;
                std::size_t const chunk_end = chunk + chunks.next(e - chunk);
                std::size_t const i = first_match(chunk, chunk_end);
                if (i != chunk_end) {
                    std::size_t seen = lowest.load(std::memory_order_relaxed);
                    while (i < seen && !lowest.compare_exchange_weak(seen, i, std::memory_order_relaxed))
                        ;
                    return;
                }
                chunk = chunk_end;
            }
        };
        // One claimant per thread; a claimant that starts late, or on a
        // thread that ran another first, finds fewer blocks left, so the
        // pass balances itself. A block from b is an eighth of b per
        // thread, at most half of what is left per thread, at least
        // `block`. `stop`: another claimant's predicate threw.
        auto claim_blocks = [&](std::size_t, std::size_t) {
            chunk_length chunks; // tuned over all of this claimant's blocks
            std::size_t b = next.load(std::memory_order_relaxed);
            while (!stop.raised()) {
                std::size_t len;
                do {
                    if (b >= n || b > lowest.load(std::memory_order_relaxed))
                        return;
                    len = std::min(n - b, std::max(block, std::min(b / (8 * threads), (n - b) / (2 * threads))));
                } while (!next.compare_exchange_weak(b, b + len, std::memory_order_relaxed));
                search(b, b + len, chunks);
                b = next.load(std::memory_order_relaxed);
            }
        };
        for_each_piece_in_pool(threads, grain{1}, claim_blocks, stop);
        return lowest.load(std::memory_order_relaxed);
    });
}

// Whether any index in [0, n) matches; the first match found stops every
// piece.
template <class FirstMatch>
bool any_index(grain g, std::size_t n, FirstMatch& first_match)
{
    if (n == 0)
        return false;
    return run_in_pool([&] {
        if (pool_threads() == 1)
            return first_match(std::size_t{0}, n) != n;
        stop_flag found;
        // Called on the splitter's chunks, which look at `found` between
        // them (piece_chunks).
        auto search = [&](std::size_t b, std::size_t e) {
            if (first_match(b, e) != e)
                found.raise();
        };
        for_each_piece_in_pool(n, g, search, found);
        // Read after the joins: every piece's raise happened before.
        return found.raised();
    });
}

// std::find_if over [first + b, first + e), as an index.
template <class It, class Pred>
auto serial_search(It first, Pred& pred)
{
    return [first, &pred](std::size_t b, std::size_t e) {
        It const from = at(first, b);
        return b + length(from, std::find_if(from, at(first, e), std::ref(pred)));
    };
}

} // namespace detail

// ---------------------------------------------------------------------------
// find_if(first, last, pred): the first it with pred(*it), or last.

template <std::random_access_iterator It, std::indirect_unary_predicate<It> Pred>
It find_if(grain g, It first, It last, Pred pred)
{
    auto first_match = detail::serial_search(first, pred);
    return detail::at(first, detail::find_first_index(g, detail::length(first, last), first_match));
}

template <std::random_access_iterator It, std::indirect_unary_predicate<It> Pred>
It find_if(It first, It last, Pred pred)
{
    return forkjoin::find_if(grain{}, first, last, std::move(pred));
}

template <random_access_sized_range R, std::indirect_unary_predicate<std::ranges::iterator_t<R>> Pred>
std::ranges::borrowed_iterator_t<R> find_if(grain g, R&& r, Pred pred)
{
    return detail::borrowed<R>(forkjoin::find_if(g, std::ranges::begin(r), detail::range_end(r), std::move(pred)));
}

template <random_access_sized_range R, std::indirect_unary_predicate<std::ranges::iterator_t<R>> Pred>
std::ranges::borrowed_iterator_t<R> find_if(R&& r, Pred pred)
{
    return forkjoin::find_if(grain{}, std::forward<R>(r), std::move(pred));
}

// ---------------------------------------------------------------------------
// find(first, last, value): the first it with *it == value, or last.

template <std::random_access_iterator It, class T>
    requires std::indirect_binary_predicate<std::ranges::equal_to, It, T const*>
It find(grain g, It first, It last, T const& value)
{
    return forkjoin::find_if(g, first, last, [&](auto&& x) -> bool { return x == value; });
}

template <std::random_access_iterator It, class T>
    requires std::indirect_binary_predicate<std::ranges::equal_to, It, T const*>
It find(It first, It last, T const& value)
{
    return forkjoin::find(grain{}, first, last, value);
}

template <random_access_sized_range R, class T>
    requires std::indirect_binary_predicate<std::ranges::equal_to, std::ranges::iterator_t<R>, T const*>
std::ranges::borrowed_iterator_t<R> find(grain g, R&& r, T const& value)
{
    return detail::borrowed<R>(forkjoin::find(g, std::ranges::begin(r), detail::range_end(r), value));
}

template <random_access_sized_range R, class T>
    requires std::indirect_binary_predicate<std::ranges::equal_to, std::ranges::iterator_t<R>, T const*>
std::ranges::borrowed_iterator_t<R> find(R&& r, T const& value)
{
    return forkjoin::find(grain{}, std::forward<R>(r), value);
}

// ---------------------------------------------------------------------------
// any_of, all_of, none_of: as std's; true, true and true for an empty range
// respectively false, true, true.

template <std::random_access_iterator It, std::indirect_unary_predicate<It> Pred>
bool any_of(grain g, It first, It last, Pred pred)
{
    auto first_match = detail::serial_search(first, pred);
    return detail::any_index(g, detail::length(first, last), first_match);
}

template <std::random_access_iterator It, std::indirect_unary_predicate<It> Pred>
bool any_of(It first, It last, Pred pred)
{
    return forkjoin::any_of(grain{}, first, last, std::move(pred));
}

template <std::random_access_iterator It, std::indirect_unary_predicate<It> Pred>
bool none_of(grain g, It first, It last, Pred pred)
{
    return !forkjoin::any_of(g, first, last, std::move(pred));
}

template <std::random_access_iterator It, std::indirect_unary_predicate<It> Pred>
bool none_of(It first, It last, Pred pred)
{
    return !forkjoin::any_of(grain{}, first, last, std::move(pred));
}

template <std::random_access_iterator It, std::indirect_unary_predicate<It> Pred>
bool all_of(grain g, It first, It last, Pred pred)
{
    return !forkjoin::any_of(g, first, last, std::not_fn(std::move(pred)));
}

template <std::random_access_iterator It, std::indirect_unary_predicate<It> Pred>
bool all_of(It first, It last, Pred pred)
{
    return forkjoin::all_of(grain{}, first, last, std::move(pred));
}

template <random_access_sized_range R, std::indirect_unary_predicate<std::ranges::iterator_t<R>> Pred>
bool any_of(grain g, R&& r, Pred pred)
{
    return forkjoin::any_of(g, std::ranges::begin(r), detail::range_end(r), std::move(pred));
}

template <random_access_sized_range R, std::indirect_unary_predicate<std::ranges::iterator_t<R>> Pred>
bool any_of(R&& r, Pred pred)
{
    return forkjoin::any_of(grain{}, std::ranges::begin(r), detail::range_end(r), std::move(pred));
}

template <random_access_sized_range R, std::indirect_unary_predicate<std::ranges::iterator_t<R>> Pred>
bool all_of(grain g, R&& r, Pred pred)
{
    return forkjoin::all_of(g, std::ranges::begin(r), detail::range_end(r), std::move(pred));
}

template <random_access_sized_range R, std::indirect_unary_predicate<std::ranges::iterator_t<R>> Pred>
bool all_of(R&& r, Pred pred)
{
    return forkjoin::all_of(grain{}, std::ranges::begin(r), detail::range_end(r), std::move(pred));
}

template <random_access_sized_range R, std::indirect_unary_predicate<std::ranges::iterator_t<R>> Pred>
bool none_of(grain g, R&& r, Pred pred)
{
    return forkjoin::none_of(g, std::ranges::begin(r), detail::range_end(r), std::move(pred));
}

template <random_access_sized_range R, std::indirect_unary_predicate<std::ranges::iterator_t<R>> Pred>
bool none_of(R&& r, Pred pred)
{
    return forkjoin::none_of(grain{}, std::ranges::begin(r), detail::range_end(r), std::move(pred));
}

} // namespace boost::forkjoin

#endif // BOOST_FORKJOIN_ALGORITHM_FIND_HPP
