// Copyright 2026 The Boost.ForkJoin developers.
// Distributed under the Boost Software License, Version 1.0.
// (See accompanying file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
#ifndef BOOST_FORKJOIN_DETAIL_SPIN_LATCH_HPP
#define BOOST_FORKJOIN_DETAIL_SPIN_LATCH_HPP

// The latch a worker waits on while it keeps running other jobs (join, and
// install from another pool's worker). Setting it wakes the waiting worker
// through its registry's sleep policy.

#include <boost/forkjoin/core_latch.hpp>
#include <boost/forkjoin/detail/registry_base.hpp>

#include <memory>

namespace boost::forkjoin::detail {

class spin_latch {
public:
    // The setter is a worker of the waiter's own registry (join).
    explicit spin_latch(worker_thread& waiter) noexcept : waiter_(&waiter) {}

    // The setter runs in another registry (install from another pool): the
    // waiter's registry must be kept alive across the notification, because
    // the moment the waiter sees the latch it may return and its pool may be
    // destroyed.
    struct cross_registry_t {};
    static constexpr cross_registry_t cross_registry{};

    spin_latch(worker_thread& waiter, cross_registry_t) noexcept : waiter_(&waiter), cross_(true) {}

    bool probe() const noexcept { return core_.probe(); }
    core_latch& core() noexcept { return core_; }

    void set() noexcept
    {
        // Copy what we need first: once core_ is set, *this may be gone. The
        // waiting worker itself lives as long as its registry.
        registry_base* const registry = &waiter_->registry();
        std::size_t const target = waiter_->index();
        if (cross_) {
            std::shared_ptr<registry_base> const keep_alive = registry->shared_from_this();
            registry->set_latch_and_notify(core_, target);
        } else {
            registry->set_latch_and_notify(core_, target);
        }
    }

private:
    core_latch core_;
    worker_thread* waiter_;
    bool cross_ = false;
};

} // namespace boost::forkjoin::detail

#endif // BOOST_FORKJOIN_DETAIL_SPIN_LATCH_HPP
