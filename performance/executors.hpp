// Copyright 2026 The Boost.ForkJoin developers.
// Distributed under the Boost Software License, Version 1.0.
// (See accompanying file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
#ifndef BOOST_FORKJOIN_PERFORMANCE_EXECUTORS_HPP
#define BOOST_FORKJOIN_PERFORMANCE_EXECUTORS_HPP

// The executors every workload of workloads.hpp is written against.
//
// A workload is written once, as a template over an executor `Ex`, and uses
// only these members:
//
//   Ex(std::size_t threads)   a pool of `threads` worker threads
//   ex.install(f)             called from the main thread: run f() inside the
//                             pool, wait for it, return its result
//   ex.join(a, b)             called inside install(): run a() and b(),
//                             possibly in parallel, return {a(), b()} when
//                             both are done (void as std::monostate)
//   ex.spawn(f)               called from the main thread: submit f() and
//                             return; see `spawn_kind` for what each does
//   ex.stats()                sleep/wake-up counters (when has_stats)
//   ex.pool()                 the Boost.ForkJoin pool itself (when
//                             has_fibers): the futures workloads, which
//                             measure the library's fibers and have no
//                             counterpart elsewhere, run on it directly
//
// So the algorithm, its sizes and its cut-offs are the same for every
// implementation and only the scheduler differs. The Rust peer
// (rayon/src/main.rs) is the one exception: it is a port, line for line.
//
// The parallel-algorithm workloads (algorithm_workloads.hpp) are the other
// exception: each runs its implementation's own algorithm, found from the
// executor's type (algorithms_of), inside ex.install where it has a pool.
// The std-par executor exists for them alone: it has no join or spawn.
//
// The forkjoin and OpenMP adaptors mirror rayon::join: b() is offered to
// thieves and a() runs at once on the calling thread. oneTBB's
// parallel_invoke makes that choice itself.

#include <boost/forkjoin.hpp>

#include <oneapi/tbb/global_control.h>
#include <oneapi/tbb/parallel_invoke.h>
#include <oneapi/tbb/task_arena.h>
#include <oneapi/tbb/version.h>

#include <omp.h>

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string_view>
#include <type_traits>
#include <utility>
#include <variant>

namespace forkjoin_bench {

// What ex.spawn(f) means for an implementation. The idle-pool workloads
// (noop-spawn, wake-latency, wakeups) need a detached submission from a
// thread outside the pool; not every implementation has one.
enum class spawn_kind {
    detached,    // queued into the pool, the caller returns at once
    inline_call, // serial: f() runs on the caller; the floor of the measure
    region,      // OpenMP: a tiny parallel region per job, the caller waits
    own_deque,   // the main thread is a worker: f() goes on its own deque,
                 // where only a thief or its next wait in the pool finds it
};

// Sleep/wake-up counters, as far as an implementation exposes them.
struct wake_stats {
    std::uint64_t sleeps = 0;
    std::uint64_t wakeups = 0;
    std::uint64_t futile_wakeups = 0;
    std::uint64_t injected = 0;
    std::uint64_t steals = 0;
};

// join(a, b) returns {a(), b()}, a void result as std::monostate, as
// boost::forkjoin::join and rayon::join do; the oneTBB and OpenMP adaptors
// build the pair from their void-callable primitives, as their users do.
template <class F>
using join_value_t =
    std::conditional_t<std::is_void_v<std::invoke_result_t<F&>>, std::monostate, std::invoke_result_t<F&>>;

template <class F>
join_value_t<F> call_for_value(F& f)
{
    if constexpr (std::is_void_v<std::invoke_result_t<F&>>) {
        f();
        return {};
    } else {
        return f();
    }
}

template <class A, class B>
using join_pair_t = std::pair<join_value_t<A>, join_value_t<B>>;

// ---------------------------------------------------------------------------
// serial: join is a then b. The reference every ratio "vs serial" uses.
// ---------------------------------------------------------------------------
class serial_executor {
public:
    static constexpr std::string_view name = "serial";
    static constexpr spawn_kind spawn_mode = spawn_kind::inline_call;
    static constexpr bool has_stats = false;
    static constexpr bool has_fibers = false;

