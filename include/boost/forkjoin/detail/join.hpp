// Copyright 2026 The Boost.ForkJoin developers.
// Distributed under the Boost Software License, Version 1.0.
// (See accompanying file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
#ifndef BOOST_FORKJOIN_DETAIL_JOIN_HPP
#define BOOST_FORKJOIN_DETAIL_JOIN_HPP

// The body of join on a worker, eager or lazy as the worker's pool was built
// (lazy_joins.hpp).
//
// Eager: b is pushed on the worker's deque as a job on this stack frame, a
// runs here, then b is popped back and run here too, unless a thief took it
// meanwhile, in which case the worker runs other jobs until b's latch is
// set. No allocation, no lock, and no call into the sleep policy unless its
// push_filter asks for one.
//
// Lazy: b's job goes on the worker's private list of unpublished second
// halves instead (lazy_frames.hpp), two stores. If nobody published it
// while a ran, it is still the list's newest: it comes off and b runs
// inline. If the worker's heartbeat published it, it is on the deque, and
// the join ends as an eager one does.
//
// Apart from join.hpp so that basic_thread_pool::join can use it without the
// global pool.

#include <boost/forkjoin/detail/config.hpp>
#include <boost/forkjoin/detail/current_worker.hpp>
#include <boost/forkjoin/detail/job.hpp>
#include <boost/forkjoin/detail/lazy_frames.hpp>
#include <boost/forkjoin/detail/registry_base.hpp>
#include <boost/forkjoin/detail/spin_latch.hpp>

#include <exception>
#include <new>
#include <optional>
#include <utility>

