// Copyright 2026 The Boost.ForkJoin developers.
// Distributed under the Boost Software License, Version 1.0.
// (See accompanying file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
#ifndef BOOST_FORKJOIN_DETAIL_ALGORITHM_PARALLEL_PDQSORT_HPP
#define BOOST_FORKJOIN_DETAIL_ALGORITHM_PARALLEL_PDQSORT_HPP

// fj::sort on more than one thread: the pdqsort loop of pdqsort.hpp with
// its two sides joined (as Rayon's par_sort_unstable does), and, while there
// are fewer ranges than threads to work on them, a partition that is itself
// parallel (parallel_partition.hpp). Ranges of at most serial_below elements
// go to the serial pdqsort.
//
// When to partition in parallel: a range holding more than 1/threads of the
// sort. The top range always is; with two threads its halves are not (the
// two run side by side), with four the quarters are not. A parallel
// partition moves more (each piece's misplaced elements, then the
// boundary's), so below that it costs more than it gives.
//
// An exception from the comparator sets `stop`: the ranges not yet started
// are left as they are, and the join tree brings the exception to the top.

#include <boost/forkjoin/detail/algorithm/parallel_partition.hpp>
#include <boost/forkjoin/detail/algorithm/pdqsort.hpp>
#include <boost/forkjoin/join.hpp>

#include <atomic>
#include <cstddef>
#include <iterator>
#include <utility>

namespace boost::forkjoin::detail {

template <class It, class Comp>
class parallel_pdqsort {
public:
    // serial_below: the largest range sorted serially (the leaf size);
    // total: the elements of the whole sort; threads: the pool's.
    parallel_pdqsort(Comp& comp, std::ptrdiff_t serial_below, std::ptrdiff_t total, std::size_t threads) noexcept
        : comp_(comp), serial_below_(serial_below), total_(total), threads_(threads)
    {
    }

    void operator()(It first, It last) { sort(first, last, pdq::bad_partition_limit(last - first), true); }

private:
    bool partition_in_parallel(std::ptrdiff_t n) const noexcept
    {
        return static_cast<std::size_t>(n) >= 2 * min_partition_piece &&
               static_cast<std::size_t>(n) * threads_ > static_cast<std::size_t>(total_);
    }

    auto parallel_partitioner() const
    {
        std::size_t const pieces = 4 * threads_; // a few per thread: stealing evens out unequal pieces
        return [pieces](It f, It l, auto const& goes_left) { return parallel_partition<It, Comp>(f, l, goes_left, pieces); };
    }

    std::pair<It, bool> partition_right(It first, It last, bool in_parallel)
    {
        if (in_parallel)
            return pdq::partition_around_pivot<false>(first, last, comp_, parallel_partitioner());
        return pdq::partition_right(first, last, comp_);
    }

    It partition_left(It first, It last, bool in_parallel)
    {
        if (in_parallel)
            return pdq::partition_around_pivot<true>(first, last, comp_, parallel_partitioner()).first;
        return pdq::partition_left(first, last, comp_);
    }

    // As pdq::pdqsort_loop, with the two sides joined.
    void sort(It first, It last, int bad_allowed, bool leftmost)
    {
        try {
            for (;;) {
                if (stop_.load(std::memory_order_relaxed))
                    return;
                std::ptrdiff_t const n = last - first;
                if (n <= serial_below_) {
                    pdq::pdqsort_loop(first, last, comp_, bad_allowed, leftmost);
                    return;
                }
                bool const in_parallel = partition_in_parallel(n);
                pdq::choose_pivot(first, last, comp_);
                if (!leftmost && !comp_(*(first - 1), *first)) {
                    first = partition_left(first, last, in_parallel) + 1;
                    continue;
                }
                std::pair<It, bool> const partitioned = partition_right(first, last, in_parallel);
                It const pivot_pos = partitioned.first;
                std::ptrdiff_t const left_n = pivot_pos - first;
                std::ptrdiff_t const right_n = last - (pivot_pos + 1);
                if (left_n < n / 8 || right_n < n / 8) {
                    if (--bad_allowed == 0) {
                        pdq::heap_sort(first, last, comp_);
                        return;
                    }
                    pdq::break_patterns(first, pivot_pos);
                    pdq::break_patterns(pivot_pos + 1, last);
                } else if (partitioned.second) {
                    auto const sorted = boost::forkjoin::join(
                        [&] { return pdq::partial_insertion_sort(first, pivot_pos, comp_); },
                        [&] { return pdq::partial_insertion_sort(pivot_pos + 1, last, comp_); });
                    if (sorted.first && sorted.second)
                        return;
                }
                boost::forkjoin::join([&] { sort(first, pivot_pos, bad_allowed, leftmost); },
                                      [&] { sort(pivot_pos + 1, last, bad_allowed, false); });
                return;
            }
        } catch (...) {
            stop_.store(true, std::memory_order_relaxed);
            throw;
        }
    }

    Comp& comp_;
    std::ptrdiff_t serial_below_;
    std::ptrdiff_t total_;
    std::size_t threads_;
    std::atomic<bool> stop_{false};
};

} // namespace boost::forkjoin::detail

#endif // BOOST_FORKJOIN_DETAIL_ALGORITHM_PARALLEL_PDQSORT_HPP
