// Copyright 2026 The Boost.ForkJoin developers.
// Distributed under the Boost Software License, Version 1.0.
// (See accompanying file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
#ifndef BOOST_FORKJOIN_ASIO_HPP
#define BOOST_FORKJOIN_ASIO_HPP

// Boost.Asio integration, the one header of the library that includes Asio:
//
//  * pool_executor<P>: what basic_thread_pool<P>::get_executor() returns. A
//    standard executor (boost::asio::execution::executor, with the
//    blocking, relationship, outstanding_work, context, mapping, occupancy
//    and allocator properties) and a Networking TS executor (context,
//    on_work_started/finished, dispatch/post/defer), so that asio::post,
//    dispatch, defer, bind_executor, make_strand and co_spawn work with a
//    pool. It converts to asio::any_io_executor.
//  * pool_execution_context: the asio::execution_context of a pool, the
//    answer to query(ex, execution::context).
//  * use_future: a completion token. An asynchronous operation started with
//    it returns a boost::forkjoin::future, which a fiber awaits (parking)
//    while the operation runs on its I/O thread.
//
// See doc/asio.adoc.

#include <boost/forkjoin/detail/fiber_task.hpp>
#include <boost/forkjoin/detail/registry.hpp>
#include <boost/forkjoin/detail/submit.hpp>
#include <boost/forkjoin/errors.hpp>
#include <boost/forkjoin/future.hpp>
#include <boost/forkjoin/sleep_policy.hpp>
#include <boost/forkjoin/thread_pool.hpp>

#include <boost/asio/any_io_executor.hpp>
#include <boost/asio/async_result.hpp>
#include <boost/asio/cancellation_signal.hpp>
#include <boost/asio/cancellation_type.hpp>
#include <boost/asio/error.hpp>
#include <boost/asio/execution.hpp>
#include <boost/asio/execution_context.hpp>
#include <boost/asio/post.hpp>
#include <boost/system/error_code.hpp>
#include <boost/system/system_error.hpp>

#include <cstddef>
#include <exception>
#include <future>
#include <memory>
#include <mutex>
#include <tuple>
#include <type_traits>
#include <utility>

namespace boost::forkjoin {

// ---------------------------------------------------------------------------
// pool_execution_context
// ---------------------------------------------------------------------------

// The asio::execution_context of a pool: one per pool, built the first time
// an executor is asked for it, destroyed with the pool. Asio keeps its
// services here (a strand's, for make_strand on a pool executor); it is not
// where the pool's threads live. An I/O object built on a pool executor
// makes Asio start a scheduler of its own here, with a thread of its own,
// until the pool is destroyed; build I/O objects on an io_context instead
// and let their handlers run on the pool (bind_executor) (doc/asio.adoc).
class pool_execution_context : public boost::asio::execution_context {
public:
    // Throws std::bad_alloc.
    explicit pool_execution_context(detail::registry_base& registry);

    std::size_t num_threads() const noexcept { return registry_.num_threads(); }

private:
    detail::registry_base& registry_;
};

namespace detail {

// The service that marks an execution_context as a pool's: asking a context
// for a service is how Asio tells contexts apart (use_future needs to know
// whether an operation runs on a pool; see runs_on_a_pool).
class pool_context_marker final : public boost::asio::execution_context::service {
public:
    using key_type = pool_context_marker;
    static inline boost::asio::execution_context::id id;

