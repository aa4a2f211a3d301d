// Copyright 2026 The Boost.ForkJoin developers.
// Distributed under the Boost Software License, Version 1.0.
// (See accompanying file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
#ifndef BOOST_FORKJOIN_DETAIL_POOL_HANDLERS_HPP
#define BOOST_FORKJOIN_DETAIL_POOL_HANDLERS_HPP

// How a pool calls the handlers of its pool_options that user code supplies
// and that run inside the pool: the panic handler, the deadlock handler
// (through the sleep policy), and the start and exit handlers. An
// exception escaping one of them goes to the panic handler, else ends the
// program (rayon's rule).

#include <boost/forkjoin/detail/config.hpp>
#include <boost/forkjoin/detail/termination.hpp>
#include <boost/forkjoin/pool_options.hpp>

#include <cstddef>
#include <exception>
#include <functional>
#include <utility>

namespace boost::forkjoin::detail {

class pool_handlers;

// The pool whose deadlock handler runs on this thread, if any
// (pool_handlers::guarded_deadlock_handler).
inline constinit thread_local pool_handlers const* deadlock_handler_running_for = nullptr;

class pool_handlers {
public:
    // `options` is the registry's, and outlives this object.
    explicit pool_handlers(pool_options const& options) noexcept : options_(options) {}
    pool_handlers(pool_handlers const&) = delete;
    pool_handlers& operator=(pool_handlers const&) = delete;

    // An exception escaped a spawned job or a handler. Without a panic
    // handler, several workers may get here at once: begin_termination lets
    // one through, so that its exception is reported whole
    // (termination.hpp).
    void handle_panic(std::exception_ptr error) noexcept
    {
        if (!options_.panic_handler) {
            begin_termination();
            std::rethrow_exception(error); // noexcept: std::terminate, with the exception in flight
        }
        try {
            options_.panic_handler(std::move(error));
        } catch (...) {
            // The handler itself failed; nobody is left to tell.
            begin_termination();
            std::terminate();
        }
    }

    // pool_options::deadlock_handler as a policy should call it: an
    // exception escaping it must not unwind the sleep path or mark_blocked
    // (the scheduler's state would be half updated, and a join's stolen
    // half would outlive its frame), so it goes to the panic handler, as an
    // exception of a start or exit handler does. Empty if there is none.
    std::function<void()> guarded_deadlock_handler()
    {
        if (!options_.deadlock_handler)
            return {};
        return [this]() noexcept {
            // The handler runs inside the policy, holding its locks: a call
            // back into this pool that would take them again ends in a
            // clear error (refuse_calls_from_deadlock_handler), not a hang.
            pool_handlers const* const outer = deadlock_handler_running_for;
            deadlock_handler_running_for = this;
            try {
                options_.deadlock_handler();
            } catch (...) {
                handle_panic(std::current_exception());
            }
            deadlock_handler_running_for = outer;
        };
    }

    // Called first on every path into the sleep policy other than a
    // worker's own idle loop: a notification, mark_blocked, a worker's wait
    // for a latch. From the pool's deadlock handler (or the panic handler it
    // threw to), each of these would take a lock that the thread already
    // holds. Only on cold paths: a notification the push filter let through,
    // a wait with nothing left to run.
    void refuse_calls_from_deadlock_handler() const noexcept
    {
        if (BOOST_FORKJOIN_UNLIKELY(deadlock_handler_running_for == this))
            terminate_with_message(
                "boost::forkjoin: the pool's deadlock_handler called back into the pool (it submitted work, set "
                "something the pool waits for, waited on a worker, or called mark_blocked/mark_unblocked). The "
                "handler runs inside the pool's sleep path, holding its locks: it must hand the news to a thread "
                "outside the pool, which may then act on the pool");
    }

    // A start or exit handler, for worker `index`.
    void call_handler(std::function<void(std::size_t)> const& handler, std::size_t index) noexcept
    {
        if (!handler)
            return;
        try {
            handler(index);
        } catch (...) {
            handle_panic(std::current_exception()); // rayon's rule: the panic handler, else terminate
        }
    }

private:
    pool_options const& options_;
};

} // namespace boost::forkjoin::detail

#endif // BOOST_FORKJOIN_DETAIL_POOL_HANDLERS_HPP
