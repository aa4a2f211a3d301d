// Copyright 2026 The Boost.ForkJoin developers.
// Distributed under the Boost Software License, Version 1.0.
// (See accompanying file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)

// The Boost.Asio integration (boost/forkjoin/asio.hpp): the pool's executor
// under asio::post, dispatch, defer, bind_executor, make_strand and
// co_spawn, its work tracking and its exceptions; and the use_future
// completion token with values, errors and cancellations; and the example
// server end to end over the loopback interface.

#define BOOST_TEST_MODULE asio
#include <boost/test/unit_test.hpp>

#include "../example/asio_server.hpp"
#include "child_process.hpp"
#include "panics.hpp"
#include "policies.hpp"
#include "wait_until.hpp"

#include <boost/asio/any_io_executor.hpp>
#include <boost/asio/async_result.hpp>
#include <boost/asio/bind_cancellation_slot.hpp>
#include <boost/asio/bind_executor.hpp>
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/defer.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/dispatch.hpp>
#include <boost/asio/executor_work_guard.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/local/connect_pair.hpp>
#include <boost/asio/local/stream_protocol.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/strand.hpp>
#include <boost/asio/this_coro.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/asio/write.hpp>
#include <boost/forkjoin/asio.hpp>

#include <atomic>
#include <chrono>
#include <future>
#include <memory>
#include <mutex>
#include <optional>
#include <stdexcept>
#include <string>
#include <thread>
#include <tuple>
#include <vector>

namespace asio = boost::asio;
namespace execution = boost::asio::execution;
namespace fj = boost::forkjoin;
namespace utf = boost::unit_test;
using namespace std::chrono_literals;

namespace {

// An io_context and the thread that runs it. With `keep_running`, a work
// guard keeps run() going until the destructor, and the thread starts at
// once. Without, the thread starts at start(), which a test calls once it
// has started the operations it wants pending, and run() returns as soon as
// none is left: run_returns() checks that it did.
class io_thread {
public:
    explicit io_thread(bool keep_running = true)
    {
        if (keep_running) {
            work_.emplace(io.get_executor());
            start();
        }
    }
    ~io_thread()
    {
        work_.reset();
        if (!returned_) // a failed check left work behind: do not hang here
            run_returns(10s);
        io.stop();
        if (thread_.joinable())
            thread_.join();
    }

    void start()
    {
        thread_ = std::thread([this] {
            io.run();
            returned_ = true;
        });
    }

    // Whether run() returned (no work left) within `limit`.
    bool run_returns(std::chrono::milliseconds limit = 10s) const
    {
        auto const deadline = std::chrono::steady_clock::now() + limit;
        while (!returned_ && std::chrono::steady_clock::now() < deadline)
            std::this_thread::sleep_for(1ms);
        return returned_;
    }

    asio::io_context io;

private:
    std::optional<asio::executor_work_guard<asio::io_context::executor_type>> work_;
    std::atomic<bool> returned_{false};
    std::thread thread_;
};

// A made-up asynchronous operation with the signature (error_code, int,
// std::string): it completes at once, through the I/O executor.
template <class Token>
auto async_pair(asio::io_context& io, boost::system::error_code ec, Token&& token)
{
    return asio::async_initiate<Token, void(boost::system::error_code, int, std::string)>(
        [&io, ec](auto handler) {
            asio::post(io, [handler = std::move(handler), ec]() mutable { std::move(handler)(ec, 7, "seven"); });
        },
        token);
}

// The same with signatures that have no error code.
template <class Token>
auto async_nothing(asio::io_context& io, Token&& token)
{
    return asio::async_initiate<Token, void()>(
        [&io](auto handler) { asio::post(io, [handler = std::move(handler)]() mutable { std::move(handler)(); }); },
        token);
}

template <class Token>
auto async_number(asio::io_context& io, Token&& token)
{
    return asio::async_initiate<Token, void(int)>(
        [&io](auto handler) { asio::post(io, [handler = std::move(handler)]() mutable { std::move(handler)(42); }); },
        token);
}

asio::awaitable<int> answer_after(asio::io_context& io, std::chrono::milliseconds delay, bool on_pool_after)
{
    asio::steady_timer timer(io, delay);
    co_await timer.async_wait(asio::use_awaitable);
    // A coroutine resumes on its own executor, the pool, after every await.
    if (on_pool_after && !fj::current_thread_index())
        throw std::logic_error("the coroutine did not resume on the pool");
    co_return 42;
}

asio::awaitable<int> throwing_coroutine()
{
    throw std::runtime_error("from the coroutine");
    co_return 0;
}

// A coroutine that keeps resuming on its executor (each step counted in
// `steps`) until `cancel_called`, then for about 10 ms more, and returns 42;
// or -1 if a cancellation reached it (its next co_await throws
// operation_aborted), caught here, so that no exception crosses threads.
asio::awaitable<int> stepping(std::atomic<int>& steps, std::atomic<bool> const& cancel_called)
{
    auto const ex = co_await asio::this_coro::executor;
    try {
        // Bounded, should the test fail before setting cancel_called.
        auto const deadline = std::chrono::steady_clock::now() + 10s;
        while (!cancel_called && std::chrono::steady_clock::now() < deadline) {
            co_await asio::post(ex, asio::use_awaitable);
            ++steps;
        }
        for (int i = 0; i < 100; ++i) {
            co_await asio::post(ex, asio::use_awaitable);
            std::this_thread::sleep_for(100us);
        }
    } catch (boost::system::system_error const& e) {
        if (e.code() != asio::error::operation_aborted)
            throw;
        co_return -1;
    }
    co_return 42;
}

// An executor that forwards everything to another and counts its live
// copies in `live`: an I/O object made with it shows whether something
// still holds the object's executor (use_future's shared state keeps one).
template <class Inner>
class counting_executor {
public:
    counting_executor(Inner inner, std::atomic<int>& live) noexcept : inner_(std::move(inner)), live_(&live)
    {
        ++*live_;
    }
    counting_executor(counting_executor const& other) noexcept : inner_(other.inner_), live_(other.live_)
    {
        ++*live_;
    }
    counting_executor& operator=(counting_executor const& other) noexcept
    {
        ++*other.live_;
        --*live_;
        inner_ = other.inner_;
        live_ = other.live_;
        return *this;
    }
    ~counting_executor() { --*live_; }

