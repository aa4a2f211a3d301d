// fence_litmus.cpp -- store-buffering litmus tests for the memory-ordering
// rules the Boost.ForkJoin sleep policies rely on.  Standalone: C++20,
// std::atomic + std::thread, no library dependency.
//
//   g++ -std=c++20 -O2 -pthread fence_litmus.cpp -o fence_litmus
//   ./fence_litmus [--iterations N] [--membarrier-iterations N] [--no-pin]
//
// Default: 2,000,000 iterations per variant (250,000 for the two that call
// membarrier), 15 variants: ~10 s on an idle 2-core x86 VM, far longer when
// other jobs load it (membarrier then waits for busy CPUs).  The threads are pinned
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
// Pair (e), both policies: a worker that blocks with a job on its deque
// (mark_blocked's hand-over) vs a worker getting sleepy.
//   blocker:   push (store bottom)     ; [fence] ; notify: load sleep word
//   sleeper:   get sleepy (CAS on S)   ; [fence] ; search: load bottom
//   forbidden: no notification AND the search misses the job (= the job
//              stays with a worker that blocks while the other sleeps).
//
// Pair (f), futures: an unpark that finds the fiber task queued vs the
// home's move into EXECUTING before it resumes the fiber.
//   unparker:  publish (store X: the cancel flag, a result) ; read state (S)
//   home:      state = EXECUTING (write S)                  ; read X
//   forbidden: the unparker reads UNPARKED (leaves it to the queued run)
//              AND the run misses X (= a lost cancel, or a fiber parked on
//              a state already complete). REAL: the unparker writes S back
//              unchanged with an RMW, the home moves with an exchange.
//
// Pair (g), caller slot: a broadcast's job for worker 0 vs the holder of
// worker 0's place giving it back (registry_base::inject_broadcast and
// free_caller_slot, which a borrower calls too). x is worker 0's broadcast
// queue (its size), y the place: 0 = held (the old value), 1 = given back.
//   broadcaster: push (RMW on x)       ; load flag (load y)
//   holder:      free the place (store y) ; look at the queue (load x)
//   forbidden: the broadcaster sees the place held (leaves the job to the
//              holder) AND the holder sees the queue empty (= the job stays
//              in the queue of a place nobody holds).
//
// Pair (c), the deque's fence pair in its simplest form, and pair (d), its
// real shape: pop() against steal() on a two-element deque, where the
// hazard needs a third party's CAS (three threads: owner, two thieves; on a
// machine with two CPUs, one thief that steals twice).
//   owner:     store bottom; light fence; load top; take element 1
//   thief 1:   load top; heavy fence; load bottom; CAS top 0 -> 1
//   thief 2:   load top (= 1); heavy fence; load bottom; CAS top 1 -> 2
//   forbidden: element 1 taken by the owner and by thief 2.
// REAL variants: the library's asymmetric pair (compiler barrier |
// membarrier) and the symmetric one (seq-cst fences); WEAK: compiler
// barriers only, and a seq-cst fence on the thieves' side only (what a
// failed membarrier leaves if the thief goes on).
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
// get_sleepy's CAS of an idle sleep word, with the orderings the variant
// names; it cannot fail here (nobody else writes the word).
inline bool get_sleepy(Cell& s, std::memory_order success, std::memory_order failure) {
    std::uint32_t expected = 0;
    return s.v.compare_exchange_strong(expected, kSleepy, success, failure);
}
struct LatchWeak {
    static constexpr const char* name = "b/legacy WEAK latch.store(rel); tickle load(acq) | get_sleepy CAS(acq_rel); probe load(acq)";
    static constexpr bool real = false;
    static std::uint32_t t0(Cell& l, Cell& s) { l.v.store(1, rel); return s.v.load(acq); }
    static std::uint32_t t1(Cell& l, Cell& s) {
        if (!get_sleepy(s, acqrel, acq)) return 2;  // cannot happen
        return l.v.load(acq);
    }
};
struct LatchReal {
    static constexpr const char* name = "b/legacy REAL latch.store(sc); tickle load(sc) | get_sleepy CAS(sc); probe load(sc)";
    static constexpr bool real = true;
    static std::uint32_t t0(Cell& l, Cell& s) { l.v.store(1, sc); return s.v.load(sc); }
    static std::uint32_t t1(Cell& l, Cell& s) {
        if (!get_sleepy(s, sc, sc)) return 2;
        return l.v.load(sc);
    }
};

