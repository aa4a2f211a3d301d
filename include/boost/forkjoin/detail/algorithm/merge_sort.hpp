// Copyright 2026 The Boost.ForkJoin developers.
// Distributed under the Boost Software License, Version 1.0.
// (See accompanying file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
#ifndef BOOST_FORKJOIN_DETAIL_ALGORITHM_MERGE_SORT_HPP
#define BOOST_FORKJOIN_DETAIL_ALGORITHM_MERGE_SORT_HPP

// fj::stable_sort: a parallel merge sort.
//
// The buffer: n elements of uninitialized storage from ::operator
// new(nothrow) (aligned new for an over-aligned type), freed at the end. A
// trivially copyable type is used in it as is; any other type has its n
// elements move-constructed first, by a "ripple" that leaves the range's
// values where they are (buffer[i] from buffer[i - 1], the piece's first
// element moved in, its last moved back), so that from then on every move
// into the buffer is an assignment and the destructor can destroy all n.
//
// The sort: top-down and depth-based. The range is halved `depth` times,
// depth even, down to pieces of at most insertion_leaf elements, which
// insertion sort sorts in place. Each level up merges two sorted halves
// from where they are into the other storage: the levels alternate between
// the buffer and the range, and as depth is even the last merge lands in
// the range. Halves larger than serial_below are sorted in a join, merges
// larger than merge_serial_below are split (merge.hpp). Two sorted halves
// already in order, or in reverse order as wholes, are moved, not merged.
//
// No buffer (allocation failed, or a type whose move may throw): the same
// recursion in place, each merge done by rotations (merge.hpp); O(n log^2 n)
// but no memory.
//
// Exceptions from the comparator: every function below that sorts into a
// storage leaves all its elements in that storage even when it throws (a
// merge moves its unmerged rest; a level whose halves threw moves them
// over), so at the top every element is in the range, once, and the buffer
// is destroyed and freed. `stop` skips the pieces not yet started.

#include <boost/forkjoin/detail/algorithm/merge.hpp>
#include <boost/forkjoin/detail/algorithm/parallel_partition.hpp>
#include <boost/forkjoin/detail/algorithm/pdqsort.hpp>
#include <boost/forkjoin/join.hpp>

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <iterator>
#include <limits>
#include <memory>
#include <new>
#include <type_traits>

namespace boost::forkjoin::detail {

// The largest piece insertion sort sorts (pieces are cut to between a
// quarter of this and this, to make the depth even).
inline constexpr std::size_t insertion_leaf = 24;

// How stable_sort gets its buffer: ::operator new(nothrow); a null result
// means none. Tests pass a function that returns null.
struct nothrow_new {
    void* operator()(std::size_t bytes, std::align_val_t align) const noexcept
    {
        if (static_cast<std::size_t>(align) > __STDCPP_DEFAULT_NEW_ALIGNMENT__)
            return ::operator new(bytes, align, std::nothrow);
        return ::operator new(bytes, std::nothrow);
    }
};

// The scratch storage of stable_sort: n elements, see the top of this file.
template <class T>
class merge_buffer {
public:
    template <class Allocate>
    merge_buffer(std::size_t n, Allocate const& allocate) noexcept : size_(n)
    {
        if (n != 0 && n <= std::numeric_limits<std::size_t>::max() / sizeof(T))
            data_ = static_cast<T*>(allocate(n * sizeof(T), std::align_val_t(alignof(T))));
    }

    merge_buffer(merge_buffer const&) = delete;
    merge_buffer& operator=(merge_buffer const&) = delete;

    ~merge_buffer()
    {
        if (data_ == nullptr)
            return;
        if (constructed_)
            std::destroy_n(data_, size_);
        if constexpr (alignof(T) > __STDCPP_DEFAULT_NEW_ALIGNMENT__)
            ::operator delete(data_, std::align_val_t(alignof(T)));
        else
            ::operator delete(data_);
    }

    T* data() const noexcept { return data_; }

