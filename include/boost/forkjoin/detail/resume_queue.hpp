// Copyright 2026 The Boost.ForkJoin developers.
// Distributed under the Boost Software License, Version 1.0.
// (See accompanying file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
#ifndef BOOST_FORKJOIN_DETAIL_RESUME_QUEUE_HPP
#define BOOST_FORKJOIN_DETAIL_RESUME_QUEUE_HPP

// A worker's queue of fibers to resume: tasks that parked on this worker
// (their home, see fiber_task.hpp) and have been unparked. Any thread
// pushes, only the worker pops; nobody steals, so a fiber always resumes on
// the thread it parked on.
//
// Intrusive: each task embeds its node, and a task is in at most one queue
// at a time (only the unpark that moves it PARKED -> UNPARKED pushes it, and
// the node is free again once its job runs). So a push never allocates and
// never fails, which is what lets promise::set_value and a fiber's
// completion notify a waiter without a path to std::terminate.
//
// Pushers prepend to a lock-free stack; the worker takes the whole stack at
// once and reverses it into a private list, so fibers resume in the order
// they were unparked (a Treiber stack popped one at a time would let a
// fiber that keeps getting unparked overtake older ones forever). With one
// consumer there is no ABA: nobody else removes a node.

#include <boost/forkjoin/detail/job.hpp>

#include <atomic>
#include <optional>

namespace boost::forkjoin::detail {

struct resume_node {
    resume_node* next;
    job_ref job;
};

class resume_queue {
public:
    resume_queue() = default;
    resume_queue(resume_queue const&) = delete;
    resume_queue& operator=(resume_queue const&) = delete;

    // Any thread.
    void push(resume_node& node) noexcept
    {
        resume_node* head = incoming_.load(std::memory_order_relaxed);
        do
            node.next = head;
        // Seq-cst on success: this RMW is the publication that the sleep
        // policies' notify_worker protocol requires before the notification
        // (sleep_policy.hpp), and that has_work() reads. Its release half
        // also publishes node.next and whatever the unparker wrote before.
        while (!incoming_.compare_exchange_weak(head, &node, std::memory_order_seq_cst,
                                                std::memory_order_relaxed));
    }

    // The owning worker only. Oldest first.
    std::optional<job_ref> pop() noexcept
    {
        if (ready_ == nullptr) {
            // Seq-cst, like has_work(): this load is part of a sleepy
            // worker's search, which `legacy` needs to read the seq-cst
            // publication that preceded a tickle (its scenario 2).
            if (incoming_.load(std::memory_order_seq_cst) == nullptr)
                return std::nullopt;
            // Acquire: the pushes are a chain of RMWs on this word, so the
            // exchange synchronizes with every one of them and sees each
            // node's `next` and job.
            resume_node* stack = incoming_.exchange(nullptr, std::memory_order_acquire);
            while (stack != nullptr) {
                resume_node* const next = stack->next;
                stack->next = ready_;
                ready_ = stack;
                stack = next;
            }
        }
        resume_node* const node = ready_;
        ready_ = node->next;
        // Read the job before returning: once it runs, the node may be
        // pushed again by the next unpark.
        return node->job;
    }

    // The owning worker only (its pre-sleep check).
    bool has_work() const noexcept
    {
        return ready_ != nullptr || incoming_.load(std::memory_order_seq_cst) != nullptr;
    }

private:
    std::atomic<resume_node*> incoming_{nullptr}; // pushed, newest first
    resume_node* ready_ = nullptr;                // taken, oldest first
};

} // namespace boost::forkjoin::detail

#endif // BOOST_FORKJOIN_DETAIL_RESUME_QUEUE_HPP