// ---- pair (e): a worker that blocks with a job on its deque vs a worker
// getting sleepy (registry::hand_over_local_jobs; the policies' fence after
// get_sleepy / announce_sleepy). x is the deque's bottom, y the sleep word.
struct BlockedPushWeak {
    static constexpr const char* name = "e/push  WEAK  bottom.store(rel); filter load(sc) | get_sleepy CAS(sc); bottom load(rlx)";
    static constexpr bool real = false;
    static std::uint32_t t0(Cell& b, Cell& s) { b.v.store(1, rel); return s.v.load(sc); }
    static std::uint32_t t1(Cell& b, Cell& s) {
        if (!get_sleepy(s, sc, rlx)) return 2;  // cannot happen
        return b.v.load(rlx);
    }
};
struct BlockedPushReal {
    static constexpr const char* name = "e/push  REAL  bottom.store(rel); fence(sc); load(sc) | CAS(sc); fence(sc); bottom load(rlx)";
    static constexpr bool real = true;
    static std::uint32_t t0(Cell& b, Cell& s) {
        b.v.store(1, rel);
        std::atomic_thread_fence(sc);
        return s.v.load(sc);
    }
    static std::uint32_t t1(Cell& b, Cell& s) {
        if (!get_sleepy(s, sc, rlx)) return 2;
        std::atomic_thread_fence(sc);
        return b.v.load(rlx);
    }
};

// ---- pair (f): a fiber task's unpark that finds the task UNPARKED (queued
// at its home, not yet running) vs the home's move into EXECUTING before it
// resumes the fiber (fiber_task_base::unpark and ::run). x is what the
// unparker wrote before (the cancel flag, a shared state's slot), y the
// state word: 0 = UNPARKED, 2 = EXECUTING, 3 = EXECUTING_UNPARKED.
// t0 returns 0 if it left the task to the run it found queued; t1 returns
// what the run reads of x.
constexpr std::uint32_t kUnparked = 0, kExecuting = 2, kExecutingUnparked = 3;
struct UnparkWeak {
    static constexpr const char* name = "f/fiber WEAK  flag.store(rel); state load(rlx) | state.store(EXECUTING, rlx); flag load(acq)";
    static constexpr bool real = false;
    static std::uint32_t t0(Cell& x, Cell& y) {
        x.v.store(1, rel);
        return y.v.load(rlx) == kUnparked ? 0 : 1;
    }
    static std::uint32_t t1(Cell& x, Cell& y) {
        y.v.store(kExecuting, rlx);
        return x.v.load(acq);
    }
};
struct UnparkReal {
    static constexpr const char* name = "f/fiber REAL  flag.store(rel); state CAS(to itself, rel) | state.exchange(EXECUTING, acq); flag load(acq)";
    static constexpr bool real = true;
    static std::uint32_t t0(Cell& x, Cell& y) {
        x.v.store(1, rel);
        std::uint32_t current = y.v.load(rlx);
        for (;;) {
            if (current == kUnparked) {
                if (y.v.compare_exchange_weak(current, current, rel, rlx)) return 0;
            } else if (current == kExecuting) {
                if (y.v.compare_exchange_weak(current, kExecutingUnparked, acqrel, rlx)) return 1;  // runs again
            } else {
                return 1;
            }
        }
    }
    static std::uint32_t t1(Cell& x, Cell& y) {
        y.v.exchange(kExecuting, acq);
        return x.v.load(acq);
    }
};

// ---- pair (g): a broadcast's job for worker 0 vs the holder of its place
// giving it back. t0 returns 0 if it saw the place held; t1 returns 0 if it
// saw the queue empty.
struct SlotWeak {
    static constexpr const char* name = "g/slot  WEAK  queue++(rel RMW); flag load(acq) | flag.store(rel); queue load(acq)";
    static constexpr bool real = false;
    static std::uint32_t t0(Cell& q, Cell& f) { q.v.fetch_add(1, rel); return f.v.load(acq); }
    static std::uint32_t t1(Cell& q, Cell& f) { f.v.store(1, rel); return q.v.load(acq); }
};
struct SlotReal {
    static constexpr const char* name = "g/slot  REAL  queue++(sc RMW); flag load(sc) | flag.store(sc); queue load(sc)";
    static constexpr bool real = true;
    static std::uint32_t t0(Cell& q, Cell& f) { q.v.fetch_add(1, sc); return f.v.load(sc); }
    static std::uint32_t t1(Cell& q, Cell& f) { f.v.store(1, sc); return q.v.load(sc); }
};

