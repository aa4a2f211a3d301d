// Copyright 2026 The Boost.ForkJoin developers.
// Distributed under the Boost Software License, Version 1.0.
// (See accompanying file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
#ifndef BOOST_FORKJOIN_DETAIL_CHASE_LEV_DEQUE_HPP
#define BOOST_FORKJOIN_DETAIL_CHASE_LEV_DEQUE_HPP

// The work-stealing deque of Chase and Lev ("Dynamic circular work-stealing
// deque", SPAA 2005) with the C11 orderings proved correct by Lê, Pop, Cohen
// and Zappa Nardelli ("Correct and efficient work-stealing for weak memory
// models", PPoPP 2013, figure 1).
//
// Hand-written rather than taken from a library: Boost.Lockfree offers no
// work-stealing deque (its queue is FIFO for every thread and its stack is
// LIFO for every thread), and the owner's push/pop is the hottest code of the
// pool, so it must be a handful of instructions we can see and measure.
//
// The owner pushes and pops at the bottom; thieves steal at the top.
//
// Deviations from the paper, each keeping its proof:
//  * Slots are pairs of relaxed atomics rather than plain words, so that a
//    thief reading a slot the owner is overwriting is not a data race in the
//    C++ sense (and ThreadSanitizer needs no suppressions). A thief can read a
//    torn pair only if the owner reused the slot, and then the thief's CAS on
//    `top_` fails and the pair is discarded (see steal()).
//  * push() publishes with a release store of `bottom_` instead of a release
//    fence followed by a relaxed store. The two are equivalent here and the
//    store form is one that ThreadSanitizer understands.
//  * The store-buffering pair between pop() and steal() uses asymmetric
//    fences (asymmetric_fence.hpp) if the pool chose them: the owner's
//    seq-cst fence becomes a compiler barrier and the thief, far rarer, pays
//    for a process-wide barrier instead. A thief that sees the deque empty
//    returns before that barrier: a steal may always fail spuriously, and
//    the owner, who is running, will pop the job itself. If the barrier
//    fails, the deque switches to symmetric fences with a handshake with
//    its owner (see order_with_owner).
//  * Buffers replaced by growth are not freed until the deque is destroyed:
//    a thief may still be reading the old buffer. Capacities double, so the
//    retired buffers together are never larger than the live one.
//  * push() does not load top_: it compares with `top_bound_`, the owner's
//    last value of top_ (top_ only grows, so it is a lower bound), and
//    reloads only when the bound says full. The paper's push reads top with
//    acquire, which orders a thief's read of a slot before the owner's
//    overwrite of it; here every load that feeds the bound (in pop() and in
//    make_room()) is an acquire load, so the bound carries the same
//    synchronization and the proof holds.

#include <boost/forkjoin/detail/asymmetric_fence.hpp>
#include <boost/forkjoin/detail/config.hpp>
#include <boost/forkjoin/detail/job.hpp>

#include <atomic>
#include <cstdint>
#include <memory>
#include <optional>

namespace boost::forkjoin::detail {

class chase_lev_deque {
public:
    enum class steal_status { empty, retry, success };

    struct steal_result {
        steal_status status;
        job_ref job;
    };

    // `fences` is asymmetric or symmetric (resolve_fence_mode).
    explicit chase_lev_deque(std::size_t initial_capacity = 256,
                             fence_mode fences = resolve_fence_mode(fence_mode::asymmetric, 1))
        : fences_(fences == fence_mode::asymmetric ? fence_state::asymmetric : fence_state::symmetric),
          owner_buffer_(new buffer(round_up_to_power_of_two(initial_capacity))),
          owner_slots_(owner_buffer_->slots.get()), owner_mask_(owner_buffer_->mask), buffer_(owner_buffer_)
    {
    }

    chase_lev_deque(chase_lev_deque const&) = delete;
    chase_lev_deque& operator=(chase_lev_deque const&) = delete;

    ~chase_lev_deque() { delete buffer_.load(std::memory_order_relaxed); }

    // Owner only.
    BOOST_FORKJOIN_FORCEINLINE void push(job_ref job)
    {
        std::int64_t const b = bottom_.load(std::memory_order_relaxed);
        // top_ only grows, so an old value is a lower bound: if the deque is
        // not full by it, it is not full. Re-read the real top_ (a line the
        // thieves write) only when the bound says full.
        if (BOOST_FORKJOIN_UNLIKELY(b - top_bound_ > owner_mask_))
            make_room(b);
        buffer::put(owner_slots_, owner_mask_, b, job);
        // Release: a thief that reads the new bottom also reads the slot and
        // everything the job's creator wrote before pushing it.
        bottom_.store(b + 1, std::memory_order_release);
    }

    // Any thread; a snapshot. The sleep policies' wake hint.
    std::size_t size() const noexcept
    {
        std::int64_t const b = bottom_.load(std::memory_order_relaxed);
        std::int64_t const t = top_.load(std::memory_order_relaxed);
        return b > t ? static_cast<std::size_t>(b - t) : 0;
    }

