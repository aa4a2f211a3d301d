// Copyright 2026 The Boost.ForkJoin developers.
// Distributed under the Boost Software License, Version 1.0.
// (See accompanying file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)

// A fiber in the pool awaits a Boost.Asio steady_timer that completes on an
// io_context thread. While the fiber is parked its worker runs other jobs;
// the timer's handler, on the I/O thread, fulfils a promise, which unparks
// the fiber back into the pool.

#include <boost/asio/io_context.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/forkjoin.hpp>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <memory>
#include <thread>
#include <tuple>

namespace asio = boost::asio;
namespace fj = boost::forkjoin;
using namespace std::chrono_literals;

// A future that becomes ready when a timer on `io` expires. The handler runs
// on the io_context's thread; set_value is callable from any thread.
fj::future<void> sleep_for(asio::io_context& io, std::chrono::steady_clock::duration d)
{
    auto timer = std::make_shared<asio::steady_timer>(io, d);
    auto done = std::make_shared<fj::promise<void>>();
    fj::future<void> result = done->get_future();
    timer->async_wait([timer, done](boost::system::error_code const& ec) {
        if (ec)
            done->set_exception(std::make_exception_ptr(boost::system::system_error(ec)));
        else
            done->set_value();
    });
    return result;
}

int main()
{
    asio::io_context io;
    auto work = asio::make_work_guard(io);
    std::thread io_thread([&] { io.run(); });

    int status = 0;
    {
        fj::thread_pool pool({.num_threads = 1});
        std::atomic<int> other_jobs{0};

        auto const start = std::chrono::steady_clock::now();
        auto waited = pool.spawn_future([&] {
            auto const before = std::this_thread::get_id();
            fj::await(sleep_for(io, 50ms)); // the fiber parks here
            auto const elapsed = std::chrono::steady_clock::now() - start;
            // Still on a pool worker (the only one), but the thread_local
            // world may have changed: re-read, never cache, across an await.
            bool const same_thread = before == std::this_thread::get_id();
            return std::tuple{elapsed, same_thread, other_jobs.load()};
        });

        // Meanwhile the single worker is free: these run while the fiber is
        // parked on the timer.
        for (int i = 0; i < 100; ++i)
            pool.spawn([&] { ++other_jobs; });

        auto const [elapsed, same_thread, ran_meanwhile] = waited.get();
        auto const ms = std::chrono::duration_cast<std::chrono::milliseconds>(elapsed).count();
        std::printf("fiber resumed after %lld ms (one worker, so on the same thread: %s); "
                    "%d other jobs ran on that worker meanwhile\n",
                    static_cast<long long>(ms), same_thread ? "yes" : "no", ran_meanwhile);
        if (ms < 50 || ran_meanwhile != 100)
            status = 1;
    }
    work.reset();
    io_thread.join();
    return status;
}