struct Options {
    std::uint64_t iterations = 2'000'000;
    // The variants that call membarrier(2) (c REAL, d REAL asymmetric): a
    // system call and an IPI per iteration, microseconds each and far more
    // on a loaded VM, where 2,000,000 of them took minutes.
    std::uint64_t membarrier_iterations = 250'000;
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
        if (!boost::forkjoin::detail::asymmetric_fences_available() || !boost::forkjoin::detail::heavy_fence())
            std::atomic_thread_fence(sc);  // the symmetric pair
        return b.v.load(rlx);
    }
};

// ---- pair (d): the deque's real shape. pop() against steal(), where the
// hazard needs a third party: the owner reads `top` before thief 1's CAS
// advances it, thief 2 reads `top` after that CAS but `bottom` before the
// owner's store is visible, and both take element 1. Two elements (top 0,
// bottom 2) at the start of every iteration. The functions follow
// chase_lev_deque::pop and ::steal line by line; only the fences vary.
struct SlotCell {
    alignas(64) std::atomic<std::int64_t> top{0};
    alignas(64) std::atomic<std::int64_t> bottom{2};
};

constexpr std::uint8_t kNone = 255;

template <class Fences>
struct StealShape {
    // chase_lev_deque::pop(): returns the element taken, or kNone.
    static std::uint8_t pop(SlotCell& c) {
        std::int64_t const b = c.bottom.load(rlx) - 1;
        c.bottom.store(b, rlx);
        Fences::light();
        std::int64_t t = c.top.load(acq);
        if (t > b) {
            c.bottom.store(b + 1, rlx);
            return kNone;
        }
        if (t == b) {
            bool const won = c.top.compare_exchange_strong(t, t + 1, sc, rlx);
            c.bottom.store(b + 1, rlx);
            return won ? static_cast<std::uint8_t>(b) : kNone;
        }
        return static_cast<std::uint8_t>(b);
    }
    // chase_lev_deque::steal(): returns the element taken, or kNone.
    static std::uint8_t steal(SlotCell& c) {
        std::int64_t t = c.top.load(acq);
        if (t >= c.bottom.load(rlx)) return kNone;
        if (!Fences::heavy()) return kNone;  // a failed barrier: give up, as the deque does
        std::int64_t const b = c.bottom.load(acq);
        if (t >= b) return kNone;
        if (!c.top.compare_exchange_strong(t, t + 1, sc, rlx)) return kNone;
        return static_cast<std::uint8_t>(t);
    }
};

struct AsymmetricFences {  // the library's: compiler barrier | membarrier
    static constexpr const char* name = "REAL asymmetric: compiler barrier | membarrier (the library's)";
    static constexpr bool real = true;
    static void light() { boost::forkjoin::detail::light_fence(true); }
    static bool heavy() { return boost::forkjoin::detail::heavy_fence(); }
};
struct SymmetricFences {  // fence_mode::symmetric
    static constexpr const char* name = "REAL symmetric: seq-cst fence | seq-cst fence";
    static constexpr bool real = true;
    static void light() { boost::forkjoin::detail::light_fence(false); }
    static bool heavy() { std::atomic_thread_fence(sc); return true; }
};
struct NoFences {
    static constexpr const char* name = "WEAK compiler barrier | compiler barrier";
    static constexpr bool real = false;
    static void light() { std::atomic_signal_fence(sc); }
    static bool heavy() { std::atomic_signal_fence(sc); return true; }
};
struct ThiefOnlyFence {  // what a failed membarrier would leave if the thief went on with a fence of its own
    static constexpr const char* name = "WEAK compiler barrier | seq-cst fence (membarrier failed, thief fenced alone)";
    static constexpr bool real = false;
    static void light() { std::atomic_signal_fence(sc); }
    static bool heavy() { std::atomic_thread_fence(sc); return true; }
};

