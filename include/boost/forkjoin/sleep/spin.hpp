// Copyright 2026 The Boost.ForkJoin developers.
// Distributed under the Boost Software License, Version 1.0.
// (See accompanying file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
#ifndef BOOST_FORKJOIN_SLEEP_SPIN_HPP
#define BOOST_FORKJOIN_SLEEP_SPIN_HPP

// sleep::spin: idle workers never block. After each failed search they yield
// the CPU to any other runnable thread and search again.
//
// Trade-off: the lowest possible wake latency (a new job is seen on the next
// search) and nothing at all to do when work is published, for 100% of a
// core per idle worker. Because a worker never sleeps it is always "active",
// so deadlock detection never fires; mark_blocked/mark_unblocked do nothing.

#include <boost/forkjoin/sleep_policy.hpp>

#include <atomic>
#include <cstddef>
#include <thread>

namespace boost::forkjoin::sleep {

struct spin {
    // Nothing is counted, so nothing limits the count beyond the registry.
    static constexpr std::size_t max_threads = static_cast<std::size_t>(-1);

    struct idle_state {};

    explicit spin(sleep_context const&) noexcept {}

    // mask 0: a push never needs us (the word is loaded, and ignored).
    push_filter filter_pushes() const noexcept { return {&always_zero_, 0, 0}; }

    idle_state start_looking(std::size_t) noexcept { return {}; }
    void work_found(idle_state&) noexcept {}

    template <class HasInjectedJobs>
    sleep_result no_work_found(idle_state&, core_latch&, HasInjectedJobs&&) noexcept
    {
        std::this_thread::yield();
        return sleep_result::none;
    }

    void new_internal_jobs(std::size_t, bool) noexcept {}
    void new_injected_jobs(std::size_t, bool) noexcept {}
    void notify_latch_set(std::size_t, bool) noexcept {}
    void notify_worker(std::size_t) noexcept {}
    void mark_blocked() noexcept {}
    void mark_unblocked() noexcept {}

private:
    static inline std::atomic<std::size_t> const always_zero_{0};
};

static_assert(sleep_policy<spin>);

} // namespace boost::forkjoin::sleep

#endif // BOOST_FORKJOIN_SLEEP_SPIN_HPP