    template <class F>
    void execute(F&& f) const
    {
        inner_.execute(std::forward<F>(f));
    }
    template <class Property>
        requires asio::can_query<Inner const&, Property const&>::value
    decltype(auto) query(Property const& property) const
    {
        return asio::query(inner_, property);
    }
    template <class Property>
        requires asio::can_require<Inner const&, Property const&>::value
    auto require(Property const& property) const
    {
        return wrap(asio::require(inner_, property));
    }
    template <class Property>
        requires asio::can_prefer<Inner const&, Property const&>::value
    auto prefer(Property const& property) const
    {
        return wrap(asio::prefer(inner_, property));
    }

    friend bool operator==(counting_executor const& a, counting_executor const& b) noexcept
    {
        return a.inner_ == b.inner_;
    }

private:
    template <class Other>
    counting_executor<Other> wrap(Other other) const
    {
        return counting_executor<Other>(std::move(other), *live_);
    }

    Inner inner_;
    std::atomic<int>* live_;
};

} // namespace

// --- The executor: concepts and properties -------------------------------------

BOOST_AUTO_TEST_CASE_TEMPLATE(executor_models_the_standard_and_networking_ts_concepts, Policy, test::api_policies)
{
    using executor = typename test::pool<Policy>::executor_type;
    using tracked = fj::pool_executor<Policy, true>;
    static_assert(execution::is_executor<executor>::value);
    static_assert(execution::is_executor<tracked>::value);
    static_assert(asio::is_executor<executor>::value); // the Networking TS form
    static_assert(std::is_convertible_v<executor, asio::any_io_executor>);
    static_assert(std::is_nothrow_copy_constructible_v<executor>);
    static_assert(sizeof(executor) <= 2 * sizeof(void*));

    test::pool<Policy> pool(test::threads(3));
    test::pool<Policy> other(test::threads(1));
    executor const ex = pool.get_executor();

    BOOST_TEST((asio::query(ex, execution::blocking) == execution::blocking.possibly));
    BOOST_TEST((asio::query(ex, execution::relationship) == execution::relationship.fork));
    BOOST_TEST((asio::query(ex, execution::outstanding_work) == execution::outstanding_work.untracked));
    BOOST_TEST((asio::query(ex, execution::mapping) == execution::mapping.thread));
    BOOST_TEST(asio::query(ex, execution::occupancy) == 3u);

    auto const never = asio::require(ex, execution::blocking.never);
    BOOST_TEST((asio::query(never, execution::blocking) == execution::blocking.never));
    auto const always = asio::require(ex, execution::blocking.always);
    BOOST_TEST((asio::query(always, execution::blocking) == execution::blocking.always));
    auto const continuation = asio::require(ex, execution::relationship.continuation);
    BOOST_TEST((asio::query(continuation, execution::relationship) == execution::relationship.continuation));
    auto const work = asio::require(ex, execution::outstanding_work.tracked);
    static_assert(std::is_same_v<decltype(work), tracked const>);
    BOOST_TEST((asio::query(work, execution::outstanding_work) == execution::outstanding_work.tracked));
    auto const untracked = asio::require(work, execution::outstanding_work.untracked);
    BOOST_TEST((untracked == ex));

    // One context per pool, the same for every executor of that pool.
    fj::pool_execution_context& context = asio::query(ex, execution::context);
    BOOST_TEST(&context == &asio::query(never, execution::context));
    BOOST_TEST(&context == &ex.context());
    BOOST_TEST(&context != &asio::query(other.get_executor(), execution::context));
    BOOST_TEST(context.num_threads() == 3u);

    // Equal: same pool and same properties.
    BOOST_TEST((ex == pool.get_executor()));
    BOOST_TEST((ex != never));
    BOOST_TEST((ex != other.get_executor()));
    BOOST_TEST(!ex.running_in_this_thread());
    BOOST_TEST(pool.install([&] { return ex.running_in_this_thread(); }));
    BOOST_TEST(!other.install([&] { return ex.running_in_this_thread(); }));

    // Type-erased, the properties survive.
    asio::any_io_executor const erased = ex;
    BOOST_TEST((asio::query(erased, execution::blocking) == execution::blocking.possibly));
    BOOST_TEST(&asio::query(erased, execution::context) == static_cast<asio::execution_context*>(&context));
}

// --- post, dispatch, defer ---------------------------------------------------------

BOOST_AUTO_TEST_CASE_TEMPLATE(post_dispatch_defer_from_outside_run_on_workers, Policy, test::api_policies)
{
    test::pool<Policy> pool(test::threads(2));
    auto const ex = pool.get_executor();
    std::atomic<int> on_pool{0}, elsewhere{0};
    auto body = [&] { (pool.current_thread_index() ? on_pool : elsewhere)++; };
    for (int i = 0; i < 300; ++i) {
        asio::post(ex, body);
        asio::dispatch(ex, body); // not a worker: queued, not run here
        asio::defer(ex, body);
    }
    BOOST_TEST(test::wait_until([&] { return on_pool + elsewhere == 900; }));
    BOOST_TEST(on_pool.load() == 900);
    BOOST_TEST(elsewhere.load() == 0);
}

