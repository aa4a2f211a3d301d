// Copyright 2026 The Boost.ForkJoin developers.
// Distributed under the Boost Software License, Version 1.0.
// (See accompanying file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)

// Differential fuzzing. The input bytes decode into a small random program
// of joins, scopes, spawns, broadcasts, installs across pools, exceptions
// and yields, plus a pool size and a sleep policy. The program runs on the
// pool and, separately, in a sequential interpreter; their outcomes must
// agree:
//
//  * a node either returns a value or throws, and *whether* it throws does
//    not depend on scheduling (every job runs to completion);
//  * values combine with sums, so their order does not matter;
//  * which exception a node throws may depend on scheduling only where the
//    library says so (a scope rethrows the first one in time), so the
//    interpreter computes the set of exceptions it may throw.
//
// Built with clang: -fsanitize=fuzzer,address,undefined. Crashing inputs
// found are kept in test/fuzz/regressions and replayed by every CI run.

#include "../../example/custom_sleep_policy.hpp"

#include <boost/forkjoin.hpp>

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <variant>
#include <vector>

namespace fj = boost::forkjoin;

namespace {

// --- The program --------------------------------------------------------------

enum class op : std::uint8_t { leaf, join, scope, scope_fifo, fail, yield, install_other, broadcast, count };

struct node {
    op kind = op::leaf;
    std::int64_t value = 0;  // leaf, fail (the exception's id)
    std::vector<node> kids;
};

class decoder {
public:
    decoder(std::uint8_t const* data, std::size_t size) : data_(data), size_(size) {}

    std::uint8_t byte() { return pos_ < size_ ? data_[pos_++] : 0; }

    node parse(int depth)
    {
        node n;
        if (++nodes_ > max_nodes || depth >= max_depth)
            return leaf();
        n.kind = static_cast<op>(byte() % static_cast<std::uint8_t>(op::count));
        switch (n.kind) {
        case op::leaf: return leaf();
        case op::fail: n.value = nodes_; return n;
        case op::join:
            n.kids.push_back(parse(depth + 1));
            n.kids.push_back(parse(depth + 1));
            return n;
        case op::scope:
        case op::scope_fifo:
            for (int k = byte() % 6; k > 0; --k)
                n.kids.push_back(parse(depth + 1));
            return n;
        case op::yield:
        case op::install_other:
        case op::broadcast: n.kids.push_back(parse(depth + 1)); return n;
        case op::count: break;
        }
        return leaf();
    }

private:
    static constexpr int max_nodes = 64;
    static constexpr int max_depth = 7;

    node leaf()
    {
        node n;
        n.value = byte();
        return n;
    }