namespace boost::forkjoin::detail {

// Runs a join's first half and returns its value. If it throws, calls
// after_throw(), which lets the second half finish, then rethrows. Outside
// the handler: on a fiber a wait parks, and the worker may meanwhile run
// another fiber that enters and leaves handlers of its own on this thread,
// whose record of the exceptions being handled would then no longer be
// last in, first out.
//
// The exception waits in raw storage that only the handler constructs: an
// std::exception_ptr declared before the `try` would cost every join that
// does not throw a store and a test (a tenth of a lazy join's instructions).
template <class A, class AfterThrow>
BOOST_FORKJOIN_FORCEINLINE invoke_value_t<A> run_first_half(A&& a, AfterThrow&& after_throw)
{
    alignas(std::exception_ptr) unsigned char caught[sizeof(std::exception_ptr)];
    try {
        return invoke_to_value(std::forward<A>(a));
    } catch (...) {
        ::new (static_cast<void*>(caught)) std::exception_ptr(std::current_exception());
    }
    auto* const stored = std::launder(reinterpret_cast<std::exception_ptr*>(caught));
    std::exception_ptr error = std::move(*stored);
    stored->~exception_ptr();
    after_throw();
    std::rethrow_exception(std::move(error));
}

// The end of a join whose b was pushed on the deque, once a returned.
// Inlined: it is the eager join's fast path.
template <class A, class B>
BOOST_FORKJOIN_FORCEINLINE std::pair<invoke_value_t<A>, invoke_value_t<B>> finish_pushed_join(worker_thread& worker,
                                                                   stack_job<B, spin_latch>& job_b,
                                                                   invoke_value_t<A>&& result_a)
{
    using value_a = invoke_value_t<A>;
    job_ref const b_ref = job_b.as_job_ref();
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

template <class A, class B>
std::pair<invoke_value_t<A>, invoke_value_t<B>> eager_join_on_worker(worker_thread& worker, A&& a, B&& b)
{
    stack_job<B, spin_latch> job_b(b, worker);
    worker.push(job_b.as_job_ref());

    using value_a = invoke_value_t<A>;
    // If a throws, b may sit in our deque or run elsewhere; it references
    // this frame, so let it finish before the exception unwinds us.
    value_a result_a = run_first_half(std::forward<A>(a), [&] { worker.wait_until(job_b.latch().core()); });
    return finish_pushed_join<A, B>(worker, job_b, std::forward<value_a>(result_a));
}

// A lazy join's node on its frame, with room for b's job, which is built
// there only if the frame is published (lazy_frame says why).
template <class B>
struct lazy_join_frame : lazy_frame {
    using job_type = stack_job<B, spin_latch>;

    lazy_join_frame(lazy_frame* older, B& b) noexcept : lazy_frame{older, &make_job}, b_(b) {}

    B&& second_half() const noexcept { return std::forward<B>(b_); }

    // Precondition: published.
    job_type& published_job() noexcept { return *std::launder(reinterpret_cast<job_type*>(storage_)); }

    // Destroys the published job when the join ends, however it ends.
    struct published_job_guard {
        lazy_join_frame& frame;
        ~published_job_guard() { frame.published_job().~job_type(); }
    };

private:
    static job_ref make_job(lazy_frame& base, worker_thread* owner) noexcept
    {
        auto& self = static_cast<lazy_join_frame&>(base);
        if (owner == nullptr) {
            self.published_job().~job_type();
            return {};
        }
        return (::new (static_cast<void*>(self.storage_)) job_type(self.b_, *owner))->as_job_ref();
    }

    B& b_;
    alignas(job_type) unsigned char storage_[sizeof(job_type)];
};

// The ends of a lazy join other than the usual one, out of line so that the
// usual one stays small. Each needs nothing but the frame: the worker is
// the calling thread's (a join runs on one worker from start to end; a
// fiber never moves to another, running_fiber.hpp), so nothing but the
// frame's address has to survive the call to a.

// b was published: an eager join's end. a's value by value: a reference
// would make every join store it to its frame for this rare call, where a
// value goes in a register when it fits one.
template <class A, class B>
BOOST_FORKJOIN_NOINLINE std::pair<invoke_value_t<A>, invoke_value_t<B>>
finish_published_lazy_join(lazy_join_frame<B>& frame, invoke_value_t<A> result_a)
{
    typename lazy_join_frame<B>::published_job_guard const guard{frame};
    return finish_pushed_join<A, B>(*current_worker, frame.published_job(),
                                    std::forward<invoke_value_t<A>>(result_a));
}

// a threw: b runs all the same (join's contract) before the exception
// unwinds the frame it references, and a's exception wins.
template <class B>
BOOST_FORKJOIN_NOINLINE void finish_lazy_join_after_throw(lazy_join_frame<B>& frame) noexcept
{
    worker_thread& worker = *current_worker;
    if (worker.unpublished_joins().pop(frame)) {
        try {
            (void)invoke_to_value(frame.second_half());
        } catch (...) {
        }
    } else {
        typename lazy_join_frame<B>::published_job_guard const guard{frame};
        worker.wait_until(frame.published_job().latch().core());
    }
}

// Inlined into the caller, as a plain call of a then b would be: what is
// left of a lazy join's cost is its bookkeeping, not a call of its own.
template <class A, class B>
BOOST_FORKJOIN_FORCEINLINE std::pair<invoke_value_t<A>, invoke_value_t<B>> lazy_join_on_worker(worker_thread& worker,
                                                                                              A&& a, B&& b)
{
    lazy_frames& unpublished = worker.unpublished_joins();
    lazy_frame* const older = unpublished.newest();
    lazy_join_frame<B> frame(older, b);
    unpublished.push(frame);
    // The others look when the countdown runs out; the outermost join of a
    // job looks at once, without the clock (a loop of parallel calls inside
    // one job starts each of them with the other workers idle).
    if (BOOST_FORKJOIN_UNLIKELY(unpublished.count_down()))
        worker.lazy_heartbeat();
    else if (BOOST_FORKJOIN_UNLIKELY(older == nullptr))
        worker.publish_for_idle_workers();

    using value_a = invoke_value_t<A>;
    value_a result_a = run_first_half(std::forward<A>(a), [&frame]() noexcept { finish_lazy_join_after_throw(frame); });
    // The list read again through the thread's worker rather than kept from
    // above: a register saved across a costs every join (and every leaf of
    // a recursion) a push and a pop, the thread-local read one load.
    if (BOOST_FORKJOIN_LIKELY(current_worker->unpublished_joins().pop(frame)))
        return {std::forward<value_a>(result_a), invoke_to_value(std::forward<B>(b))};
    return finish_published_lazy_join<A, B>(frame, std::forward<value_a>(result_a));
}

template <class A, class B>
BOOST_FORKJOIN_FORCEINLINE std::pair<invoke_value_t<A>, invoke_value_t<B>> join_on_worker(worker_thread& worker,
                                                                                         A&& a, B&& b)
{
    // A per-worker constant: the branch costs nothing measurable in either
    // kind of pool (doc/lazy_joins.adoc, "Cost of the choice").
    if (worker.lazy_joins())
        return lazy_join_on_worker(worker, std::forward<A>(a), std::forward<B>(b));
    return eager_join_on_worker(worker, std::forward<A>(a), std::forward<B>(b));
}

} // namespace boost::forkjoin::detail

#endif // BOOST_FORKJOIN_DETAIL_JOIN_HPP
