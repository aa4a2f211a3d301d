// Copyright 2026 The Boost.ForkJoin developers.
// Distributed under the Boost Software License, Version 1.0.
// (See accompanying file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
#ifndef BOOST_FORKJOIN_EXAMPLE_ASIO_SERVER_HPP
#define BOOST_FORKJOIN_EXAMPLE_ASIO_SERVER_HPP

// A TCP server whose requests are CPU-heavy: each request is a line "<n>",
// the reply is the line "<n> <number of primes below n>". The sockets live
// on an io_context run by I/O threads; every connection is a fiber of a
// Boost.ForkJoin pool that awaits its reads and writes with use_future (the
// fiber parks, its worker computes other requests meanwhile) and counts the
// primes with fj::join, so one request may use every worker.
//
// Also here: a load generator (run_clients) that connects many clients over
// the loopback interface, checks every reply against a sieve, and gives up
// at a deadline instead of hanging. asio_server.cpp and test/asio_test.cpp
// run both.

#include <boost/asio/awaitable.hpp>
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/read_until.hpp>
#include <boost/asio/strand.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/asio/write.hpp>
#include <boost/forkjoin.hpp>
#include <boost/forkjoin/asio.hpp>

#include <atomic>
#include <charconv>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <future>
#include <optional>
#include <string>
#include <system_error>
#include <vector>

namespace example {

namespace asio = boost::asio;
namespace fj = boost::forkjoin;
using tcp = asio::ip::tcp;

// The CPU-heavy part: primes in [lo, hi) by trial division, split with join.
inline std::uint64_t count_primes(std::uint64_t lo, std::uint64_t hi)
{
    if (hi - lo <= 2048) {
        std::uint64_t count = 0;
        for (std::uint64_t n = lo; n < hi; ++n) {
            bool prime = n >= 2;
            for (std::uint64_t d = 2; prime && d * d <= n; ++d)
                prime = n % d != 0;
            count += prime;
        }
        return count;
    }
    std::uint64_t const mid = lo + (hi - lo) / 2;
    auto const [a, b] = fj::join([=] { return count_primes(lo, mid); }, [=] { return count_primes(mid, hi); });
    return a + b;
}

// Requests above this are refused (the reply is "<n> error"): a server
// bounds the work one line may ask for.
inline constexpr std::uint64_t max_request = 1'000'000;

template <class Pool>
class prime_server {
public:
    // Listens on 127.0.0.1, on a port the system picks (see endpoint()).
    prime_server(Pool& pool, asio::io_context& io)
        : pool_(pool), io_(io), acceptor_(io, tcp::endpoint(asio::ip::address_v4::loopback(), 0))
    {
    }

    tcp::endpoint endpoint() const { return acceptor_.local_endpoint(); }

    // Starts accepting: one fiber accepts, and starts one fiber per client.
    void start()
    {
        accepting_ = pool_.spawn_future([this] { accept_loop(); });
    }

    // Stops accepting and waits until every connected client has hung up.
    void stop()
    {
        asio::post(io_, [this] { acceptor_.close(); }); // the acceptor belongs to the I/O threads
        accepting_.get();
    }

    std::size_t requests_served() const noexcept { return served_.load(); }

private:
    void accept_loop()
    {
        std::vector<fj::future<void>> connections; // dropping one would cancel its fiber
        for (;;) {
            std::optional<tcp::socket> socket;
            try {
                // Each connection gets a strand: its handlers never run
                // concurrently on the several I/O threads.
                socket.emplace(fj::await(acceptor_.async_accept(asio::make_strand(io_), fj::use_future)));
            } catch (boost::system::system_error const&) {
                break; // the acceptor was closed (or failed)
            }
            connections.push_back(pool_.spawn_future([this, s = std::move(*socket)]() mutable { serve(s); }));
        }
        for (auto& connection : connections)
            fj::await(connection);
    }

