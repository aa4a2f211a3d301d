// Copyright 2026 The Boost.ForkJoin developers.
// Distributed under the Boost Software License, Version 1.0.
// (See accompanying file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)

// Out of memory while submitting work: the submitting call throws
// std::bad_alloc and the pool is as if it had not been called. No job is
// lost or run twice, no count leaks (the pool's destructor would hang), and
// no worker is left holding a job that points into the caller's frame.
//
// A dedicated program because it replaces the global operator new: each
// test arms a failure on its own thread ("let N allocations pass, fail the
// next one") around one submission, so the failure lands inside the library
// exactly where a real out-of-memory would, deterministically. The last test
// arms its failures on the worker instead, around a fiber's stack.

#define BOOST_TEST_MODULE oom
#include <boost/test/unit_test.hpp>

#include "policies.hpp"
#include "watchdog.hpp"

#include <dlfcn.h>

#include <atomic>
#include <cerrno>
#include <chrono>
#include <cstddef>
#include <cstdlib>
#include <deque>
#include <new>
#include <stdexcept>
#include <thread>
#include <utility>
#include <vector>

namespace fj = boost::forkjoin;
using namespace std::chrono_literals;

// --- Failing allocations on demand -------------------------------------------

namespace {

// Allocations this thread lets pass before the armed failure; -1: disarmed.
constinit thread_local int allocations_before_failure = -1;

bool this_allocation_fails() noexcept
{
    if (allocations_before_failure < 0)
        return false;
    return allocations_before_failure-- == 0;
}

void* allocate(std::size_t size)
{
    if (this_allocation_fails())
        throw std::bad_alloc();
    if (void* p = std::malloc(size == 0 ? 1 : size))
        return p;
    throw std::bad_alloc();
}

void* allocate_aligned(std::size_t size, std::align_val_t alignment)
{
    if (this_allocation_fails())
        throw std::bad_alloc();
    // aligned_alloc, not posix_memalign, which is replaced below.
    std::size_t const align = static_cast<std::size_t>(alignment);
    if (void* p = std::aligned_alloc(align, (size + align - 1) / align * align))
        return p;
    throw std::bad_alloc();
}

// Arms a failure of the allocation after the next `pass` ones, on this
// thread, for the lifetime of the object.
class failing_allocation {
public:
    explicit failing_allocation(int pass) noexcept { allocations_before_failure = pass; }
    failing_allocation(failing_allocation const&) = delete;
    failing_allocation& operator=(failing_allocation const&) = delete;
    ~failing_allocation() { allocations_before_failure = -1; }
};

} // namespace

void* operator new(std::size_t size) { return allocate(size); }
void* operator new[](std::size_t size) { return allocate(size); }
void* operator new(std::size_t size, std::align_val_t alignment) { return allocate_aligned(size, alignment); }
void* operator new[](std::size_t size, std::align_val_t alignment) { return allocate_aligned(size, alignment); }

void* operator new(std::size_t size, std::nothrow_t const&) noexcept
{
    try {
        return allocate(size);
    } catch (std::bad_alloc const&) {
        return nullptr;
    }
}

void* operator new[](std::size_t size, std::nothrow_t const&) noexcept
{
    try {
        return allocate(size);
    } catch (std::bad_alloc const&) {
        return nullptr;
    }
}

// Boost.Lockfree's queue (the injector) allocates its nodes with
// boost::alignment::aligned_alloc, which calls posix_memalign directly.
extern "C" int posix_memalign(void** result, std::size_t alignment, std::size_t size) noexcept
{
    if (this_allocation_fails())
        return ENOMEM;
    using function = int (*)(void**, std::size_t, std::size_t);
    static function const next = reinterpret_cast<function>(::dlsym(RTLD_NEXT, "posix_memalign"));
    return next(result, alignment, size);
}

void operator delete(void* p) noexcept { std::free(p); }
void operator delete[](void* p) noexcept { std::free(p); }
void operator delete(void* p, std::size_t) noexcept { std::free(p); }
void operator delete[](void* p, std::size_t) noexcept { std::free(p); }
void operator delete(void* p, std::align_val_t) noexcept { std::free(p); }
void operator delete[](void* p, std::align_val_t) noexcept { std::free(p); }
void operator delete(void* p, std::size_t, std::align_val_t) noexcept { std::free(p); }
void operator delete[](void* p, std::size_t, std::align_val_t) noexcept { std::free(p); }

// --- The tests ------------------------------------------------------------------