BOOST_AUTO_TEST_CASE_TEMPLATE(post_from_a_worker_runs_later_in_order, Policy, test::api_policies)
{
    std::vector<int> order;
    {
        test::pool<Policy> pool(test::threads(1));
        auto const ex = pool.get_executor();
        pool.install([&] {
            for (int i = 0; i < 50; ++i)
                asio::post(ex, [&order, i] { order.push_back(i); });
            // dispatch on a worker runs at once, before the posted ones.
            asio::dispatch(ex, [&order] { order.push_back(-1); });
            for (int i = 50; i < 100; ++i)
                asio::defer(ex, [&order, i] { order.push_back(i); });
            BOOST_TEST(order == std::vector<int>{-1}); // nothing posted has run yet
        });
    } // the destructor waits for the posted functions
    BOOST_REQUIRE(order.size() == 101u);
    for (int i = 0; i < 100; ++i)
        BOOST_TEST(order[static_cast<std::size_t>(i) + 1] == i); // one thread's posts start in order
}

BOOST_AUTO_TEST_CASE_TEMPLATE(blocking_always_returns_after_the_function_ran, Policy, test::api_policies)
{
    test::pool<Policy> pool(test::threads(2));
    test::pool<Policy> other(test::threads(1));
    auto const always = asio::require(pool.get_executor(), execution::blocking.always);
    for (int i = 0; i < 20; ++i) {
        bool ran = false;
        bool on_pool = false;
        always.execute([&] {
            std::this_thread::sleep_for(100us);
            on_pool = pool.current_thread_index().has_value();
            ran = true;
        });
        BOOST_TEST(ran); // from outside
        BOOST_TEST(on_pool);
    }
    // From a worker of another pool, which keeps serving its own pool.
    bool const ran_from_other = other.install([&] {
        bool ran = false;
        always.execute([&] { ran = true; });
        return ran;
    });
    BOOST_TEST(ran_from_other);
    // blocking.never never runs in place, even on a worker. On a one-worker
    // pool, so that only running in place could run it before the closure
    // returns (with two, the other worker may take it at once).
    test::pool<Policy> single(test::threads(1));
    auto const never = asio::require(single.get_executor(), execution::blocking.never);
    std::atomic<bool> ran_later{false};
    bool const ran_in_place = single.install([&] {
        never.execute([&] { ran_later = true; });
        return ran_later.load();
    });
    BOOST_TEST(!ran_in_place);
    BOOST_TEST(test::wait_until([&] { return ran_later.load(); }));
}

BOOST_AUTO_TEST_CASE_TEMPLATE(networking_ts_members, Policy, test::api_policies)
{
    std::atomic<int> done{0};
    {
        test::pool<Policy> pool(test::threads(2));
        auto const ex = pool.get_executor();
        std::allocator<void> const alloc;
        ex.post([&] { ++done; }, alloc);
        ex.defer([&] { ++done; }, alloc);
        ex.dispatch([&] { ++done; }, alloc);
        bool const in_place = pool.install([&] {
            bool ran = false;
            ex.dispatch([&] { ran = true; }, alloc);
            return ran;
        });
        BOOST_TEST(in_place);
        // on_work_started/finished through a work guard.
        auto guard = asio::make_work_guard(ex);
        BOOST_TEST(guard.owns_work());
        guard.reset();
    }
    BOOST_TEST(done.load() == 3);
}

BOOST_AUTO_TEST_CASE_TEMPLATE(bind_executor_and_strands, Policy, test::api_policies)
{
    io_thread io;
    test::pool<Policy> pool(test::threads(2));
    auto const ex = pool.get_executor();

    // An I/O completion delivered to the pool.
    std::promise<bool> on_pool;
    asio::steady_timer timer(io.io, 1ms);
    timer.async_wait(asio::bind_executor(ex, [&](boost::system::error_code ec) {
        on_pool.set_value(!ec && pool.current_thread_index().has_value());
    }));
    BOOST_TEST(on_pool.get_future().get());

    // A strand on the pool: its functions never overlap.
    auto strand = asio::make_strand(ex);
    std::atomic<int> inside{0}, overlaps{0}, done{0};
    for (int i = 0; i < 500; ++i)
        asio::post(strand, [&] {
            if (inside.fetch_add(1) != 0)
                ++overlaps;
            std::this_thread::yield();
            inside.fetch_sub(1);
            ++done;
        });
    BOOST_TEST(test::wait_until([&] { return done == 500; }));
    BOOST_TEST(overlaps.load() == 0);
}

