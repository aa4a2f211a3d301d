// Copyright 2026 The Boost.ForkJoin developers.
// Distributed under the Boost Software License, Version 1.0.
// (See accompanying file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
#ifndef BOOST_FORKJOIN_JOIN_HPP
#define BOOST_FORKJOIN_JOIN_HPP

// join(a, b): run a and b, potentially in parallel, and return both results.
// join_context(a, b): the same, telling each closure whether it migrated to
// another thread. How join works on a worker: detail/join.hpp.

#include <boost/forkjoin/detail/job.hpp>
#include <boost/forkjoin/detail/join.hpp>
#include <boost/forkjoin/detail/registry_base.hpp>
#include <boost/forkjoin/global_pool.hpp>

#include <functional>
#include <type_traits>
#include <utility>

namespace boost::forkjoin {

template <class A, class B>
using join_result_t = std::pair<detail::checked_invoke_value_t<A>, detail::checked_invoke_value_t<B>>;

// What a closure run by join_context learns about where it runs.
class fn_context {
public:
    explicit fn_context(bool migrated) noexcept : migrated_(migrated) {}

    // True if the closure runs on another thread than the one that called
    // join_context: b was stolen, or join_context was called outside every
    // pool and both closures run on a worker of the global pool.
    bool migrated() const noexcept { return migrated_; }

private:
    bool migrated_;
};

template <class A, class B>
using join_context_result_t =
    std::pair<detail::value_or_monostate<detail::checked_invoke_result_t<A, fn_context>>,
              detail::value_or_monostate<detail::checked_invoke_result_t<B, fn_context>>>;

namespace detail {

// join from outside every pool. Out of line: inlined, the install's
// bookkeeping would make every caller of join save more registers, on its
// fast path too (and in a recursion, in every leaf).
template <class A, class B>
BOOST_FORKJOIN_NOINLINE join_result_t<A, B> join_in_global_pool(A&& a, B&& b)
{
    return global_pool().install(
        [&] { return join_on_worker(*current_worker, std::forward<A>(a), std::forward<B>(b)); });
}

// join_context on `worker`, the calling thread's; `injected`: called from
// outside every pool, so both closures migrated.
template <class A, class B>
BOOST_FORKJOIN_FORCEINLINE join_context_result_t<A, B> join_context_on_worker(worker_thread& worker, bool injected,
                                                                             A&& a, B&& b)
{
    auto a_in_context = [&]() -> decltype(auto) { return std::invoke(std::forward<A>(a), fn_context(injected)); };
    auto b_in_context = [&]() -> decltype(auto) {
        // Read where b runs now: a thief runs it on its own thread.
        bool const migrated = injected || current_worker != &worker;
        return std::invoke(std::forward<B>(b), fn_context(migrated));
    };
    return join_on_worker(worker, a_in_context, b_in_context);
}

// Out of line, as join_in_global_pool.
template <class A, class B>
BOOST_FORKJOIN_NOINLINE join_context_result_t<A, B> join_context_in_global_pool(A&& a, B&& b)
{
    return global_pool().install(
        [&] { return join_context_on_worker(*current_worker, true, std::forward<A>(a), std::forward<B>(b)); });
}

} // namespace detail

// Runs a and b, potentially in parallel, and returns {a(), b()}; a void
// result is std::monostate. Inside any pool it uses that pool, whatever its
// sleep policy; outside every pool it runs in the global pool. If a or b
// throws, both still run to completion, then a's exception (or else b's) is
// rethrown.
//
// Always inlined: with its lazy fast path inside, GCC judges join too big
// to inline on its own, and the call it leaves costs a lazy join a third
// of its time.
//
// Returns join_result_t<A, B>. Declared auto so that a closure of the wrong
// kind is reported by the static_assert alone: the body past it is not
// instantiated then, and nothing else fails.
template <class A, class B>
BOOST_FORKJOIN_FORCEINLINE auto join(A&& a, B&& b)
{
    static_assert(std::is_invocable_v<A>, "boost::forkjoin::join(a, b): a must be callable with no arguments");
    static_assert(std::is_invocable_v<B>, "boost::forkjoin::join(a, b): b must be callable with no arguments");
    if constexpr (std::is_invocable_v<A> && std::is_invocable_v<B>) {
        if (detail::worker_thread* worker = detail::current_worker)
            return detail::join_on_worker(*worker, std::forward<A>(a), std::forward<B>(b));
        return detail::join_in_global_pool(std::forward<A>(a), std::forward<B>(b));
    }
}

// As join, but calls a(ctx) and b(ctx), where ctx.migrated() says whether
// that closure runs on another thread than the caller (rayon's join_context).
// A closure may use it to adapt, e.g. split its work further only when it
// was stolen. Same results, exceptions and cost as join, plus a thread-local
// read in b.
// Returns join_context_result_t<A, B> (auto, as join).
template <class A, class B>
BOOST_FORKJOIN_FORCEINLINE auto join_context(A&& a, B&& b)
{
    static_assert(std::is_invocable_v<A, fn_context>,
                  "boost::forkjoin::join_context(a, b): a must be callable with a boost::forkjoin::fn_context");
    static_assert(std::is_invocable_v<B, fn_context>,
                  "boost::forkjoin::join_context(a, b): b must be callable with a boost::forkjoin::fn_context");
    if constexpr (std::is_invocable_v<A, fn_context> && std::is_invocable_v<B, fn_context>) {
        if (detail::worker_thread* worker = detail::current_worker)
            return detail::join_context_on_worker(*worker, false, std::forward<A>(a), std::forward<B>(b));
        return detail::join_context_in_global_pool(std::forward<A>(a), std::forward<B>(b));
    }
}

} // namespace boost::forkjoin

#endif // BOOST_FORKJOIN_JOIN_HPP
