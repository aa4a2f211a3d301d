// Copyright 2026 The Boost.ForkJoin developers.
// Distributed under the Boost Software License, Version 1.0.
// (See accompanying file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
#ifndef BOOST_FORKJOIN_DETAIL_CALLER_SLOT_STATE_HPP
#define BOOST_FORKJOIN_DETAIL_CALLER_SLOT_STATE_HPP

// The word behind the caller slot (pool_options::caller_slot): worker 0's
// place, free, held by an outside caller, or borrowed by a thread of the
// pool, with the orderings of its transitions. caller_slot.hpp says what
// the place is and holds the protocol around the word.

#include <boost/forkjoin/detail/config.hpp>
#include <boost/forkjoin/detail/cpu_relax.hpp>

#include <atomic>
#include <thread>

namespace boost::forkjoin::detail {

// Worker 0's place: slot_free, slot_held by an outside caller, or
// slot_borrowed by a thread of the pool for one pop of its broadcast
// queue. Written at every install from outside: a line of its own.
class alignas(cache_line_size) caller_slot_state {
public:
    enum : unsigned char { slot_free, slot_held, slot_borrowed };

    // Takes worker 0's place unless another outside caller holds it.
    bool try_take() noexcept
    {
        // A relaxed load first, a hint the compare-exchange confirms: a
        // held place costs a caller one read of the line, not a write to
        // it. Acquire on the compare-exchange's success: the last holder's
        // release (free's seq-cst store) orders all it did as worker 0
        // (the deque's owner fields, the queues' consumer side) before what
        // we do as worker 0; so does a borrower's, for the queue. Relaxed on
        // failure and in the wait below: nothing is read on the strength of
        // a state we do not take.
        unsigned char state = state_.load(std::memory_order_relaxed);
        for (unsigned spins = 0;; ++spins) {
            if (state == slot_held)
                return false;
            if (state == slot_free) {
                if (state_.compare_exchange_weak(state, slot_held, std::memory_order_acquire,
                                                 std::memory_order_relaxed))
                    return true;
                continue; // `state` reloaded
            }
            // Borrowed for one pop, a lock and a few stores: wait it out
            // (yielding, in case the borrower lost its CPU to us).
            if (spins < 64)
                cpu_relax();
            else
                std::this_thread::yield();
            state = state_.load(std::memory_order_relaxed);
        }
    }

    // A thread of the pool borrows the free place for one pop of worker
    // 0's broadcast queue. False if the place was taken first.
    bool try_borrow() noexcept
    {
        unsigned char expected = slot_free;
        // Acquire: the queue's last consumer (a holder, a borrower) did its
        // part before it freed the place. (The queue's own lock orders the
        // nodes; this orders the rest of worker 0's consumer side.) Relaxed
        // on failure: someone else has the place, and nothing is read.
        return state_.compare_exchange_strong(expected, slot_borrowed, std::memory_order_acquire,
                                              std::memory_order_relaxed);
    }

    // Frees worker 0's place, held or borrowed. Seq-cst: release for the
    // next holder or borrower, and the first half of a store-buffering
    // pair with registry_base::inject_broadcast's push then is_held
    // (registry_base::free_caller_slot says how the pair works out).
    void free() noexcept { state_.store(slot_free, std::memory_order_seq_cst); }

    // Seq-cst loads: the checking halves of the pairs that inject_broadcast
    // (registry_base.hpp) and vacant_slot_has_work (caller_slot.hpp) take
    // part in.
    bool is_held() const noexcept { return state_.load(std::memory_order_seq_cst) == slot_held; }
    bool is_free() const noexcept { return state_.load(std::memory_order_seq_cst) == slot_free; }

private:
    std::atomic<unsigned char> state_{slot_free};
};

} // namespace boost::forkjoin::detail

#endif // BOOST_FORKJOIN_DETAIL_CALLER_SLOT_STATE_HPP