// A function run in place from a fiber (dispatch, blocking.possibly or
// always) runs on the worker's own stack, as any job does, not on the
// fiber's: Asio's per-thread record of the strands running on a thread has
// its entries in the frames that run them. Two strand handlers that wait,
// entered from two fibers of one worker, and released in the order they
// began to wait: on the fibers' stacks, the record was left pointing into
// a finished fiber's stack, and the next strand check crashed.
BOOST_AUTO_TEST_CASE_TEMPLATE(functions_run_in_place_from_fibers_leave_no_strand_behind, Policy, test::api_policies)
{
    test::pool<Policy> pool(test::threads(1));
    auto const s1 = asio::make_strand(pool.get_executor());
    auto const s2 = asio::make_strand(pool.get_executor());
    std::atomic<int> waiting{0};
    auto const dispatch_and_wait = [&](auto const& strand, fj::future<void> released) {
        return pool.spawn_future([&waiting, strand, released = std::move(released)]() mutable {
            asio::dispatch(strand, [&] {
                ++waiting;
                released.get();
            });
        });
    };
    fj::promise<void> p1, p2;
    fj::future<void> t1 = dispatch_and_wait(s1, p1.get_future());
    fj::future<void> t2 = dispatch_and_wait(s2, p2.get_future());
    BOOST_TEST_REQUIRE(test::wait_until([&] { return waiting.load() == 2; }));
    p1.set_value(); // the first to wait is released first
    p2.set_value();
    t1.get();
    t2.get();
    auto const in_a_strand = [&] { return s1.running_in_this_thread() || s2.running_in_this_thread(); };
    BOOST_TEST(!pool.install(in_a_strand));
    // Fibers that write all over the cached stacks those two ran on: all
    // alive at once, so that each has a stack of its own.
    {
        std::vector<fj::promise<void>> gates(3);
        std::vector<fj::future<void>> scribblers;
        std::atomic<int> scribbled{0};
        for (fj::promise<void>& gate : gates)
            scribblers.push_back(pool.spawn_future([&scribbled, opened = gate.get_future()]() mutable {
                volatile unsigned char junk[48 * 1024];
                for (auto& byte : junk)
                    byte = 0x41;
                ++scribbled;
                fj::await(opened);
            }));
        BOOST_TEST_REQUIRE(test::wait_until([&] { return scribbled.load() == 3; }));
        for (fj::promise<void>& gate : gates)
            gate.set_value();
        for (fj::future<void>& f : scribblers)
            f.get();
    }
    BOOST_TEST(!pool.install(in_a_strand));
}

// --- co_spawn --------------------------------------------------------------------------

BOOST_AUTO_TEST_CASE_TEMPLATE(co_spawn_from_outside_and_from_workers, Policy, test::api_policies)
{
    io_thread io;
    test::pool<Policy> pool(test::threads(2));
    auto const ex = pool.get_executor();

    // From outside, with a future for the result.
    BOOST_TEST(asio::co_spawn(ex, answer_after(io.io, 1ms, true), fj::use_future).get() == 42);

    // From a worker, with a plain callback; and from a fiber, awaiting it.
    std::promise<int> from_worker;
    pool.install([&] {
        asio::co_spawn(ex, answer_after(io.io, 1ms, true),
                       [&](std::exception_ptr, int value) { from_worker.set_value(value); });
    });
    BOOST_TEST(from_worker.get_future().get() == 42);
    auto from_fiber =
        pool.spawn_future([&] { return fj::await(asio::co_spawn(ex, answer_after(io.io, 1ms, true), fj::use_future)); });
    BOOST_TEST(from_fiber.get() == 42);

    // The coroutine's exception reaches the future, not the panic handler.
    auto failed = asio::co_spawn(ex, throwing_coroutine(), fj::use_future);
    BOOST_CHECK_THROW(failed.get(), std::runtime_error);
}

// --- Work tracking and shutdown ------------------------------------------------------

BOOST_AUTO_TEST_CASE_TEMPLATE(tracked_work_keeps_the_destructor_waiting, Policy, test::api_policies)
{
    std::atomic<bool> posted_late{false};
    std::atomic<bool> guarded_late{false};
    std::thread holder, guard_holder;
    {
        test::pool<Policy> pool(test::threads(2));
        auto tracked = asio::prefer(pool.get_executor(), execution::outstanding_work.tracked);
        holder = std::thread([t = std::move(tracked), &posted_late] {
            std::this_thread::sleep_for(50ms); // the destructor is waiting by now
            asio::post(t, [&posted_late] { posted_late = true; });
        }); // the thread's copy is released when its function object is destroyed
        auto guard = asio::make_work_guard(pool.get_executor());
        guard_holder = std::thread([g = std::move(guard), &guarded_late]() mutable {
            std::this_thread::sleep_for(50ms);
            asio::post(g.get_executor(), [&guarded_late] { guarded_late = true; });
            g.reset();
        });
    }
    // The destructor returned only after both holders let go, so what they
    // posted has run.
    BOOST_TEST(posted_late.load());
    BOOST_TEST(guarded_late.load());
    holder.join();
    guard_holder.join();
}

BOOST_AUTO_TEST_CASE_TEMPLATE(posts_during_shutdown_run, Policy, test::api_policies)
{
    std::atomic<int> chain{0};
    std::atomic<int> from_outside{0};
    std::thread outsider;
    {
        test::pool<Policy> pool(test::threads(2));
        auto const ex = pool.get_executor();
        // A worker that keeps posting while the destructor waits.
        struct link {
            decltype(ex) executor;
            std::atomic<int>* count;
            void operator()() const
            {
                std::this_thread::sleep_for(100us);
                if (++*count < 200)
                    asio::post(executor, *this);
            }
        };
        asio::post(ex, link{ex, &chain});
        // An outside thread with tracked work posting during the destructor.
        outsider = std::thread([t = asio::prefer(ex, execution::outstanding_work.tracked), &from_outside] {
            for (int i = 0; i < 100; ++i) {
                std::this_thread::sleep_for(100us);
                asio::post(t, [&from_outside] { ++from_outside; });
            }
        });
    }
    BOOST_TEST(chain.load() == 200);
    BOOST_TEST(from_outside.load() == 100);
    outsider.join();
}

BOOST_AUTO_TEST_CASE_TEMPLATE(co_spawn_during_shutdown_is_waited_for, Policy, test::api_policies)
{
    // A job running while the destructor waits starts a coroutine that
    // awaits a timer: co_spawn tracks work on its executor, so the pool
    // stays until the coroutine has finished.
    io_thread io;
    std::atomic<int> result{0};
    {
        test::pool<Policy> pool(test::threads(2));
        auto const ex = pool.get_executor();
        asio::post(ex, [&io, &result, ex] {
            std::this_thread::sleep_for(20ms); // the destructor is waiting by now
            asio::co_spawn(ex, answer_after(io.io, 20ms, true), [&result](std::exception_ptr error, int value) {
                result = error ? -1 : value;
            });
        });
    }
    BOOST_TEST(result.load() == 42);
}

