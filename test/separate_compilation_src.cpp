// Copyright 2026 The Boost.ForkJoin developers.
// Distributed under the Boost Software License, Version 1.0.
// (See accompanying file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
//
// The compiled part of separate_compilation_test, as a user builds it: the
// one translation unit that includes src.hpp.
#include <boost/forkjoin/src.hpp>
