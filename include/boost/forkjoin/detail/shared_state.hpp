// Copyright 2026 The Boost.ForkJoin developers.
// Distributed under the Boost Software License, Version 1.0.
// (See accompanying file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
#ifndef BOOST_FORKJOIN_DETAIL_SHARED_STATE_HPP
#define BOOST_FORKJOIN_DETAIL_SHARED_STATE_HPP

// The shared state behind a future: what the future handle reads and what
// its producer (a fiber task, a promise) writes.
//
//   shared_state_base   intrusive reference count, and the continuation
//                       slot: empty, one waiter, or the COMPLETE tag.
//   result_state<T>     adds the value or exception.
//   promise_state<T>    a result_state that promise<T> completes.
//
// The fiber task (fiber_task.hpp) is the other result_state; how a caller
// waits for a state is in wait_ready.hpp.

#include <boost/forkjoin/detail/job.hpp>
#include <boost/forkjoin/spin_budget.hpp>

#include <boost/assert.hpp>

#include <atomic>
#include <cstddef>
#include <exception>
#include <optional>
#include <utility>

namespace boost::forkjoin::detail {

// Whoever waits for a future: notify() is called once, by the thread that
// completes it, after the result is published.
struct waiter {
    void (*notify)(waiter& self) noexcept;
};

// The continuation slot's COMPLETE value: an address no waiter has.
inline constinit waiter completed_tag{nullptr};

class shared_state_base {
public:
    shared_state_base(shared_state_base const&) = delete;
    shared_state_base& operator=(shared_state_base const&) = delete;

    // Relaxed: a new reference is made from an existing one, which keeps
    // the object alive meanwhile.
    void add_ref() noexcept { refs_.fetch_add(1, std::memory_order_relaxed); }

    void release() noexcept
    {
        // Acq-rel: the last release must see every other holder's writes
        // (their releases) before it destroys the object.
        if (refs_.fetch_sub(1, std::memory_order_acq_rel) == 1)
            destroy();
    }

    // Acquire: pairs with mark_complete's release, so the result is
    // visible once this says true.
    bool ready() const noexcept { return continuation_.load(std::memory_order_acquire) == &completed_tag; }

    // Registers `w`, to be notified when the state completes. False if it
    // is complete already (and `w` will not be notified). At most one waiter
    // at a time: a future is move-only and used by one thread at a time.
    bool add_waiter(waiter& w) noexcept
    {
        waiter* expected = nullptr;
        // Release: the completer that takes `w` sees how it was set up.
        // Acquire on failure: the result is visible when the tag is seen.
        if (continuation_.compare_exchange_strong(expected, &w, std::memory_order_acq_rel,
                                                  std::memory_order_acquire))
            return true;
        BOOST_ASSERT_MSG(expected == &completed_tag, "two threads wait for one future at the same time");
        return false;
    }

    // Takes `w` back. False if the completer took it first: it is being, or
    // is about to be, notified.
    bool remove_waiter(waiter& w) noexcept
    {
        waiter* expected = &w;
        // Relaxed on both sides: taking the registration back publishes
        // nothing, and a failure only tells us the completer owns it now.
        return continuation_.compare_exchange_strong(expected, nullptr, std::memory_order_relaxed,
                                                     std::memory_order_relaxed);
    }

    // Asks the computation behind the state to stop; a promise's state has
    // none.
    virtual void cancel() noexcept {}

    // Called before a wait for a state that is not ready: throws if nothing
    // can ever complete it (a fiber task of a pool built before fork(), in
    // the child). A promise's state can always be completed.
    virtual void check_can_complete() const {}

    // The longest a thread outside every pool spins for the state before it
    // blocks: a fiber task's pool_options::spin_limit, copied when it was
    // spawned (the pool may be gone by the time the wait ends, so the wait
    // reads nothing of it); the default for a promise, which has no pool.
    virtual spin_budget::duration outside_spin_limit() const noexcept { return spin_budget::default_limit; }

protected:
    explicit shared_state_base(std::size_t refs) noexcept : refs_(refs) {}
    virtual ~shared_state_base() = default;

    // The result is written: publish it and notify the waiter, if any.
    void mark_complete() noexcept
    {
        // Acq-rel: release publishes the result to every later ready() and
        // failed add_waiter(); acquire makes the waiter's set-up (its latch,
        // its reference) visible before we call it.
        if (waiter* const w = continuation_.exchange(&completed_tag, std::memory_order_acq_rel))
            w->notify(*w);
    }

private:
    virtual void destroy() noexcept { delete this; }

    std::atomic<std::size_t> refs_;
    std::atomic<waiter*> continuation_{nullptr};
};

template <class T>
class result_state : public shared_state_base {
public:
    using value_type = value_or_monostate<T>;

    // Precondition: ready(). Moves the value out, or rethrows the stored
    // exception, taking it out too: the state holds nothing afterwards, so
    // the exception object dies with the caller's last copy, on the
    // caller's thread, and not with the state on whatever thread drops the
    // state's last reference (libstdc++ counts exception_ptr references with
    // atomics ThreadSanitizer does not see, and would report that free).
    value_type take()
    {
        if (error_)
            std::rethrow_exception(std::exchange(error_, nullptr));
        return std::move(*value_);
    }

protected:
    using shared_state_base::shared_state_base;

    // Declared so that its exception specification is the base's whatever
    // T's destructor says: an override may not be laxer (clang rejects it),
    // and a value whose destructor throws here has nowhere to go anyway.
    ~result_state() noexcept override {}

    // Written by the one completer strictly before mark_complete().
    std::optional<value_type> value_;
    std::exception_ptr error_;
};

template <class T>
class promise_state final : public result_state<T> {
public:
    promise_state() noexcept : result_state<T>(1) {}

    // Claims the right to make the state's future. A plain flag: like a
    // future, a promise is used by one thread at a time (any thread, but
    // not two at once), so there is no other claimant to race with.
    bool claim_retrieval() noexcept { return !std::exchange(retrieved_, true); }

    bool satisfied() const noexcept { return satisfied_; }

    // Stores the value and publishes it. If constructing the value throws,
    // the state is left as it was (unsatisfied, nobody notified) and the
    // exception propagates, as std::promise::set_value does. Nothing after
    // the construction can fail: publishing and notifying allocate nothing
    // (a fiber waiter resumes through its home's intrusive queue).
    template <class... Args>
    void complete_with_value(Args&&... args)
    {
        BOOST_ASSERT(!satisfied_);
        this->value_.emplace(std::forward<Args>(args)...);
        satisfied_ = true;
        this->mark_complete();
    }

    void complete_with_error(std::exception_ptr error) noexcept
    {
        BOOST_ASSERT(!satisfied_);
        this->error_ = std::move(error);
        satisfied_ = true;
        this->mark_complete();
    }

private:
    bool satisfied_ = false;
    bool retrieved_ = false;
};

} // namespace boost::forkjoin::detail

#endif // BOOST_FORKJOIN_DETAIL_SHARED_STATE_HPP