BOOST_AUTO_TEST_CASE_TEMPLATE(submitting_after_termination_throws_pool_terminated, Policy, test::api_policies)
{
    // The exit handler runs after the pool has terminated: nothing it
    // submits could run, so submitting throws instead of losing the work,
    // through a tracked executor too (made there, it holds no work). The
    // handler runs on a worker, where dispatch and a blocking execute would
    // run the function in place: they throw all the same (they ran it
    // before, and a post inside it then went to the panic handler, past
    // the exit handler's catch).
    std::atomic<int> refused{0}, made{0}, ran{0};
    std::mutex mutex;
    std::optional<typename test::pool<Policy>::executor_type> ex;
    fj::pool_options options = test::threads(2);
    options.exit_handler = [&](std::size_t) {
        std::lock_guard const lock(mutex);
        try {
            asio::post(*ex, [] {});
        } catch (fj::pool_terminated const&) {
            ++refused;
        }
        auto const submit_in_place = [&](auto submit) {
            try {
                submit([&] { ++ran; });
            } catch (fj::pool_terminated const&) {
                ++refused;
            }
        };
        submit_in_place([&](auto f) { asio::dispatch(*ex, f); });
        submit_in_place([&](auto f) { asio::dispatch(asio::make_strand(*ex), f); });
        submit_in_place([&](auto f) { asio::require(*ex, execution::blocking.possibly).execute(f); });
        submit_in_place([&](auto f) { asio::require(*ex, execution::blocking.always).execute(f); });
        try {
            auto const tracked = asio::require(*ex, execution::outstanding_work.tracked); // does not throw
            ++made;
            asio::post(tracked, [] {});
        } catch (fj::pool_terminated const&) {
            ++refused;
        }
    };
    {
        test::pool<Policy> pool(options);
        ex.emplace(pool.get_executor());
    }
    BOOST_TEST(refused.load() == 2 * 6);
    BOOST_TEST(made.load() == 2);
    BOOST_TEST(ran.load() == 0);
}

BOOST_AUTO_TEST_CASE_TEMPLATE(work_tracking_after_termination_does_not_throw, Policy, test::api_policies)
{
    // Asio takes outstanding work in noexcept functions (a work guard's
    // constructor, a handler's work), and the Networking TS forbids
    // on_work_started to throw: after the pool has terminated (in its exit
    // handler) they count nothing and do not throw, where a throw would be
    // std::terminate. Submitting through what they give still throws.
    using executor = typename test::pool<Policy>::executor_type;
    using tracked = fj::pool_executor<Policy, true>;
    static_assert(noexcept(std::declval<executor const&>().on_work_started()));
    static_assert(noexcept(asio::require(std::declval<executor const&>(), execution::outstanding_work.tracked)));
    std::atomic<int> checked{0}, refused{0}, unexpected{0};
    std::mutex mutex;
    std::optional<executor> ex;
    fj::pool_options options = test::threads(2);
    options.exit_handler = [&](std::size_t) {
        std::lock_guard const lock(mutex);
        auto expect = [&](bool condition) { unexpected += condition ? 0 : 1; };
        auto expect_refused = [&](auto const& executor) {
            try {
                asio::post(executor, [] {});
                ++unexpected;
            } catch (fj::pool_terminated const&) {
                ++refused;
            }
        };
        try {
            ex->on_work_started(); // counts nothing...
            ex->on_work_finished(); // ...and gives nothing back
            {
                auto guard = asio::make_work_guard(*ex); // on_work_started
                expect(guard.owns_work());
                expect_refused(guard.get_executor());
            }
            auto const required = asio::require(*ex, execution::outstanding_work.tracked);
            auto const preferred = asio::prefer(*ex, execution::outstanding_work.tracked);
            static_assert(std::is_same_v<decltype(required), tracked const>);
            static_assert(std::is_same_v<decltype(preferred), tracked const>);
            expect(asio::query(required, execution::outstanding_work) == execution::outstanding_work.tracked);
            expect(required == preferred);
            expect(asio::require(required, execution::outstanding_work.untracked) == *ex);
            tracked const copy = required;
            expect(copy == required);
            expect_refused(required);
            // Type-erased, as Asio's handler work holds it.
            asio::any_io_executor const erased =
                asio::prefer(asio::any_io_executor(*ex), execution::outstanding_work.tracked);
            expect_refused(erased);
            ++checked;
        } catch (...) {
            ++unexpected;
        }
    };
    {
        test::pool<Policy> pool(options);
        ex.emplace(pool.get_executor());
        // Before termination the same calls count, and give back, as usual.
        ex->on_work_started();
        ex->on_work_finished();
        auto guard = asio::make_work_guard(*ex);
        BOOST_TEST(guard.owns_work());
    } // the guard goes first: the destructor does not wait for it
    BOOST_TEST(checked.load() == 2); // one exit handler per worker
    BOOST_TEST(refused.load() == 6);
    BOOST_TEST(unexpected.load() == 0);
}

