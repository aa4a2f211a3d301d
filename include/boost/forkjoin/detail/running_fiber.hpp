// Copyright 2026 The Boost.ForkJoin developers.
// Distributed under the Boost Software License, Version 1.0.
// (See accompanying file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
#ifndef BOOST_FORKJOIN_DETAIL_RUNNING_FIBER_HPP
#define BOOST_FORKJOIN_DETAIL_RUNNING_FIBER_HPP

// What a worker knows of the fiber it is running: that the fiber can hand
// it work to do on the worker's own stack.
//
// A fiber's stack is small (pool_options::fiber_stack_size) and holds one
// task's frames. A job taken from a queue, and the loop in which a worker
// waits for a latch (running jobs meanwhile), may go as deep as any job
// goes, so they belong on the worker's own stack, which
// pool_options::stack_size sizes. When fiber code needs either (a join
// whose other half was stolen, the end of a scope, a leftover job, a
// yield), worker_thread sends it here: the fiber switches back to the
// worker, the worker does the work, then resumes the fiber. Same worker,
// same thread: the fiber does not move (fiber_task.hpp).

#include <boost/forkjoin/detail/job.hpp>

namespace boost::forkjoin::detail {

class running_fiber {
public:
    // Called on the fiber: runs `job` on the stack of the worker running
    // this fiber, then returns here, on the same worker.
    void run_on_worker_stack(job_ref job) noexcept { switch_to_worker_(*this, job); }

protected:
    // A function pointer rather than a virtual function: worker_thread calls
    // this in every program, and GCC would devirtualize the call
    // speculatively to the one override it knows, pulling the fiber code,
    // and a link dependency on Boost.Context, into programs that never start
    // a fiber.
    using switch_to_worker_fn = void (*)(running_fiber& self, job_ref job) noexcept;

    explicit running_fiber(switch_to_worker_fn switch_to_worker) noexcept : switch_to_worker_(switch_to_worker) {}
    running_fiber(running_fiber const&) = delete;
    running_fiber& operator=(running_fiber const&) = delete;
    ~running_fiber() = default;

private:
    switch_to_worker_fn const switch_to_worker_;
};

} // namespace boost::forkjoin::detail

#endif // BOOST_FORKJOIN_DETAIL_RUNNING_FIBER_HPP