    explicit serial_executor(std::size_t /*threads*/) noexcept {}

    template <class F>
    decltype(auto) install(F&& f)
    {
        return std::forward<F>(f)();
    }

    template <class A, class B>
    join_pair_t<A, B> join(A&& a, B&& b)
    {
        auto ra = call_for_value(a);
        return {std::move(ra), call_for_value(b)};
    }

    template <class F>
    void spawn(F&& f)
    {
        std::forward<F>(f)();
    }
};

// ---------------------------------------------------------------------------
// Boost.ForkJoin, one adaptor per sleep policy.
// ---------------------------------------------------------------------------
template <class Policy>
struct policy_name;
template <>
struct policy_name<boost::forkjoin::sleep::jec> {
    static constexpr std::string_view value = "forkjoin-jec";
};
template <>
struct policy_name<boost::forkjoin::sleep::legacy> {
    static constexpr std::string_view value = "forkjoin-legacy";
};
template <>
struct policy_name<boost::forkjoin::sleep::spin> {
    static constexpr std::string_view value = "forkjoin-spin";
};

template <class Policy, class... PoolOptions>
class forkjoin_executor {
public:
    static constexpr std::string_view name = policy_name<Policy>::value;
    static constexpr spawn_kind spawn_mode = spawn_kind::detached;
    static constexpr bool has_stats = true;
    static constexpr bool has_fibers = true;

    using pool_type = boost::forkjoin::basic_thread_pool<Policy, PoolOptions...>;

    // A pool of its own.
    explicit forkjoin_executor(std::size_t threads) : forkjoin_executor(options(threads)) {}
    explicit forkjoin_executor(boost::forkjoin::pool_options options)
        : own_(std::in_place, std::move(options)), pool_(*own_)
    {
    }
    // A pool it is given: the one compare_policies built for a repetition.
    explicit forkjoin_executor(pool_type& pool) noexcept : pool_(pool) {}

    template <class F>
    decltype(auto) install(F&& f)
    {
        return pool_.install(std::forward<F>(f));
    }

    // The free function, not a member: inside install() it finds the current
    // worker's pool, which is how user code calls it.
    template <class A, class B>
    join_pair_t<A, B> join(A&& a, B&& b)
    {
        return boost::forkjoin::join(std::forward<A>(a), std::forward<B>(b));
    }

    template <class F>
    void spawn(F&& f)
    {
        pool_.spawn(std::forward<F>(f));
    }

    wake_stats stats() const
    {
        auto s = pool_.stats();
        return {s.sleeps, s.wakeups, s.futile_wakeups, s.injected, s.steals};
    }

