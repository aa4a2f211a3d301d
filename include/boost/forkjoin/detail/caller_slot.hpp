// Copyright 2026 The Boost.ForkJoin developers.
// Distributed under the Boost Software License, Version 1.0.
// (See accompanying file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
#ifndef BOOST_FORKJOIN_DETAIL_CALLER_SLOT_HPP
#define BOOST_FORKJOIN_DETAIL_CALLER_SLOT_HPP

// --- The caller slot (pool_options::caller_slot) ---------------------------
//
// Worker 0 has no thread of its own. A thread outside every pool takes
// its place for the length of an install (submit.hpp), one at a time:
// taking it is a compare-exchange on one word. Whoever holds it is
// worker 0 in every respect (current_worker, its deque, its broadcast
// queue, its sleep state in the policy) but one: it starts no fiber,
// because a fiber resumes on the thread that started it (fiber_task.hpp),
// and that thread may have left the place by then. The pool's own
// fibers never have worker 0 for home, so its resume queue stays empty.
//
// A thread of the pool never becomes worker 0. While the place is free,
// worker 0's broadcast queue still receives shares; a searching thread
// of the pool borrows the place only to pop one (the queue has one
// consumer at a time), gives it back, and runs the share as itself
// (registry_base::run_vacant_slot_broadcasts). So every thread of the pool
// is always its own worker, the only one that pops its broadcast and resume
// queues, and it serves them in every wait, nested waits inside worker
// 0's share included. (When a thread of the pool wore worker 0's
// identity for the length of the share, its own queues went unserved
// meanwhile, and a share that waited for work of its pool, a nested
// broadcast or a future, waited for itself: doc/design.adoc, "The
// caller slot".) It also keeps the place for outside callers: an
// install that finds it borrowed waits out the pop, so it loses the
// place only to another outside caller.
//
// This header holds the protocol: taking and giving back the place, the
// holder, and a searching thread's borrowing of the vacant place. The
// place's one word and the orderings of its transitions are in
// caller_slot_state.hpp; a broadcast's hand-out to worker 0
// (registry_base::inject_broadcast) is the other half of free_caller_slot's
// store-buffering pair. test/model/caller_slot.pml checks the protocol.

#include <boost/forkjoin/detail/current_worker.hpp>
#include <boost/forkjoin/detail/job.hpp>
#include <boost/forkjoin/detail/registry_base.hpp>
#include <boost/forkjoin/detail/resume_queue.hpp>
#include <boost/forkjoin/detail/worker_thread.hpp>
#include <boost/forkjoin/detail/xorshift_rng.hpp>

#include <cstddef>
#include <optional>
#include <utility>

namespace boost::forkjoin::detail {

inline bool registry_base::try_take_caller_slot() noexcept { return has_caller_slot_ && caller_slot_.try_take(); }

// Worker 0's place, taken by the calling thread (try_take_caller_slot
// returned true), for the life of this object: the thread is worker 0
// meanwhile, and is again what it was before (nobody's worker) once the
// place is given back.
class registry_base::caller_slot_holder {
public:
    explicit caller_slot_holder(registry_base& registry) noexcept
        : registry_(registry), previous_(std::exchange(current_worker, registry.workers_[0].get()))
    {
        // A job arrives from outside: as a worker that found one after an
        // idle period (lazy_frames.hpp).
        current_worker->unpublished_joins().look_at_next_join();
    }
    caller_slot_holder(caller_slot_holder const&) = delete;
    caller_slot_holder& operator=(caller_slot_holder const&) = delete;
    ~caller_slot_holder()
    {
        // A job that forked, and the child returned from it: giving
        // the place back would hand over and notify through the sleep
        // policy's locks, which threads of the parent may hold.
        registry_.refuse_a_return_after_fork();
        current_worker = previous_;
        registry_.give_back_caller_slot();
    }

private:
    registry_base& registry_;
    worker_thread* const previous_;
};

#if BOOST_FORKJOIN_DEFINE_COMPILED

// Gives worker 0's place back. What the holder leaves there stays
// there, for the pool's threads to take:
//  * jobs on the deque (spawned, not yet stolen) are handed over as by a
//    worker that blocks (hand_over_local_jobs), so that a sleepy thread
//    cannot miss them;
//  * a broadcast's share that came after the holder's last look at its
//    queue is run by a thread of the pool (run_vacant_slot_broadcasts).
BOOST_FORKJOIN_DECL void registry_base::give_back_caller_slot() noexcept
{
    worker_thread& slot = *workers_[0];
    if (slot.local_job_count() != 0)
        hand_over_local_jobs(slot);
    free_caller_slot();
}

// Frees worker 0's place, held or borrowed. Seq-cst: release for the
// next holder or borrower, and the first half of a store-buffering
// pair with inject_broadcast's push then load of the state. Either that
// load sees the place held, and our look at the queue below sees its
// share, or it sees the place free or borrowed and notifies the pool
// itself.
BOOST_FORKJOIN_DECL void registry_base::free_caller_slot() noexcept
{
    caller_slot_.free();
    if (!workers_[0]->broadcasts().empty())
        notify_vacant_slot_work();
}

// Whether the place is free and worker 0's broadcast queue holds a
// share, which a thread of the pool must borrow the place to take.
// Part of a searching worker's look at the queues that are not its own
// (worker_thread::has_injected_jobs), so it follows the policies' rule
// for those: the publisher (a broadcast, a holder or borrower giving
// the place back) publishes with a seq-cst write, then notifies as for
// an injected job.
BOOST_FORKJOIN_DECL bool registry_base::vacant_slot_has_work() const noexcept
{
    // Seq-cst loads: the checking side of that rule. A sleepy worker
    // announces itself (seq-cst, in the policy) before it looks here;
    // the seq-cst order then gives either the publisher's notification
    // the announcement, or this look the share and the free place.
    return has_caller_slot_ && !workers_[0]->broadcasts_.empty() && caller_slot_.is_free();
}

// The job a searching thread of the pool runs when vacant_slot_has_work:
// it borrows the place for one pop, gives it back, and runs the share
// it took as itself, its own worker (it runs inside that worker's
// execute(), on its own stack). If the place was taken first, its new
// holder or borrower takes the share instead.
BOOST_FORKJOIN_DECL void registry_base::run_vacant_slot_broadcasts(void* self) noexcept
{
    auto& registry = *static_cast<registry_base*>(self);
    // Acquire on success (caller_slot_state::try_borrow says why).
    if (!registry.caller_slot_.try_borrow())
        return;
    std::optional<job_ref> const share = registry.workers_[0]->broadcasts().pop();
    registry.free_caller_slot();
    if (share)
        share->execute();
}

// A future task's first run reached worker 0 through its queues (the
// holder's spawn_future, a steal): worker 0 starts no fiber, so the
// task starts on a thread of the pool instead, through that worker's
// resume queue (no allocation: the node is the task's). Called by the
// holder only.
BOOST_FORKJOIN_DECL void registry_base::start_fiber_elsewhere(resume_node& first_run) noexcept
{
    worker_thread& slot = *workers_[0];
    std::size_t const target = 1 + static_cast<std::size_t>(slot.rng_.next() % (num_threads_ - 1));
    workers_[target]->resumes().push(first_run);
    notify_worker(target);
}

#endif // BOOST_FORKJOIN_DEFINE_COMPILED

} // namespace boost::forkjoin::detail

#endif // BOOST_FORKJOIN_DETAIL_CALLER_SLOT_HPP