// N-thread spin barrier: round k completes when the counter reaches N*k.
class BarrierN {
    alignas(64) std::atomic<std::uint64_t> count_{0};
    unsigned n_;

public:
    explicit BarrierN(unsigned n) : n_(n) {}
    void wait(std::uint64_t& round) {
        ++round;
        count_.fetch_add(1, std::memory_order_acq_rel);
        std::uint64_t const target = n_ * round;
        unsigned spins = 0;
        while (count_.load(std::memory_order_acquire) < target) {
            if (++spins > 4000) {
                std::this_thread::yield();
                spins = 0;
            }
        }
    }
};

int g_cpu3[3] = {-1, -1, -1};

bool find_three_cpus() {
#if defined(__linux__)
    cpu_set_t set;
    CPU_ZERO(&set);
    if (sched_getaffinity(0, sizeof(set), &set) != 0) return false;
    int k = 0;
    for (int c = 0; c < CPU_SETSIZE && k < 3; ++c)
        if (CPU_ISSET(c, &set)) g_cpu3[k++] = c;
    return k == 3;
#else
    return false;
#endif
}

void pin_to_cpu(int cpu) {
#if defined(__linux__)
    if (cpu < 0) return;
    cpu_set_t set;
    CPU_ZERO(&set);
    CPU_SET(cpu, &set);
    (void)pthread_setaffinity_np(pthread_self(), sizeof(set), &set);
#else
    (void)cpu;
#endif
}

struct StealResult {
    std::uint64_t iterations = 0;
    std::uint64_t twice = 0;       // forbidden: element 1 taken by the owner and by a thief
    std::uint64_t interleaved = 0; // the owner took 1 while a thief took 0: the race was on
    double seconds = 0;
};

// threads == 3: owner, thief 1, thief 2, each on its own CPU. threads == 2:
// owner and one thief that steals twice in a row (its first CAS plays thief
// 1's part), for machines with two CPUs.
template <class Fences>
StealResult run_steal(std::uint64_t iterations, unsigned threads, bool pin) {
    using Shape = StealShape<Fences>;
    auto cells = std::make_unique<SlotCell[]>(kSlots);
    std::vector<std::uint8_t> r0(kSlots), r1(kSlots), r2(kSlots);
    BarrierN bar(threads);
    StealResult res;
    std::uint64_t const batches = (iterations + kSlots - 1) / kSlots;
    auto start = std::chrono::steady_clock::now();

    auto thief = [&](unsigned which) {
        if (pin) pin_to_cpu(threads == 3 ? g_cpu3[which] : g_cpu[1]);
        std::uint64_t round = 0;
        std::uint32_t seed = 0x9e3779b9u * (which + 1);
        for (std::uint64_t b = 0; b < batches; ++b) {
            bar.wait(round);
            for (std::size_t i = 0; i < kSlots; ++i) {
                unsigned d = next_rand(seed) % kJitter;
                bar.wait(round);
                burn(d);
                if (threads == 2) {
                    r1[i] = Shape::steal(cells[i]);
                    r2[i] = Shape::steal(cells[i]);
                } else {
                    (which == 1 ? r1 : r2)[i] = Shape::steal(cells[i]);
                }
            }
            bar.wait(round);
        }
    };
    std::vector<std::thread> thieves;
    for (unsigned w = 1; w < threads; ++w) thieves.emplace_back(thief, w);
    if (pin) pin_to_cpu(threads == 3 ? g_cpu3[0] : g_cpu[0]);
    std::uint64_t round = 0;
    std::uint32_t seed = 0x2545f491u;
    for (std::uint64_t b = 0; b < batches; ++b) {
        for (std::size_t i = 0; i < kSlots; ++i) {
            cells[i].top.store(0, rlx);
            cells[i].bottom.store(2, rlx);
            r1[i] = r2[i] = kNone;
        }
        bar.wait(round);
        for (std::size_t i = 0; i < kSlots; ++i) {
            unsigned d = next_rand(seed) % kJitter;
            bar.wait(round);
            burn(d);
            r0[i] = Shape::pop(cells[i]);
        }
        bar.wait(round);
        for (std::size_t i = 0; i < kSlots; ++i) {
            ++res.iterations;
            bool const thief_took_1 = r1[i] == 1 || r2[i] == 1;
            if (r0[i] == 1 && thief_took_1) ++res.twice;
            if (r0[i] == 1 && (r1[i] == 0 || r2[i] == 0)) ++res.interleaved;
        }
    }
    for (auto& t : thieves) t.join();
    res.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    return res;
}

