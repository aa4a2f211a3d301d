// Copyright 2026 The Boost.ForkJoin developers.
// Distributed under the Boost Software License, Version 1.0.
// (See accompanying file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)

// The Chase-Lev deque alone: one owner pushing and popping, several thieves
// stealing, every item taken exactly once.

#define BOOST_TEST_MODULE deque
#include <boost/test/unit_test.hpp>

#include <boost/forkjoin/detail/chase_lev_deque.hpp>

#include <atomic>
#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>
#include <thread>
#include <vector>

using boost::forkjoin::detail::chase_lev_deque;
using boost::forkjoin::fence_mode;
using boost::forkjoin::detail::asymmetric_fences_available;
using boost::forkjoin::detail::job_ref;

namespace {

// Items are encoded in the data word; the entry point is never called.
void never_called(void*) noexcept { std::abort(); }

job_ref item(std::uintptr_t i) { return {&never_called, reinterpret_cast<void*>(i)}; }
std::uintptr_t value(job_ref j) { return reinterpret_cast<std::uintptr_t>(j.data); }

} // namespace

BOOST_AUTO_TEST_CASE(owner_alone_is_lifo_and_thief_alone_is_fifo)
{
    chase_lev_deque deque(2); // small, to exercise growth
    for (std::uintptr_t i = 1; i <= 100; ++i)
        deque.push(item(i));
    BOOST_TEST(deque.size() == 100u);
    BOOST_TEST(deque.capacity() >= 100u);
    BOOST_TEST(value(*deque.pop()) == 100u);
    auto const stolen = deque.steal();
    BOOST_TEST((stolen.status == chase_lev_deque::steal_status::success));
    BOOST_TEST(value(stolen.job) == 1u);
    for (std::uintptr_t i = 99; i >= 2; --i)
        BOOST_TEST(value(*deque.pop()) == i);
    BOOST_TEST(!deque.pop());
    BOOST_TEST((deque.steal().status == chase_lev_deque::steal_status::empty));
}

namespace {

// One owner pushing bursts and popping part of each, `thieves` thieves
// stealing all along: every item must be taken exactly once. Returns how
// many pops the owner made while its deque fenced (adaptive mode moves in
// and out of that), and how many it made without.
struct fence_visits {
    std::uint64_t fenced = 0, unfenced = 0;
};

// The owner's take, given its step within the burst: pop() unless a test
// races something else against the thieves.
struct pop_newest {
    std::optional<job_ref> operator()(chase_lev_deque& deque, std::uintptr_t) const { return deque.pop(); }
};

// `owner_pause`: how long the owner works between two bursts, so that
// thieves paying microseconds per steal still race it all along.
template <class OwnerTake = pop_newest>
fence_visits every_item_taken_exactly_once(chase_lev_deque& deque, std::uintptr_t items, int thieves,
                                           std::chrono::nanoseconds owner_pause = {}, OwnerTake owner_take = {})
{
    fence_visits visits;
    std::vector<std::atomic<std::uint8_t>> taken(items + 1);
    std::atomic<bool> done{false};
    std::atomic<std::uint64_t> stolen_count{0};

    // Boost.Test assertions are not thread-safe: thieves only count.
    std::atomic<std::uint64_t> out_of_range{0};
    auto take = [&](job_ref j) {
        std::uintptr_t const v = value(j);
        if (v < 1 || v > items)
            out_of_range.fetch_add(1, std::memory_order_relaxed);
        else
            taken[v].fetch_add(1, std::memory_order_relaxed);
    };

    std::vector<std::thread> thief_threads;
    std::atomic<int> ready{0};
    for (int t = 0; t < thieves; ++t)
        thief_threads.emplace_back([&] {
            ready.fetch_add(1);
            std::uint64_t local = 0;
            while (!done.load(std::memory_order_acquire)) {
                auto const r = deque.steal();
                if (r.status == chase_lev_deque::steal_status::success) {
                    take(r.job);
                    ++local;
                }
            }
            // Drain what the owner left.
            for (;;) {
                auto const r = deque.steal();
                if (r.status == chase_lev_deque::steal_status::empty)
                    break;
                if (r.status == chase_lev_deque::steal_status::success) {
                    take(r.job);
                    ++local;
                }
            }
            stolen_count += local;
        });

    // The owner pushes bursts and takes part of each, so that its takes race
    // with steals for the last elements and the buffer grows under stealing.
    while (ready.load() < thieves)
        std::this_thread::yield();
    std::uintptr_t next = 1;
    while (next <= items) {
        auto const resume = std::chrono::steady_clock::now() + owner_pause;
        while (std::chrono::steady_clock::now() < resume) {}
        std::uintptr_t const burst = 1 + next % 37;
        for (std::uintptr_t k = 0; k < burst && next <= items; ++k)
            deque.push(item(next++));
        for (std::uintptr_t k = 0; k < burst / 2 + 1; ++k) {
            ++(deque.owner_fences() ? visits.fenced : visits.unfenced);
            if (auto j = owner_take(deque, k))
                take(*j);
        }
    }
    while (auto j = deque.pop())
        take(*j);
    done.store(true, std::memory_order_release);
    for (auto& t : thief_threads)
        t.join();

    std::uintptr_t missing = 0, duplicated = 0;
    for (std::uintptr_t v = 1; v <= items; ++v) {
        auto const n = taken[v].load(std::memory_order_relaxed);
        missing += n == 0;
        duplicated += n > 1;
    }
    BOOST_TEST(out_of_range.load() == 0u);
    BOOST_TEST(missing == 0u);
    BOOST_TEST(duplicated == 0u);
    BOOST_TEST_MESSAGE("stolen: " << stolen_count.load() << " of " << items << "; pops fenced "
                                  << visits.fenced << ", unfenced " << visits.unfenced);
    BOOST_TEST(stolen_count.load() > 0u);
    return visits;
}

} // namespace

