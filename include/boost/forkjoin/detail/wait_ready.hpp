// Copyright 2026 The Boost.ForkJoin developers.
// Distributed under the Boost Software License, Version 1.0.
// (See accompanying file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
#ifndef BOOST_FORKJOIN_DETAIL_WAIT_READY_HPP
#define BOOST_FORKJOIN_DETAIL_WAIT_READY_HPP

// How a future's wait, get and await wait: the one function that picks the
// wait strategy from the calling context.

#include <boost/forkjoin/detail/fiber_task.hpp>
#include <boost/forkjoin/detail/lock_latch.hpp>
#include <boost/forkjoin/detail/registry_base.hpp>
#include <boost/forkjoin/detail/shared_state.hpp>
#include <boost/forkjoin/detail/spin_latch.hpp>

namespace boost::forkjoin::detail {

// Waits until `s` is ready, the way the calling context can:
//  * on a fiber: the fiber parks, its worker goes on with other jobs, and
//    the fiber resumes on the same worker;
//  * on a worker, not in a fiber: the worker runs other jobs meanwhile;
//  * elsewhere: the thread blocks.
// On a fiber, every wait is a cancellation point, even for a ready state.
// Waiting for a state that can never complete (a fiber task of a pool
// forked away) throws pool_terminated instead.
inline void wait_ready(shared_state_base& s)
{
    worker_thread* const w = current_worker;
    if (w != nullptr) {
        // Only fiber tasks run as fibers: the downcast is exact.
        if (running_fiber* const fiber = w->current_fiber()) {
            static_cast<fiber_task_base*>(fiber)->await_ready(s);
            return;
        }
    }
    if (s.ready())
        return;
    s.check_can_complete(); // or the wait below would never end
    if (w == nullptr) {
        struct blocking_waiter : waiter {
            lock_latch latch;
        } bw{{[](waiter& self) noexcept { static_cast<blocking_waiter&>(self).latch.set(); }}, {}};
        // The pool's spin limit, but not install's test that the pool
        // leaves a CPU free: that reads the pool, which a future may
        // outlive, and which may be destroyed while this wait ends.
        if (s.add_waiter(bw))
            bw.latch.wait(s.outside_spin_limit());
        return;
    }
    // The completer may be anyone (a promise's I/O thread, another pool):
    // the cross-registry latch keeps our registry alive while it notifies.
    struct latch_waiter : waiter {
        spin_latch* latch;
    };
    spin_latch latch(*w, spin_latch::cross_registry);
    latch_waiter lw{{[](waiter& self) noexcept { static_cast<latch_waiter&>(self).latch->set(); }}, &latch};
    if (s.add_waiter(lw))
        w->wait_until(latch.core());
}

} // namespace boost::forkjoin::detail

#endif // BOOST_FORKJOIN_DETAIL_WAIT_READY_HPP
