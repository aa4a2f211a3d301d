// Copyright 2026 The Boost.ForkJoin developers.
// Distributed under the Boost Software License, Version 1.0.
// (See accompanying file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
#ifndef BOOST_FORKJOIN_DETAIL_JOIN_HPP
#define BOOST_FORKJOIN_DETAIL_JOIN_HPP

// The body of join on a worker: b is pushed on the worker's deque as a job on
// this stack frame, a runs here, then b is popped back and run here too,
// unless a thief took it meanwhile, in which case the worker runs other jobs
// until b's latch is set. No allocation, no lock, and no call into the sleep
// policy unless its push_filter asks for one.
//
// Apart from join.hpp so that basic_thread_pool::join can use it without the
// global pool.

#include <boost/forkjoin/detail/job.hpp>
#include <boost/forkjoin/detail/registry_base.hpp>
#include <boost/forkjoin/detail/spin_latch.hpp>

#include <exception>
#include <optional>
#include <utility>

namespace boost::forkjoin::detail {

template <class A, class B>
std::pair<invoke_value_t<A>, invoke_value_t<B>> join_on_worker(worker_thread& worker, A&& a, B&& b)
{
    stack_job<B, spin_latch> job_b(b, worker);
    job_ref const b_ref = job_b.as_job_ref();
    worker.push(b_ref);

    using value_a = invoke_value_t<A>;
    value_a result_a = [&]() -> value_a {
        std::exception_ptr error;
        try {
            return invoke_to_value(std::forward<A>(a));
        } catch (...) {
            error = std::current_exception();
        }
        // b may sit in our deque or run elsewhere; it references this frame,
        // so let it finish before the exception unwinds us. Outside the
        // handler: on a fiber the wait parks, and the worker may meanwhile
        // run another fiber that enters and leaves handlers of its own on
        // this thread, whose record of the exceptions being handled would
        // then no longer be last in, first out.
        worker.wait_until(job_b.latch().core());
        std::rethrow_exception(std::move(error));
    }();

    // Usually b is still on top of our deque: pop it and run it here. The
    // latch first: if a waited inside the pool (a yield, an install into
    // another pool, a future's get), this worker may have run b meanwhile,
    // and then the deque's top is a job older than this join; running it
    // here would make the join wait for it, and for whatever it waits for,
    // which may be this join's return.
    while (!job_b.latch().probe()) {
        std::optional<job_ref> const job = worker.take_local_job();
        if (!job) {
            // b was stolen: keep busy until its thief sets the latch.
            worker.wait_until(job_b.latch().core());
            break;
        }
        if (*job == b_ref)
            return {std::forward<value_a>(result_a), job_b.run_inline()};
        // Something a pushed and left behind (a spawn), or with breadth_first
        // an older job: run it, b is still queued.
        worker.execute(*job);
    }
    return {std::forward<value_a>(result_a), job_b.take_result()};
}

} // namespace boost::forkjoin::detail

#endif // BOOST_FORKJOIN_DETAIL_JOIN_HPP