namespace {

// Tiny queues, so that submissions soon need to grow them.
template <class Policy>
using small_pool = fj::basic_thread_pool<Policy, fj::deque_capacity<2>, fj::injector_capacity<2>>;

// Submissions made with failures armed, and what became of each.
class submissions {
public:
    // Calls submit(job) `rounds` times with a failure armed after each of
    // 1..3 allocations: the first allocation is the job itself, whose failure
    // was always handled; the next ones are the queues'. `job` is a callable
    // that counts its own runs.
    template <class Submit>
    void make(int rounds, Submit submit)
    {
        for (int round = 0; round < rounds; ++round) {
            for (int pass = 1; pass <= 3; ++pass) {
                std::size_t const id = runs_.size();
                runs_.emplace_back(0);
                accepted_.push_back(false);
                auto job = [this, id] { ++runs_[id]; };
                try {
                    failing_allocation const fail(pass);
                    submit(job);
                } catch (std::bad_alloc const&) {
                    ++refused_;
                    continue;
                }
                accepted_[id] = true;
            }
        }
    }

    int refused() const noexcept { return refused_; }

    // Every accepted job ran exactly once, no refused job ran. Call once
    // every accepted job is known to have finished.
    void check() const
    {
        BOOST_TEST(refused_ > 0);
        for (std::size_t id = 0; id < runs_.size(); ++id)
            BOOST_TEST(runs_[id].load() == (accepted_[id] ? 1 : 0), "submission " << id);
    }

private:
    std::deque<std::atomic<int>> runs_; // stable addresses
    std::vector<bool> accepted_;
    int refused_ = 0;
};

} // namespace

// Regression (issue 13, item 1): a spawn whose push could not grow the deque
// (or the spawn_fifo queue) threw after taking the job's activity count,
// which then never dropped: the pool's destructor hung.
BOOST_AUTO_TEST_CASE_TEMPLATE(spawn_from_a_worker_out_of_memory, Policy, test::all_policies)
{
    test::watchdog const hang_guard("spawn_from_a_worker_out_of_memory");
    submissions made;
    {
        small_pool<Policy> pool(test::threads(1));
        // One worker, busy in install: the spawned jobs pile up in its deque.
        pool.install([&] {
            made.make(64, [](auto job) { fj::spawn(job); });
            made.make(64, [](auto job) { fj::spawn_fifo(job); });
        });
    } // waits for every accepted job; hung before the fix
    made.check();
}

BOOST_AUTO_TEST_CASE_TEMPLATE(spawn_from_outside_out_of_memory, Policy, test::all_policies)
{
    test::watchdog const hang_guard("spawn_from_outside_out_of_memory");
    submissions made;
    std::atomic<bool> release{false};
    {
        small_pool<Policy> pool(test::threads(1));
        // Keep the only worker busy so that injected jobs pile up and the
        // injector runs out of preallocated nodes.
        pool.spawn([&] {
            while (!release.load())
                std::this_thread::sleep_for(1ms);
        });
        made.make(64, [&](auto job) { pool.spawn(job); });
        made.make(64, [&](auto job) { pool.spawn_fifo(job); });
        release = true;
    }
    made.check();
}

// A fifo scope queues the job, then pushes its placeholder: if the push
// fails, the queued job must be taken back, or a later placeholder would run
// the freed job and the last job queued would never run.
BOOST_AUTO_TEST_CASE_TEMPLATE(scope_spawn_out_of_memory, Policy, test::all_policies)
{
    test::watchdog const hang_guard("scope_spawn_out_of_memory");
    submissions lifo, fifo;
    {
        small_pool<Policy> pool(test::threads(1));
        pool.install([&] { fj::scope([&](fj::lifo_scope& s) { lifo.make(64, [&](auto job) { s.spawn(job); }); }); });
    }
    {
        // A new pool: the first one's deque has grown already.
        small_pool<Policy> pool(test::threads(1));
        pool.install([&] {
            fj::scope_fifo([&](fj::fifo_scope& s) { fifo.make(64, [&](auto job) { s.spawn(job); }); });
        });
    }
    lifo.check();
    fifo.check();
}

