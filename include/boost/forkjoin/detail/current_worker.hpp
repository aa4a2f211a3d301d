// Copyright 2026 The Boost.ForkJoin developers.
// Distributed under the Boost Software License, Version 1.0.
// (See accompanying file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
#ifndef BOOST_FORKJOIN_DETAIL_CURRENT_WORKER_HPP
#define BOOST_FORKJOIN_DETAIL_CURRENT_WORKER_HPP

// The one thread-local pointer through which join, scope and the other free
// functions reach the worker (and so the pool) they run on. Its own header
// so that code that only sets or clears it (fork handling) does not pull in
// the worker's deque and queues.

#include <boost/forkjoin/detail/config.hpp>

namespace boost::forkjoin::detail {

class worker_thread;

// The worker running on this thread, if any. constinit: a plain TLS load,
// no initialization guard, on every join; initial-exec: no call either in
// a shared library (config.hpp).
inline constinit thread_local worker_thread* current_worker BOOST_FORKJOIN_INITIAL_EXEC_TLS = nullptr;

} // namespace boost::forkjoin::detail

#endif // BOOST_FORKJOIN_DETAIL_CURRENT_WORKER_HPP
