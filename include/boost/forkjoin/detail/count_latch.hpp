// Copyright 2026 The Boost.ForkJoin developers.
// Distributed under the Boost Software License, Version 1.0.
// (See accompanying file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
#ifndef BOOST_FORKJOIN_DETAIL_COUNT_LATCH_HPP
#define BOOST_FORKJOIN_DETAIL_COUNT_LATCH_HPP

// The latch of a scope: set when a counter of outstanding jobs reaches zero.
// The counter starts at 1 for the scope's own body. Its owner either is a
// worker, which keeps running jobs while it waits (a core latch), or a
// thread outside every pool, which blocks (a lock latch).

#include <boost/forkjoin/core_latch.hpp>
#include <boost/forkjoin/detail/lock_latch.hpp>
#include <boost/forkjoin/detail/registry_base.hpp>

#include <atomic>
#include <cstddef>

namespace boost::forkjoin::detail {

class count_latch {
public:
    // `owner`: the waiting worker, or nullptr for a thread outside any pool.
    explicit count_latch(worker_thread* owner) noexcept : owner_(owner) {}

    count_latch(count_latch const&) = delete;
    count_latch& operator=(count_latch const&) = delete;

    // Relaxed: the caller holds a count already (it is the body or a running
    // job of the scope), so the counter cannot reach zero meanwhile.
    void increment() noexcept { counter_.fetch_add(1, std::memory_order_relaxed); }

    // One job is done.
    void set() noexcept
    {
        // Acq-rel: the last decrement must see the effects of every job
        // (their own releases), and publish them to the owner through the
        // latch it sets.
        if (counter_.fetch_sub(1, std::memory_order_acq_rel) != 1)
            return;
        if (owner_ != nullptr) {
            registry_base& registry = owner_->registry();
            registry.set_latch_and_notify(core_, owner_->index());
        } else {
            lock_.set();
        }
    }

    // Drops the body's count, then waits for the rest.
    void complete_and_wait()
    {
        set();
        if (owner_ != nullptr)
            owner_->wait_until(core_);
        else
            lock_.wait();
    }

private:
    std::atomic<std::size_t> counter_{1};
    worker_thread* const owner_;
    core_latch core_;
    lock_latch lock_;
};

} // namespace boost::forkjoin::detail

#endif // BOOST_FORKJOIN_DETAIL_COUNT_LATCH_HPP
