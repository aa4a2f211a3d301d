// Copyright 2026 The Boost.ForkJoin developers.
// Distributed under the Boost Software License, Version 1.0.
// (See accompanying file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
#ifndef BOOST_FORKJOIN_FUTURE_HPP
#define BOOST_FORKJOIN_FUTURE_HPP

// Futures whose tasks run on fibers (Boost.Context) in a pool.
//
//     auto f = pool.spawn_future([&] {
//         int x = fj::await(read_async());   // the fiber parks, the worker
//         return x + 1;                      // goes on with other jobs
//     });
//     int y = f.get();
//
// pool.spawn_future(f) and scope.spawn_future(f) start f on a fiber of a pool
// worker and return a future<T>. A fiber that waits for a future (await, get,
// wait) parks: its stack is put aside, the worker runs other jobs, and the
// completion of what it waits for unparks it, as a job, on the worker it
// parked on (its home, below). promise<T> makes a future that any thread completes (an I/O thread, a
// timer). See doc/futures.adoc for the model, the state machine and the
// lifetime rules.
//
// A task runs on the worker that first takes its job, its home, and stays
// there: every resumption is queued at the home, so code on a fiber never
// changes thread, and may suspend anywhere its own logic allows, including
// inside a closure that join runs or the body of a scope. Rules for code
// that runs on a fiber:
//  * Its stack is pool_options::fiber_stack_size (64 KiB by default). A
//    fiber that waits (a join whose other half was stolen, the end of a
//    scope) parks, and the jobs its worker runs meanwhile run on the
//    worker's own stack, not on it. An overflow of it (guard pages are on
//    by default) ends the process with a message that names the option
//    (detail/stack_overflow.hpp).
//  * It may suspend inside a catch block, or in a destructor that runs
//    while an exception unwinds its stack: the handled exceptions and the
//    count that std::uncaught_exceptions() reads are the fiber's own,
//    swapped in and out with it (detail/fiber_exceptions.hpp).

#include <boost/forkjoin/detail/count_latch.hpp>
#include <boost/forkjoin/detail/fiber_task.hpp>
#include <boost/forkjoin/detail/future_fwd.hpp>
#include <boost/forkjoin/detail/job.hpp>
#include <boost/forkjoin/detail/registry_base.hpp>
#include <boost/forkjoin/detail/shared_state.hpp>
#include <boost/forkjoin/detail/wait_ready.hpp>
#include <boost/forkjoin/errors.hpp>

#include <exception>
#include <future>
#include <stdexcept>
#include <type_traits>
#include <utility>

namespace boost::forkjoin {

namespace detail {
struct future_access;
} // namespace detail

// The handle of a result that will be ready later: a spawned fiber task's, or
// a promise's. Move-only; one thread at a time may use it. Destroying (or
// assigning over) a future whose task is still pending cancels the task, as
// dropping the handle does in rayon; nobody waits for it, but a scope or a
// pool waits for it to complete.
template <class T>
class future {
    static_assert(!std::is_reference_v<T>, "a future holds its result by value");

public:
    using value_type = T;

    future() noexcept = default;
    future(future&& other) noexcept : state_(std::exchange(other.state_, nullptr)) {}
    future& operator=(future&& other) noexcept
    {
        if (this != &other) {
            reset();
            state_ = std::exchange(other.state_, nullptr);
        }
        return *this;
    }
    future(future const&) = delete;
    future& operator=(future const&) = delete;
    ~future() { reset(); }

    // False for a default-constructed or moved-from future, and after get().
    bool valid() const noexcept { return state_ != nullptr; }

    // True once the result is there. Never blocks, never suspends. Throws
    // std::future_error(no_state) if !valid(), as wait() and get() do.
    bool poll() const
    {
        check_valid();
        return state_->ready();
    }

    // Waits until the result is there: on a fiber the fiber parks; on a
    // worker the worker runs other jobs meanwhile; elsewhere the thread
    // blocks. On a cancelled fiber throws future_cancelled.
    void wait() const
    {
        check_valid();
        detail::wait_ready(*state_);
    }

    // Waits as wait() does, then returns the value or rethrows the exception
    // (future_cancelled if the task was cancelled before it finished). The
    // future is then no longer valid.
    T get()
    {
        check_valid();
        detail::wait_ready(*state_);
        struct release_on_exit {
            detail::result_state<T>* state;
            ~release_on_exit() { state->release(); }
        } const keep{std::exchange(state_, nullptr)};
        if constexpr (std::is_void_v<T>)
            keep.state->take();
        else
            return keep.state->take();
    }

    // Asks the task to stop: if it has not started it never runs; if it is
    // parked it resumes and its pending await throws future_cancelled; if it
    // is running, its next suspension point throws. Does not wait. Does
    // nothing if the result is there already, or if the future comes from a
    // promise (there is no task to stop).
    void cancel() noexcept
    {
        if (state_ != nullptr && !state_->ready())
            state_->cancel();
    }

private:
    template <class F>
    friend future<detail::future_value_t<F>> detail::spawn_future(detail::registry_base&, F&&,
                                                                  detail::count_latch*);
    template <class U>
    friend class promise;
    friend struct detail::future_access;