    explicit pool_context_marker(boost::asio::execution_context& context) : service(context) {}

private:
    void shutdown() override {}
};

} // namespace detail

inline pool_execution_context::pool_execution_context(detail::registry_base& registry) : registry_(registry)
{
    boost::asio::make_service<detail::pool_context_marker>(*this);
}

// ---------------------------------------------------------------------------
// pool_executor
// ---------------------------------------------------------------------------

// A handle that submits function objects to a pool: two words, cheap to
// copy. What execute(f) does depends on the blocking property:
//
//   blocking.possibly (the default)  on a worker of the pool, f runs at once
//                                    on the caller; elsewhere as never.
//   blocking.never                   f is queued and runs later on a worker:
//                                    as spawn_fifo, so the functions one
//                                    thread submits start in that order.
//   blocking.always                  f runs before execute returns: on the
//                                    caller if it is a worker of the pool,
//                                    else as install(f).
//
// Whatever the mode, an exception escaping f goes to the pool's
// panic_handler (std::terminate without one), as for spawn. Submitting to a
// pool that has terminated throws pool_terminated.
//
// relationship.continuation is answered truthfully but schedules as fork: a
// function queued from a worker goes on that worker's own deque, where it
// runs next on that worker unless an idle one steals it, which suits both.
//
// outstanding_work.tracked (the type pool_executor<P, true>) holds the
// pool's activity count as a spawned job does, from construction to
// destruction: the pool's destructor waits for every tracked executor, as
// io_context::run waits for a work guard. Made from a pool that has
// terminated, it holds nothing (there is nothing left to keep alive) and
// does not throw: Asio requires and prefers outstanding_work.tracked in
// noexcept functions (a handler's work, a work guard). Submitting through
// it then throws pool_terminated, as through any executor of that pool.
template <sleep_policy SleepPolicy, bool Tracked>
class pool_executor {
    // The property bits: the blocking mode in the low two, the relationship
    // above them. Outstanding work is the type's, as in Asio's own pools, so
    // that copying an untracked executor is a plain copy.
    enum : unsigned {
        blocking_possibly = 0,
        blocking_never = 1,
        blocking_always = 2,
        blocking_mask = 3,
        relationship_continuation = 4,
        // Not a property: a tracked executor made once the pool had
        // terminated, which holds no unit of its activity count.
        holds_no_work = 8,
    };

public:
    using registry_type = detail::registry<SleepPolicy>;

    // For basic_thread_pool::get_executor(). Tracked executors are made
    // with require, which can say that the pool has terminated.
    explicit pool_executor(registry_type& registry) noexcept
        requires(!Tracked)
        : pool_executor(&registry, 0)
    {
    }

    pool_executor(pool_executor const& other) noexcept : pool_executor(other.registry_, other.bits_) {}

    pool_executor(pool_executor&& other) noexcept : registry_(other.registry_), bits_(other.bits_)
    {
        if constexpr (Tracked)
            other.registry_ = nullptr; // the count moves with the handle
    }

    pool_executor& operator=(pool_executor const& other) noexcept
    {
        if (this != &other) {
            pool_executor copy(other);
            swap(copy);
        }
        return *this;
    }

    pool_executor& operator=(pool_executor&& other) noexcept
    {
        pool_executor moved(std::move(other));
        swap(moved);
        return *this;
    }

    ~pool_executor()
    {
        if constexpr (Tracked)
            if (registry_ != nullptr && (bits_ & holds_no_work) == 0)
                registry_->release_tracked_work();
    }

    // --- Properties (called through asio::require, prefer and query) -------

    pool_executor require(boost::asio::execution::blocking_t::possibly_t) const
    {
        return pool_executor(registry_, (bits_ & ~blocking_mask) | blocking_possibly);
    }
    pool_executor require(boost::asio::execution::blocking_t::never_t) const
    {
        return pool_executor(registry_, (bits_ & ~blocking_mask) | blocking_never);
    }
    pool_executor require(boost::asio::execution::blocking_t::always_t) const
    {
        return pool_executor(registry_, (bits_ & ~blocking_mask) | blocking_always);
    }
    pool_executor require(boost::asio::execution::relationship_t::fork_t) const
    {
        return pool_executor(registry_, bits_ & ~relationship_continuation);
    }
    pool_executor require(boost::asio::execution::relationship_t::continuation_t) const
    {
        return pool_executor(registry_, bits_ | relationship_continuation);
    }
    // Made from a pool that has terminated, the tracked executor holds no
    // work (see the class comment).
    pool_executor<SleepPolicy, true> require(boost::asio::execution::outstanding_work_t::tracked_t) const noexcept
    {
        return pool_executor<SleepPolicy, true>(registry_, bits_);
    }
    pool_executor<SleepPolicy, false> require(boost::asio::execution::outstanding_work_t::untracked_t) const noexcept
    {
        return pool_executor<SleepPolicy, false>(registry_, bits_);
    }

    boost::asio::execution::blocking_t query(boost::asio::execution::blocking_t) const noexcept
    {
        switch (bits_ & blocking_mask) {
        case blocking_never:
            return boost::asio::execution::blocking.never;
        case blocking_always:
            return boost::asio::execution::blocking.always;
        default:
            return boost::asio::execution::blocking.possibly;
        }
    }