    // One client: read a line, compute, reply, until the client hangs up.
    // No await happens inside a catch block (see future.hpp).
    void serve(tcp::socket& socket)
    {
        std::string input;
        for (;;) {
            std::size_t line_end = 0;
            try {
                line_end = fj::await(asio::async_read_until(socket, asio::dynamic_buffer(input), '\n', fj::use_future));
            } catch (boost::system::system_error const&) {
                return; // end of stream, or the connection failed
            }
            std::string const line = input.substr(0, line_end - 1);
            input.erase(0, line_end);

            std::uint64_t n = 0;
            auto const [end, ec] = std::from_chars(line.data(), line.data() + line.size(), n);
            std::string reply = line + " ";
            if (ec != std::errc{} || end != line.data() + line.size() || n > max_request)
                reply += "error\n";
            else
                reply += std::to_string(count_primes(0, n)) + "\n"; // on this fiber, with joins

            bool written = true;
            try {
                fj::await(asio::async_write(socket, asio::buffer(reply), fj::use_future));
            } catch (boost::system::system_error const&) {
                written = false;
            }
            if (!written)
                return;
            ++served_;
        }
    }

    Pool& pool_;
    asio::io_context& io_;
    tcp::acceptor acceptor_;
    fj::future<void> accepting_;
    std::atomic<std::size_t> served_{0};
};

// --- The load generator -------------------------------------------------------

struct load_result {
    std::size_t clients_finished = 0;
    std::size_t replies_checked = 0;
    std::size_t wrong_replies = 0;
    std::size_t failed_clients = 0; // a connection or I/O error
    bool deadline_passed = false;

    bool ok(std::size_t clients, std::size_t requests_per_client) const noexcept
    {
        return !deadline_passed && failed_clients == 0 && wrong_replies == 0 && clients_finished == clients
            && replies_checked == clients * requests_per_client;
    }
};

// Connects `clients` clients to `server`, all at once, each sending
// `requests` requests one after the other (with n below `max_n`) and
// checking every reply. Runs on an io_context of its own on the calling
// thread, for at most `deadline`.
inline load_result run_clients(tcp::endpoint server, std::size_t clients, std::size_t requests, std::uint64_t max_n,
                               std::chrono::steady_clock::duration deadline)
{
    // The expected answers: primes below n for every n <= max_n.
    std::vector<bool> composite(max_n + 1, false);
    std::vector<std::uint64_t> below(max_n + 1, 0);
    for (std::uint64_t n = 2; n <= max_n; ++n)
        if (!composite[n])
            for (std::uint64_t m = n * n; m <= max_n; m += n)
                composite[m] = true;
    for (std::uint64_t n = 1; n <= max_n; ++n)
        below[n] = below[n - 1] + (n - 1 >= 2 && !composite[n - 1]);

    load_result result;
    asio::io_context io;
    auto client = [&](std::size_t id) -> asio::awaitable<void> {
        tcp::socket socket(io);
        co_await socket.async_connect(server, asio::use_awaitable);
        std::string input;
        std::uint64_t seed = 0x9E3779B97F4A7C15u * (id + 1);
        for (std::size_t i = 0; i < requests; ++i) {
            seed = seed * 6364136223846793005u + 1442695040888963407u;
            std::uint64_t const n = (seed >> 33) % (max_n + 1);
            std::string const request = std::to_string(n) + "\n";
            co_await asio::async_write(socket, asio::buffer(request), asio::use_awaitable);
            std::size_t const line_end =
                co_await asio::async_read_until(socket, asio::dynamic_buffer(input), '\n', asio::use_awaitable);
            std::string const reply = input.substr(0, line_end);
            input.erase(0, line_end);
            ++result.replies_checked;
            if (reply != std::to_string(n) + " " + std::to_string(below[n]) + "\n")
                ++result.wrong_replies;
        }
        ++result.clients_finished;
    };
    for (std::size_t id = 0; id < clients; ++id)
        asio::co_spawn(io, client(id), [&](std::exception_ptr error) {
            if (error)
                ++result.failed_clients;
        });
    io.run_for(deadline);
    result.deadline_passed = !io.stopped();
    return result; // destroying io closes the clients' sockets, if any are left
}

} // namespace example

#endif // BOOST_FORKJOIN_EXAMPLE_ASIO_SERVER_HPP
