// Copyright 2026 The Boost.ForkJoin developers.
// Distributed under the Boost Software License, Version 1.0.
// (See accompanying file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
#ifndef BOOST_FORKJOIN_DETAIL_HELD_SCOPE_HPP
#define BOOST_FORKJOIN_DETAIL_HELD_SCOPE_HPP

// The in_place_scopes whose bodies run on this thread, in a pool this thread
// is not a worker of. Each holds one unit of that pool's activity count
// until its body has returned and its jobs are done (scope.hpp), so that
// the pool's workers stay for the jobs.
//
// std::exit called inside such a body runs the exit handlers on this
// thread, under the body, which never returns: the global pool's handler,
// or the destructor of a pool with static storage, would wait for that
// unit, that is for itself. So a pool that stops first looks here for
// scopes whose bodies run on the stack it is stopping from, ends each as if
// its body had returned (it waits for the scope's jobs, which the pool's
// workers are still there to run), and gives back its unit
// (registry_base::end_scopes_held_here).
//
// Only bodies on the stopping stack: a scope whose body runs on another
// fiber of this thread (parked, or waiting for its jobs) is not stuck under
// the stop, and ends by itself.

namespace boost::forkjoin::detail {

class registry_base;
class running_fiber;
class worker_thread;

struct held_scope {
    registry_base const* registry;
    // The fiber the body runs on, nullptr for the thread's own stack.
    running_fiber const* fiber;
    // The worker (of another pool) that waits for the scope's jobs, running
    // its own pool's jobs meanwhile; nullptr for a thread outside every
    // pool. That pool must outlive the scope (registry_base::shut_down).
    worker_thread const* waiter;
    void* scope;
    // Ends the body's part of the scope and waits for its jobs, unless the
    // body has ended already; then says false.
    bool (*end_body)(void* scope) noexcept;
    bool unit_given_back = false;
    // Fibers of one thread interleave their scopes: a node may leave from
    // the middle of the list.
    held_scope* previous = nullptr;
    held_scope* next = nullptr;
};

// The newest first. Touched only by this thread.
inline constinit thread_local held_scope* scopes_held_by_this_thread = nullptr;

inline void link_held_scope(held_scope& node) noexcept
{
    node.next = scopes_held_by_this_thread;
    if (node.next != nullptr)
        node.next->previous = &node;
    scopes_held_by_this_thread = &node;
}

inline void unlink_held_scope(held_scope& node) noexcept
{
    if (node.previous != nullptr)
        node.previous->next = node.next;
    else
        scopes_held_by_this_thread = node.next;
    if (node.next != nullptr)
        node.next->previous = node.previous;
}

} // namespace boost::forkjoin::detail

#endif // BOOST_FORKJOIN_DETAIL_HELD_SCOPE_HPP