    boost::asio::execution::relationship_t query(boost::asio::execution::relationship_t) const noexcept
    {
        if (bits_ & relationship_continuation)
            return boost::asio::execution::relationship.continuation;
        return boost::asio::execution::relationship.fork;
    }

    static constexpr boost::asio::execution::outstanding_work_t
    query(boost::asio::execution::outstanding_work_t) noexcept
    {
        if constexpr (Tracked)
            return boost::asio::execution::outstanding_work.tracked;
        else
            return boost::asio::execution::outstanding_work.untracked;
    }

    // Every function runs on one of the pool's threads.
    static constexpr boost::asio::execution::mapping_t query(boost::asio::execution::mapping_t) noexcept
    {
        return boost::asio::execution::mapping.thread;
    }

    // The pool's context, built on first use (so this may throw
    // std::bad_alloc once).
    pool_execution_context& query(boost::asio::execution::context_t) const { return context(); }

    // The number of workers.
    std::size_t query(boost::asio::execution::occupancy_t) const noexcept { return registry_->num_threads(); }

    // Jobs are allocated with new.
    template <class Allocator>
    constexpr std::allocator<void> query(boost::asio::execution::allocator_t<Allocator>) const noexcept
    {
        return {};
    }

    // --- Submitting work ------------------------------------------------------

    // Runs f as the blocking property says (see the class comment). Throws
    // pool_terminated if the pool has terminated, std::bad_alloc.
    template <class F>
    void execute(F&& f) const
    {
        registry_type& registry = *registry_;
        unsigned const blocking = bits_ & blocking_mask;
        if (blocking != blocking_never && running_in_this_thread()) {
            registry.refuse_work_on_a_leaving_worker(*detail::current_worker);
            run_in_place(registry, std::decay_t<F>(std::forward<F>(f)));
            return;
        }
        if (blocking == blocking_always) {
            std::decay_t<F> function(std::forward<F>(f));
            detail::install(registry, [&registry, &function] { run_in_place(registry, std::move(function)); });
            return;
        }
        detail::spawn(registry, std::forward<F>(f), true);
    }

    // True on the pool's workers (and on fibers running on them).
    bool running_in_this_thread() const noexcept { return registry_->owns(detail::current_worker); }

    // --- The Networking TS executor requirements ------------------------------

    pool_execution_context& context() const
    {
        return registry_->template extension<pool_execution_context>(
            [registry = registry_] { return std::make_shared<pool_execution_context>(*registry); });
    }

    // Counts one unit of outstanding work, as a tracked executor does; on a
    // pool that has terminated, counts nothing (the Networking TS requires
    // both not to throw, and Asio calls them from noexcept functions), and
    // the matching on_work_finished then gives nothing back.
    void on_work_started() const noexcept { (void)registry_->try_acquire_tracked_work(); }
    void on_work_finished() const noexcept { registry_->release_tracked_work_if_taken(); }

    // On a worker of the pool, f runs at once; elsewhere as post. Throws
    // as post does (pool_terminated in an exit_handler, in place or not).
    // The allocator is not used (jobs are allocated with new).
    template <class F, class Allocator>
    void dispatch(F&& f, Allocator const&) const
    {
        if (running_in_this_thread()) {
            registry_->refuse_work_on_a_leaving_worker(*detail::current_worker);
            run_in_place(*registry_, std::decay_t<F>(std::forward<F>(f)));
        } else
            detail::spawn(*registry_, std::forward<F>(f), true);
    }

    // Queues f, as spawn_fifo.
    template <class F, class Allocator>
    void post(F&& f, Allocator const&) const
    {
        detail::spawn(*registry_, std::forward<F>(f), true);
    }

    // As post: a function queued from a worker runs next on that worker
    // unless another steals it, which is what a continuation wants.
    template <class F, class Allocator>
    void defer(F&& f, Allocator const&) const
    {
        detail::spawn(*registry_, std::forward<F>(f), true);
    }

    // Equal if they submit to the same pool with the same properties.
    friend bool operator==(pool_executor const& a, pool_executor const& b) noexcept
    {
        return a.registry_ == b.registry_ && (a.bits_ & ~holds_no_work) == (b.bits_ & ~holds_no_work);
    }

private:
    template <sleep_policy, bool>
    friend class pool_executor;