    pool_type& pool() noexcept { return pool_; }

protected:
    static boost::forkjoin::pool_options options(std::size_t threads)
    {
        boost::forkjoin::pool_options o;
        o.num_threads = threads;
        return o;
    }

private:
    std::optional<pool_type> own_;
    pool_type& pool_;
};

// The default policy with one of the pool's bool options set (the rows that
// give the caller a worker's place), or none (nullptr), and with the pool
// type's options PoolOptions (lazy_joins).
template <bool boost::forkjoin::pool_options::*Option, class... PoolOptions>
class forkjoin_jec_with : public forkjoin_executor<boost::forkjoin::sleep::jec, PoolOptions...> {
    using base = forkjoin_executor<boost::forkjoin::sleep::jec, PoolOptions...>;

public:
    explicit forkjoin_jec_with(std::size_t threads) : base(with_option(threads)) {}

private:
    static boost::forkjoin::pool_options with_option(std::size_t threads)
    {
        boost::forkjoin::pool_options o = base::options(threads);
        if constexpr (Option != nullptr)
            o.*Option = true;
        return o;
    }
};

// The main thread as the pool's worker 0 (pool_options::use_current_thread):
// a pool of N threads is the main thread and N - 1 made ones, as a oneTBB
// arena of N slots or an OpenMP team of N is the caller and N - 1 others.
// install from the main thread then runs in place, so the main thread works
// on the job instead of waiting for it, and on a machine with as many CPUs
// as threads no third thread competes for a CPU. Rayon 1.6 has no such
// option (rayon-core 1.12 added it), so the `rayon` row stays a pool of N
// made threads and a waiting caller.
class forkjoin_main_executor : public forkjoin_jec_with<&boost::forkjoin::pool_options::use_current_thread> {
public:
    static constexpr std::string_view name = "forkjoin-main";
    static constexpr spawn_kind spawn_mode = spawn_kind::own_deque;
    using forkjoin_jec_with::forkjoin_jec_with;
};

// A caller slot (pool_options::caller_slot): N - 1 made threads, and worker
// 0's place taken by whichever thread outside the pool calls install, for
// the length of the call. Built like the other rows, on any thread: the main
// thread takes the place only while it installs, as a oneTBB caller takes an
// arena slot in execute().
class forkjoin_slot_executor : public forkjoin_jec_with<&boost::forkjoin::pool_options::caller_slot> {
public:
    static constexpr std::string_view name = "forkjoin-slot";
    // Outside install the main thread is no worker: spawn injects.
    static constexpr spawn_kind spawn_mode = spawn_kind::detached;
    using forkjoin_jec_with::forkjoin_jec_with;
};

// Lazy joins (lazy_joins.hpp): the default pool whose joins publish their
// second halves only for idle workers, once a heartbeat.
class forkjoin_lazy_executor : public forkjoin_jec_with<nullptr, boost::forkjoin::lazy_joins> {
public:
    static constexpr std::string_view name = "forkjoin-lazy";
    using forkjoin_jec_with::forkjoin_jec_with;
};

// Lazy joins with a caller slot: the pool a program of many small installs
// from one thread would pick.
class forkjoin_lazy_slot_executor
    : public forkjoin_jec_with<&boost::forkjoin::pool_options::caller_slot, boost::forkjoin::lazy_joins> {
public:
    static constexpr std::string_view name = "forkjoin-lazy-slot";
    using forkjoin_jec_with::forkjoin_jec_with;
};

// ---------------------------------------------------------------------------
// oneTBB: a task_arena of `threads` slots; join is parallel_invoke.
// ---------------------------------------------------------------------------
class tbb_executor {
public:
    static constexpr std::string_view name = "tbb";
    static constexpr spawn_kind spawn_mode = spawn_kind::detached;
    static constexpr bool has_stats = false;
    static constexpr bool has_fibers = false;

    // No slot is reserved for the main thread (the 0 below) so that jobs
    // enqueued from outside are served by `threads` workers, like the other
    // pools' spawn. install() still lets the main thread take a free slot.
    // TBB's default cap is hardware_concurrency - 1 workers, which would
    // starve an arena of `threads` worker slots, hence the global_control.
    explicit tbb_executor(std::size_t threads)
        : limit_(oneapi::tbb::global_control::max_allowed_parallelism, threads + 1),
          arena_(static_cast<int>(threads), 0)
    {
        arena_.initialize();
    }

    template <class F>
    decltype(auto) install(F&& f)
    {
        return arena_.execute(std::forward<F>(f));
    }

    template <class A, class B>
    join_pair_t<A, B> join(A&& a, B&& b)
    {
        std::optional<join_value_t<A>> ra;
        std::optional<join_value_t<B>> rb;
        oneapi::tbb::parallel_invoke([&] { ra.emplace(call_for_value(a)); }, [&] { rb.emplace(call_for_value(b)); });
        return {std::move(*ra), std::move(*rb)};
    }

