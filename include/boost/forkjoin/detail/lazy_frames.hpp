// Copyright 2026 The Boost.ForkJoin developers.
// Distributed under the Boost Software License, Version 1.0.
// (See accompanying file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
#ifndef BOOST_FORKJOIN_DETAIL_LAZY_FRAMES_HPP
#define BOOST_FORKJOIN_DETAIL_LAZY_FRAMES_HPP

// A worker's lazy joins whose second half nobody can see yet: one node per
// join, on the join's own stack frame, linked newest to oldest. Only the
// owner touches the list, so nothing here is atomic: that is the whole
// saving over an eager join's push and pop.
//
// Publishing takes the oldest node off the list (the join nearest the
// root: the most work for a thief) and pushes its job on the deque; the
// nodes left are always the newest ones, so a join that finds its node at
// the head knows nobody saw its second half and runs it inline, and one
// that does not finds it published.
//
// The heartbeat: how often the owner looks whether another worker is idle,
// and publishes if one is. Reading the clock at every join would cost more
// than the join (20 ns against a few), so the owner counts joins down, looks
// when the count runs out, and tunes the count with the clock so that its
// looks fall a quarter to a whole heartbeat apart whatever the joins cost:
// once per up to 1,024 joins in a fine-grained recursion, at every join when
// each takes milliseconds; and at the first join after an idle period.
// docs: doc/lazy_joins.adoc.

#include <boost/forkjoin/detail/config.hpp>
#include <boost/forkjoin/detail/job.hpp>

#include <chrono>
#include <cstddef>
#include <cstdint>

namespace boost::forkjoin::detail {

class worker_thread;

// A join's node. Its job (the stack_job that thieves and the deque see) is
// built only when the frame is published: most lazy joins are never
// published, and building a job costs more stores than the rest of the
// join. `job` builds it for its owner and returns it, or, given nullptr,
// destroys it again (a publication that failed); both on the owner.
struct lazy_frame {
    lazy_frame* older;
    job_ref (*job)(lazy_frame& frame, worker_thread* owner) noexcept;
};

class lazy_frames {
public:
    using clock = std::chrono::steady_clock;

    explicit lazy_frames(std::chrono::nanoseconds heartbeat) noexcept : heartbeat_(heartbeat) {}

    // The frame a new join links to (lazy_frame::older).
    lazy_frame* newest() const noexcept { return newest_; }
    // Precondition: frame.older == newest().
    BOOST_FORKJOIN_FORCEINLINE void push(lazy_frame& frame) noexcept { newest_ = &frame; }

    // True if `frame` was still unpublished: it is taken off the list and
    // its job is the caller's to run. Precondition: every frame pushed after
    // it was popped or published.
    BOOST_FORKJOIN_FORCEINLINE bool pop(lazy_frame& frame) noexcept
    {
        if (newest_ != &frame)
            return false;
        newest_ = frame.older;
        return true;
    }

    bool empty() const noexcept { return newest_ == nullptr; }

    // Counts one join down; true when the count ran out and the owner should
    // call beat().
    BOOST_FORKJOIN_FORCEINLINE bool count_down() noexcept { return --countdown_ == 0; }

    // Reads the clock and retunes the countdown so that the owner's looks
    // at the idle workers fall a quarter to a whole heartbeat apart: double
    // the count while they come sooner than that, never past max_countdown
    // joins. A look that comes too late starts again from one join: the
    // joins got slower (a recursion reached coarse leaves), and every join
    // counted at the old rate would delay the next look.
    void beat() noexcept
    {
        clock::time_point const now = clock::now();
        auto const since_look = now - last_look_;
        last_look_ = now;
        if (since_look > heartbeat_)
            period_ = 1;
        else if (since_look < heartbeat_ / 4 && period_ < max_countdown)
            period_ *= 2;
        countdown_ = period_;
    }

    // The worker found work after an idle period: its next join looks at
    // once. Its pool's other workers are likely idle too (a new install, a
    // stolen job), and the countdown tuned for the last job would delay
    // their first work by that job's rate of joins.
    void look_at_next_join() noexcept { countdown_ = 1; }

    // Publishes up to `count` of the oldest frames, oldest first, with
    // publish(lazy_frame&), which returns false if it could not (no memory
    // to grow the deque): that frame and the newer ones stay on the list.
    // Returns how many it published. One pass each way over the list:
    // publication is rare (at most once a heartbeat, or before a wait) and
    // the list is as long as the recursion is deep.
    template <class Publish>
    std::size_t publish_oldest(std::size_t count, Publish publish) noexcept
    {
        // Reverse the list: oldest first, linked through `older`.
        lazy_frame* oldest = nullptr;
        while (newest_ != nullptr) {
            lazy_frame* const next = newest_->older;
            newest_->older = oldest;
            oldest = newest_;
            newest_ = next;
        }
        std::size_t published = 0;
        while (oldest != nullptr && published < count && publish(*oldest)) {
            oldest = oldest->older;
            ++published;
        }
        // What is left goes back, newest first.
        while (oldest != nullptr) {
            lazy_frame* const next = oldest->older;
            oldest->older = newest_;
            newest_ = oldest;
            oldest = next;
        }
        return published;
    }

private:
    // At a few nanoseconds a join, a clock read (about 20 ns) every 1,024
    // joins costs a few hundredths of a nanosecond each; more would only
    // lengthen the delay after a sudden slowdown.
    static constexpr std::uint32_t max_countdown = 1024;

    lazy_frame* newest_ = nullptr;
    std::uint32_t countdown_ = 1;
    std::uint32_t period_ = 1;
    std::chrono::nanoseconds heartbeat_;
    clock::time_point last_look_{};
};

} // namespace boost::forkjoin::detail

#endif // BOOST_FORKJOIN_DETAIL_LAZY_FRAMES_HPP