// std::exit with a work guard and a tracked executor of the global pool
// still alive on the exiting thread's stack, which exit never unwinds: the
// pool's exit handler does not wait for them (it would wait for ever), but
// still runs what was posted; afterwards, posting throws. Work counted then
// (on_work_started fails, on_work_finished gives nothing back) must not
// give back the units that live executors still hold: one of those, given
// back later, would then go below zero and make the pool take work again.
// The check is an atexit handler registered before the pool exists, so it
// runs after the pool's.
BOOST_AUTO_TEST_CASE(exit_does_not_wait_for_work_guards_left_on_the_exiting_stack)
{
    using tracked_executor = fj::pool_executor<fj::sleep::jec, true>;
    test::child_result const r = test::run_in_child(
        [] {
            static std::atomic<int> ran{0};
            static std::optional<fj::thread_pool::executor_type> ex;
            static tracked_executor* kept = nullptr; // taken before exit, given back after
            test::end_at_exit_by([] {
                for (int i = 0; i < 4; ++i) {
                    ex->on_work_started(); // counts nothing now...
                    ex->on_work_finished(); // ...and gives nothing back
                }
                delete kept;
                bool refused = false;
                try {
                    asio::post(*ex, [] {});
                } catch (fj::pool_terminated const&) {
                    refused = true;
                }
                std::printf("posted before exit and ran: %d of 8, refused after: %d\n", ran.load(), int(refused));
                return ran.load() == 8 && refused;
            });
            ex.emplace(fj::global_pool().get_executor());
            kept = new tracked_executor(asio::require(*ex, execution::outstanding_work.tracked));
            auto guard = asio::make_work_guard(*ex);
            auto const tracked = asio::require(*ex, execution::outstanding_work.tracked);
            for (int i = 0; i < 8; ++i)
                asio::post(tracked, [] {
                    std::this_thread::sleep_for(10ms);
                    ++ran;
                });
            std::exit(0);
        },
        20s);
    BOOST_TEST(r.succeeded(), r);
    BOOST_TEST(r.says("8 of 8, refused after: 1"), r);
}

BOOST_AUTO_TEST_CASE_TEMPLATE(handler_exceptions_go_to_the_panic_handler, Policy, test::api_policies)
{
    std::atomic<int> panics{0};
    fj::pool_options options = test::threads(2);
    options.panic_handler = test::count_panics(panics, "handler");
    {
        test::pool<Policy> pool(options);
        auto const ex = pool.get_executor();
        auto fail = [] { throw std::runtime_error("handler"); };
        asio::post(ex, fail);                                       // queued
        pool.install([&] { asio::dispatch(ex, fail); });            // run in place on a worker
        asio::require(ex, execution::blocking.always).execute(fail); // run while the caller waits
        ex.post(fail, std::allocator<void>());                      // the Networking TS form
        BOOST_TEST(test::wait_until([&] { return panics == 4; }));
        // The pool goes on working.
        BOOST_TEST(pool.install([] { return 1; }) == 1);
    }
    BOOST_TEST(panics.load() == 4);
}

// --- use_future ------------------------------------------------------------------------

BOOST_AUTO_TEST_CASE_TEMPLATE(use_future_delivers_values, Policy, test::api_policies)
{
    io_thread io;
    test::pool<Policy> pool(test::threads(2));

    // (error_code) -> future<void>, waited for outside every pool.
    asio::steady_timer timer(io.io, 1ms);
    fj::future<void> waited = timer.async_wait(fj::use_future);
    waited.get();

    // (error_code, int, std::string) -> a tuple; () -> void; (int) -> int.
    auto pair = async_pair(io.io, {}, fj::use_future);
    static_assert(std::is_same_v<decltype(pair), fj::future<std::tuple<int, std::string>>>);
    BOOST_TEST((pair.get() == std::tuple<int, std::string>(7, "seven")));
    fj::future<void> nothing = async_nothing(io.io, fj::use_future);
    nothing.get();
    fj::future<int> number = async_number(io.io, fj::use_future);
    BOOST_TEST(number.get() == 42);

    // (error_code, std::size_t) from a socket, awaited by a fiber.
    asio::local::stream_protocol::socket a(io.io), b(io.io);
    asio::local::connect_pair(a, b);
    auto read = pool.spawn_future([&] {
        char buffer[16];
        std::size_t const n = fj::await(b.async_read_some(asio::buffer(buffer), fj::use_future));
        return std::string(buffer, n);
    });
    fj::await(asio::async_write(a, asio::buffer(std::string("hello")), fj::use_future));
    BOOST_TEST(read.get() == "hello");
}

BOOST_AUTO_TEST_CASE_TEMPLATE(use_future_parks_the_fiber_while_the_io_thread_works, Policy, test::api_policies)
{
    io_thread io;
    test::pool<Policy> pool(test::threads(1));
    std::atomic<int> meanwhile{0};
    // The timer ends only once the jobs below have run, never by a time the
    // main thread should have spawned them in: on a host that holds this
    // thread up, a 30 ms timer could end first. A worker blocked by the
    // fiber could run none of them, and the test would fail, not hang.
    asio::steady_timer timer(io.io, std::chrono::hours(1));
    auto waited = pool.spawn_future([&] {
        try {
            fj::await(timer.async_wait(fj::use_future));
        } catch (boost::system::system_error const& e) {
            if (e.code() != asio::error::operation_aborted)
                return -1;
        }
        return meanwhile.load();
    });
    // The only worker is free while the fiber waits: these run first.
    for (int i = 0; i < 100; ++i)
        pool.spawn([&] { ++meanwhile; });
    BOOST_TEST(test::wait_until([&] { return meanwhile.load() == 100; }));
    asio::post(io.io, [&timer] { timer.cancel(); }); // the timer belongs to the I/O thread
    BOOST_TEST(waited.get() == 100);
}

