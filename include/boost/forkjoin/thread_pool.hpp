// Copyright 2026 The Boost.ForkJoin developers.
// Distributed under the Boost Software License, Version 1.0.
// (See accompanying file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
#ifndef BOOST_FORKJOIN_THREAD_POOL_HPP
#define BOOST_FORKJOIN_THREAD_POOL_HPP

// basic_thread_pool: a handle owning a registry of worker threads whose idle
// behaviour is the SleepPolicy. Destroying the handle waits for the jobs
// spawned into the pool, then joins the workers.

#include <boost/forkjoin/broadcast_context.hpp>
#include <boost/forkjoin/capacity.hpp>
#include <boost/forkjoin/detail/broadcast.hpp>
#include <boost/forkjoin/detail/join.hpp>
#include <boost/forkjoin/detail/registry.hpp>
#include <boost/forkjoin/detail/submit.hpp>
#include <boost/forkjoin/detail/future_fwd.hpp>
#include <boost/forkjoin/lazy_joins.hpp>
#include <boost/forkjoin/pool_options.hpp>
#include <boost/forkjoin/pool_stats.hpp>
#include <boost/forkjoin/sleep/jec.hpp>
#include <boost/forkjoin/sleep_policy.hpp>

#include <cstddef>
#include <memory>
#include <optional>
#include <stdexcept>
#include <type_traits>
#include <utility>

namespace boost::forkjoin {

// The pool's Asio executor. Defined in <boost/forkjoin/asio.hpp>, which a
// program includes to call get_executor(): the core does not depend on Asio.
template <sleep_policy SleepPolicy, bool Tracked = false>
class pool_executor;

template <sleep_policy SleepPolicy, class... Options>
class basic_thread_pool {
    static_assert(((detail::is_pool_option_v<Options> || std::is_same_v<Options, lazy_joins>) && ...),
                  "basic_thread_pool options are deque_capacity<N>, injector_capacity<N> and lazy_joins");

public:
    using sleep_policy_type = SleepPolicy;
    using executor_type = pool_executor<SleepPolicy>;
    static constexpr std::size_t initial_deque_capacity = detail::size_option_v<deque_capacity, 256, Options...>;
    static constexpr std::size_t initial_injector_capacity =
        detail::size_option_v<injector_capacity, 128, Options...>;
    // lazy_joins.hpp: whether this pool's joins publish their second halves
    // only when another worker is idle.
    static constexpr bool has_lazy_joins = (std::is_same_v<Options, lazy_joins> || ...);
    // 2^30 slots are 16 GiB a worker; past 2^62 the rounding up to a power
    // of two would overflow the deque's signed 64-bit indices.
    static_assert(initial_deque_capacity <= std::size_t{1} << 30,
                  "deque_capacity<N>: N is at most 2^30 (the deque grows by itself when it needs more)");

    // Starts the workers (or hands them to options.spawn_handler). Throws
    // too_many_threads if the count exceeds what the policy supports,
    // std::system_error if the OS refuses a thread, and whatever
    // thread_name or spawn_handler throw; the workers already started are
    // stopped first, as by the destructor. With use_current_thread, the
    // calling thread is worker 0 from here until the destructor.
    explicit basic_thread_pool(pool_options options = {})
        : registry_(std::make_shared<detail::registry<SleepPolicy>>(std::move(options), initial_deque_capacity,
                                                                    initial_injector_capacity, has_lazy_joins))
    {
        registry_->start();
    }

    basic_thread_pool(basic_thread_pool const&) = delete;
    basic_thread_pool& operator=(basic_thread_pool const&) = delete;
    basic_thread_pool(basic_thread_pool&&) noexcept = default;
    basic_thread_pool& operator=(basic_thread_pool&&) = delete;

    // Waits for every job spawned into the pool (and those they spawn), then
    // for every worker to leave. Called on one of the pool's own workers (it
    // would wait for itself), or, with use_current_thread, on another thread
    // than worker 0, it says so on stderr and calls std::terminate. In a
    // process forked after the pool was built, it only forgets the pool.
    ~basic_thread_pool()
    {
        if (registry_)
            registry_->shut_down();
    }