    std::uint8_t const* data_;
    std::size_t size_;
    std::size_t pos_ = 0;
    int nodes_ = 0;
};

// install_other moves into a second pool of this size.
constexpr std::size_t other_pool_threads = 2;

struct fuzz_error {
    std::int64_t id;
};

// --- The sequential interpreter -------------------------------------------------

struct outcome {
    bool throws = false;
    std::int64_t value = 0;
    std::set<std::int64_t> possible_errors; // when throws
};

outcome interpret(node const& n, std::size_t threads)
{
    switch (n.kind) {
    case op::leaf: return {false, n.value, {}};
    case op::fail: return {true, 0, {n.value}};
    case op::join: {
        // a's exception wins, else b's.
        outcome const a = interpret(n.kids[0], threads);
        outcome const b = interpret(n.kids[1], threads);
        if (a.throws)
            return a;
        if (b.throws)
            return b;
        return {false, a.value + b.value, {}};
    }
    case op::scope:
    case op::scope_fifo: {
        // Every spawned job runs; the first exception in time is rethrown.
        outcome total;
        for (node const& kid : n.kids) {
            outcome const k = interpret(kid, threads);
            if (k.throws) {
                total.throws = true;
                total.possible_errors.insert(k.possible_errors.begin(), k.possible_errors.end());
            } else {
                total.value += k.value;
            }
        }
        if (total.throws)
            total.value = 0;
        return total;
    }
    case op::yield: return interpret(n.kids[0], threads);
    // The kid runs in the other pool: a broadcast there reaches its workers.
    case op::install_other: return interpret(n.kids[0], other_pool_threads);
    case op::broadcast: {
        // Every worker runs the same program; the lowest index's exception.
        outcome k = interpret(n.kids[0], threads);
        if (!k.throws)
            k.value *= static_cast<std::int64_t>(threads);
        return k;
    }
    case op::count: break;
    }
    std::abort();
}

// --- The parallel run -----------------------------------------------------------

struct context {
    fj::basic_thread_pool<fj::sleep::jec>* other; // for install_other
};

std::int64_t run(node const& n, context const& ctx)
{
    switch (n.kind) {
    case op::leaf: return n.value;
    case op::fail: throw fuzz_error{n.value};
    case op::join: {
        auto [a, b] = fj::join([&] { return run(n.kids[0], ctx); }, [&] { return run(n.kids[1], ctx); });
        return a + b;
    }
    case op::scope:
    case op::scope_fifo: {
        // Spawn every kid into the scope and sum what they return.
        std::atomic<std::int64_t> sum{0};
        auto spawn_kids = [&](auto& s) {
            for (node const& kid : n.kids)
                s.spawn([&] { sum += run(kid, ctx); });
        };
        if (n.kind == op::scope)
            fj::scope(spawn_kids);
        else
            fj::scope_fifo(spawn_kids);
        return sum.load();
    }
    case op::yield:
        fj::yield_now();
        return run(n.kids[0], ctx);
    case op::install_other: return ctx.other->install([&] { return run(n.kids[0], ctx); });
    case op::broadcast: {
        std::vector<std::int64_t> const values = fj::broadcast([&](fj::broadcast_context) { return run(n.kids[0], ctx); });
        std::int64_t sum = 0;
        for (std::int64_t v : values)
            sum += v;
        return sum;
    }
    case op::count: break;
    }
    std::abort();
}

} // namespace

// --- The harness ----------------------------------------------------------------

template <class Policy>
void check(node const& program, std::size_t threads)
{
    fj::basic_thread_pool<fj::sleep::jec> other({.num_threads = other_pool_threads});
    fj::basic_thread_pool<Policy> pool({.num_threads = threads});
    outcome const expected = interpret(program, threads);
    context const ctx{&other};
    try {
        std::int64_t const got = pool.install([&] { return run(program, ctx); });
        if (expected.throws) {
            std::fprintf(stderr, "mismatch: returned %lld, expected an exception\n", static_cast<long long>(got));
            std::abort();
        }
        if (got != expected.value) {
            std::fprintf(stderr, "mismatch: returned %lld, expected %lld\n", static_cast<long long>(got),
                         static_cast<long long>(expected.value));
            std::abort();
        }
    } catch (fuzz_error const& e) {
        if (!expected.throws || !expected.possible_errors.contains(e.id)) {
            std::fprintf(stderr, "mismatch: threw %lld, expected %s\n", static_cast<long long>(e.id),
                         expected.throws ? "another exception" : "a value");
            std::abort();
        }
    }
}

extern "C" int LLVMFuzzerTestOneInput(std::uint8_t const* data, std::size_t size)
{
    decoder in(data, size);
    std::uint8_t const policy = in.byte() % 4;
    std::size_t const threads = 1 + in.byte() % 4;
    node const program = in.parse(0);
    switch (policy) {
    case 0: check<fj::sleep::jec>(program, threads); break;
    case 1: check<fj::sleep::legacy>(program, threads); break;
    case 2: check<fj::sleep::spin>(program, threads); break;
    default: check<example::spin_then_backoff>(program, threads); break;
    }
    return 0;
}
