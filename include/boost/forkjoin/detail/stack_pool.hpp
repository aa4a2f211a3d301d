// Copyright 2026 The Boost.ForkJoin developers.
// Distributed under the Boost Software License, Version 1.0.
// (See accompanying file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
#ifndef BOOST_FORKJOIN_DETAIL_STACK_POOL_HPP
#define BOOST_FORKJOIN_DETAIL_STACK_POOL_HPP

// Fiber stacks, cached per worker thread.
//
// A fiber is created on its home worker, lives there and finishes there
// (fiber_task.hpp), so each worker keeps a small free list of stacks.
// Getting one from the list and giving it back costs no lock and no system
// call: in the steady state a future costs no mmap, no mprotect and no
// malloc of its stack.
//
// The cache is a thread_local of the worker thread rather than a member of
// the worker: a thread is one registry's worker at a time, so the settings
// (size, guard page) are those of its registry while it caches. A worker
// clears the cache when it stops being one (release_this_thread_stacks,
// from registry_base::run_worker, or stop() for a use_current_thread pool's
// worker 0), so a thread that goes on after its pool (that worker 0, or a
// spawn_handler's thread once run() returns) keeps no stacks, and a later
// pool on it caches its own. No lock, no leak; the thread_local's destructor
// frees what a thread that exits still holds.
//
// The stacks are allocated here rather than by Boost.Context's
// fixedsize_stack and protected_fixedsize_stack, for two reasons:
//  * protected_fixedsize_stack ignores the result of the mprotect that makes
//    its guard page (an assertion in debug builds, nothing with NDEBUG), and
//    mprotect does fail once the process has vm.max_map_count mappings
//    (65530 by default on Linux: about 32,000 guarded stacks). A stack
//    without its guard page is exactly what guard pages exist to prevent, so
//    here a failed mprotect fails the allocation, and the task's future
//    holds the error.
//  * Boost.Context's allocators read its compiled stack_traits; without
//    them, a program built on the header-only ucontext back end (for the
//    sanitizers, see doc/futures.adoc) needs nothing from libboost_context.
//
// A guarded stack is a PROT_NONE guard region below the usable stack, which
// keeps the full requested size; the two are two kernel mappings. The guard
// region is 1 MiB (64 KiB on 32-bit targets), not one page: a frame larger
// than the stack's free space (a 72 KB local array on a 64 KiB stack) moves
// the stack pointer past a single page at once, and, built without
// -fstack-clash-protection (which probes each page of a large frame as it
// allocates it), its first write lands below the guard page, in whatever
// mapping lies there (another fiber's stack, silently). A frame up to the
// guard region's size faults in it instead, and stack_overflow.hpp reports
// it. The region is reserved, never touched: it costs address space and a
// mapping, not memory, nor commit charge (it is mapped PROT_NONE with
// MAP_NORESERVE, and only the usable part is made writable). The size
// follows Linux's own gap below a growing thread stack (stack_guard_gap,
// 256 pages).

#include <boost/forkjoin/detail/config.hpp>

#include <boost/context/stack_context.hpp>

#include <cerrno>
#include <cstddef>
#include <cstdlib>
#include <limits>
#include <new>
#include <system_error>
#include <vector>

#include <sys/mman.h>
#include <unistd.h>

#if defined(BOOST_FORKJOIN_ASAN)
#  include <sanitizer/asan_interface.h>
#endif

namespace boost::forkjoin::detail {

// Allocation and release of one stack, without a cache.
struct fiber_stack_allocation {
    static std::size_t page_size() noexcept
    {
        static std::size_t const size = static_cast<std::size_t>(::sysconf(_SC_PAGESIZE));
        return size;
    }

    // The PROT_NONE region below a guarded stack (see above).
    static std::size_t guard_size() noexcept
    {
        constexpr std::size_t wanted = sizeof(void*) >= 8 ? std::size_t{1} << 20 : std::size_t{64} << 10;
        std::size_t const page = page_size();
        return wanted < page ? page : (wanted + page - 1) / page * page;
    }

