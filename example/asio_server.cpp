// Copyright 2026 The Boost.ForkJoin developers.
// Distributed under the Boost Software License, Version 1.0.
// (See accompanying file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)

// A TCP server on io_context threads whose CPU-heavy requests run on a
// Boost.ForkJoin pool (asio_server.hpp), and a load test against it over the
// loopback interface: many concurrent clients, every reply checked, a
// deadline instead of a hang.
//
//     asio_server [clients [requests-per-client]]

#include "asio_server.hpp"

#include <boost/asio/io_context.hpp>
#include <boost/forkjoin.hpp>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <thread>
#include <vector>

using namespace std::chrono_literals;

int main(int argc, char** argv)
{
    std::size_t const clients = argc > 1 ? std::strtoul(argv[1], nullptr, 10) : 64;
    std::size_t const requests = argc > 2 ? std::strtoul(argv[2], nullptr, 10) : 16;
    if (clients == 0 || clients > 1000 || requests == 0 || requests > 10000) {
        std::fprintf(stderr, "usage: asio_server [clients (1-1000) [requests per client (1-10000)]]\n");
        return 2;
    }

    boost::asio::io_context io;
    auto work = boost::asio::make_work_guard(io);
    std::vector<std::thread> io_threads;
    for (int i = 0; i < 2; ++i)
        io_threads.emplace_back([&] { io.run(); });

    example::load_result result;
    std::size_t served = 0;
    auto const start = std::chrono::steady_clock::now();
    {
        // Fibers that join run the jobs they find on their own stack: give
        // them room (see pool_options::fiber_stack_size).
        boost::forkjoin::thread_pool pool({.num_threads = 0, .fiber_stack_size = 256 * 1024});
        example::prime_server server(pool, io);
        server.start();
        result = example::run_clients(server.endpoint(), clients, requests, 50'000, 60s);
        server.stop(); // the clients have hung up: run_clients closed them
        served = server.requests_served();
    }
    auto const ms = std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - start);

    work.reset();
    for (auto& t : io_threads)
        t.join();

    std::printf("%zu clients x %zu requests in %lld ms: %zu replies checked, %zu wrong, %zu clients failed%s; "
                "the server answered %zu\n",
                clients, requests, static_cast<long long>(ms.count()), result.replies_checked, result.wrong_replies,
                result.failed_clients, result.deadline_passed ? ", DEADLINE PASSED" : "", served);
    return result.ok(clients, requests) && served == clients * requests ? 0 : 1;
}