    template <class F>
    void spawn(F&& f)
    {
        arena_.enqueue(std::forward<F>(f));
    }

private:
    oneapi::tbb::global_control limit_;
    oneapi::tbb::task_arena arena_;
};

// ---------------------------------------------------------------------------
// OpenMP tasks: a parallel region of `threads` threads, one `single` thread
// starts the work, join is task + taskwait.
// ---------------------------------------------------------------------------
class omp_executor {
public:
    static constexpr std::string_view name = "omp";
    // OpenMP cannot queue work from outside a parallel region, so a "spawn"
    // opens a tiny region for the job, which is what an OpenMP program
    // would do; the caller waits for it.
    static constexpr spawn_kind spawn_mode = spawn_kind::region;
    static constexpr bool has_stats = false;
    static constexpr bool has_fibers = false;

    explicit omp_executor(std::size_t threads) : threads_(static_cast<int>(threads))
    {
        omp_set_dynamic(0); // exactly `threads` threads per region
    }

    template <class F>
    decltype(auto) install(F&& f)
    {
        using result = std::invoke_result_t<F&>;
        if constexpr (std::is_void_v<result>) {
            region(f);
        } else {
            // The workloads only return scalars, so a default-constructed
            // slot is fine (and, unlike std::optional, GCC's flow analysis
            // can follow it through OpenMP's outlined region).
            result r{};
            auto store = [&] { r = f(); };
            region(store);
            return r;
        }
    }

    template <class A, class B>
    join_pair_t<A, B> join(A&& a, B&& b)
    {
        // `b` and its result live on this frame until the taskwait; pass
        // their addresses so the task neither copies the callable nor
        // depends on OpenMP's rules for references in data-sharing clauses.
        std::optional<join_value_t<B>> rb;
        auto* pb = &b;
        auto* prb = &rb;
#pragma omp task firstprivate(pb, prb)
        prb->emplace(call_for_value(*pb));
        auto ra = call_for_value(a);
#pragma omp taskwait
        return {std::move(ra), std::move(*rb)};
    }

    template <class F>
    void spawn(F&& f)
    {
        install(std::forward<F>(f));
    }

    // The team size, for the algorithm workloads' worksharing loops.
    int threads() const noexcept { return threads_; }

private:
    // One parallel region whose `single` thread runs g(); the others join in
    // through the tasks g() creates. Kept apart from install() so that the
    // result never crosses OpenMP's outlined function (GCC's dangling-pointer
    // analysis misreads that).
    template <class G>
    [[gnu::noinline]] void region(G& g)
    {
#pragma omp parallel num_threads(threads_)
#pragma omp single
        g();
    }

    int threads_;
};

// ---------------------------------------------------------------------------
// std-par: the standard library's parallel algorithms
// (std::execution::par), for the algorithm workloads only
// (algorithm_workloads.hpp). libstdc++'s PSTL runs them on oneTBB's default
// arena, so the only knob is oneTBB's global limit: N threads in all, the
// caller among them. No join, no spawn: the join workloads are n/a for it.
// ---------------------------------------------------------------------------
class stdpar_executor {
public:
    static constexpr std::string_view name = "std-par";
    static constexpr bool algorithms_only = true;
    static constexpr bool has_stats = false;
    static constexpr bool has_fibers = false;

    explicit stdpar_executor(std::size_t threads)
        : limit_(oneapi::tbb::global_control::max_allowed_parallelism, threads)
    {
    }

private:
    oneapi::tbb::global_control limit_;
};

// Whether an executor runs the algorithm workloads only (std-par).
template <class Ex>
inline constexpr bool algorithms_only = requires { requires Ex::algorithms_only; };

} // namespace forkjoin_bench

#endif // BOOST_FORKJOIN_PERFORMANCE_EXECUTORS_HPP
