// Copyright 2026 The Boost.ForkJoin developers.
// Distributed under the Boost Software License, Version 1.0.
// (See accompanying file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
#ifndef BOOST_FORKJOIN_TEST_QUICK_SORT_HPP
#define BOOST_FORKJOIN_TEST_QUICK_SORT_HPP

// The quick sort of rayon's join and scope_join tests: a Lomuto partition
// around the last element, then both halves through `join2(a, b)`, the join
// under test (boost::forkjoin::join, or one emulated with a scope).

#include <cstddef>
#include <span>
#include <utility>

namespace test {

template <class T, class Join>
void quick_sort(std::span<T> v, Join const& join2)
{
    if (v.size() <= 1)
        return;
    std::size_t const pivot = v.size() - 1;
    std::size_t i = 0;
    for (std::size_t j = 0; j < pivot; ++j)
        if (v[j] <= v[pivot])
            std::swap(v[i++], v[j]);
    std::swap(v[i], v[pivot]);
    join2([lo = v.first(i), &join2] { quick_sort(lo, join2); }, [hi = v.subspan(i), &join2] { quick_sort(hi, join2); });
}

} // namespace test

#endif // BOOST_FORKJOIN_TEST_QUICK_SORT_HPP