    // Owner only. LIFO end.
    BOOST_FORKJOIN_FORCEINLINE std::optional<job_ref> pop()
    {
        std::int64_t const b = bottom_.load(std::memory_order_relaxed) - 1;
        bottom_.store(b, std::memory_order_relaxed);
        // The store of bottom_ above and the load of top_ below race with a
        // thief's load of top_, CAS of top_ and load of bottom_: a store-
        // buffering shape. With a fence on each side at least one of us sees
        // the other, so no element is taken twice. In asymmetric mode ours is
        // the light half and steal() has the heavy half.
        // Relaxed: only this thread reads the state on this path, and once
        // it has read a later state it cannot read an earlier one again
        // (coherence); the thieves learn what we read from our release in
        // acknowledgement below.
        if (fences_.load(std::memory_order_relaxed) == fence_state::asymmetric) {
            std::atomic_signal_fence(std::memory_order_seq_cst);
        } else {
            std::atomic_thread_fence(std::memory_order_seq_cst);
            // A membarrier failed: from now on we fence (coherence: we
            // cannot read an earlier state again). Release: a thief that
            // reads `symmetric` (acquire) also sees everything our earlier
            // pops, the last one with a compiler barrier only, wrote. A
            // plain store, not a call, so that the fast path keeps its
            // registers.
            // (Loaded again rather than kept from above, so that the
            // asymmetric path stays one compare with memory.)
            if (BOOST_FORKJOIN_UNLIKELY(fences_.load(std::memory_order_relaxed) == fence_state::switching))
                fences_.store(fence_state::symmetric, std::memory_order_release);
        }
        // Acquire, as Lê et al.'s push reads top: this value becomes
        // top_bound_, on which the next pushes decide that the slots below
        // it are free to overwrite. Reading it with acquire synchronizes
        // with the thief's CAS that advanced top_ (a seq-cst RMW, so a
        // release), so the thief's read of a slot happens before our later
        // overwrite of that slot and cannot see the new job. On x86 an
        // acquire load is the same plain `mov` as a relaxed one.
        std::int64_t t = top_.load(std::memory_order_acquire);
        top_bound_ = t;
        if (t > b) { // Empty: restore.
            bottom_.store(b + 1, std::memory_order_relaxed);
            return std::nullopt;
        }
        job_ref job = buffer::get(owner_slots_, owner_mask_, b);
        if (t == b) {
            // The last element: race the thieves for it with a CAS on top_.
            // Seq-cst so that it is ordered with the thieves' fences.
            bool const won = top_.compare_exchange_strong(
                t, t + 1, std::memory_order_seq_cst, std::memory_order_relaxed);
            bottom_.store(b + 1, std::memory_order_relaxed);
            if (!won)
                return std::nullopt;
        }
        return job;
    }

    // Any thread. FIFO end.
    steal_result steal()
    {
        // Acquire: see the slot contents published before this top_.
        std::int64_t t = top_.load(std::memory_order_acquire);
        // Looks empty: give up without paying for the barrier. A stale
        // bottom_ only makes the steal fail spuriously.
        if (t >= bottom_.load(std::memory_order_relaxed))
            return {steal_status::empty, {}};
        // Our half of the store-buffering pair with pop().
        if (!order_with_owner())
            return {steal_status::empty, {}};
        // Acquire: pairs with push()'s release store of bottom_.
        std::int64_t const b = bottom_.load(std::memory_order_acquire);
        if (t >= b)
            return {steal_status::empty, {}};
        // Acquire: pairs with grow()'s release store, so a new buffer is seen
        // with its copied slots.
        buffer* buf = buffer_.load(std::memory_order_acquire);
        job_ref const job = buf->get(t);
        // Seq-cst CAS: claims index t against the owner and other thieves. If
        // it succeeds nobody reused the slot since we read it (the owner only
        // writes slots at or above bottom, and bottom - top < capacity), so
        // the pair we read is whole.
        if (!top_.compare_exchange_strong(t, t + 1, std::memory_order_seq_cst,
                                          std::memory_order_relaxed))
            return {steal_status::retry, {}};
        return {steal_status::success, job};
    }

    std::size_t capacity() const noexcept
    {
        return static_cast<std::size_t>(buffer_.load(std::memory_order_relaxed)->capacity);
    }

private:
    // asymmetric: the owner's pops use a compiler barrier, steals a
    // membarrier. symmetric: both a seq-cst fence. switching: a membarrier
    // failed; the owner's pops already use fences, but one may still be in
    // flight with only a compiler barrier, so no thief may rely on its fence
    // until the owner's next pop moves the state to symmetric.
    enum class fence_state : std::uint8_t { asymmetric, switching, symmetric };

