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
//    its owner (see order_with_owner). In adaptive mode the same handshake
//    switches a deque that is stolen from often to symmetric fences, and a
//    second one, which waits for the thieves relying on the owner's fence,
//    switches it back (see fence_state).
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
#include <chrono>
#include <cstdint>
#include <limits>
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

    // `fences` is asymmetric, adaptive or symmetric (resolve_fence_mode);
    // symmetric where the process cannot use membarrier (asking registers
    // it, before any thief relies on it).
    // `fenced_pops`, adaptive only: how long the owner fences after a steal
    // when it sees no other; 0 means fence_prices' estimate. Tests make it
    // tiny to switch back and forth all the time.
    explicit chase_lev_deque(std::size_t initial_capacity = 256,
                             fence_mode fences = resolve_fence_mode(fence_mode::asymmetric, 1),
                             std::int64_t fenced_pops = 0)
        : fences_(fences == fence_mode::symmetric || !asymmetric_fences_available() ? fence_state::symmetric
                                                                                  : fence_state::asymmetric),
          adaptive_(fences == fence_mode::adaptive && asymmetric_fences_available()), fixed_fenced_pops_(fenced_pops),
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
        // Relaxed: only the owner moves the state to `asymmetric` or
        // `symmetric`, so what it reads here is what it wrote last, or a
        // thief's request (`switching`), which it acknowledges below with a
        // release; coherence keeps it from reading an older state again.
        fence_state const fences = fences_.load(std::memory_order_relaxed);
        if (fences == fence_state::asymmetric)
            std::atomic_signal_fence(std::memory_order_seq_cst);
        else
            std::atomic_thread_fence(std::memory_order_seq_cst);
        // Acquire, as Lê et al.'s push reads top: this value becomes
        // top_bound_, on which the next pushes decide that the slots below
        // it are free to overwrite. Reading it with acquire synchronizes
        // with the thief's CAS that advanced top_ (a seq-cst RMW, so a
        // release), so the thief's read of a slot happens before our later
        // overwrite of that slot and cannot see the new job. On x86 an
        // acquire load is the same plain `mov` as a relaxed one.
        std::int64_t t = top_.load(std::memory_order_acquire);
        if (BOOST_FORKJOIN_UNLIKELY(fences != fence_state::asymmetric)) {
            if (fences != fence_state::symmetric) {
                owner_acknowledge(fences);
            } else if (adaptive_) {
                // A steal since our last look (top_ moved) says the fences
                // pay: go on with them. Else count down to going back.
                if (t != top_bound_)
                    fenced_pops_left_ = fenced_pops_;
                else if (--fenced_pops_left_ <= 0)
                    stop_fencing();
            }
        }
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
            // Our own move of top_, not a steal: the next pop must not take
            // it for one (the adaptive fences count steals by top_ moving).
            top_bound_ = t + 1;
        }
        return job;
    }

    // Owner only. FIFO end: the owner takes its own oldest job
    // (pool_options::breadth_first) without steal()'s heavy fence. That fence
    // is the thief's half of the store-buffering pair with pop(): it orders
    // a thief's load of top_ before its load of bottom_, against the owner's
    // store of bottom_ and load of top_ in pop(). Here the owner is the one
    // that loads bottom_, a word only it writes, so it reads its own latest
    // store, and pop() cannot run meanwhile (same thread): there is no pair
    // to order. Against the thieves the owner claims an index exactly as
    // they do, with a CAS on top_, which one claimant wins. The slot it reads
    // is whole if the CAS succeeds: only the owner writes slots, at indices
    // at or above bottom_, and bottom_ - top_ < capacity, so nobody can have
    // reused slot t while top_ still equals t.
    std::optional<job_ref> take_oldest()
    {
        std::int64_t const b = bottom_.load(std::memory_order_relaxed);
        // Relaxed: a stale top_ only makes the CAS below fail and retry.
        std::int64_t t = top_.load(std::memory_order_relaxed);
        while (t < b) {
            job_ref const job = buffer::get(owner_slots_, owner_mask_, t);
            // Seq-cst, the same claim as a thief's CAS and in the same total
            // order as theirs (on x86 any CAS costs the same). On failure t
            // is the current top_: a thief took the job, try the next one.
            if (top_.compare_exchange_weak(t, t + 1, std::memory_order_seq_cst, std::memory_order_relaxed)) {
                top_bound_ = t + 1;
                return job;
            }
        }
        return std::nullopt;
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
        ordering const ordered = order_with_owner();
        if (ordered == ordering::none)
            return {steal_status::empty, {}};
        light_thief_exit const leave{ordered == ordering::light ? &light_thieves_ : nullptr};
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

    // Owner only: the owner will not pop for a while (it blocks in user
    // code with jobs left here, mark_blocked) and the thieves must be able
    // to take them meanwhile. A thief whose membarrier fails takes nothing
    // until the owner's next pop acknowledges the switch to fences (see
    // order_with_owner), which would be never. So the owner fences now, as
    // a pop would, and moves to symmetric itself: thieves then need only a
    // fence of their own. An adaptive deque comes back to asymmetric once
    // its fenced pops see no steal (stop_fencing). A fixed asymmetric deque
    // would stay symmetric for good, so it asks the kernel instead: if a
    // membarrier works now, thieves can go on relying on it (one that
    // failed only later would still wait for the owner's next pop).
    void prepare_for_absent_owner() noexcept
    {
        // Relaxed, as in pop: only we store `symmetric`, so reading it is
        // reading our own store; a thief's `switching` read late is read
        // at our next pop.
        fence_state const fences = fences_.load(std::memory_order_relaxed);
        if (fences == fence_state::symmetric)
            return;
        // Relaxed: a hint, as for the thieves; a stale `false` only costs
        // the membarrier below, whose own failure we then see.
        if (!adaptive_ && !membarrier_failed.load(std::memory_order_relaxed) && heavy_fence())
            return;
        // Our half of the pair for every pop so far, as a pop's fence.
        std::atomic_thread_fence(std::memory_order_seq_cst);
        start_fencing();
    }

    // Owner only: whether its pops fence now (any state but asymmetric).
    // For tests and statistics.
    bool owner_fences() const noexcept { return fences_.load(std::memory_order_relaxed) != fence_state::asymmetric; }

    std::size_t capacity() const noexcept
    {
        return static_cast<std::size_t>(buffer_.load(std::memory_order_relaxed)->capacity);
    }

private:
    // The fence state. Four states; the owner and the thieves each make some
    // of the moves, always by one atomic operation:
    //
    //   asymmetric  the owner pops with a compiler barrier, thieves pay a
    //               membarrier. Adaptive: a thief that paid one asks the
    //               owner to fence (CAS -> switching).
    //   switching   asked to fence (or a membarrier failed): the owner's next
    //               pop fences and acknowledges (-> symmetric, a release
    //               store); until then thieves still pay a membarrier, and
    //               take nothing if it fails.
    //   symmetric   both sides fence. Adaptive: a thief announces itself in
    //               light_thieves_ before it relies on the owner's fence. The
    //               owner, once its fences have cost about one membarrier
    //               with no steal seen, moves on (-> draining).
    //   draining    the owner still fences, thieves pay a membarrier again;
    //               once no announced thief is left the owner stops fencing
    //               (-> asymmetric).
    //
    // Why draining suffices: the owner stores `draining` and then reads
    // light_thieves_, a thief increments light_thieves_ and then reads the
    // state, all four seq-cst. In their single total order either the
    // thief's increment comes first, and the owner sees it and goes on
    // fencing until the thief has left (its release decrement, the owner's
    // load acquires), or the owner's store does, and the thief reads
    // `draining` and pays for a membarrier instead. So no pop with a
    // compiler barrier only ever races a thief that relied on a fence.
    enum class fence_state : std::uint8_t { asymmetric, switching, symmetric, draining };

    // How a thief ordered its steal with the owner's pops.
    enum class ordering { none, barrier, light };

    // Drops a light thief's announcement when its steal is over, however it
    // ends. Release: the owner that reads the count down (acquire) sees
    // what we did, our CAS on top_ above all, before it stops fencing.
    struct light_thief_exit {
        std::atomic<std::uint32_t>* count;
        ~light_thief_exit()
        {
            if (count != nullptr)
                count->fetch_sub(1, std::memory_order_release);
        }
    };

    // Makes the thief's half of the store-buffering pair with pop(). none:
    // this steal must give up without taking anything (a spurious failure,
    // always allowed). Out of line: next to a system call or a fence a call
    // costs nothing, and it keeps steal() small.
    BOOST_FORKJOIN_NOINLINE ordering order_with_owner() noexcept
    {
        // Acquire: pairs with the owner's release when it acknowledges the
        // switch in pop(), so that reading `symmetric` means every pop we
        // can race with fences, and the pops before it are visible to us.
        fence_state fences = fences_.load(std::memory_order_acquire);
        if (fences == fence_state::symmetric) {
            if (!adaptive_) {
                std::atomic_thread_fence(std::memory_order_seq_cst);
                return ordering::barrier;
            }
            // Seq-cst, both: see fence_state, "Why draining suffices".
            light_thieves_.fetch_add(1, std::memory_order_seq_cst);
            fences = fences_.load(std::memory_order_seq_cst);
            if (fences == fence_state::symmetric) {
                std::atomic_thread_fence(std::memory_order_seq_cst);
                return ordering::light;
            }
            // The owner is leaving symmetric: we relied on nothing yet.
            light_thieves_.fetch_sub(1, std::memory_order_relaxed);
        }
        // asymmetric, switching or draining: a pop may race us with a
        // compiler barrier only, so only a membarrier orders us.
        if (!membarrier_failed.load(std::memory_order_relaxed)) {
            auto const start = std::chrono::steady_clock::now();
            if (heavy_fence()) {
                if (adaptive_) {
                    fence_prices::barrier_paid(static_cast<std::uint64_t>(
                        std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now() - start)
                            .count()));
                    // Ask the owner to fence from now on. Relaxed: we ask,
                    // the owner's acknowledgement carries the ordering. A
                    // CAS: the owner may have moved on meanwhile.
                    if (fences != fence_state::switching)
                        fences_.compare_exchange_strong(fences, fence_state::switching, std::memory_order_relaxed);
                }
                return ordering::barrier;
            }
        }
        // The barrier failed, here or for another deque of the process: the
        // owner's pops are ordered by a compiler barrier only, so we must
        // not go on. Ask the owner to switch, for good (it never leaves
        // symmetric once a membarrier failed); relaxed, as above.
        if (fences == fence_state::asymmetric || fences == fence_state::draining)
            fences_.compare_exchange_strong(fences, fence_state::switching, std::memory_order_relaxed);
        return ordering::none;
    }

    // The owner's pop found `switching` or `draining`; it has fenced already.
    BOOST_FORKJOIN_NOINLINE void owner_acknowledge(fence_state fences) noexcept
    {
        if (fences == fence_state::switching) {
            start_fencing();
            return;
        }
        // draining. Seq-cst: see fence_state; it also acquires the last
        // light thief's release. If a thief asked to switch meanwhile the CAS
        // fails and our next pop acknowledges it.
        if (light_thieves_.load(std::memory_order_seq_cst) == 0)
            fences_.compare_exchange_strong(fences, fence_state::asymmetric, std::memory_order_relaxed);
    }

    // The owner, having fenced already: from now on it fences (coherence:
    // it cannot read an earlier state again), and an adaptive deque counts
    // down to going back. Release: a thief that reads `symmetric` (acquire)
    // also sees everything the earlier pops, the last one with a compiler
    // barrier only, wrote.
    void start_fencing() noexcept
    {
        fenced_pops_ = fixed_fenced_pops_ != 0 ? fixed_fenced_pops_ : fence_prices::fenced_pops_per_barrier();
        fenced_pops_left_ = fenced_pops_;
        fences_.store(fence_state::symmetric, std::memory_order_release);
    }

    // The owner's fences have cost about one membarrier and no thief came.
    BOOST_FORKJOIN_NOINLINE void stop_fencing() noexcept
    {
        // Once a membarrier has failed it would be the only way back.
        if (membarrier_failed.load(std::memory_order_relaxed)) {
            fenced_pops_left_ = std::numeric_limits<std::int64_t>::max();
            return;
        }
        // Seq-cst: see fence_state. We go on fencing until the pop that
        // finds no announced thief left.
        fences_.store(fence_state::draining, std::memory_order_seq_cst);
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
    // Adaptive, symmetric: thieves relying on the owner's fence right now.
    // On top_'s line, which the thieves write anyway.
    std::atomic<std::uint32_t> light_thieves_{0};
    alignas(cache_line_size) std::atomic<std::int64_t> bottom_{0};
    // Read by every pop and steal; see fence_state for who writes it when.
    std::atomic<fence_state> fences_;
    bool const adaptive_;
    std::int64_t const fixed_fenced_pops_; // 0: fence_prices decides
    // The owner's: fenced pops to go without a steal, and what it starts at.
    std::int64_t fenced_pops_left_ = 0;
    std::int64_t fenced_pops_ = 0;
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