BOOST_AUTO_TEST_CASE_TEMPLATE(use_future_errors_are_thrown, Policy, test::api_policies)
{
    io_thread io;
    test::pool<Policy> pool(test::threads(2));

    // An error code becomes a system_error with that code.
    auto failed = async_pair(io.io, asio::error::connection_refused, fj::use_future);
    try {
        failed.get();
        BOOST_ERROR("no exception");
    } catch (boost::system::system_error const& e) {
        BOOST_TEST((e.code() == asio::error::connection_refused));
    }

    // End of stream, seen by a fiber.
    asio::local::stream_protocol::socket a(io.io), b(io.io);
    asio::local::connect_pair(a, b);
    a.close();
    auto eof = pool.spawn_future([&] {
        char buffer[4];
        try {
            fj::await(b.async_read_some(asio::buffer(buffer), fj::use_future));
        } catch (boost::system::system_error const& e) {
            return e.code() == asio::error::eof;
        }
        return false;
    });
    BOOST_TEST(eof.get());

    // A leading exception_ptr is rethrown as it is.
    BOOST_CHECK_THROW(asio::co_spawn(pool.get_executor(), throwing_coroutine(), fj::use_future).get(),
                      std::runtime_error);
}

BOOST_TEST_DECORATOR(*utf::timeout(60))
BOOST_AUTO_TEST_CASE_TEMPLATE(use_future_operation_cancelled_through_its_slot, Policy, test::api_policies)
{
    io_thread io;
    test::pool<Policy> pool(test::threads(2));
    asio::cancellation_signal signal;
    asio::steady_timer timer(io.io, 1h);
    auto waited = pool.spawn_future([&] {
        auto expiry = timer.async_wait(asio::bind_cancellation_slot(signal.slot(), fj::use_future));
        asio::post(io.io, [&] { signal.emit(asio::cancellation_type::terminal); }); // on the timer's thread
        try {
            fj::await(expiry);
        } catch (boost::system::system_error const& e) {
            return e.code() == asio::error::operation_aborted;
        }
        return false;
    });
    BOOST_TEST(waited.get()); // the operation's own cancellation: operation_aborted
}

BOOST_TEST_DECORATOR(*utf::timeout(60))
BOOST_AUTO_TEST_CASE_TEMPLATE(cancelling_or_dropping_the_future_cancels_the_operation, Policy, test::api_policies)
{
    // future::cancel on a pending operation: it is cancelled, and get()
    // says so as for a cancelled task. io.run() returns, so nothing is left
    // pending (the timer would otherwise wait an hour).
    {
        io_thread io(false);
        asio::steady_timer timer(io.io, 1h);
        auto expiry = timer.async_wait(fj::use_future);
        expiry.cancel();
        io.start();
        BOOST_CHECK_THROW(expiry.get(), fj::future_cancelled);
        BOOST_TEST(io.run_returns());
    }
    // Dropping the future while the operation is pending cancels it too.
    {
        io_thread io(false);
        asio::steady_timer timer(io.io, 1h);
        { auto dropped = timer.async_wait(fj::use_future); }
        io.start();
        BOOST_TEST(io.run_returns());
    }
    // A fiber cancelled while it awaits an operation: its await throws
    // future_cancelled, and the operation it awaited is cancelled.
    {
        io_thread io(false);
        test::pool<Policy> pool(test::threads(2));
        asio::steady_timer timer(io.io, 1h);
        std::atomic<bool> waiting{false};
        auto task = pool.spawn_future([&] {
            auto expiry = timer.async_wait(fj::use_future);
            waiting = true;
            fj::await(expiry);
        });
        BOOST_TEST(test::wait_until([&] { return waiting.load(); }));
        io.start();
        task.cancel();
        BOOST_CHECK_THROW(task.get(), fj::future_cancelled);
        BOOST_TEST(io.run_returns());
    }
    // A coroutine on the I/O context reports the cancel as the exception
    // system_error(operation_aborted), not as an error code: get() says
    // future_cancelled all the same.
    {
        io_thread io(false);
        auto sleeper = []() -> asio::awaitable<int> {
            asio::steady_timer timer(co_await asio::this_coro::executor, 1h);
            co_await timer.async_wait(asio::use_awaitable);
            co_return 1;
        };
        fj::future<int> slept = asio::co_spawn(io.io, sleeper(), fj::use_future);
        io.start();
        slept.cancel();
        BOOST_CHECK_THROW(slept.get(), fj::future_cancelled);
        BOOST_TEST(io.run_returns());
    }
    // A cancel that comes after the completion changes nothing.
    {
        io_thread io;
        fj::future<int> number = async_number(io.io, fj::use_future);
        BOOST_TEST(test::wait_until([&] { return number.poll(); }));
        number.cancel();
        BOOST_TEST(number.get() == 42);
    }
}

BOOST_TEST_DECORATOR(*utf::timeout(60))
BOOST_AUTO_TEST_CASE_TEMPLATE(cancelling_a_coroutine_on_the_pool_changes_nothing, Policy, test::api_policies)
{
    // A coroutine co_spawned on the pool resumes on any worker: a
    // cancellation posted to the pool would run beside it, and Asio's
    // cancellation state is not thread-safe. So use_future connects none
    // there, nor on a strand of the pool (co_spawn type-erases the
    // executor): future::cancel changes nothing, and the value arrives.
    test::pool<Policy> pool(test::threads(2));
    auto cancel_while_running = [](auto const& executor, auto token, auto cancel) {
        std::atomic<int> steps{0};
        std::atomic<bool> cancel_called{false};
        auto result = asio::co_spawn(executor, stepping(steps, cancel_called), std::move(token));
        BOOST_TEST(test::wait_until([&] { return steps.load() >= 5; }));
        cancel(result);
        cancel_called = true;
        return result.get();
    };
    auto const by_the_future = [](auto& result) { result.cancel(); };
    BOOST_TEST(cancel_while_running(pool.get_executor(), fj::use_future, by_the_future) == 42);
    auto const strand = asio::make_strand(pool.get_executor());
    BOOST_TEST(cancel_while_running(strand, fj::use_future, by_the_future) == 42);

    // A slot of the caller's own still reaches it, emitted on its strand.
    asio::cancellation_signal signal;
    auto const by_own_slot = [&](auto&) {
        asio::post(strand, [&] { signal.emit(asio::cancellation_type::terminal); });
    };
    BOOST_TEST(cancel_while_running(strand, asio::bind_cancellation_slot(signal.slot(), fj::use_future),
                                    by_own_slot) == -1);
}