    // The tracked form takes a unit of the activity count, or, if the pool
    // has terminated, marks itself as holding none.
    pool_executor(registry_type* registry, unsigned bits) noexcept
        : registry_(registry), bits_(bits & ~holds_no_work)
    {
        if constexpr (Tracked)
            if (registry_ != nullptr && !registry_->try_acquire_tracked_work())
                bits_ |= holds_no_work;
    }

    void swap(pool_executor& other) noexcept
    {
        std::swap(registry_, other.registry_);
        std::swap(bits_, other.bits_);
    }

    // Runs f on this thread; its exception goes to the panic handler.
    template <class Function>
    static void run_here(registry_type& registry, Function&& f) noexcept
    {
        try {
            std::move(f)();
        } catch (...) {
            registry.handle_panic(std::current_exception());
        }
    }

    // Runs f now on this worker of `registry`, as a job: worker_thread::
    // execute runs it on the worker's own stack, and on a fiber the fiber
    // hands it over. Asio keeps per-thread stacks of what runs on a thread
    // (a strand's, above all: running_in_this_thread), whose entries live
    // in the frames that run f. A fiber that parked inside f would leave
    // its entry in the thread's stack while other fibers of the worker push
    // and pop theirs, out of order, and the thread would be left pointing
    // into a fiber stack that is gone. On the worker's stack, everything
    // nests.
    template <class Function>
    static void run_in_place(registry_type& registry, Function&& f) noexcept
    {
        struct call {
            registry_type* registry;
            Function* function;
            static void run(void* self) noexcept
            {
                call& c = *static_cast<call*>(self);
                run_here(*c.registry, std::move(*c.function));
            }
        } c{&registry, &f};
        detail::current_worker->execute(detail::job_ref{&call::run, &c});
    }

    registry_type* registry_;
    unsigned bits_;
};

// ---------------------------------------------------------------------------
// use_future
// ---------------------------------------------------------------------------

// The completion token: `op(args..., use_future)` returns a future<T>.
struct use_future_t {
    constexpr use_future_t() noexcept = default;
};

inline constexpr use_future_t use_future{};

namespace detail {

// Whether `executor` runs its functions on a pool: one of the pool's own,
// or a strand of one, type-erased or not (co_spawn erases the executor it is
// given into the awaitable's).
inline bool runs_on_a_pool(boost::asio::any_io_executor const& executor)
{
    if (!executor)
        return false;
    boost::asio::execution_context& context =
        boost::asio::query(executor, boost::asio::execution::context_as<boost::asio::execution_context&>);
    return boost::asio::has_service<pool_context_marker>(context);
}

// What a completion signature's arguments after the error become: nothing
// (void), one value, or a tuple of them.
template <class... Values>
struct completion_value {
    using type = std::tuple<std::decay_t<Values>...>;
};
template <>
struct completion_value<> {
    using type = void;
};
template <class Value>
struct completion_value<Value> {
    using type = std::decay_t<Value>;
};

// How the arguments of a completion signature map onto a future: a leading
// error_code or exception_ptr is the error channel, the rest the value.
template <class... Args>
struct use_future_completion {
    using value_type = typename completion_value<Args...>::type;
    static constexpr bool has_error = false;
};

template <class First, class... Rest>
    requires std::is_same_v<std::decay_t<First>, boost::system::error_code>
          || std::is_same_v<std::decay_t<First>, std::exception_ptr>
struct use_future_completion<First, Rest...> {
    using value_type = typename completion_value<Rest...>::type;
    static constexpr bool has_error = true;
};

// The shared state of a future made by use_future: the operation's result,
// and what it takes to cancel the operation when the future is cancelled or
// dropped while pending (future::cancel calls cancel() below).
//
// Cancelling emits cancellation_type::terminal on the signal whose slot the
// completion handler carries. Asio's per-operation cancellation is not
// thread-safe, so the emission is posted to the executor of the I/O object
// that started the operation (every Asio initiation names one), and the
// mutex orders it with the completion: once the handler has run, the
// operation's cancellation handler may refer to freed state and must not be
// called. The mutex is recursive because an operation may complete from
// inside its own cancellation handler, on the emitting thread.
//
// The executor is kept only while the operation is pending. The future may
// outlive the io_context, and a strand's executor, destroyed after the
// io_context has destroyed its strand service, would use that freed service.
template <class T>
class use_future_state final : public result_state<T> {
public:
    // Two references: the future's and the completion handler's.
    use_future_state() noexcept : result_state<T>(2) {}