    // `size` usable bytes. Throws std::bad_alloc (unguarded) or
    // std::system_error (guarded: mmap or mprotect failed; the message
    // says which).
    static boost::context::stack_context allocate(std::size_t size, bool guard)
    {
        boost::context::stack_context sctx;
        if (!guard) {
            void* const bottom = std::malloc(size);
            if (bottom == nullptr)
                throw std::bad_alloc();
            sctx.size = size;
            sctx.sp = static_cast<char*>(bottom) + size;
            return sctx;
        }
        std::size_t const page = page_size();
        std::size_t const guard_bytes = guard_size();
        if (size > std::numeric_limits<std::size_t>::max() - guard_bytes - 2 * page)
            throw std::bad_alloc();
        std::size_t const usable = (size + page - 1) / page * page;
        // All of it inaccessible and uncommitted first, then the usable part
        // writable: the guard region is never charged as memory, even under
        // strict overcommit (vm.overcommit_memory = 2).
        void* const base = ::mmap(nullptr, guard_bytes + usable, PROT_NONE,
                                  MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
        if (base == MAP_FAILED)
            throw std::system_error(errno, std::system_category(),
                                    "boost::forkjoin: cannot map a guarded fiber stack");
        char* const bottom = static_cast<char*>(base) + guard_bytes;
        if (::mprotect(bottom, usable, PROT_READ | PROT_WRITE) != 0) {
            // Splitting the reservation into guard and stack needs a second
            // mapping: this is where vm.max_map_count is hit.
            int const error = errno;
            ::munmap(base, guard_bytes + usable);
            throw std::system_error(error, std::system_category(),
                                    "boost::forkjoin: cannot make the guard page of a fiber stack "
                                    "(too many mappings? see vm.max_map_count)");
        }
        sctx.size = usable;
        sctx.sp = bottom + usable;
        return sctx;
    }

    static void deallocate(boost::context::stack_context const& sctx, bool guard) noexcept
    {
        char* const bottom = static_cast<char*>(sctx.sp) - sctx.size;
        if (!guard) {
            std::free(bottom);
            return;
        }
        std::size_t const guard_bytes = guard_size();
        ::munmap(bottom - guard_bytes, sctx.size + guard_bytes);
    }
};

class stack_cache {
public:
    // Stacks kept per worker beyond those in use: enough for a worker that
    // alternates creating and finishing fibers in bursts, small enough
    // (8 MiB at the default 64 KiB) not to matter when it idles.
    static constexpr std::size_t max_cached = 128;

    stack_cache() = default;
    stack_cache(stack_cache const&) = delete;
    stack_cache& operator=(stack_cache const&) = delete;

    ~stack_cache() { clear(); }

    // The first call on a thread fixes its settings: every worker of one
    // registry passes the same ones. The reserve comes first: if it throws,
    // the settings stay unset and the next call tries again, so a cache with
    // settings always has its capacity, which deallocate relies on.
    // `fresh` says whether the stack was mapped now rather than reused.
    boost::context::stack_context allocate(std::size_t size, bool guard, bool& fresh)
    {
        fresh = true;
        if (size_ == 0) {
            free_.reserve(max_cached);
            size_ = size;
            guard_ = guard;
        }
        if (free_.empty() || size != size_ || guard != guard_)
            return fiber_stack_allocation::allocate(size, guard);
        fresh = false;
        boost::context::stack_context const sctx = free_.back();
        free_.pop_back();
#if defined(BOOST_FORKJOIN_ASAN)
        // The frames of the fiber that last ran here never returned (a
        // finished fiber switches away from inside them): clear their
        // shadow, or the next fiber's first writes look like overflows.
        ASAN_UNPOISON_MEMORY_REGION(static_cast<char*>(sctx.sp) - sctx.size, sctx.size);
#endif
        return sctx;
    }

    // `size` and `guard` are the stack's own: a thread whose cache holds
    // other stacks frees it rather than keeping it. noexcept (it runs as a
    // fiber ends), so it never grows the vector: it keeps a stack only in
    // capacity already there, and frees it otherwise.
    void deallocate(boost::context::stack_context const& sctx, std::size_t size, bool guard) noexcept
    {
        if (size == size_ && guard == guard_ && free_.size() < max_cached && free_.size() < free_.capacity())
            free_.push_back(sctx); // within capacity: cannot allocate, cannot throw
        else
            fiber_stack_allocation::deallocate(sctx, guard);
    }

    std::size_t cached() const noexcept { return free_.size(); }

    // Frees every cached stack and forgets the settings, as if the thread
    // were new: at the thread's exit, and for a thread that goes on after
    // its pool (use_current_thread), which a later pool, perhaps with other
    // settings, may adopt again.
    void clear() noexcept
    {
        for (auto const& sctx : free_)
            fiber_stack_allocation::deallocate(sctx, guard_);
        free_ = std::vector<boost::context::stack_context>();
        size_ = 0;
        guard_ = false;
    }

private:
    std::size_t size_ = 0;
    bool guard_ = false;
    std::vector<boost::context::stack_context> free_;
};

inline stack_cache& this_thread_stacks() noexcept
{
    static thread_local stack_cache cache;
    return cache;
}

inline void release_this_thread_stacks() noexcept { this_thread_stacks().clear(); }

// The StackAllocator Boost.Context's fiber is created with. Both calls run
// on the fiber's home worker (the fiber never leaves it), so both use that
// thread's cache. The stack handed out is recorded in `*given`; after a
// guarded stack is mapped afresh (the cold path: never in the steady
// state), `on_new_guarded` prepares the thread to report an overflow
// (stack_overflow.hpp).
struct cached_stack_allocator {
    std::size_t size;
    bool guard;
    boost::context::stack_context* given;
    void (*on_new_guarded)() noexcept;

    boost::context::stack_context allocate()
    {
        bool fresh = false;
        boost::context::stack_context const sctx = this_thread_stacks().allocate(size, guard, fresh);
        if (fresh && guard && on_new_guarded != nullptr)
            on_new_guarded();
        *given = sctx;
        return sctx;
    }
    void deallocate(boost::context::stack_context& sctx) noexcept
    {
        this_thread_stacks().deallocate(sctx, size, guard);
    }
};

} // namespace boost::forkjoin::detail

#endif // BOOST_FORKJOIN_DETAIL_STACK_POOL_HPP