BOOST_AUTO_TEST_CASE(a_cancellation_destroyed_unrun_releases_the_state)
{
    // Cancelling or dropping the future of a pending operation posts the
    // cancellation to the I/O object's executor. An io_context destroyed
    // without running (stopped, say) destroys it unrun, and that must give
    // back the shared state's reference. The state holds a copy of the
    // timer's executor, which counts its live copies: once the timer, the
    // io_context and the future are gone, none may be left.
    std::atomic<int> live{0};
    using executor = counting_executor<asio::io_context::executor_type>;
    using timer_type = asio::steady_timer::rebind_executor<executor>::other;
    // future::cancel, then the io_context goes without running.
    {
        fj::future<void> expiry;
        {
            asio::io_context io;
            timer_type timer(executor(io.get_executor(), live), 1h);
            int const timer_only = live.load();
            expiry = timer.async_wait(fj::use_future);
            BOOST_TEST(live.load() > timer_only); // the state's copy, at least
            expiry.cancel();
            io.stop();
        }
        BOOST_TEST(expiry.poll()); // the handler was destroyed unrun
        BOOST_CHECK_THROW(expiry.get(), std::future_error);
    }
    BOOST_TEST(live.load() == 0);
    // The future dropped, then the io_context goes without running.
    {
        asio::io_context io;
        timer_type timer(executor(io.get_executor(), live), 1h);
        int const timer_only = live.load();
        { auto dropped = timer.async_wait(fj::use_future); }
        BOOST_TEST(live.load() > timer_only); // the operation and the posted cancellation hold the state
    }
    BOOST_TEST(live.load() == 0);
}

// The state keeps the I/O object's executor only while the operation is
// pending. A future may outlive its io_context, and an executor destroyed
// after the io_context's services, a strand's say, uses freed memory (ASan:
// heap-use-after-free in ~strand_impl, from the future's get(), before).
// The counting executor shows the copy the state kept, strand or not.
BOOST_AUTO_TEST_CASE(a_finished_operation_leaves_no_executor_in_its_future)
{
    std::atomic<int> live{0};
    using executor = counting_executor<asio::io_context::executor_type>;
    using timer_type = asio::steady_timer::rebind_executor<executor>::other;
    // Completed, then the io_context goes while the future lives.
    {
        fj::future<void> expiry;
        {
            asio::io_context io;
            timer_type timer(executor(io.get_executor(), live), 1ms);
            expiry = timer.async_wait(fj::use_future);
            io.run();
        }
        BOOST_TEST(live.load() == 0);
        BOOST_TEST(expiry.poll());
        expiry.get();
    }
    // Abandoned: the io_context destroyed with the operation pending.
    {
        fj::future<void> expiry;
        {
            asio::io_context io;
            timer_type timer(executor(io.get_executor(), live), 1h);
            expiry = timer.async_wait(fj::use_future);
        }
        BOOST_TEST(live.load() == 0);
        BOOST_CHECK_THROW(expiry.get(), std::future_error);
    }
}

BOOST_AUTO_TEST_CASE(a_handler_destroyed_unrun_breaks_the_promise)
{
    fj::future<void> expiry;
    {
        asio::io_context io; // never run: the handler is destroyed with it
        asio::steady_timer timer(io, 1h);
        expiry = timer.async_wait(fj::use_future);
    }
    try {
        expiry.get();
        BOOST_ERROR("no exception");
    } catch (std::future_error const& e) {
        BOOST_TEST((e.code() == std::future_errc::broken_promise));
    }
}

BOOST_AUTO_TEST_CASE(an_operation_that_fails_to_start_throws_from_the_call)
{
    auto fail_to_start = [](auto&& token) {
        return asio::async_initiate<decltype(token), void(boost::system::error_code, int)>(
            [](auto handler) {
                auto moved = std::move(handler); // the handler is destroyed unrun on the way out
                throw std::length_error("cannot start");
            },
            token);
    };
    BOOST_CHECK_THROW(fail_to_start(fj::use_future), std::length_error);
}

// --- The example server, end to end -------------------------------------------------

BOOST_TEST_DECORATOR(*utf::timeout(120))
BOOST_AUTO_TEST_CASE_TEMPLATE(prime_server_answers_many_concurrent_clients, Policy, test::api_policies)
{
    asio::io_context io;
    auto work = asio::make_work_guard(io);
    std::thread io_threads[] = {std::thread([&] { io.run(); }), std::thread([&] { io.run(); })};

    std::size_t const clients = 32, requests = 6;
    example::load_result result;
    std::size_t served = 0;
    {
        fj::pool_options options = test::threads(2);
        options.fiber_stack_size = 256 * 1024;
        test::pool<Policy> pool(options);
        example::prime_server server(pool, io);
        server.start();
        result = example::run_clients(server.endpoint(), clients, requests, 20'000, 60s);
        server.stop();
        served = server.requests_served();
    }
    work.reset();
    for (auto& t : io_threads)
        t.join();

    BOOST_TEST(!result.deadline_passed);
    BOOST_TEST(result.failed_clients == 0u);
    BOOST_TEST(result.wrong_replies == 0u);
    BOOST_TEST(result.clients_finished == clients);
    BOOST_TEST(result.replies_checked == clients * requests);
    BOOST_TEST(served == clients * requests);
}