    // Makes the buffer's elements objects, from the range's values, which
    // stay in the range; in pieces across the pool. Needs nothrow moves.
    template <class It>
    void construct_from(It first, std::size_t pieces) noexcept
    {
        static_assert(std::is_nothrow_move_constructible_v<T> && std::is_nothrow_move_assignable_v<T>);
        if constexpr (!std::is_trivially_copyable_v<T>) {
            std::size_t const len = std::max((size_ + pieces - 1) / pieces, min_partition_piece);
            join_for_each_index(0, (size_ + len - 1) / len, [&](std::size_t i) noexcept {
                std::size_t const b = i * len;
                std::size_t const e = std::min(size_, b + len);
                It const at = first + static_cast<std::ptrdiff_t>(b);
                ::new (static_cast<void*>(data_ + b)) T(std::ranges::iter_move(at));
                for (std::size_t k = b + 1; k < e; ++k)
                    ::new (static_cast<void*>(data_ + k)) T(std::move(data_[k - 1]));
                *at = std::move(data_[e - 1]);
            });
            constructed_ = true;
        }
    }

private:
    T* data_ = nullptr;
    std::size_t size_;
    bool constructed_ = false;
};

// The buffered merge sort; see the top of this file.
template <class It, class Comp>
class parallel_merge_sort {
    using T = std::iter_value_t<It>;

public:
    parallel_merge_sort(Comp& comp, std::size_t serial_below, std::size_t merge_serial_below) noexcept
        : comp_(comp), serial_below_(serial_below), merge_serial_below_(static_cast<std::ptrdiff_t>(merge_serial_below))
    {
    }

    // Sorts [first, first + n) with buf, n constructed elements, as scratch.
    void operator()(It first, std::size_t n, T* buf)
    {
        int depth = 0;
        while ((n >> depth) + 1 > insertion_leaf) // halves have at most (n >> depth) + 1 elements
            ++depth;
        depth += depth & 1;
        into_range(first, buf, n, depth);
    }

private:
    // Sorts v[0, n) into v; depth even.
    void into_range(It v, T* buf, std::size_t n, int depth)
    {
        if (stop_.load(std::memory_order_relaxed))
            return; // the elements are where they belong: in v
        if (depth == 0) {
            pdq::insertion_sort(v, v + static_cast<std::ptrdiff_t>(n), comp_);
            return;
        }
        std::size_t const h = n / 2;
        auto const to_range = [&](std::size_t b, std::size_t e) {
            std::ranges::move(buf + b, buf + e, v + static_cast<std::ptrdiff_t>(b));
        };
        halves([&] { into_buffer(v, buf, h, depth - 1); },
               [&] { into_buffer(v + static_cast<std::ptrdiff_t>(h), buf + h, n - h, depth - 1); }, n, to_range);
        merge_halves(buf, h, n, v);
    }

    // Sorts v[0, n) into buf[0, n); depth odd.
    void into_buffer(It v, T* buf, std::size_t n, int depth)
    {
        std::size_t const h = n / 2;
        auto const to_buffer = [&](std::size_t b, std::size_t e) {
            std::ranges::move(v + static_cast<std::ptrdiff_t>(b), v + static_cast<std::ptrdiff_t>(e), buf + b);
        };
        if (stop_.load(std::memory_order_relaxed)) {
            to_buffer(0, n); // where the caller looks for them
            return;
        }
        halves([&] { into_range(v, buf, h, depth - 1); },
               [&] { into_range(v + static_cast<std::ptrdiff_t>(h), buf + h, n - h, depth - 1); }, n, to_buffer);
        merge_halves(v, h, n, buf);
    }

    // Runs the two half sorts, in a join if the range is large. Afterwards,
    // even if one threw, every element is where the half sorts sort to (the
    // other storage): a half sort that runs after stop_ is set only moves
    // its elements there. If one threw, restore(0, n) moves them back to
    // where the caller expects them, and the exception goes on.
    template <class Left, class Right, class Restore>
    void halves(Left const& left, Right const& right, std::size_t n, Restore const& restore)
    {
        try {
            if (n > serial_below_) {
                boost::forkjoin::join(left, right); // both run to their end, even if one throws
            } else {
                try {
                    left();
                } catch (...) {
                    stop_.store(true, std::memory_order_relaxed);
                    right();
                    throw;
                }
                right();
            }
        } catch (...) {
            stop_.store(true, std::memory_order_relaxed);
            restore(0, n);
            throw;
        }
    }