    // Adopts one reference.
    explicit future(detail::result_state<T>* state) noexcept : state_(state) {}

    void check_valid() const
    {
        if (state_ == nullptr)
            throw std::future_error(std::future_errc::no_state);
    }

    void reset() noexcept
    {
        if (state_ != nullptr) {
            cancel();
            std::exchange(state_, nullptr)->release();
        }
    }

    detail::result_state<T>* state_ = nullptr;
};

// The writing end of a future, for results that come from outside the pool:
// set_value and set_exception may be called from any thread (one at a time:
// like a future, a promise is not shared between threads). Destroying a
// promise that was never satisfied completes its future with
// std::future_error(broken_promise).
template <class T>
class promise {
    static_assert(!std::is_reference_v<T>, "a promise holds its result by value");

public:
    promise() : state_(new detail::promise_state<T>()) {}
    promise(promise&& other) noexcept : state_(std::exchange(other.state_, nullptr)) {}
    promise& operator=(promise&& other) noexcept
    {
        if (this != &other) {
            abandon();
            state_ = std::exchange(other.state_, nullptr);
        }
        return *this;
    }
    promise(promise const&) = delete;
    promise& operator=(promise const&) = delete;
    ~promise() { abandon(); }

    // Once per promise; throws std::future_error(future_already_retrieved)
    // the second time.
    future<T> get_future()
    {
        check_valid();
        if (!state_->claim_retrieval())
            throw std::future_error(std::future_errc::future_already_retrieved);
        state_->add_ref();
        return future<T>(state_);
    }

    // Completes the future; a fiber parked on it is unparked at its home
    // worker. Throws std::future_error(promise_already_satisfied) the second
    // time. If constructing the value throws, the exception propagates and
    // the promise is unchanged (still unsatisfied). Nothing else can fail:
    // notifying the waiter allocates nothing.
    template <class... Args>
        requires std::is_constructible_v<detail::value_or_monostate<T>, Args...>
    void set_value(Args&&... args)
    {
        check_unsatisfied();
        state_->complete_with_value(std::forward<Args>(args)...);
    }

    // Throws std::invalid_argument for a null `error`, which would leave the
    // future ready with neither a value nor an exception (std::promise
    // makes it a precondition; here it is checked).
    void set_exception(std::exception_ptr error)
    {
        check_unsatisfied();
        if (error == nullptr)
            throw std::invalid_argument("boost::forkjoin::promise::set_exception: a null exception_ptr");
        state_->complete_with_error(std::move(error));
    }

private:
    void check_valid() const
    {
        if (state_ == nullptr)
            throw std::future_error(std::future_errc::no_state);
    }

    void check_unsatisfied() const
    {
        check_valid();
        if (state_->satisfied())
            throw std::future_error(std::future_errc::promise_already_satisfied);
    }

    void abandon() noexcept
    {
        if (state_ == nullptr)
            return;
        if (!state_->satisfied())
            state_->complete_with_error(std::make_exception_ptr(std::future_error(std::future_errc::broken_promise)));
        std::exchange(state_, nullptr)->release();
    }

    detail::promise_state<T>* state_;
};

// Waits for `f` and returns its value (or rethrows), consuming it. Meant for
// fibers, where it parks the fiber until `f` completes and throws
// future_cancelled if the fiber's own task is cancelled meanwhile; anywhere
// else it behaves as f.get().
template <class T>
T await(future<T>& f)
{
    return f.get();
}

template <class T>
T await(future<T>&& f)
{
    return f.get();
}

// Anything else: say so at the caller's line.
template <class NotAFuture>
void await(NotAFuture&&)
{
    static_assert(sizeof(NotAFuture) == 0, "boost::forkjoin::await(f): f must be a boost::forkjoin::future<T>");
}

namespace detail {

// Lets an integration outside this header (asio.hpp's use_future) hand out
// futures of a result state of its own.
struct future_access {
    // Adopts one reference.
    template <class T>
    static future<T> adopt(result_state<T>* state) noexcept
    {
        return future<T>(state);
    }
};

// Starts f on a fiber of `registry`. The task holds an activity count until
// it completes, so the pool's destructor waits for it. With a scope latch,
// the scope's count was raised by the caller and is dropped on completion,
// after f is destroyed; if this throws, the count stays the caller's.
// Throws pool_terminated, std::bad_alloc (the task, or a queue that cannot
// grow for its first run: then the task is complete and cancelled, and f
// never runs), or what copying f throws.
template <class F>
future<future_value_t<F>> spawn_future(registry_base& registry, F&& f, count_latch* scope_latch)
{
    using value_type = future_value_t<F>;
    using task_type = fiber_task<value_type, std::decay_t<F>>;
    registry.acquire_activity(); // throws pool_terminated
    task_type* task;
    try {
        task = new task_type(registry, std::forward<F>(f), scope_latch);
    } catch (...) {
        registry.release_activity();
        throw;
    }
    future<value_type> handle(task);
    task->start(); // on failure: complete, the activity count released
    return handle;
}

} // namespace detail

} // namespace boost::forkjoin

#endif // BOOST_FORKJOIN_FUTURE_HPP
