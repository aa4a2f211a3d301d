// fence_litmus.cpp -- store-buffering litmus tests for the two memory-ordering
// rules the Boost.ForkJoin sleep policies rely on.  Standalone: C++20,
// std::atomic + std::thread, no library dependency.
//
//   g++ -std=c++20 -O2 -pthread fence_litmus.cpp -o fence_litmus
//   ./fence_litmus [--iterations N] [--no-pin]
//
// Default: 2,000,000 iterations per variant, 5 variants: ~1.5 s on an idle
// 2-core x86 VM, ~16 s when other jobs load it.  The two threads are pinned
// to the first two CPUs the process may use (--no-pin to let the OS place
// them: on a loaded machine it then often runs both on one core and nothing
// weak can show).
//
// Pair (a), jec: the two seq-cst fences of rayon's "final injector check".
//   injector:  push job (store J)      ; [fence] ; read sleepers (load C)
//   sleeper:   sleeping++ (RMW on C)   ; [fence] ; has_injected_jobs (load J)
//   forbidden: injector reads 0 sleepers AND sleeper sees no job
//              (= the job sits in the injector, nobody wakes for it).
// Pair (b), legacy: "seq-cst latch + seq-cst tickle" (README Scenario 2).
//   setter:    latch.set (store L)     ; tickle: load sleepy word (load S)
//   sleeper:   get_sleepy (CAS on S)   ; probe latch (load L)
//   forbidden: tickle sees nobody sleepy AND the sleepy worker sees the latch
//              unset (= it may go to sleep on a set latch, nobody wakes it).
//
// Each pair runs a WEAK variant (release/acquire only, no fence) and the REAL
// variant (seq-cst fences / seq-cst operations, as the protocols require).
// The C++ memory model allows the forbidden outcome for WEAK and forbids it
// for REAL; on x86 (TSO) WEAK can show it because the setter's/injector's
// plain store may still sit in its store buffer when its later load executes.
// Pair (a) also runs an informational variant where the publish is itself an
// RMW (the has-injected-jobs counter's fetch_add) without fences: allowed by
// C++ (and observable on ARM/POWER), but a locked RMW drains the x86 store
// buffer, so x86 should never show it.
//
// Exit status: 1 if a REAL variant ever shows the forbidden outcome, else 0
// (whether WEAK shows it is reported, not required: it depends on hardware
// and on the two threads actually running at the same time).
#include <boost/forkjoin/detail/asymmetric_fence.hpp>

#include <atomic>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>
#include <thread>
#include <vector>
#if defined(__linux__)
#include <pthread.h>
#include <sched.h>
#endif

