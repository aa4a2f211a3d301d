// Copyright 2026 The Boost.ForkJoin developers.
// Distributed under the Boost Software License, Version 1.0.
// (See accompanying file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
#ifndef BOOST_FORKJOIN_DETAIL_ALGORITHM_PDQSORT_HPP
#define BOOST_FORKJOIN_DETAIL_ALGORITHM_PDQSORT_HPP

// The serial sort under fj::sort: a pattern-defeating quicksort (Orson
// Peters' pdqsort, the design of Rayon's sort_unstable), and the pieces the
// parallel sort (parallel_pdqsort.hpp) reuses around its parallel partition.
//
// - Small ranges: insertion sort; for integers under std::less or
//   std::greater, up to 48 elements, a branchless sort instead (below).
// - Pivot: median of 3, or for larger ranges Tukey's ninther (median of
//   three medians of 3), moved to the front of the range.
// - Partition: Hoare's, with swaps; for arithmetic values under std::less or
//   std::greater the branchless block partition of BlockQuicksort (Edelkamp
//   and Weiss), which records the misplaced elements of a block of 128 in a
//   table first and moves them after, so that the comparison results feed
//   the table's index instead of a mispredicted branch.
// - Many equal elements: when the pivot equals the element just left of the
//   range (which is no greater than anything in it), everything equal to it
//   is put left and never looked at again, so that few distinct values cost
//   O(n log k), not O(n^2).
// - Already sorted runs: a partition that moved nothing suggests sorted
//   input; a partial insertion sort, which gives up after a few moves,
//   finishes such a range in linear time.
// - A bad partition (a side under an eighth) swaps a few elements to break
//   the pattern that caused it; after log2(n) of them the range is heap
//   sorted, so the worst case stays O(n log n).
//
// Exceptions: every element is moved only by swaps, or, in insertion sort,
// through a hole that its destructor fills, so an exception from the
// comparator leaves every element in the range exactly once.

#include <boost/forkjoin/detail/config.hpp>

#include <bit>
#include <cstddef>
#include <functional>
#include <iterator>
#include <type_traits>
#include <utility>

namespace boost::forkjoin::detail::pdq {

// Below this, insertion sort beats partitioning.
inline constexpr std::ptrdiff_t insertion_sort_threshold = 24;
// From this on, the ninther pays for its extra comparisons.
inline constexpr std::ptrdiff_t ninther_threshold = 128;
// Moves a partial insertion sort may make before it gives up on a range.
inline constexpr int partial_insertion_sort_limit = 8;
// Elements a block partition scans at a time (offsets fit unsigned char).
// 128, as Rust's sort_unstable: against 64, a 10 M u32 sort on one thread
// took 340-383 ms against 383-440 (min of 5, four alternating runs), the
// blocks' bookkeeping and the cycles' loop exits being paid half as often.
inline constexpr int block_size = 128;

// Comparators known to be a plain "<" or ">" on arithmetic values: cheap,
// side-effect free and branch-predictor hostile on random data, the case
// the branchless block partition is for.
template <class Comp, class T>
inline constexpr bool is_plain_order_v =
    std::is_same_v<Comp, std::less<>> || std::is_same_v<Comp, std::less<T>> || std::is_same_v<Comp, std::greater<>> ||
    std::is_same_v<Comp, std::greater<T>> || std::is_same_v<Comp, std::ranges::less> ||
    std::is_same_v<Comp, std::ranges::greater>;

template <class It, class Comp>
inline constexpr bool use_block_partition_v =
    std::is_arithmetic_v<std::iter_value_t<It>> && is_plain_order_v<std::remove_cvref_t<Comp>, std::iter_value_t<It>>;

// An element taken out of the range during insertion sort, and the place it
// goes back to: the destructor puts it there, also when the comparator
// throws half-way through a shift.
template <class It>
struct insertion_hole {
    std::iter_value_t<It> value;
    It pos;

