// Copyright 2026 The Boost.ForkJoin developers.
// Distributed under the Boost Software License, Version 1.0.
// (See accompanying file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
#ifndef BOOST_FORKJOIN_DETAIL_COUNT_LATCH_HPP
#define BOOST_FORKJOIN_DETAIL_COUNT_LATCH_HPP

// The latch of a scope or a broadcast: set when a counter of outstanding
// jobs reaches zero. The counter starts at 1 for the owner's own part (the
// scope's body). Its owner either is a worker, which keeps running jobs of
// its own pool while it waits (a core latch), or a thread outside every
// pool, which blocks (a lock latch). The owner may be a worker of another
// pool than the one whose workers run the jobs (pool.in_place_scope, or a
// broadcast into another pool): it still waits as a worker, because it may
// be the only thread that can run what those jobs wait for in its own pool.

#include <boost/forkjoin/core_latch.hpp>
#include <boost/forkjoin/detail/lock_latch.hpp>
#include <boost/forkjoin/detail/registry_base.hpp>

#include <atomic>
#include <cstddef>
#include <memory>

namespace boost::forkjoin::detail {

class count_latch {
public:
    // `owner`: the waiting worker (of any pool), or nullptr for a thread
    // outside every pool. `setters`: the registry whose workers run the jobs.
    count_latch(worker_thread* owner, registry_base const& setters) noexcept
        : owner_(owner), setters_(setters), cross_registry_(owner != nullptr && &owner->registry() != &setters)
    {
    }

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
        if (owner_ == nullptr) {
            lock_.set();
            return;
        }
        // Read what the notification needs first: once core_ is set, *this
        // may be gone. The owner's registry outlives the owner's wait.
        registry_base& registry = owner_->registry();
        std::size_t const target = owner_->index();
        if (cross_registry_) {
            // We run in another registry: the moment the owner sees the latch
            // it may return, and its pool may be destroyed while we notify.
            std::shared_ptr<registry_base> const keep_alive = registry.shared_from_this();
            registry.set_latch_and_notify(core_, target);
        } else {
            registry.set_latch_and_notify(core_, target);
        }
    }

    // Drops the body's count, then waits for the rest.
    void complete_and_wait()
    {
        set();
        if (owner_ != nullptr)
            owner_->wait_until(core_);
        else // as install waits from outside: the setters' pool bounds the spin
            lock_.wait(setters_.options().spin_limit, [this] { return setters_.leaves_a_cpu_free(); });
    }

private:
    std::atomic<std::size_t> counter_{1};
    worker_thread* const owner_;
    registry_base const& setters_;
    bool const cross_registry_;
    core_latch core_;
    lock_latch lock_;
};

} // namespace boost::forkjoin::detail

#endif // BOOST_FORKJOIN_DETAIL_COUNT_LATCH_HPP