namespace {

constexpr std::size_t kSlots = 512;  // fresh, zeroed locations per iteration

struct alignas(64) Cell {
    std::atomic<std::uint32_t> v{0};
};

struct Arena {
    Cell x[kSlots];  // J (injector) / L (latch)
    Cell y[kSlots];  // C (counters) / S (sleepy word)
    std::uint32_t r0[kSlots];
    std::uint32_t r1[kSlots];
};

// Two-thread spin barrier: round k completes when the counter reaches 2k.
// The waits spin tightly so that both threads leave it within a few cycles
// of each other; they yield after a while in case the machine is loaded.
class Barrier2 {
    alignas(64) std::atomic<std::uint64_t> count_{0};

public:
    void wait(std::uint64_t& round) {
        ++round;
        count_.fetch_add(1, std::memory_order_acq_rel);
        std::uint64_t target = 2 * round;
        unsigned spins = 0;
        while (count_.load(std::memory_order_acquire) < target) {
            if (++spins > 4000) {
                std::this_thread::yield();
                spins = 0;
            }
        }
    }
    void reset() { count_.store(0, std::memory_order_relaxed); }
};

// After the barrier each thread burns a pseudo-random number of cycles
// (0..kJitter-1 loop turns) so that over many iterations the two threads'
// accesses land at every relative offset, including the few cycles where
// both stores are still in flight (the barrier alone leaves a systematic skew
// of about one cache-line transfer between the threads).
#ifndef LITMUS_JITTER
#define LITMUS_JITTER 256
#endif
constexpr unsigned kJitter = LITMUS_JITTER;
inline unsigned next_rand(std::uint32_t& s) {
    s ^= s << 13;
    s ^= s >> 17;
    s ^= s << 5;
    return s;
}
inline void burn(unsigned n) {
    for (unsigned k = 0; k < n; ++k) asm volatile("" ::: "memory");
}

constexpr auto rlx = std::memory_order_relaxed;
constexpr auto acq = std::memory_order_acquire;
constexpr auto rel = std::memory_order_release;
constexpr auto acqrel = std::memory_order_acq_rel;
constexpr auto sc = std::memory_order_seq_cst;

// ---- pair (a): inject-then-read-sleepers vs add-sleeper-then-read-injector
struct InjectWeak {
    static constexpr const char* name = "a/jec  WEAK  push(rel); load counters(acq) | sleeping++(acq_rel RMW); load injector(acq)";
    static constexpr bool real = false;
    static std::uint32_t t0(Cell& j, Cell& c) { j.v.store(1, rel); return c.v.load(acq); }
    static std::uint32_t t1(Cell& j, Cell& c) { c.v.fetch_add(1, acqrel); return j.v.load(acq); }
};
struct InjectRmwNoFence {
    static constexpr const char* name = "a/jec  INFO  injected++(rel RMW); load counters(acq) | sleeping++(acq_rel RMW); load injector(acq)";
    static constexpr bool real = false;
    static std::uint32_t t0(Cell& j, Cell& c) { j.v.fetch_add(1, rel); return c.v.load(acq); }
    static std::uint32_t t1(Cell& j, Cell& c) { c.v.fetch_add(1, acqrel); return j.v.load(acq); }
};
struct InjectReal {
    static constexpr const char* name = "a/jec  REAL  push(rel); fence(sc); load counters | sleeping++(sc RMW); fence(sc); load injector";
    static constexpr bool real = true;
    static std::uint32_t t0(Cell& j, Cell& c) {
        j.v.store(1, rel);
        std::atomic_thread_fence(sc);
        return c.v.load(rlx);
    }
    static std::uint32_t t1(Cell& j, Cell& c) {
        c.v.fetch_add(1, sc);
        std::atomic_thread_fence(sc);
        return j.v.load(rlx);
    }
};

// ---- pair (b): set-latch-then-tickle vs get-sleepy-then-probe-latch
constexpr std::uint32_t kSleepy = 4;  // (index 1 + 1) << 1
struct LatchWeak {
    static constexpr const char* name = "b/legacy WEAK latch.store(rel); tickle load(acq) | get_sleepy CAS(acq_rel); probe load(acq)";
    static constexpr bool real = false;
    static std::uint32_t t0(Cell& l, Cell& s) { l.v.store(1, rel); return s.v.load(acq); }
    static std::uint32_t t1(Cell& l, Cell& s) {
        std::uint32_t expected = 0;
        if (!s.v.compare_exchange_strong(expected, kSleepy, acqrel, acq)) return 2;  // cannot happen
        return l.v.load(acq);
    }
};
struct LatchReal {
    static constexpr const char* name = "b/legacy REAL latch.store(sc); tickle load(sc) | get_sleepy CAS(sc); probe load(sc)";
    static constexpr bool real = true;
    static std::uint32_t t0(Cell& l, Cell& s) { l.v.store(1, sc); return s.v.load(sc); }
    static std::uint32_t t1(Cell& l, Cell& s) {
        std::uint32_t expected = 0;
        if (!s.v.compare_exchange_strong(expected, kSleepy, sc, sc)) return 2;
        return l.v.load(sc);
    }
};

struct Options {
    std::uint64_t iterations = 2'000'000;
    bool pin = true;
};

int g_cpu[2] = {-1, -1};  // the two CPUs to pin to (-1: do not pin)

void find_cpus() {
#if defined(__linux__)
    cpu_set_t set;
    CPU_ZERO(&set);
    if (sched_getaffinity(0, sizeof(set), &set) != 0) return;
    int k = 0;
    for (int c = 0; c < CPU_SETSIZE && k < 2; ++c)
        if (CPU_ISSET(c, &set)) g_cpu[k++] = c;
    if (k < 2) g_cpu[0] = g_cpu[1] = -1;
#endif
}

void pin_to(int which) {
#if defined(__linux__)
    if (g_cpu[which] < 0) return;
    cpu_set_t set;
    CPU_ZERO(&set);
    CPU_SET(g_cpu[which], &set);
    (void)pthread_setaffinity_np(pthread_self(), sizeof(set), &set);
#else
    (void)which;
#endif
}

// ---- pair (c): the deque's pop vs steal, with the asymmetric fence
// The owner's pop stores bottom, then loads top, with only a compiler barrier
// between (light_fence); a thief's steal orders its accesses with
// membarrier(2) instead (heavy_fence), which forces a full barrier on every
// running thread of the process. Both come from the library's own header.
struct DequeWeak {
    static constexpr const char* name = "c/deque WEAK store bottom; compiler barrier; load top | store top; compiler barrier; load bottom";
    static constexpr bool real = false;
    static std::uint32_t t0(Cell& b, Cell& t) {
        b.v.store(1, rlx);
        std::atomic_signal_fence(sc);
        return t.v.load(rlx);
    }
    static std::uint32_t t1(Cell& b, Cell& t) {
        t.v.store(1, rlx);
        std::atomic_signal_fence(sc);
        return b.v.load(rlx);
    }
};
struct DequeReal {
    static constexpr const char* name = "c/deque REAL store bottom; light_fence; load top | store top; heavy_fence (membarrier); load bottom";
    static constexpr bool real = true;
    static std::uint32_t t0(Cell& b, Cell& t) {
        b.v.store(1, rlx);
        boost::forkjoin::detail::light_fence(boost::forkjoin::detail::asymmetric_fences_available());
        return t.v.load(rlx);
    }
    static std::uint32_t t1(Cell& b, Cell& t) {
        t.v.store(1, rlx);
        boost::forkjoin::detail::heavy_fence(boost::forkjoin::detail::asymmetric_fences_available());
        return b.v.load(rlx);
    }
};

struct Result {
    std::uint64_t forbidden = 0;
    std::uint64_t only0 = 0, only1 = 0, both = 0;  // the three allowed outcomes
    double seconds = 0;
};

// Runs `iters` iterations; per iteration both threads meet at the barrier and
// immediately run their two accesses on a fresh pair of zeroed cells.
template <class V>
Result run(const Options& opt) {
    auto arena = std::make_unique<Arena>();
    Barrier2 bar;
    Result res;
    const std::uint64_t batches = (opt.iterations + kSlots - 1) / kSlots;
    auto start = std::chrono::steady_clock::now();

    std::thread helper([&] {
        if (opt.pin) pin_to(1);
        std::uint64_t round = 0;
        std::uint32_t seed = 0x9e3779b9u;
        for (std::uint64_t b = 0; b < batches; ++b) {
            bar.wait(round);  // arena zeroed
            for (std::size_t i = 0; i < kSlots; ++i) {
                unsigned d = next_rand(seed) % kJitter;
                bar.wait(round);
                burn(d);
                arena->r1[i] = V::t1(arena->x[i], arena->y[i]);
            }
            bar.wait(round);  // batch done
        }
    });
    if (opt.pin) pin_to(0);
    std::uint64_t round = 0;
    std::uint32_t seed = 0x2545f491u;
    for (std::uint64_t b = 0; b < batches; ++b) {
        for (std::size_t i = 0; i < kSlots; ++i) {
            arena->x[i].v.store(0, rlx);
            arena->y[i].v.store(0, rlx);
        }
        bar.wait(round);
        for (std::size_t i = 0; i < kSlots; ++i) {
            unsigned d = next_rand(seed) % kJitter;
            bar.wait(round);
            burn(d);
            arena->r0[i] = V::t0(arena->x[i], arena->y[i]);
        }
        bar.wait(round);
        for (std::size_t i = 0; i < kSlots; ++i) {
            // r0: what thread 0 read from y (sleepers / sleepy word): 0 = old
            // r1: what thread 1 read from x (injector / latch):       0 = old
            bool old0 = arena->r0[i] == 0, old1 = arena->r1[i] == 0;
            if (old0 && old1) ++res.forbidden;
            else if (old0) ++res.only0;
            else if (old1) ++res.only1;
            else ++res.both;
        }
    }
    helper.join();
    res.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    return res;
}

template <class V>
bool report(const Options& opt, bool& real_failed) {
    Result r = run<V>(opt);
    std::uint64_t n = r.forbidden + r.only0 + r.only1 + r.both;
    std::printf("%-110s forbidden(both-old)=%llu / %llu  [t0-old %llu, t1-old %llu, both-new %llu]  %.2fs\n",
                V::name, (unsigned long long)r.forbidden, (unsigned long long)n,
                (unsigned long long)r.only0, (unsigned long long)r.only1,
                (unsigned long long)r.both, r.seconds);
    if (r.forbidden == 0 && r.both == 0)
        std::printf("  warning: the threads never overlapped (both-new = 0): were they on one core?\n");
    if (V::real && r.forbidden != 0) {
        std::printf("  ERROR: the forbidden outcome was observed with the seq-cst variant\n");
        real_failed = true;
    }
    return r.forbidden != 0;
}

}  // namespace

