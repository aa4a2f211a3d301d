// Copyright 2026 The Boost.ForkJoin developers.
// Distributed under the Boost Software License, Version 1.0.
// (See accompanying file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
//
// Must not compile: test/run.sh checks that the first error, at this file's
// line, names the call, and that a note says which argument is no future.
// expected error: no matching function for call to
// expected note: mismatched types
#include <boost/forkjoin/when_all.hpp>

int main()
{
    boost::forkjoin::promise<int> a;
    auto all = boost::forkjoin::when_all(a.get_future(), 42);
}