    std::size_t num_threads() const noexcept { return registry_->num_threads(); }

    // The fences the deques use: asymmetric, adaptive or symmetric (never
    // automatic), as pool_options::fences asked and the platform allows;
    // symmetric once a membarrier call has failed in this process.
    fence_mode fences() const noexcept { return registry_->fences(); }

    // Runs f on a worker and returns its result, or rethrows its exception.
    // From a worker of this pool, f runs in place; from another pool's
    // worker, that worker keeps running its own pool's jobs while it waits;
    // from any other thread, the caller blocks.
    // (decltype(auto): the body, and with it the static_assert, is
    // instantiated before a caller's use of the result can fail.)
    template <class F>
    decltype(auto) install(F&& f)
    {
        static_assert(std::is_invocable_v<F>,
                      "boost::forkjoin::basic_thread_pool::install(f): f must be callable with no arguments");
        if constexpr (std::is_invocable_v<F>) {
            return detail::install(*registry_, std::forward<F>(f));
        }
    }

    // Runs f some time later on a worker. An exception escaping f goes to
    // pool_options::panic_handler (std::terminate without one). Throws
    // pool_terminated if the pool has finished terminating.
    template <class F>
    void spawn(F&& f)
    {
        static_assert(std::is_invocable_v<std::decay_t<F>&>,
                      "boost::forkjoin::basic_thread_pool::spawn(f): f must be callable with no arguments");
        if constexpr (std::is_invocable_v<std::decay_t<F>&>) {
            detail::spawn(*registry_, std::forward<F>(f), false);
        }
    }

    // As spawn, but jobs spawned by one thread start in the order spawned.
    template <class F>
    void spawn_fifo(F&& f)
    {
        static_assert(std::is_invocable_v<std::decay_t<F>&>,
                      "boost::forkjoin::basic_thread_pool::spawn_fifo(f): f must be callable with no arguments");
        if constexpr (std::is_invocable_v<std::decay_t<F>&>) {
            detail::spawn(*registry_, std::forward<F>(f), true);
        }
    }

    // Runs f on a fiber of a worker and returns its future (see future.hpp).
    // An exception escaping f goes to the future, not to the panic handler.
    // The pool's destructor waits for the task to complete. Throws
    // pool_terminated if the pool has finished terminating.
    template <class F>
    auto spawn_future(F&& f)
    {
        static_assert(std::is_invocable_v<std::decay_t<F>&>,
                      "boost::forkjoin::basic_thread_pool::spawn_future(f): f must be callable with no arguments");
        static_assert(detail::future_header_included<F>,
                      "boost::forkjoin::basic_thread_pool::spawn_future(f): include <boost/forkjoin/future.hpp>, "
                      "which defines boost::forkjoin::future");
        if constexpr (std::is_invocable_v<std::decay_t<F>&> && detail::future_header_included<F>) {
            return detail::spawn_future(*registry_, std::forward<F>(f), nullptr);
        }
    }

    // Runs f(broadcast_context) once on every worker; returns the results by
    // worker index (nothing if f returns void), or rethrows the exception of
    // the lowest-indexed worker that threw, after all have run. A caller that
    // is a worker of any pool runs its own pool's jobs while it waits.
    template <class F>
    auto broadcast(F&& f)
    {
        static_assert(std::is_invocable_v<F&, broadcast_context>, "boost::forkjoin::basic_thread_pool::broadcast(f): "
                                                                   "f must be callable with a boost::forkjoin::broadcast_context");
        if constexpr (std::is_invocable_v<F&, broadcast_context>) {
            return detail::broadcast(*registry_, f);
        }
    }