BOOST_AUTO_TEST_CASE(every_item_is_taken_exactly_once_under_stealing)
{
    chase_lev_deque deque(4); // asymmetric where membarrier works
    every_item_taken_exactly_once(deque, 2'000'000, 3);
}

BOOST_AUTO_TEST_CASE(every_item_is_taken_exactly_once_with_symmetric_fences)
{
    chase_lev_deque deque(4, fence_mode::symmetric);
    fence_visits const visits = every_item_taken_exactly_once(deque, 1'000'000, 3);
    BOOST_TEST(visits.unfenced == 0u);
}

// Adaptive fences that switch back after a handful of fenced pops: the deque
// moves between its four fence states all the time while thieves steal.
BOOST_AUTO_TEST_CASE(every_item_is_taken_exactly_once_while_adaptive_fences_switch)
{
    if (!asymmetric_fences_available()) {
        BOOST_TEST_MESSAGE("no membarrier here: adaptive fences resolve to symmetric");
        return;
    }
    for (std::int64_t const fenced_pops : {1, 4, 64}) {
        chase_lev_deque deque(4, fence_mode::adaptive, fenced_pops);
        fence_visits const visits = every_item_taken_exactly_once(deque, 300'000, 2, std::chrono::microseconds(2));
        // Both sides of the switch were exercised.
        BOOST_TEST(visits.fenced > 0u);
        BOOST_TEST(visits.unfenced > 0u);
    }
}

BOOST_AUTO_TEST_CASE(an_adaptive_deque_nobody_steals_from_never_fences)
{
    if (!asymmetric_fences_available())
        return;
    chase_lev_deque deque(4, fence_mode::adaptive);
    for (std::uintptr_t i = 1; i <= 10'000; ++i) {
        deque.push(item(i));
        BOOST_TEST_REQUIRE(!deque.owner_fences());
        BOOST_TEST_REQUIRE(value(*deque.pop()) == i);
    }
}

// One steal asks the owner to fence; after its fenced pops with no other
// steal, it stops.
BOOST_AUTO_TEST_CASE(one_steal_makes_an_adaptive_owner_fence_for_a_while)
{
    if (!asymmetric_fences_available())
        return;
    chase_lev_deque deque(4, fence_mode::adaptive, 100);
    for (std::uintptr_t i = 1; i <= 10; ++i)
        deque.push(item(i));
    std::thread thief([&] { BOOST_TEST((deque.steal().status == chase_lev_deque::steal_status::success)); });
    thief.join();
    BOOST_TEST(deque.owner_fences()); // asked to (switching)
    int fenced = 0;
    for (int k = 0; k < 1'000; ++k) {
        deque.push(item(1000));
        fenced += deque.owner_fences();
        deque.pop();
    }
    // 100 pops in symmetric, then one to drain, then none.
    BOOST_TEST(fenced >= 100);
    BOOST_TEST(fenced <= 103);
    BOOST_TEST(!deque.owner_fences());
}

// take_oldest: the owner's FIFO take (breadth_first), without steal()'s
// heavy fence, racing thieves for the same end.
BOOST_AUTO_TEST_CASE(owner_takes_oldest_first)
{
    chase_lev_deque deque(2);
    for (std::uintptr_t i = 1; i <= 100; ++i)
        deque.push(item(i));
    for (std::uintptr_t i = 1; i <= 50; ++i)
        BOOST_TEST(value(*deque.take_oldest()) == i);
    BOOST_TEST(value(*deque.pop()) == 100u); // the other end is untouched
    for (std::uintptr_t i = 51; i <= 99; ++i)
        BOOST_TEST(value(*deque.take_oldest()) == i);
    BOOST_TEST(!deque.take_oldest());
    deque.push(item(7)); // and the deque is still usable
    BOOST_TEST(value(*deque.take_oldest()) == 7u);
    BOOST_TEST(!deque.pop());
}

BOOST_AUTO_TEST_CASE(every_item_is_taken_exactly_once_when_the_owner_takes_oldest)
{
    chase_lev_deque deque(4);
    // Two of every three owner takes are take_oldest, racing the thieves'
    // CAS on the same index; the third is a pop, racing them for the last
    // element.
    every_item_taken_exactly_once(deque, 1'000'000, 2, {}, [](chase_lev_deque& d, std::uintptr_t step) {
        return step % 3 == 2 ? d.pop() : d.take_oldest();
    });
}
