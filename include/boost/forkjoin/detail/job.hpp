// Copyright 2026 The Boost.ForkJoin developers.
// Distributed under the Boost Software License, Version 1.0.
// (See accompanying file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
#ifndef BOOST_FORKJOIN_DETAIL_JOB_HPP
#define BOOST_FORKJOIN_DETAIL_JOB_HPP

// Jobs. A job reference is two words, an entry point and its argument, so
// the deques and the injector move plain values and never allocate for them.
// Two kinds of job sit behind a reference:
//
//  * stack_job: lives in the frame of the thread that waits for it (join,
//    install). No allocation; the waiter's latch keeps the frame alive until
//    the job has run.
//  * heap_job: allocated by spawn, deletes itself after running, because
//    nobody waits for it.
//
// The rule every kind follows: the last thing a job does is signal that it
// is done (set a latch, drop a count), and nothing of the job, its callable
// or what the callable captured is touched after that signal. Whoever waits
// for the signal may return and free all of it at once.

#include <exception>
#include <functional>
#include <memory>
#include <optional>
#include <type_traits>
#include <utility>
#include <variant>

namespace boost::forkjoin::detail {

struct job_ref {
    void (*execute_fn)(void*) noexcept = nullptr;
    void* data = nullptr;

    void execute() const noexcept { execute_fn(data); }
    friend bool operator==(job_ref, job_ref) = default;
};

// A void result is carried as std::monostate so that join can always return
// a std::pair and the job code needs no special case.
template <class T>
using value_or_monostate = std::conditional_t<std::is_void_v<T>, std::monostate, T>;

template <class F>
using invoke_value_t = value_or_monostate<std::invoke_result_t<F>>;

// invoke_result_t<F, Args...>, or void where F cannot be called so: a
// public function's signature that names it stays viable, so that the
// static_assert in its body, which says in a sentence what the call needs,
// is the first error the user sees, at the user's own call.
template <class F, class... Args>
using checked_invoke_result_t = typename std::conditional_t<std::is_invocable_v<F, Args...>, std::invoke_result<F, Args...>,
                                                            std::type_identity<void>>::type;

template <class F>
using checked_invoke_value_t = value_or_monostate<checked_invoke_result_t<F>>;

template <class F>
invoke_value_t<F> invoke_to_value(F&& f)
{
    if constexpr (std::is_void_v<std::invoke_result_t<F>>) {
        std::invoke(std::forward<F>(f));
        return {};
    } else {
        return std::invoke(std::forward<F>(f));
    }
}

// A result between the call that makes it and the caller that takes it:
// empty, or a value. T may be a reference, as what std::invoke returns may
// be (std::optional cannot hold one): then what it refers to is kept by
// address, and take() gives back the same reference.
template <class T>
class result_slot {
public:
    template <class F>
    void fill(F&& f)
    {
        if constexpr (std::is_reference_v<T>) {
            T&& result = invoke_to_value(std::forward<F>(f));
            value_.emplace(std::addressof(result));
        } else {
            value_.emplace(invoke_to_value(std::forward<F>(f)));
        }
    }

    // Precondition: fill() returned.
    T take()
    {
        if constexpr (std::is_reference_v<T>)
            return static_cast<T>(**value_);
        else
            return std::move(*value_);
    }

private:
    using stored_type = std::conditional_t<std::is_reference_v<T>, std::remove_reference_t<T>*, T>;
    std::optional<stored_type> value_;
};

// The outcome of a job that another thread may run: a value, an exception,
// or nothing yet. Written by the executing thread strictly before it sets
// the job's latch; read by the waiter strictly after it observed the latch.
template <class T>
class job_result {
public:
    template <class F>
    void capture(F&& f) noexcept
    {
        try {
            value_.fill(std::forward<F>(f));
        } catch (...) {
            error_ = std::current_exception();
        }
    }

    std::exception_ptr const& error() const noexcept { return error_; }

    // Precondition: capture() ran. Rethrows the captured exception.
    T take()
    {
        if (error_)
            std::rethrow_exception(error_);
        return value_.take();
    }

private:
    result_slot<T> value_;
    std::exception_ptr error_;
};

// A job on the stack of the thread that will wait for it. F is held by
// reference: the callable outlives the job because the owner waits.
template <class F, class Latch>
class stack_job {
public:
    using value_type = invoke_value_t<F>;

    template <class... LatchArgs>
    explicit stack_job(F& f, LatchArgs&&... latch_args)
        : func_(f), latch_(std::forward<LatchArgs>(latch_args)...)
    {
    }

    stack_job(stack_job const&) = delete;
    stack_job& operator=(stack_job const&) = delete;

    job_ref as_job_ref() noexcept { return {&execute, this}; }
    Latch& latch() noexcept { return latch_; }

    // The owner popped its own job back: run it here, exceptions and all.
    value_type run_inline() { return invoke_to_value(std::forward<F>(func_)); }

    // Precondition: the latch is set.
    value_type take_result() { return result_.take(); }
    job_result<value_type>& result() noexcept { return result_; }

private:
    static void execute(void* self_ptr) noexcept
    {
        auto* self = static_cast<stack_job*>(self_ptr);
        self->result_.capture(std::forward<F>(self->func_));
        // Last touch of *self by this thread: once the latch is set the
        // owner may return and the frame holding *self is gone.
        self->latch_.set();
    }

    F& func_;
    Latch latch_;
    job_result<value_type> result_;
};

// A job that owns its callable and frees itself after running. Running it
// calls func, destroys the job (and with it func and everything func
// captured), and only then calls done, the job's completion signal (a
// scope's latch, the pool's activity count): a scope must not end while a
// closure it ran is still being destroyed, since the closure may capture
// what the scope's caller frees next (rayon consumes its closures the same
// way). F must not throw: the callers wrap user code so that exceptions are
// routed (to a scope, a panic handler) before they reach here. Done is
// copied out before the job is freed.
//
// Use: allocate with std::make_unique, queue as_job_ref(), and release the
// unique_ptr only once the queueing succeeded; a failed push frees the job
// without running it.
template <class F, class Done>
class heap_job {
public:
    heap_job(F f, Done done) : func_(std::move(f)), done_(std::move(done)) {}

    heap_job(heap_job const&) = delete;
    heap_job& operator=(heap_job const&) = delete;

    job_ref as_job_ref() noexcept { return {&execute, this}; }

private:
    static void execute(void* self_ptr) noexcept
    {
        static_assert(std::is_nothrow_invocable_v<F&>, "heap_job callables route their own exceptions");
        static_assert(std::is_nothrow_invocable_v<Done&> && std::is_nothrow_copy_constructible_v<Done>,
                      "a completion signal cannot fail");
        auto* self = static_cast<heap_job*>(self_ptr);
        Done done = self->done_;
        self->func_();
        delete self;
        done();
    }

    F func_;
    Done done_;
};

} // namespace boost::forkjoin::detail

#endif // BOOST_FORKJOIN_DETAIL_JOB_HPP