    // Called once, before the operation starts.
    template <class Executor>
    void set_cancellation_executor(Executor const& executor)
    {
        executor_ = executor;
        cancellable_ = true;
    }

    // The slot the completion handler offers the operation: connected only
    // when a cancellation can reach it.
    boost::asio::cancellation_slot slot() noexcept
    {
        return cancellable_ ? signal_.slot() : boost::asio::cancellation_slot();
    }

    void cancel() noexcept override
    {
        boost::asio::any_io_executor executor;
        {
            std::lock_guard const lock(mutex_);
            if (completed_ || cancel_requested_ || !executor_)
                return;
            cancel_requested_ = true;
            executor = executor_; // the completion may reset executor_ meanwhile
        }
        this->add_ref(); // the posted emission's, given back by its destructor
        try {
            boost::asio::post(executor, emission(this));
        } catch (...) {
            // The executor is gone or out of memory (the emission was
            // destroyed, and gave its reference back): the operation cannot
            // be reached and completes on its own.
        }
    }

    // The completion: the handler's arguments.
    template <class... Args>
    void complete(Args&&... args) noexcept
    {
        bool cancelled;
        boost::asio::any_io_executor executor; // destroyed outside the lock
        {
            std::lock_guard const lock(mutex_);
            completed_ = true;
            cancelled = cancel_requested_;
            executor = std::move(executor_);
        }
        try {
            store(cancelled, std::forward<Args>(args)...);
        } catch (...) {
            this->error_ = std::current_exception(); // copying the value failed
        }
        this->mark_complete();
    }

    // The handler was destroyed without being called (its io_context was
    // destroyed first): as a promise that is never satisfied.
    void abandon() noexcept
    {
        boost::asio::any_io_executor executor; // destroyed while the io_context's services still exist
        {
            std::lock_guard const lock(mutex_);
            completed_ = true;
            executor = std::move(executor_);
        }
        this->error_ = std::make_exception_ptr(std::future_error(std::future_errc::broken_promise));
        this->mark_complete();
    }

private:
    // The function posted by cancel(): it owns a reference to the state, and
    // gives it back when destroyed, whether it ran or not (an io_context
    // stopped or destroyed first destroys what is queued without running it).
    class emission {
    public:
        explicit emission(use_future_state* state) noexcept : state_(state) {}
        emission(emission&& other) noexcept : state_(std::exchange(other.state_, nullptr)) {}
        emission& operator=(emission&&) = delete;
        ~emission()
        {
            if (state_ != nullptr)
                state_->release();
        }
        void operator()() const { state_->emit(); }

    private:
        use_future_state* state_;
    };

    template <class... Values>
    void store_value(Values&&... values)
    {
        if constexpr (sizeof...(Values) > 1)
            this->value_.emplace(std::tuple<std::decay_t<Values>...>(std::forward<Values>(values)...));
        else
            this->value_.emplace(std::forward<Values>(values)...);
    }

    void store(bool) { store_value(); }

    template <class First, class... Rest>
    void store(bool cancelled, First&& first, Rest&&... rest)
    {
        using first_type = std::decay_t<First>;
        if constexpr (std::is_same_v<first_type, boost::system::error_code>) {
            if (!first)
                store_value(std::forward<Rest>(rest)...);
            else if (cancelled && first == boost::asio::error::operation_aborted)
                this->error_ = std::make_exception_ptr(future_cancelled()); // our own cancel
            else
                this->error_ = std::make_exception_ptr(boost::system::system_error(first));
        } else if constexpr (std::is_same_v<first_type, std::exception_ptr>) {
            if (!first)
                store_value(std::forward<Rest>(rest)...);
            else if (cancelled && is_operation_aborted(first))
                this->error_ = std::make_exception_ptr(future_cancelled()); // our own cancel, as a coroutine reports it
            else
                this->error_ = std::forward<First>(first);
        } else {
            store_value(std::forward<First>(first), std::forward<Rest>(rest)...);
        }
    }

