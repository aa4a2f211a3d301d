// Copyright 2026 The Boost.ForkJoin developers.
// Distributed under the Boost Software License, Version 1.0.
// (See accompanying file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
//
// Must not compile: test/run.sh checks that the first error says, in a
// sentence, what the call at this file's line needs.
// expected error: when_any(f...): the futures must have one value type
#include <boost/forkjoin/when_any.hpp>

int main()
{
    boost::forkjoin::promise<int> a;
    boost::forkjoin::promise<double> b;
    auto first = boost::forkjoin::when_any(a.get_future(), b.get_future());
}