int main(int argc, char** argv) {
    Options opt;
    for (int i = 1; i < argc; ++i) {
        std::string a = argv[i];
        if ((a == "--iterations" || a == "-n") && i + 1 < argc) {
            opt.iterations = std::strtoull(argv[++i], nullptr, 10);
        } else if (a.rfind("--iterations=", 0) == 0) {
            opt.iterations = std::strtoull(a.c_str() + 13, nullptr, 10);
        } else if (a == "--pin") {
            opt.pin = true;
        } else if (a == "--no-pin") {
            opt.pin = false;
        } else {
            std::fprintf(stderr, "usage: %s [--iterations N] [--no-pin]\n", argv[0]);
            return 2;
        }
    }
    if (opt.iterations == 0) opt.iterations = 1;
    unsigned hw = std::thread::hardware_concurrency();
    if (opt.pin) find_cpus();
    std::printf("fence_litmus: %llu iterations per variant, %u hardware threads, ",
                (unsigned long long)opt.iterations, hw);
    if (g_cpu[0] >= 0) std::printf("pinned to CPUs %d and %d\n", g_cpu[0], g_cpu[1]);
    else std::printf("not pinned\n");
    if (hw < 2) std::printf("warning: fewer than 2 hardware threads, the weak outcomes cannot show\n");

    auto t0 = std::chrono::steady_clock::now();
    bool real_failed = false;
    bool weak_a = report<InjectWeak>(opt, real_failed);
    report<InjectRmwNoFence>(opt, real_failed);
    report<InjectReal>(opt, real_failed);
    bool weak_b = report<LatchWeak>(opt, real_failed);
    report<LatchReal>(opt, real_failed);
    bool const asymmetric = boost::forkjoin::detail::asymmetric_fences_available();
    std::printf("pair c: membarrier %s\n", asymmetric ? "available: the REAL variant uses it"
                                                      : "NOT available: the REAL variant uses seq-cst fences");
    bool weak_c = report<DequeWeak>(opt, real_failed);
    report<DequeReal>(opt, real_failed);
    double total = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();

    std::printf("weak variants showed the lost wake-up: pair a %s, pair b %s, pair c %s\n",
                weak_a ? "YES" : "no", weak_b ? "YES" : "no", weak_c ? "YES" : "no");
    std::printf("%s (%.1fs)\n", real_failed ? "FAIL: a REAL variant showed the forbidden outcome"
                                            : "PASS: the REAL variants never showed the forbidden outcome",
                total);
    // One check per pair: its REAL variant never showed the forbidden outcome.
    std::printf("%d passed, %d failed\n", real_failed ? 0 : 3, real_failed ? 1 : 0);
    return real_failed ? 1 : 0;
}