template <class Fences>
bool report_steal(std::uint64_t iterations, unsigned threads, bool pin, bool& real_failed) {
    StealResult r = run_steal<Fences>(iterations, threads, pin);
    std::printf("d/steal %u threads %-78s taken-twice=%llu / %llu  [owner took 1 while a thief took 0: %llu]  %.2fs\n",
                threads, Fences::name, (unsigned long long)r.twice, (unsigned long long)r.iterations,
                (unsigned long long)r.interleaved, r.seconds);
    if (Fences::real && r.twice != 0) {
        std::printf("  ERROR: an element was taken twice with the library's fences\n");
        real_failed = true;
    }
    return r.twice != 0;
}

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
        } else if (a == "--membarrier-iterations" && i + 1 < argc) {
            opt.membarrier_iterations = std::strtoull(argv[++i], nullptr, 10);
        } else if (a == "--pin") {
            opt.pin = true;
        } else if (a == "--no-pin") {
            opt.pin = false;
        } else {
            std::fprintf(stderr, "usage: %s [--iterations N] [--membarrier-iterations N] [--no-pin]\n", argv[0]);
            return 2;
        }
    }
    if (opt.iterations == 0) opt.iterations = 1;
    if (opt.membarrier_iterations == 0) opt.membarrier_iterations = 1;
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
    bool weak_e = report<BlockedPushWeak>(opt, real_failed);
    report<BlockedPushReal>(opt, real_failed);
    bool weak_f = report<UnparkWeak>(opt, real_failed);
    report<UnparkReal>(opt, real_failed);
    bool weak_g = report<SlotWeak>(opt, real_failed);
    report<SlotReal>(opt, real_failed);
    bool const asymmetric = boost::forkjoin::detail::asymmetric_fences_available();
    std::printf("pair c: membarrier %s\n", asymmetric ? "available: the REAL variant uses it"
                                                      : "NOT available: the REAL variant uses seq-cst fences");
    bool weak_c = report<DequeWeak>(opt, real_failed);
    Options membarrier_opt = opt;
    if (asymmetric) membarrier_opt.iterations = opt.membarrier_iterations;
    report<DequeReal>(membarrier_opt, real_failed);

    // Pair d, the steal shape: three threads where the machine has three
    // CPUs, else the two-thread form (one thief stealing twice).
    unsigned const steal_threads = opt.pin && find_three_cpus() ? 3 : (hw >= 3 && !opt.pin ? 3 : 2);
    std::printf("pair d: %u threads%s\n", steal_threads,
                steal_threads == 2 ? " (fewer than 3 CPUs: one thief steals twice, its first CAS in thief 1's part)" : "");
    bool weak_d = report_steal<NoFences>(opt.iterations, steal_threads, opt.pin, real_failed);
    bool weak_d_thief = report_steal<ThiefOnlyFence>(opt.iterations, steal_threads, opt.pin, real_failed);
    if (asymmetric)
        report_steal<AsymmetricFences>(opt.membarrier_iterations, steal_threads, opt.pin, real_failed);
    else
        std::printf("d/steal REAL asymmetric: skipped, membarrier unavailable\n");
    report_steal<SymmetricFences>(opt.iterations, steal_threads, opt.pin, real_failed);
    double total = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();

    std::printf("weak variants showed the forbidden outcome: pair a %s, pair b %s, pair c %s, pair d %s / %s, pair e %s, "
                "pair f %s, pair g %s\n",
                weak_a ? "YES" : "no", weak_b ? "YES" : "no", weak_c ? "YES" : "no", weak_d ? "YES" : "no",
                weak_d_thief ? "YES" : "no", weak_e ? "YES" : "no", weak_f ? "YES" : "no", weak_g ? "YES" : "no");
    std::printf("%s (%.1fs)\n", real_failed ? "FAIL: a REAL variant showed the forbidden outcome"
                                            : "PASS: the REAL variants never showed the forbidden outcome",
                total);
    // One check per pair (a to g): its REAL variant never showed the forbidden outcome.
    std::printf("%d passed, %d failed\n", real_failed ? 0 : 7, real_failed ? 1 : 0);
    return real_failed ? 1 : 0;
}
