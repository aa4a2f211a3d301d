// Copyright 2026 The Boost.ForkJoin developers.
// Distributed under the Boost Software License, Version 1.0.
// (See accompanying file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
#ifndef BOOST_FORKJOIN_DETAIL_RUNNING_FIBER_HPP
#define BOOST_FORKJOIN_DETAIL_RUNNING_FIBER_HPP

// What a worker knows of the fiber running on it: that the fiber can hand
// the worker a job to run on the worker's own stack, and that it can park
// until a latch is set.
//
// A fiber's stack is small (pool_options::fiber_stack_size) and holds one
// task's frames. A job taken from a queue may go as deep as any job goes,
// so it belongs on the worker's own stack, which pool_options::stack_size
// sizes. When fiber code runs one (a leftover job of a join, a yield),
// worker_thread sends it here: the fiber switches back to the worker, the
// worker runs the job, then resumes the fiber. Same worker, same thread:
// the fiber does not move (fiber_task.hpp).
//
// A wait for a latch (a join whose other half was taken by another thread,
// or by this worker while the fiber was parked; the end of a scope; an
// install into another pool) parks the fiber instead, and the latch's set
// unparks it (worker_thread::park_fiber_until). The worker must not wait on
// its own stack on the fiber's behalf: it may have resumed the fiber from
// inside a job, and the latch may be that very job's (the other half of the
// fiber's join, taken by this worker as ordinary work while the fiber was
// parked). A wait above the job's frame would wait for itself. Parked, the
// fiber lets the worker return to that job.

#include <boost/forkjoin/detail/job.hpp>

#include <cstddef>
#include <cstdint>

namespace boost::forkjoin::detail {

class running_fiber {
public:
    // Called on the fiber: runs `job` on the stack of the worker running
    // this fiber, then returns here, on the same worker.
    void run_on_worker_stack(job_ref job) noexcept { operations_->switch_to_worker(*this, job); }

    // Called on the fiber: switches back to the worker, and returns once
    // the fiber was unparked and resumed (an unpark meanwhile makes it run
    // again at once). Spurious returns happen: the caller checks why.
    void park() noexcept { operations_->park(*this); }

    // From any thread, while the fiber is known to be alive: a reference to
    // it, which unpark_and_release gives back after making it run again.
    void hold() noexcept { operations_->hold(*this); }
    void unpark_and_release() noexcept { operations_->unpark_and_release(*this); }

    // Whether a fault at `address`, on the thread running this fiber, is an
    // overflow of its stack: the address lies in the guard region below it
    // (stack_overflow.hpp). Read in a signal handler: plain fields, written
    // before the fiber first runs, on the thread that runs it.
    bool overflowed_at(std::uintptr_t address) const noexcept
    {
        return address >= guard_low_ && address < stack_low_;
    }
    std::size_t stack_size() const noexcept { return stack_size_; }

protected:
    // Function pointers rather than virtual functions: worker_thread's calls
    // of these (a job run on a fiber, a latch wait, a latch set) are in
    // every program, and GCC would devirtualize them speculatively to the
    // one override it knows, pulling the fiber code, and a link dependency
    // on Boost.Context, into programs that never start a fiber.
    struct operations {
        void (*switch_to_worker)(running_fiber& self, job_ref job) noexcept;
        void (*park)(running_fiber& self) noexcept;
        void (*hold)(running_fiber& self) noexcept;
        void (*unpark_and_release)(running_fiber& self) noexcept;
    };

    explicit running_fiber(operations const& ops) noexcept : operations_(&ops) {}
    running_fiber(running_fiber const&) = delete;
    running_fiber& operator=(running_fiber const&) = delete;
    ~running_fiber() = default;

    // The fiber's stack: [stack_low, stack_low + size), and below it the
    // guard region [guard_low, stack_low), empty without guard pages.
    void set_stack(std::uintptr_t guard_low, std::uintptr_t stack_low, std::size_t size) noexcept
    {
        guard_low_ = guard_low;
        stack_low_ = stack_low;
        stack_size_ = size;
    }

private:
    operations const* const operations_;
    std::uintptr_t guard_low_ = 0;
    std::uintptr_t stack_low_ = 0;
    std::size_t stack_size_ = 0;
};

} // namespace boost::forkjoin::detail

#endif // BOOST_FORKJOIN_DETAIL_RUNNING_FIBER_HPP