    // Whether `error` is the system_error(operation_aborted) that a
    // coroutine (co_spawn) throws out of an operation that was cancelled.
    static bool is_operation_aborted(std::exception_ptr const& error) noexcept
    {
        try {
            std::rethrow_exception(error);
        } catch (boost::system::system_error const& e) {
            return e.code() == boost::asio::error::operation_aborted;
        } catch (...) {
            return false;
        }
    }

    void emit()
    {
        std::lock_guard const lock(mutex_);
        if (!completed_)
            signal_.emit(boost::asio::cancellation_type::terminal);
    }

    std::recursive_mutex mutex_;
    bool completed_ = false;
    bool cancel_requested_ = false;
    bool cancellable_ = false; // an executor was given; set before the operation starts
    boost::asio::any_io_executor executor_; // empty: none was given, or the operation is over
    boost::asio::cancellation_signal signal_;
};

template <class Signature>
class use_future_handler;

// The completion handler that use_future passes to the operation. Move-only;
// called at most once.
template <class... Args>
class use_future_handler<void(Args...)> {
public:
    using state_type = use_future_state<typename use_future_completion<Args...>::value_type>;
    using cancellation_slot_type = boost::asio::cancellation_slot;

    // Adopts one reference.
    explicit use_future_handler(state_type* state) noexcept : state_(state) {}
    use_future_handler(use_future_handler&& other) noexcept : state_(std::exchange(other.state_, nullptr)) {}
    use_future_handler& operator=(use_future_handler&&) = delete;

    ~use_future_handler()
    {
        if (state_ != nullptr) {
            state_->abandon();
            state_->release();
        }
    }

    cancellation_slot_type get_cancellation_slot() const noexcept
    {
        return state_ != nullptr ? state_->slot() : cancellation_slot_type();
    }

    void operator()(Args... args)
    {
        state_type* const state = std::exchange(state_, nullptr);
        state->complete(std::move(args)...);
        state->release();
    }

private:
    state_type* state_;
};

} // namespace detail

} // namespace boost::forkjoin

namespace boost::asio {

// An operation started with forkjoin::use_future returns a
// forkjoin::future<T>: T is void for a (error_code) signature, R for
// (error_code, R), a std::tuple for more values; a leading exception_ptr is
// an error channel too. A non-zero error_code is thrown as
// boost::system::system_error by the future's get (or await).
template <class... Args>
class async_result<forkjoin::use_future_t, void(Args...)> {
    using handler_type = forkjoin::detail::use_future_handler<void(Args...)>;
    using state_type = typename handler_type::state_type;
    using value_type = typename forkjoin::detail::use_future_completion<Args...>::value_type;

public:
    using return_type = forkjoin::future<value_type>;

    template <class Initiation, class... InitArgs>
    static return_type initiate(Initiation&& initiation, forkjoin::use_future_t, InitArgs&&... args)
    {
        // Both references are owned before anything can throw: if the
        // operation is never started, the handler's destructor completes the
        // state and the future's releases it.
        auto* const state = new state_type();
        return_type result = forkjoin::detail::future_access::adopt<value_type>(state);
        handler_type handler(state);
        // The I/O object's executor, to which future::cancel posts the
        // cancellation (see use_future_state). Not one that runs on a pool:
        // an operation there (a coroutine co_spawned on the pool) runs on
        // several threads, a cancellation posted to the pool would run beside
        // it on another worker, and Asio's cancellation state is not
        // thread-safe. A strand of the pool would order the two, but it
        // cannot be told apart once type-erased, as co_spawn erases it; so
        // such an operation is left to a slot of the caller's own.
        if constexpr (requires { initiation.get_executor(); }) {
            if constexpr (std::is_convertible_v<decltype(initiation.get_executor()), any_io_executor>) {
                any_io_executor executor = initiation.get_executor();
                if (!forkjoin::detail::runs_on_a_pool(executor))
                    state->set_cancellation_executor(std::move(executor));
            }
        }
        std::forward<Initiation>(initiation)(std::move(handler), std::forward<InitArgs>(args)...);
        return result;
    }
};

} // namespace boost::asio

#endif // BOOST_FORKJOIN_ASIO_HPP