    // Runs f(broadcast_context) once on every worker, some time later, and
    // returns at once. An exception escaping f goes to the panic_handler
    // (std::terminate without one). The pool's destructor waits for all.
    template <class F>
    void spawn_broadcast(F&& f)
    {
        static_assert(std::is_invocable_v<std::decay_t<F>&, broadcast_context>,
                      "boost::forkjoin::basic_thread_pool::spawn_broadcast(f): "
                      "f must be callable with a boost::forkjoin::broadcast_context");
        if constexpr (std::is_invocable_v<std::decay_t<F>&, broadcast_context>) {
            detail::spawn_broadcast(*registry_, std::forward<F>(f));
        }
    }

    // join(a, b) on a worker of this pool: install([&] { return join(a, b); }).
    template <class A, class B>
    auto join(A&& a, B&& b)
    {
        static_assert(std::is_invocable_v<A>,
                      "boost::forkjoin::basic_thread_pool::join(a, b): a must be callable with no arguments");
        static_assert(std::is_invocable_v<B>,
                      "boost::forkjoin::basic_thread_pool::join(a, b): b must be callable with no arguments");
        if constexpr (std::is_invocable_v<A> && std::is_invocable_v<B>) {
            return install([&] {
                return detail::join_on_worker(*detail::current_worker, std::forward<A>(a), std::forward<B>(b));
            });
        }
    }

    // scope(f) and scope_fifo(f) on a worker of this pool; in_place_scope(f)
    // and in_place_scope_fifo(f) run f on the calling thread with a scope
    // whose jobs go to this pool. Defined in scope.hpp, which this header
    // brings in at its end (it needs the global pool, which needs this class).
    template <class F>
    decltype(auto) scope(F&& f);
    template <class F>
    decltype(auto) scope_fifo(F&& f);
    template <class F>
    decltype(auto) in_place_scope(F&& f);
    template <class F>
    decltype(auto) in_place_scope_fifo(F&& f);

    // The index of the calling thread in this pool, if it is one of its workers.
    std::optional<std::size_t> current_thread_index() const noexcept
    {
        detail::worker_thread* const w = detail::current_worker;
        if (registry_->owns(w))
            return w->index();
        return std::nullopt;
    }

    pool_stats stats() const { return registry_->stats(); }

    // A handle that submits work to this pool, for Boost.Asio (see
    // asio.hpp, which must be included to call this). Cheap to copy; it must
    // not be used after the pool is destroyed.
    executor_type get_executor() noexcept { return executor_type(*registry_); }

    // See boost::forkjoin::mark_blocked. The calling thread must be a worker
    // of this pool.
    void mark_blocked()
    {
        if (!current_thread_index())
            throw std::logic_error("boost::forkjoin::mark_blocked: the caller is not a worker of this pool");
        registry_->mark_blocked();
    }

    // Any thread may mark a blocked worker of this pool unblocked, typically
    // the one that is about to release it.
    void mark_unblocked()
    {
        registry_->check_not_forked_away(); // its lock may be held by a thread of the parent
        registry_->mark_unblocked();
    }

    // For the free functions and tests.
    detail::registry<SleepPolicy>& registry() noexcept { return *registry_; }

private:
    std::shared_ptr<detail::registry<SleepPolicy>> registry_;
};

// The default pool.
using thread_pool = basic_thread_pool<sleep::jec>;

#if !BOOST_FORKJOIN_DEFINE_COMPILED
// Under separate compilation the default pool's construction and its
// registry (the policy's idle loop and notifications) are compiled once,
// in src.hpp.
extern template basic_thread_pool<sleep::jec>::basic_thread_pool(pool_options);
extern template basic_thread_pool<sleep::jec>::~basic_thread_pool();
namespace detail {
extern template class registry<sleep::jec>;
} // namespace detail
#endif

} // namespace boost::forkjoin

// The definitions of the scope members: global_pool.hpp includes scope.hpp
// once it has defined the global pool, whichever of these headers came first.
#include <boost/forkjoin/global_pool.hpp>

#endif // BOOST_FORKJOIN_THREAD_POOL_HPP