    // Makes the thief's half of the store-buffering pair with pop(). False:
    // this steal must give up without taking anything (a spurious failure,
    // always allowed). Out of line: next to a system call or a fence a call
    // costs nothing, and it keeps steal() small enough to inline into join
    // (a breadth-first owner takes its own jobs with steal), which keeps
    // join's pop path exactly as it was.
    BOOST_FORKJOIN_NOINLINE bool order_with_owner() noexcept
    {
        // Acquire: pairs with the owner's release when it acknowledges the
        // switch in pop(), so that reading `symmetric` means
        // every pop we can race with fences, and the pops before it are
        // visible to us.
        switch (fences_.load(std::memory_order_acquire)) {
        case fence_state::asymmetric:
            if (!membarrier_failed.load(std::memory_order_relaxed) && heavy_fence())
                return true;
            // The barrier failed, here or for another deque of the process:
            // the owner's pops are ordered by a compiler barrier only, so we
            // must not go on. Ask the owner to switch; relaxed, since the
            // owner's acknowledgement carries the ordering. A CAS, because
            // the owner may have acknowledged another thief already.
            {
                fence_state expected = fence_state::asymmetric;
                fences_.compare_exchange_strong(expected, fence_state::switching, std::memory_order_relaxed);
            }
            return false;
        case fence_state::switching:
            return false;
        case fence_state::symmetric:
            std::atomic_thread_fence(std::memory_order_seq_cst);
            return true;
        }
        return false;
    }

    struct slot {
        std::atomic<void (*)(void*) noexcept> execute_fn{nullptr};
        std::atomic<void*> data{nullptr};
    };

    struct buffer {
        explicit buffer(std::int64_t cap)
            : capacity(cap), mask(cap - 1), slots(new slot[static_cast<std::size_t>(cap)])
        {
        }

        // Relaxed: the publication order is carried by bottom_ and top_.
        static void put(slot* slots, std::int64_t mask, std::int64_t i, job_ref job) noexcept
        {
            slot& s = slots[static_cast<std::size_t>(i & mask)];
            s.execute_fn.store(job.execute_fn, std::memory_order_relaxed);
            s.data.store(job.data, std::memory_order_relaxed);
        }

        static job_ref get(slot const* slots, std::int64_t mask, std::int64_t i) noexcept
        {
            slot const& s = slots[static_cast<std::size_t>(i & mask)];
            return {s.execute_fn.load(std::memory_order_relaxed), s.data.load(std::memory_order_relaxed)};
        }

        void put(std::int64_t i, job_ref job) noexcept { put(slots.get(), mask, i, job); }
        job_ref get(std::int64_t i) const noexcept { return get(slots.get(), mask, i); }

        std::int64_t const capacity;
        std::int64_t const mask;
        std::unique_ptr<slot[]> slots;
        std::unique_ptr<buffer> retired; // the buffer this one replaced
    };

    static std::int64_t round_up_to_power_of_two(std::size_t n)
    {
        std::int64_t cap = 2;
        while (static_cast<std::size_t>(cap) < n)
            cap *= 2;
        return cap;
    }

    BOOST_FORKJOIN_NOINLINE void make_room(std::int64_t b)
    {
        // Acquire: pairs with the thieves' CAS on top_, so that a slot we
        // see freed was read by its thief before we overwrite it.
        std::int64_t const t = top_.load(std::memory_order_acquire);
        top_bound_ = t;
        if (b - t > owner_mask_) {
            owner_buffer_ = grow(owner_buffer_, b, t);
            owner_slots_ = owner_buffer_->slots.get();
            owner_mask_ = owner_buffer_->mask;
        }
    }

    buffer* grow(buffer* old, std::int64_t b, std::int64_t t)
    {
        auto* bigger = new buffer(old->capacity * 2);
        for (std::int64_t i = t; i < b; ++i)
            bigger->put(i, old->get(i));
        // The old buffer may still be read by a thief that loaded it before
        // the store below; keep it alive, chained from its successor.
        bigger->retired.reset(old);
        // Release: pairs with the thieves' acquire load of buffer_.
        buffer_.store(bigger, std::memory_order_release);
        return bigger;
    }

    // top_ is written by thieves, bottom_ by the owner: separate lines.
    alignas(cache_line_size) std::atomic<std::int64_t> top_{0};
    alignas(cache_line_size) std::atomic<std::int64_t> bottom_{0};
    // Read by every pop and steal; written once at most, when a membarrier
    // fails (by a thief, then by the owner).
    std::atomic<fence_state> fences_;
    // The owner's copies of buffer_ and of its slot array and mask: push and
    // pop use them without an atomic load and a pointer chase.
    buffer* owner_buffer_;
    slot* owner_slots_;
    std::int64_t owner_mask_;
    std::int64_t top_bound_ = 0; // owner's last seen top_: a lower bound
    std::atomic<buffer*> buffer_;
};

} // namespace boost::forkjoin::detail

#endif // BOOST_FORKJOIN_DETAIL_CHASE_LEV_DEQUE_HPP
