// Copyright 2026 The Boost.ForkJoin developers.
// Distributed under the Boost Software License, Version 1.0.
// (See accompanying file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)

// A fiber in the pool awaits a Boost.Asio steady_timer that completes on an
// io_context thread. The timer is started with the use_future completion
// token, so async_wait returns a boost::forkjoin::future<void>: the fiber
// parks on it, its worker runs other jobs meanwhile, and the timer's
// completion on the I/O thread unparks the fiber back into the pool.

#include <boost/asio/io_context.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/forkjoin.hpp>
#include <boost/forkjoin/asio.hpp>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <thread>
#include <tuple>

namespace asio = boost::asio;
namespace fj = boost::forkjoin;
using namespace std::chrono_literals;

int main()
{
    asio::io_context io;
    auto work = asio::make_work_guard(io);
    std::thread io_thread([&] { io.run(); });

    int status = 0;
    std::atomic<int> other_jobs{0};
    {
        fj::thread_pool pool({.num_threads = 1});

        auto const start = std::chrono::steady_clock::now();
        auto waited = pool.spawn_future([&] {
            auto const before = std::this_thread::get_id();
            asio::steady_timer timer(io, 50ms);
            fj::await(timer.async_wait(fj::use_future)); // the fiber parks here
            auto const elapsed = std::chrono::steady_clock::now() - start;
            // Still on a pool worker (the only one), but the thread_local
            // world may have changed: re-read, never cache, across an await.
            bool const same_thread = before == std::this_thread::get_id();
            return std::tuple{elapsed, same_thread, other_jobs.load()};
        });

        // Meanwhile the single worker is free: these run while the fiber is
        // parked on the timer (all of them, unless this thread is held up
        // for the timer's 50 ms before it has spawned them).
        for (int i = 0; i < 100; ++i)
            pool.spawn([&] { ++other_jobs; });

        auto const [elapsed, same_thread, ran_meanwhile] = waited.get();
        auto const ms = std::chrono::duration_cast<std::chrono::milliseconds>(elapsed).count();
        std::printf("fiber resumed after %lld ms (one worker, so on the same thread: %s); "
                    "%d other jobs ran on that worker meanwhile\n",
                    static_cast<long long>(ms), same_thread ? "yes" : "no", ran_meanwhile);
        if (ms < 50 || !same_thread)
            status = 1;

        // An error code becomes an exception: a timer cancelled while the
        // fiber waits completes with operation_aborted.
        auto cancelled = pool.spawn_future([&] {
            asio::steady_timer timer(io, 1h);
            auto expiry = timer.async_wait(fj::use_future);
            asio::post(io, [&timer] { timer.cancel(); }); // the timer belongs to the I/O thread
            try {
                fj::await(expiry);
            } catch (boost::system::system_error const& e) {
                return e.code() == asio::error::operation_aborted;
            }
            return false;
        });
        bool const aborted = cancelled.get();
        std::printf("a cancelled timer: the await threw operation_aborted: %s\n", aborted ? "yes" : "no");
        if (!aborted)
            status = 1;
    } // the pool's destructor waits for the spawned jobs
    if (other_jobs != 100)
        status = 1;
    work.reset();
    io_thread.join();
    return status;
}
