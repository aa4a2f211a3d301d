// Copyright 2026 The Boost.ForkJoin developers.
// Distributed under the Boost Software License, Version 1.0.
// (See accompanying file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
//
// Must not compile: test/run.sh checks that the first error says, in a
// sentence, what the call at this file's line needs.
// An algorithm states its requirements as concepts: the first error names
// the call, and a note names the requirement it does not meet.
// expected error: no matching function for call to
// expected note: invocable<F&, std::iter_reference_t<_Tp> >
#include <boost/forkjoin/algorithm/for_each.hpp>

#include <string>
#include <vector>

int main()
{
    std::vector<int> v(10);
    boost::forkjoin::for_each(v.begin(), v.end(), [](std::string&) {});
}
