// Copyright 2026 The Boost.ForkJoin developers.
// Distributed under the Boost Software License, Version 1.0.
// (See accompanying file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
#ifndef BOOST_FORKJOIN_DETAIL_STACK_POOL_HPP
#define BOOST_FORKJOIN_DETAIL_STACK_POOL_HPP

// Fiber stacks, cached per worker thread.
//
// A fiber is created on the worker that first runs its task and its stack
// is released on whichever worker resumed it last, so each worker keeps a
// small free list of stacks. Getting one from the list and giving it back
// costs no lock and no system call: in the steady state a future costs no
// mmap, no mprotect and no malloc of its stack.
//
// The cache is a thread_local of the worker thread rather than a member of
// the worker: a worker thread belongs to one registry for its whole life,
// so the settings (size, guard page) are those of its registry, and the
// thread_local's destructor frees the cached stacks when the worker exits,
// i.e. inside the pool's destructor. No lock, no leak.
//
// Stacks come from Boost.Context: fixedsize_stack (malloc, no guard) or
// protected_fixedsize_stack (mmap plus one PROT_NONE guard page below the
// stack, so that an overflow faults instead of overwriting the neighbour).
// A guarded stack is one more mapping for the kernel: Linux's default
// vm.max_map_count of 65530 bounds the guarded fibers alive at once to
// about 32,000 (two mappings each), which is why guard pages are opt-in.

#include <boost/context/fixedsize_stack.hpp>
#include <boost/context/protected_fixedsize_stack.hpp>
#include <boost/context/stack_context.hpp>

#include <cstddef>
#include <vector>

namespace boost::forkjoin::detail {

class stack_cache {
public:
    // Stacks kept per worker beyond those in use: enough for a worker that
    // alternates creating and finishing fibers in bursts, small enough
    // (8 MiB at the default 64 KiB) not to matter when it idles.
    static constexpr std::size_t max_cached = 128;

    stack_cache() = default;
    stack_cache(stack_cache const&) = delete;
    stack_cache& operator=(stack_cache const&) = delete;

    ~stack_cache()
    {
        for (auto& sctx : free_)
            release(sctx, size_, guard_);
    }

    // The first call on a thread fixes its settings: every worker of one
    // registry passes the same ones.
    boost::context::stack_context allocate(std::size_t size, bool guard)
    {
        if (size_ == 0) {
            size_ = size;
            guard_ = guard;
            free_.reserve(max_cached);
        }
        if (!free_.empty()) {
            boost::context::stack_context const sctx = free_.back();
            free_.pop_back();
            return sctx;
        }
        if (guard_)
            return boost::context::protected_fixedsize_stack(size_).allocate();
        return boost::context::fixedsize_stack(size_).allocate();
    }

    // `size` and `guard` are the stack's own: a thread whose cache holds
    // other stacks (or none yet) frees it rather than keeping it.
    void deallocate(boost::context::stack_context& sctx, std::size_t size, bool guard) noexcept
    {
        if (size == size_ && guard == guard_ && free_.size() < max_cached)
            free_.push_back(sctx); // capacity reserved: cannot throw
        else
            release(sctx, size, guard);
    }

    std::size_t cached() const noexcept { return free_.size(); }

private:
    static void release(boost::context::stack_context& sctx, std::size_t size, bool guard) noexcept
    {
        if (guard)
            boost::context::protected_fixedsize_stack(size).deallocate(sctx);
        else
            boost::context::fixedsize_stack(size).deallocate(sctx);
    }

    std::size_t size_ = 0;
    bool guard_ = false;
    std::vector<boost::context::stack_context> free_;
};

// Never inlined, and opaque to the optimizer: a fiber may leave one thread
// at a suspension point and resume on another, and a compiler that thinks
// it is still on the first thread could reuse the first thread's TLS
// address. Every read of a thread_local on a path a fiber runs goes
// through one of these functions.
[[gnu::noinline]] inline stack_cache& this_thread_stacks() noexcept
{
    static thread_local stack_cache cache;
    asm volatile("" ::: "memory");
    return cache;
}

// The StackAllocator Boost.Context's fiber is created with. allocate() runs
// on the worker that first runs the task; deallocate() runs on the worker
// that resumed the fiber when it finished, which may be another one: both
// use the cache of the thread they run on, never one remembered from
// elsewhere.
struct cached_stack_allocator {
    std::size_t size;
    bool guard;

    boost::context::stack_context allocate() { return this_thread_stacks().allocate(size, guard); }
    void deallocate(boost::context::stack_context& sctx) noexcept
    {
        this_thread_stacks().deallocate(sctx, size, guard);
    }
};

} // namespace boost::forkjoin::detail

#endif // BOOST_FORKJOIN_DETAIL_STACK_POOL_HPP