    // Merges src[0, h) and src[h, n) into dst[0, n).
    template <class Src, class Dst>
    void merge_halves(Src src, std::size_t h, std::size_t n, Dst dst)
    {
        auto const at = [](auto p, std::size_t i) { return p + static_cast<std::ptrdiff_t>(i); };
        int order; // 1: in order; -1: the right half wholly before the left; 0: neither
        try {
            order = h == 0 || h == n || !comp_(*at(src, h), *at(src, h - 1)) ? 1 : comp_(*at(src, n - 1), *src) ? -1 : 0;
        } catch (...) {
            std::ranges::move(src, at(src, n), dst);
            throw;
        }
        if (order == 1)
            std::ranges::move(src, at(src, n), dst);
        else if (order == -1)
            std::ranges::move(src, at(src, h), std::ranges::move(at(src, h), at(src, n), dst).out);
        else
            parallel_move_merge(src, at(src, h), at(src, h), at(src, n), dst, comp_, merge_serial_below_);
    }

    Comp& comp_;
    std::size_t serial_below_;
    std::ptrdiff_t merge_serial_below_;
    std::atomic<bool> stop_{false};
};

// The fallback without a buffer; see the top of this file.
template <class It, class Comp>
class parallel_inplace_merge_sort {
public:
    parallel_inplace_merge_sort(Comp& comp, std::size_t serial_below, std::size_t merge_serial_below) noexcept
        : comp_(comp), serial_below_(static_cast<std::ptrdiff_t>(serial_below)),
          merge_serial_below_(static_cast<std::ptrdiff_t>(merge_serial_below))
    {
    }

    void operator()(It first, It last)
    {
        if (stop_.load(std::memory_order_relaxed))
            return; // any order is a valid state here
        std::ptrdiff_t const n = last - first;
        if (n <= static_cast<std::ptrdiff_t>(insertion_leaf)) {
            pdq::insertion_sort(first, last, comp_);
            return;
        }
        It const mid = first + n / 2;
        try {
            if (n > serial_below_) {
                boost::forkjoin::join([&] { (*this)(first, mid); }, [&] { (*this)(mid, last); });
            } else {
                (*this)(first, mid);
                (*this)(mid, last);
            }
            parallel_inplace_merge(first, mid, last, comp_, merge_serial_below_);
        } catch (...) {
            stop_.store(true, std::memory_order_relaxed);
            throw;
        }
    }

private:
    Comp& comp_;
    std::ptrdiff_t serial_below_;
    std::ptrdiff_t merge_serial_below_;
    std::atomic<bool> stop_{false};
};

// Sorts [first, last) stably on the calling worker's pool of `threads`
// threads; halves and merges of at most `serial_below` elements run
// serially. The buffer comes from allocate (nothrow_new).
template <class It, class Comp, class Allocate>
void stable_sort_on_pool(It first, It last, Comp& comp, std::size_t serial_below, std::size_t threads,
                         Allocate const& allocate)
{
    using T = std::iter_value_t<It>;
    std::size_t const n = static_cast<std::size_t>(last - first);
    // Merges are split until there are a few per thread.
    std::size_t const merge_serial_below = std::max(serial_below, n / (4 * threads));
    if constexpr (std::is_nothrow_move_constructible_v<T> && std::is_nothrow_move_assignable_v<T>) {
        merge_buffer<T> buffer(n, allocate);
        if (buffer.data() != nullptr) {
            buffer.construct_from(first, threads == 1 ? 1 : 4 * threads); // one piece: no join
            parallel_merge_sort<It, Comp>(comp, serial_below, merge_serial_below)(first, n, buffer.data());
            return;
        }
    }
    parallel_inplace_merge_sort<It, Comp>(comp, serial_below, merge_serial_below)(first, last);
}

} // namespace boost::forkjoin::detail

#endif // BOOST_FORKJOIN_DETAIL_ALGORITHM_MERGE_SORT_HPP
