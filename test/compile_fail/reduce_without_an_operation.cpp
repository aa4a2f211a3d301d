// Copyright 2026 The Boost.ForkJoin developers.
// Distributed under the Boost Software License, Version 1.0.
// (See accompanying file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
//
// Must not compile: test/run.sh checks that the first error says, in a
// sentence, what the call at this file's line needs.
// expected error: no matching function for call to
// expected note: fold_operation<std::plus<void>, T, std::iter_reference_t<_Tp> >
#include <boost/forkjoin/algorithm/reduce.hpp>

#include <vector>

struct point {
    int x, y;
};

int main()
{
    std::vector<point> v(10);
    return boost::forkjoin::reduce(v.begin(), v.end(), 0);
}