    insertion_hole(It at) : value(std::ranges::iter_move(at)), pos(at) {}
    insertion_hole(insertion_hole const&) = delete;
    insertion_hole& operator=(insertion_hole const&) = delete;
    ~insertion_hole() { *pos = std::move(value); }
};

// Sorts [first, last). Guarded: checks for the start of the range.
template <class It, class Comp>
void insertion_sort(It first, It last, Comp& comp)
{
    if (first == last)
        return;
    for (It i = first + 1; i != last; ++i) {
        if (comp(*i, *(i - 1))) {
            insertion_hole<It> hole(i);
            do {
                *hole.pos = std::ranges::iter_move(hole.pos - 1);
                --hole.pos;
            } while (hole.pos != first && comp(hole.value, *(hole.pos - 1)));
        }
    }
}

// As insertion_sort, for a range whose left neighbour *(first - 1) is no
// greater than any of its elements: that neighbour stops every shift, so the
// loop need not test for the start.
template <class It, class Comp>
void unguarded_insertion_sort(It first, It last, Comp& comp)
{
    if (first == last)
        return;
    for (It i = first + 1; i != last; ++i) {
        if (comp(*i, *(i - 1))) {
            insertion_hole<It> hole(i);
            do {
                *hole.pos = std::ranges::iter_move(hole.pos - 1);
                --hole.pos;
            } while (comp(hole.value, *(hole.pos - 1)));
        }
    }
}

// ---------------------------------------------------------------------------
// The branchless small sort, for integers under a plain order: the leaves of
// the recursion, where insertion sort spends a mispredicted branch on almost
// every element (where each insertion stops). The design of Rust's current
// sort_unstable (ipnsort): each half of the range is cut into runs of four
// or eight that sorting networks order with conditional moves, the runs are
// merged without branches from both ends at once, the few elements left over
// are inserted, and the two halves are merged into place. Measured on the
// benchmark's 10 M random u32 at one thread (medians of five, three
// alternating runs): 239 ms with insertion sort below 24 elements, 225 with
// this sort up to 32, 218 up to 48, where it stays.
//
// Integers only: the merges' bounds rely on the order being a strict weak
// order, which a floating-point NaN breaks; and an integer's copy neither
// throws nor costs more than a move.

template <class It, class Comp>
inline constexpr bool use_small_sort_v =
    std::is_integral_v<std::iter_value_t<It>> && is_plain_order_v<std::remove_cvref_t<Comp>, std::iter_value_t<It>>;

// Ranges up to this many elements get the small sort.
inline constexpr std::ptrdiff_t small_sort_threshold = 48;

// dst[0, 4) = src[0, 4) in order, with conditional moves only (a sorting
// network of five comparators).
template <class T, class Src, class Comp>
BOOST_FORKJOIN_FORCEINLINE void sort4_into(Src src, T* dst, Comp& comp)
{
    bool const swap01 = comp(src[1], src[0]);
    bool const swap23 = comp(src[3], src[2]);
    T const a = swap01 ? src[1] : src[0]; // a <= b
    T const b = swap01 ? src[0] : src[1];
    T const c = swap23 ? src[3] : src[2]; // c <= d
    T const d = swap23 ? src[2] : src[3];
    bool const c_first = comp(c, a);
    bool const b_last = comp(d, b);
    T const smallest = c_first ? c : a;
    T const largest = b_last ? b : d;
    T const middle_left = c_first ? a : (b_last ? c : b);
    T const middle_right = b_last ? d : (c_first ? b : c);
    bool const swap_middle = comp(middle_right, middle_left);
    dst[0] = smallest;
    dst[1] = swap_middle ? middle_right : middle_left;
    dst[2] = swap_middle ? middle_left : middle_right;
    dst[3] = largest;
}

// Merges the sorted halves src[0, n/2) and src[n/2, n) into dst[0, n):
// each step takes the smaller of the two fronts to the front of dst and the
// larger of the two backs to its back, so n/2 steps fill it (an odd n
// leaves one element, in whichever half still has one). Each index moves
// at most n/2 times, so every read stays inside src. Indices, not pointers:
// a back index may end one before the start.
template <class T, class Dst, class Comp>
BOOST_FORKJOIN_FORCEINLINE void bidirectional_merge(T const* src, std::ptrdiff_t n, Dst dst, Comp& comp)
{
    std::ptrdiff_t const half = n / 2;
    std::ptrdiff_t left = 0;
    std::ptrdiff_t right = half;
    std::ptrdiff_t left_back = half - 1;
    std::ptrdiff_t right_back = n - 1;
    for (std::ptrdiff_t i = 0; i < half; ++i) {
        bool const take_right = comp(src[right], src[left]);
        dst[i] = take_right ? src[right] : src[left];
        right += take_right;
        left += !take_right;
        bool const take_left_back = comp(src[right_back], src[left_back]);
        dst[n - 1 - i] = take_left_back ? src[left_back] : src[right_back];
        left_back -= take_left_back;
        right_back -= !take_left_back;
    }
    if (n % 2 != 0)
        dst[half] = left <= left_back ? src[left] : src[right];
}

// dst[0, 8) = src[0, 8) in order; tmp: room for eight.
template <class T, class Src, class Comp>
BOOST_FORKJOIN_FORCEINLINE void sort8_into(Src src, T* dst, T* tmp, Comp& comp)
{
    sort4_into(src, tmp, comp);
    sort4_into(src + 4, tmp + 4, comp);
    bidirectional_merge(static_cast<T const*>(tmp), 8, dst, comp);
}

// Sorts [first, first + n), n <= small_sort_threshold.
template <class It, class Comp>
void small_sort(It first, std::ptrdiff_t n, Comp& comp)
{
    using T = std::iter_value_t<It>;
    if (n < 2)
        return;
    // Both halves are built here, sorted, then merged back into the range.
    T scratch[small_sort_threshold];
    T tmp[16];
    std::ptrdiff_t const half = n / 2;
    // How much of each half the networks sort; the rest is inserted.
    std::ptrdiff_t presorted;
    if (n >= 32) {
        for (std::ptrdiff_t offset : {std::ptrdiff_t{0}, half}) {
            T eight[8];
            sort8_into(first + offset, tmp, eight, comp);
            sort8_into(first + (offset + 8), tmp + 8, eight, comp);
            bidirectional_merge(static_cast<T const*>(tmp), 16, scratch + offset, comp);
        }
        presorted = 16;
    } else if (n >= 16) {
        sort8_into(first, scratch, tmp, comp);
        sort8_into(first + half, scratch + half, tmp, comp);
        presorted = 8;
    } else if (n >= 8) {
        sort4_into(first, scratch, comp);
        sort4_into(first + half, scratch + half, comp);
        presorted = 4;
    } else {
        scratch[0] = first[0];
        scratch[half] = first[half];
        presorted = 1;
    }
    for (std::ptrdiff_t offset : {std::ptrdiff_t{0}, half}) {
        std::ptrdiff_t const len = offset == 0 ? half : n - half;
        T* const run = scratch + offset;
        for (std::ptrdiff_t i = presorted; i < len; ++i) {
            // Insert first[offset + i] into the sorted run[0, i).
            T const x = first[offset + i];
            std::ptrdiff_t j = i;
            for (; j != 0 && comp(x, run[j - 1]); --j)
                run[j] = run[j - 1];
            run[j] = x;
        }
    }
    bidirectional_merge(static_cast<T const*>(scratch), n, first, comp);
}

// Insertion sort that gives up after partial_insertion_sort_limit moves;
// returns whether the range is sorted. Linear on a nearly sorted range.
template <class It, class Comp>
bool partial_insertion_sort(It first, It last, Comp& comp)
{
    if (first == last)
        return true;
    int moves = 0;
    for (It i = first + 1; i != last; ++i) {
        if (comp(*i, *(i - 1))) {
            insertion_hole<It> hole(i);
            do {
                *hole.pos = std::ranges::iter_move(hole.pos - 1);
                --hole.pos;
            } while (hole.pos != first && comp(hole.value, *(hole.pos - 1)));
            moves += static_cast<int>(i - hole.pos);
            if (moves > partial_insertion_sort_limit)
                return i + 1 == last;
        }
    }
    return true;
}

template <class It, class Comp>
void sort2(It a, It b, Comp& comp)
{
    if (comp(*b, *a))
        std::ranges::iter_swap(a, b);
}

// Orders *a <= *b <= *c.
template <class It, class Comp>
void sort3(It a, It b, It c, Comp& comp)
{
    sort2(a, b, comp);
    sort2(b, c, comp);
    sort2(a, b, comp);
}

// Heap sort with swaps only (std::make_heap holds an element aside, which a
// throwing comparator would lose): the O(n log n) fallback.
template <class It, class Comp>
void sift_down(It first, std::ptrdiff_t n, std::ptrdiff_t i, Comp& comp)
{
    for (;;) {
        std::ptrdiff_t child = 2 * i + 1;
        if (child >= n)
            return;
        if (child + 1 < n && comp(first[child], first[child + 1]))
            ++child;
        if (!comp(first[i], first[child]))
            return;
        std::ranges::iter_swap(first + i, first + child);
        i = child;
    }
}

template <class It, class Comp>
void heap_sort(It first, It last, Comp& comp)
{
    std::ptrdiff_t const n = last - first;
    for (std::ptrdiff_t i = n / 2; i-- > 0;)
        sift_down(first, n, i, comp);
    for (std::ptrdiff_t end = n; end > 1;) {
        --end;
        std::ranges::iter_swap(first, first + end);
        sift_down(first, end, 0, comp);
    }
}

// Moves a pivot to *first: the median of the first, middle and last
// elements, or for a larger range the ninther.
template <class It, class Comp>
void choose_pivot(It first, It last, Comp& comp)
{
    std::ptrdiff_t const n = last - first;
    std::ptrdiff_t const half = n / 2;
    if (n > ninther_threshold) {
        sort3(first, first + half, last - 1, comp);
        sort3(first + 1, first + (half - 1), last - 2, comp);
        sort3(first + 2, first + (half + 1), last - 3, comp);
        sort3(first + (half - 1), first + half, first + (half + 1), comp);
        std::ranges::iter_swap(first, first + half);
    } else {
        sort3(first + half, first, last - 1, comp);
    }
}

// Partitions [first, last) so that the elements for which goes_left is true
// come first; returns the boundary and whether nothing had to move. Hoare's
// scheme: a swap moves two misplaced elements at once.
template <class It, class Pred>
std::pair<It, bool> hoare_partition(It first, It last, Pred const& goes_left)
{
    bool moved = false;
    for (;;) {
        while (first != last && goes_left(*first))
            ++first;
        do {
            if (first == last)
                return {first, !moved};
            --last;
        } while (!goes_left(*last));
        std::ranges::iter_swap(first, last);
        ++first;
        moved = true;
    }
}

// Appends to offsets[count...] the offsets i in [0, n) of the elements
// at(i) that are misplaced, branchlessly: the comparison's result only
// advances the count. A full block is a loop of known length, which the
// compiler unrolls.
template <class At, class IsMisplaced>
int record_misplaced(At const& at, int n, IsMisplaced const& is_misplaced, unsigned char* offsets, int count)
{
    if (n == block_size) {
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC unroll 8
#endif
        for (int i = 0; i < block_size; ++i) {
            offsets[count] = static_cast<unsigned char>(i);
            count += is_misplaced(at(i));
        }
    } else {
        for (int i = 0; i < n; ++i) {
            offsets[count] = static_cast<unsigned char>(i);
            count += is_misplaced(at(i));
        }
    }
    return count;
}

// As hoare_partition, branchless (BlockQuicksort, in the form pdqsort gives
// it): a block of up to block_size elements at each end is scanned into a
// table of the offsets of its misplaced elements, then as many pairs as both
// tables hold are swapped. A block whose table is used up is replaced by the
// next one inward. The last unscanned elements are shared between the two
// sides as partial blocks, so that small ranges, the most numerous, are
// branchless too; a table left with misplaced elements at the end moves them
// to the boundary.
template <class It, class Pred>
std::pair<It, bool> block_partition(It first, It last, Pred const& goes_left)
{
    unsigned char left_offsets[block_size];
    unsigned char right_offsets[block_size];
    It left_base = first;  // the left block: [left_base, first)
    It right_base = last;  // the right block: [last, right_base), offsets counted from its end
    int left_count = 0, left_start = 0;   // its misplaced elements not yet swapped
    int right_count = 0, right_start = 0;
    bool moved = false;
    auto const goes_right = [&](auto const& x) { return !goes_left(x); };
    while (first < last) {
        std::ptrdiff_t const unknown = last - first;
        std::ptrdiff_t left_n = left_count == 0 ? (right_count == 0 ? unknown / 2 : unknown) : 0;
        std::ptrdiff_t right_n = right_count == 0 ? unknown - left_n : 0;
        left_n = left_n < block_size ? left_n : block_size;
        right_n = right_n < block_size ? right_n : block_size;
        if (left_n != 0) {
            It const from = first;
            left_count = record_misplaced([from](int i) -> decltype(auto) { return from[i]; }, static_cast<int>(left_n),
                                          goes_right, left_offsets, 0);
            first += left_n;
        }
        if (right_n != 0) {
            It const to = last;
            right_count = record_misplaced([to](int i) -> decltype(auto) { return *(to - 1 - i); },
                                           static_cast<int>(right_n), goes_left, right_offsets, 0);
            last -= right_n;
        }
        int const pairs = left_count < right_count ? left_count : right_count;
        if (pairs != 0) {
            // One cycle through all the pairs instead of a swap each: a
            // move per element rather than three per pair (pdqsort's
            // swap_offsets). The values are arithmetic: no move throws.
            It at_left = left_base + left_offsets[left_start];
            It at_right = right_base - 1 - right_offsets[right_start];
            auto held = std::ranges::iter_move(at_left);
            *at_left = std::ranges::iter_move(at_right);
            for (int k = 1; k < pairs; ++k) {
                at_left = left_base + left_offsets[left_start + k];
                *at_right = std::ranges::iter_move(at_left);
                at_right = right_base - 1 - right_offsets[right_start + k];
                *at_left = std::ranges::iter_move(at_right);
            }
            *at_right = std::move(held);
            moved = true;
        }
        left_count -= pairs;
        left_start += pairs;
        right_count -= pairs;
        right_start += pairs;
        if (left_count == 0) {
            left_start = 0;
            left_base = first;
        }
        if (right_count == 0) {
            right_start = 0;
            right_base = last;
        }
    }
    // first == last. At most one table still holds misplaced elements; its
    // block ends (or starts) at the boundary: swap them, farthest first, to
    // the boundary's side of the block.
    if (left_count != 0) {
        moved = true;
        while (left_count-- != 0)
            std::ranges::iter_swap(left_base + left_offsets[left_start + left_count], --last);
        first = last;
    }
    if (right_count != 0) {
        moved = true;
        while (right_count-- != 0) {
            std::ranges::iter_swap(right_base - 1 - right_offsets[right_start + right_count], first);
            ++first;
        }
    }
    return {first, !moved};
}

// Partitions [first, last) by goes_left with the partition suited to It and
// Comp (see use_block_partition_v).
template <class It, class Comp, class Pred>
std::pair<It, bool> partition_by(It first, It last, Pred const& goes_left)
{
    if constexpr (use_block_partition_v<It, Comp>)
        return block_partition(first, last, goes_left);
    else
        return hoare_partition(first, last, goes_left);
}

// Calls partition(first + 1, last, goes_left) with goes_left(x) = "x goes
// left of the pivot *first" (less(x, pivot) or, for left_equal, !less(pivot,
// x)), then swaps the pivot to the boundary. Returns the pivot's place and
// whether nothing had to move. For arithmetic values the pivot is copied, so
// the compiler need not reload it after every swap.
template <bool LeftEqual, class It, class Comp, class Partition>
std::pair<It, bool> partition_around_pivot(It first, It last, Comp& comp, Partition&& partition)
{
    auto place = [&](auto const& pivot) {
        auto goes_left = [&](auto const& x) {
            if constexpr (LeftEqual)
                return !comp(pivot, x);
            else
                return comp(x, pivot);
        };
        return partition(first + 1, last, goes_left);
    };
    std::pair<It, bool> result;
    if constexpr (use_block_partition_v<It, Comp>) {
        std::iter_value_t<It> const pivot = *first;
        result = place(pivot);
    } else {
        result = place(*first); // partition leaves *first alone
    }
    It const pivot_pos = result.first - 1;
    std::ranges::iter_swap(first, pivot_pos);
    return {pivot_pos, result.second};
}

// Pivot at *first. Elements less than it end left of its returned place,
// the others right.
template <class It, class Comp>
std::pair<It, bool> partition_right(It first, It last, Comp& comp)
{
    return partition_around_pivot<false>(first, last, comp,
                                         [](It f, It l, auto const& goes_left) { return partition_by<It, Comp>(f, l, goes_left); });
}

// Pivot at *first, equal to *(first - 1). Elements no greater than it,
// that is equal to it, end left of its returned place, the others right.
template <class It, class Comp>
It partition_left(It first, It last, Comp& comp)
{
    return partition_around_pivot<true>(first, last, comp,
                                        [](It f, It l, auto const& goes_left) { return partition_by<It, Comp>(f, l, goes_left); })
        .first;
}

// After an unbalanced partition: swaps a few elements of each side to break
// the pattern (organ pipes, sawtooth) that picked a bad pivot.
template <class It>
void break_patterns(It first, It last)
{
    std::ptrdiff_t const n = last - first;
    if (n < insertion_sort_threshold)
        return;
    std::ptrdiff_t const quarter = n / 4;
    std::ranges::iter_swap(first, first + quarter);
    std::ranges::iter_swap(last - 1, last - quarter);
    if (n > ninther_threshold) {
        std::ranges::iter_swap(first + 1, first + (quarter + 1));
        std::ranges::iter_swap(first + 2, first + (quarter + 2));
        std::ranges::iter_swap(last - 2, last - (quarter + 1));
        std::ranges::iter_swap(last - 3, last - (quarter + 2));
    }
}

// Bad partitions a sort of n elements tolerates before heap sort.
inline int bad_partition_limit(std::ptrdiff_t n) noexcept { return std::bit_width(static_cast<std::size_t>(n)); }

// The pdqsort loop: sorts [first, last); leftmost says that no element lies
// left of the range in the same sort (else *(first - 1) is no greater than
// every element of the range). Recurses into the left side and loops on the
// right, so the depth stays O(log n).
template <class It, class Comp>
void pdqsort_loop(It first, It last, Comp& comp, int bad_allowed, bool leftmost)
{
    for (;;) {
        std::ptrdiff_t const n = last - first;
        if constexpr (use_small_sort_v<It, Comp>) {
            if (n <= small_sort_threshold) {
                small_sort(first, n, comp);
                return;
            }
        }
        if (n < insertion_sort_threshold) {
            if (leftmost)
                insertion_sort(first, last, comp);
            else
                unguarded_insertion_sort(first, last, comp);
            return;
        }
        choose_pivot(first, last, comp);
        if (!leftmost && !comp(*(first - 1), *first)) {
            // The pivot equals the left neighbour: set its equals aside.
            first = partition_left(first, last, comp) + 1;
            continue;
        }
        auto const [pivot_pos, placed] = partition_right(first, last, comp);
        std::ptrdiff_t const left_n = pivot_pos - first;
        std::ptrdiff_t const right_n = last - (pivot_pos + 1);
        if (left_n < n / 8 || right_n < n / 8) {
            if (--bad_allowed == 0) {
                heap_sort(first, last, comp);
                return;
            }
            break_patterns(first, pivot_pos);
            break_patterns(pivot_pos + 1, last);
        } else if (placed && partial_insertion_sort(first, pivot_pos, comp) &&
                   partial_insertion_sort(pivot_pos + 1, last, comp)) {
            return;
        }
        pdqsort_loop(first, pivot_pos, comp, bad_allowed, leftmost);
        first = pivot_pos + 1;
        leftmost = false;
    }
}

template <class It, class Comp>
void pdqsort(It first, It last, Comp& comp)
{
    if (last - first > 1)
        pdqsort_loop(first, last, comp, bad_partition_limit(last - first), true);
}

} // namespace boost::forkjoin::detail::pdq

#endif // BOOST_FORKJOIN_DETAIL_ALGORITHM_PDQSORT_HPP