// Regression (issue 13, item 2): broadcast queued one job per worker and a
// later queue's allocation could fail, leaving the earlier workers with jobs
// that point into the returned call's frame (heap-use-after-free). Now a
// broadcast is all or nothing: refused, no worker runs it.
BOOST_AUTO_TEST_CASE_TEMPLATE(broadcast_out_of_memory_is_all_or_nothing, Policy, test::all_policies)
{
    test::watchdog const hang_guard("broadcast_out_of_memory_is_all_or_nothing");
    constexpr std::size_t workers = 4;
    test::pool<Policy> pool(test::threads(workers));
    std::atomic<int> calls{0};
    auto const count_call = [&calls](fj::broadcast_context) { ++calls; };
    int refused = 0;
    for (int round = 0; round < 64; ++round) {
        for (int pass = 0; pass <= 6; ++pass) {
            int const before = calls.load();
            try {
                failing_allocation const fail(pass);
                pool.broadcast(count_call);
            } catch (std::bad_alloc const&) {
                ++refused;
                // A worker that got a job anyway would run it any moment.
                std::this_thread::sleep_for(1ms);
                BOOST_REQUIRE(calls.load() == before);
                continue;
            }
            BOOST_REQUIRE(calls.load() == before + static_cast<int>(workers));
        }
    }
    BOOST_TEST(refused > 0);
}

// spawn_broadcast (pool and scope) out of memory: all or nothing as
// broadcast, and a refused one leaves no activity or scope count behind
// (the pool's destructor, or the scope, would wait for it forever).
BOOST_AUTO_TEST_CASE_TEMPLATE(spawn_broadcast_out_of_memory_is_all_or_nothing, Policy, test::all_policies)
{
    test::watchdog const hang_guard("spawn_broadcast_out_of_memory_is_all_or_nothing");
    constexpr std::size_t workers = 3;
    std::atomic<int> calls{0};
    int accepted = 0, refused = 0;
    auto submit_with_failures = [&](auto spawn_broadcast) {
        for (int round = 0; round < 16; ++round) {
            for (int pass = 0; pass <= 3; ++pass) {
                try {
                    failing_allocation const fail(pass);
                    spawn_broadcast();
                } catch (std::bad_alloc const&) {
                    ++refused;
                    continue;
                }
                ++accepted;
            }
        }
    };
    {
        test::pool<Policy> pool(test::threads(workers));
        submit_with_failures([&] { pool.spawn_broadcast([&calls](fj::broadcast_context) { ++calls; }); });
        pool.scope([&](fj::lifo_scope& s) {
            submit_with_failures([&] { s.spawn_broadcast([&calls](fj::broadcast_context) { ++calls; }); });
        });
    } // waits for every accepted broadcast
    BOOST_TEST(refused > 0);
    BOOST_TEST(calls.load() == accepted * static_cast<int>(workers));
}

// Regression: a worker's stack cache reserved its capacity after fixing its
// settings, so a failed reserve (the first task's future held bad_alloc, as
// documented) left a cache with settings and no capacity: every later call
// skipped the reserve, and the noexcept deallocate, as a fiber ended, grew the
// vector. A second out-of-memory there was std::terminate. Now the reserve
// comes first (the next stack allocation tries it again) and deallocate keeps
// a stack only in capacity already there.
//
// One worker, so that every fiber uses its cache; a new pool, so that its
// thread's cache is new and its first allocation is the reserve.
BOOST_AUTO_TEST_CASE_TEMPLATE(stack_cache_reserve_out_of_memory, Policy, test::all_policies)
{
    test::watchdog const hang_guard("stack_cache_reserve_out_of_memory");
    test::pool<Policy> pool(test::threads(1));
    // Armed on the worker: the next allocation there is the cache's reserve,
    // in the first future's stack allocation (an unguarded stack is malloc'd,
    // not allocated with operator new).
    pool.install([] { allocations_before_failure = 0; });
    BOOST_CHECK_THROW(pool.spawn_future([] { return 1; }).get(), std::bad_alloc);
    // Out of memory again, armed as the next fiber's body ends: the next
    // allocation on the worker is the one its stack's return to the cache
    // made before the fix, inside noexcept.
    BOOST_TEST(pool.spawn_future([] {
                       allocations_before_failure = 0;
                       return 2;
                   }).get() == 2);
    // Finishing that fiber allocated nothing: the failure is still armed.
    BOOST_TEST(pool.install([] { return std::exchange(allocations_before_failure, -1); }) == 0);
    // More fibers run and finish, and the cache, reserved at last, keeps
    // their stacks.
    std::vector<fj::future<int>> futures;
    for (int i = 0; i < 100; ++i)
        futures.push_back(pool.spawn_future([i] { return i; }));
    for (int i = 0; i < 100; ++i)
        BOOST_TEST(futures[static_cast<std::size_t>(i)].get() == i);
    BOOST_TEST(pool.install([] { return fj::detail::this_thread_stacks().cached(); }) > 0u);
}
