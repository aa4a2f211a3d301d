// Copyright 2026 The Boost.ForkJoin developers.
// Distributed under the Boost Software License, Version 1.0.
// (See accompanying file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
#ifndef BOOST_FORKJOIN_PERFORMANCE_ALGORITHM_WORKLOADS_HPP
#define BOOST_FORKJOIN_PERFORMANCE_ALGORITHM_WORKLOADS_HPP

// The parallel-algorithm workloads (issue 32): sort, stable-sort, reduce,
// transform, scan, find-first and mandelbrot.
//
// Unlike the workloads of workloads.hpp, these cannot be written once over
// join: the point is each implementation's *own* algorithm (fj::sort,
// tbb::parallel_sort, std::sort(std::execution::par), Rayon's
// par_sort_unstable, ...). So a kernel is written once over an *algorithm
// family*, found from the executor by overload (`algorithms_of(ex)`,
// below), and the family says how its implementation sorts, reduces, and
// so on:
//
//   serial_algorithms    the std:: algorithm without a policy: the reference
//   forkjoin_algorithms  fj::sort etc. inside ex.install, so that they run
//                        on the executor's pool (the three policy rows,
//                        forkjoin-main and forkjoin-slot)
//   tbb_algorithms       oneTBB's algorithms inside the executor's arena
//   omp_algorithms       OpenMP worksharing loops of the executor's size
//   stdpar_algorithms    std:: with std::execution::par (libstdc++'s PSTL,
//                        TBB back end, limited by the executor's
//                        global_control)
//
// A family that has no such algorithm lacks the member; the kernel then
// prints `skip` with the family's reason (`why_not`). Every kernel times
// only the algorithm call (install included) and computes its `check`
// serially afterwards, the same way on every row, the Rust port included.

#include "executors.hpp"
#include "measure.hpp"

#include <boost/forkjoin/algorithm.hpp>

#include <oneapi/tbb/blocked_range.h>
#include <oneapi/tbb/parallel_for.h>
#include <oneapi/tbb/parallel_reduce.h>
#include <oneapi/tbb/parallel_scan.h>
#include <oneapi/tbb/parallel_sort.h>

#include <algorithm>
#include <atomic>
#include <bit>
#include <cmath>
#include <cstdint>
#include <execution>
#include <functional>
#include <iterator>
#include <numeric>
#include <stdexcept>
#include <string_view>
#include <tuple>
#include <vector>

namespace forkjoin_bench {

namespace algo {

// stable-sort's element: sorted by key only; the payload (the element's
// index in the input) shows whether equal keys kept their order.
struct keyed {
    std::uint32_t key;
    std::uint32_t payload;
};

inline constexpr auto by_key = [](keyed const& a, keyed const& b) { return a.key < b.key; };

// find-first's target: the inputs are below 2^31, so only the planted
// element matches.
inline constexpr std::uint32_t needle = 0xFFFF'FFFFu;
inline constexpr auto is_needle = [](std::uint32_t x) { return x == needle; };

// transform's body: a few transcendental calls per element, in float.
// glibc's sinf/expf/sqrtf on both sides (Rust's f32::sin and exp call
// them too), and -ffp-contract=off, so every row computes the same bits.
inline float transform_body(float x) noexcept
{
    return std::sin(x) * std::exp(-x) + std::sqrt(x);
}

// mandelbrot: one element per row of the image; its cost is the sum of the
// row's escape iterations, so rows through the set cost up to max_iter per
// pixel and rows outside it a few.
struct image_row {
    std::uint32_t y;
    std::uint64_t iterations;
};

struct mandelbrot_view {
    std::uint32_t width, height, max_iter;

    std::uint64_t row(std::uint32_t y) const noexcept
    {
        double const dx = 3.0 / double(width);
        double const dy = 2.5 / double(height);
        double const ci = -1.25 + double(y) * dy;
        std::uint64_t total = 0;
        for (std::uint32_t x = 0; x < width; ++x) {
            double const cr = -2.0 + double(x) * dx;
            double zr = 0.0, zi = 0.0, zr2 = 0.0, zi2 = 0.0;
            std::uint32_t i = 0;
            while (i < max_iter && zr2 + zi2 <= 4.0) {
                zi = 2.0 * zr * zi + ci;
                zr = zr2 - zi2 + cr;
                zr2 = zr * zr;
                zi2 = zi * zi;
                ++i;
            }
            total += i;
        }
        return total;
    }
};

// The position-weighted sum of a sequence: equal for two runs only if they
// produced the same elements in the same order (a sort's permutation, a
// stable sort's order of equal keys), with overwhelming probability.
template <class T, class Value>
std::uint64_t weighted_sum(std::vector<T> const& v, Value value)
{
    std::uint64_t s = 0;
    for (std::size_t i = 0; i < v.size(); ++i)
        s += std::uint64_t(i + 1) * std::uint64_t(value(v[i]));
    return s;
}

// The find workloads scan in chunks of this many elements where an
// implementation has no find of its own to call (oneTBB, OpenMP): each
// chunk is std::find_if, and a chunk past the best match so far is not
// scanned, as libstdc++'s PSTL does it.
inline constexpr std::size_t find_chunk = 16 * 1024;

inline void lower_to(std::atomic<std::size_t>& best, std::size_t i) noexcept
{
    std::size_t cur = best.load(std::memory_order_relaxed);
    while (i < cur && !best.compare_exchange_weak(cur, i, std::memory_order_relaxed))
        ;
}

} // namespace algo

// ---------------------------------------------------------------------------
// The families. Each member takes the executor first; iterators are
// std::vector's.
// ---------------------------------------------------------------------------

struct serial_algorithms {
    template <class Ex, class It>
    static void sort(Ex&, It first, It last) { std::sort(first, last); }
    template <class Ex, class It, class Cmp>
    static void stable_sort(Ex&, It first, It last, Cmp cmp) { std::stable_sort(first, last, cmp); }
    template <class Ex, class It>
    static double reduce(Ex&, It first, It last) { return std::reduce(first, last, 0.0); }
    template <class Ex, class It, class Out, class F>
    static void transform(Ex&, It first, It last, Out out, F f) { std::transform(first, last, out, f); }
    template <class Ex, class It, class Out>
    static void inclusive_scan(Ex&, It first, It last, Out out) { std::inclusive_scan(first, last, out); }
    template <class Ex, class It, class P>
    static It find_if(Ex&, It first, It last, P p) { return std::find_if(first, last, p); }
    template <class Ex, class It, class F>
    static void for_each(Ex&, It first, It last, F f) { std::for_each(first, last, f); }
};

// Inside ex.install, so that the algorithm runs on the executor's pool.
struct forkjoin_algorithms {
    template <class Ex, class It>
    static void sort(Ex& ex, It first, It last) { ex.install([&] { boost::forkjoin::sort(first, last); }); }
    template <class Ex, class It, class Cmp>
    static void stable_sort(Ex& ex, It first, It last, Cmp cmp)
    {
        ex.install([&] { boost::forkjoin::stable_sort(first, last, cmp); });
    }
    template <class Ex, class It>
    static double reduce(Ex& ex, It first, It last)
    {
        return ex.install([&] { return boost::forkjoin::reduce(first, last, 0.0); });
    }
    template <class Ex, class It, class Out, class F>
    static void transform(Ex& ex, It first, It last, Out out, F f)
    {
        ex.install([&] { boost::forkjoin::transform(first, last, out, f); });
    }
    template <class Ex, class It, class Out>
    static void inclusive_scan(Ex& ex, It first, It last, Out out)
    {
        ex.install([&] { boost::forkjoin::inclusive_scan(first, last, out); });
    }
    template <class Ex, class It, class P>
    static It find_if(Ex& ex, It first, It last, P p)
    {
        return ex.install([&] { return boost::forkjoin::find_if(first, last, p); });
    }
    template <class Ex, class It, class F>
    static void for_each(Ex& ex, It first, It last, F f)
    {
        ex.install([&] { boost::forkjoin::for_each(first, last, f); });
    }
};

// oneTBB's algorithms with their default (auto) partitioner, inside the
// executor's arena of N slots.
struct tbb_algorithms {
    template <class Ex, class It>
    static void sort(Ex& ex, It first, It last) { ex.install([&] { oneapi::tbb::parallel_sort(first, last); }); }
    template <class Ex, class It>
    static double reduce(Ex& ex, It first, It last)
    {
        using range = oneapi::tbb::blocked_range<It>;
        return ex.install([&] {
            return oneapi::tbb::parallel_reduce(
                range(first, last), 0.0, [](range const& r, double s) { return std::reduce(r.begin(), r.end(), s); },
                std::plus<>{});
        });
    }
    template <class Ex, class It, class Out, class F>
    static void transform(Ex& ex, It first, It last, Out out, F f)
    {
        using range = oneapi::tbb::blocked_range<std::size_t>;
        ex.install([&] {
            oneapi::tbb::parallel_for(range(0, std::size_t(last - first)), [&](range const& r) {
                std::transform(first + r.begin(), first + r.end(), out + r.begin(), f);
            });
        });
    }
    template <class Ex, class It, class Out>
    static void inclusive_scan(Ex& ex, It first, It last, Out out)
    {
        using range = oneapi::tbb::blocked_range<std::size_t>;
        using T = std::iter_value_t<It>;
        ex.install([&] {
            oneapi::tbb::parallel_scan(
                range(0, std::size_t(last - first)), T{},
                [&](range const& r, T sum, bool is_final) {
                    for (std::size_t i = r.begin(); i < r.end(); ++i) {
                        sum += first[i];
                        if (is_final)
                            out[i] = sum;
                    }
                    return sum;
                },
                std::plus<>{});
        });
    }
    // oneTBB has no find: parallel_for with the lowest match so far.
    template <class Ex, class It, class P>
    static It find_if(Ex& ex, It first, It last, P p)
    {
        using range = oneapi::tbb::blocked_range<std::size_t>;
        std::size_t const n = std::size_t(last - first);
        std::atomic<std::size_t> best{n};
        ex.install([&] {
            oneapi::tbb::parallel_for(range(0, n, algo::find_chunk), [&](range const& r) {
                std::size_t const end = std::min(r.end(), best.load(std::memory_order_relaxed));
                if (r.begin() >= end)
                    return;
                auto it = std::find_if(first + r.begin(), first + end, p);
                if (it != first + end)
                    algo::lower_to(best, std::size_t(it - first));
            });
        });
        return first + best.load();
    }
    template <class Ex, class It, class F>
    static void for_each(Ex& ex, It first, It last, F f)
    {
        using range = oneapi::tbb::blocked_range<It>;
        ex.install([&] {
            oneapi::tbb::parallel_for(range(first, last), [&](range const& r) { std::for_each(r.begin(), r.end(), f); });
        });
    }

    static constexpr std::string_view why_not(std::string_view) { return "oneTBB has no parallel stable sort"; }
};

// OpenMP worksharing loops, a team of the executor's N threads each.
struct omp_algorithms {
    template <class Ex, class It>
    static double reduce(Ex& ex, It first, It last)
    {
        std::ptrdiff_t const n = last - first;
        double sum = 0.0;
#pragma omp parallel for num_threads(ex.threads()) schedule(static) reduction(+ : sum)
        for (std::ptrdiff_t i = 0; i < n; ++i)
            sum += first[i];
        return sum;
    }
    template <class Ex, class It, class Out, class F>
    static void transform(Ex& ex, It first, It last, Out out, F f)
    {
        std::ptrdiff_t const n = last - first;
#pragma omp parallel for num_threads(ex.threads()) schedule(static)
        for (std::ptrdiff_t i = 0; i < n; ++i)
            out[i] = f(first[i]);
    }
    // OpenMP 5.0's scan directive (GCC 12).
    template <class Ex, class It, class Out>
    static void inclusive_scan(Ex& ex, It first, It last, Out out)
    {
        std::ptrdiff_t const n = last - first;
        std::iter_value_t<It> sum{};
#pragma omp parallel for num_threads(ex.threads()) reduction(inscan, + : sum)
        for (std::ptrdiff_t i = 0; i < n; ++i) {
            sum += first[i];
#pragma omp scan inclusive(sum)
            out[i] = sum;
        }
    }
    // No find in OpenMP either: chunks handed out in order (dynamic), each
    // std::find_if, none scanned past the lowest match so far.
    template <class Ex, class It, class P>
    static It find_if(Ex& ex, It first, It last, P p)
    {
        std::size_t const n = std::size_t(last - first);
        std::ptrdiff_t const chunks = std::ptrdiff_t((n + algo::find_chunk - 1) / algo::find_chunk);
        std::atomic<std::size_t> best{n};
#pragma omp parallel for num_threads(ex.threads()) schedule(dynamic)
        for (std::ptrdiff_t c = 0; c < chunks; ++c) {
            std::size_t const begin = std::size_t(c) * algo::find_chunk;
            std::size_t const end = std::min({begin + algo::find_chunk, n, best.load(std::memory_order_relaxed)});
            if (begin < end) {
                auto it = std::find_if(first + begin, first + end, p);
                if (it != first + end)
                    algo::lower_to(best, std::size_t(it - first));
            }
        }
        return first + best.load();
    }
    // Uneven elements: dynamic scheduling, one element at a time.
    template <class Ex, class It, class F>
    static void for_each(Ex& ex, It first, It last, F f)
    {
        std::ptrdiff_t const n = last - first;
#pragma omp parallel for num_threads(ex.threads()) schedule(dynamic)
        for (std::ptrdiff_t i = 0; i < n; ++i)
            f(first[i]);
    }

    static constexpr std::string_view why_not(std::string_view)
    {
        return "OpenMP has no sort; a hand-written one would measure its writer, not the runtime";
    }
};

// The standard library's parallel algorithms: libstdc++'s PSTL on oneTBB,
// whose threads the executor's global_control limits to N.
struct stdpar_algorithms {
    template <class Ex, class It>
    static void sort(Ex&, It first, It last) { std::sort(std::execution::par, first, last); }
    template <class Ex, class It, class Cmp>
    static void stable_sort(Ex&, It first, It last, Cmp cmp) { std::stable_sort(std::execution::par, first, last, cmp); }
    template <class Ex, class It>
    static double reduce(Ex&, It first, It last) { return std::reduce(std::execution::par, first, last, 0.0); }
    template <class Ex, class It, class Out, class F>
    static void transform(Ex&, It first, It last, Out out, F f) { std::transform(std::execution::par, first, last, out, f); }
    template <class Ex, class It, class Out>
    static void inclusive_scan(Ex&, It first, It last, Out out) { std::inclusive_scan(std::execution::par, first, last, out); }
    template <class Ex, class It, class P>
    static It find_if(Ex&, It first, It last, P p) { return std::find_if(std::execution::par, first, last, p); }
    template <class Ex, class It, class F>
    static void for_each(Ex&, It first, It last, F f) { std::for_each(std::execution::par, first, last, f); }
};

serial_algorithms algorithms_of(serial_executor&);
template <class Policy, class... PoolOptions>
forkjoin_algorithms algorithms_of(forkjoin_executor<Policy, PoolOptions...>&); // and the rows derived from it
tbb_algorithms algorithms_of(tbb_executor&);
omp_algorithms algorithms_of(omp_executor&);
stdpar_algorithms algorithms_of(stdpar_executor&);

template <class Ex>
using algorithms_t = decltype(algorithms_of(std::declval<Ex&>()));

// ---------------------------------------------------------------------------
// The kernels.
// ---------------------------------------------------------------------------

// sort: `len` pseudo-random u32 (seed 11), a fresh copy per repetition.
struct sort_kernel {
    static constexpr std::string_view name = "sort";

    template <class Ex>
    static void run(Ex& ex, run_context const& ctx)
    {
        using A = algorithms_t<Ex>;
        using It = std::vector<std::uint32_t>::iterator;
        if constexpr (!requires(It it) { A::sort(ex, it, it); }) {
            skip(A::why_not("sort"));
        } else {
            auto len = ctx.args.get("len");
            using vec = std::vector<std::uint32_t>;
            vec& v = kept<vec>(fmt::format("sort.v {}", len), [&] { return vec(len); });
            vec const& input = kept<vec>(fmt::format("sort.input {}", len), [&] { return random_u32s(len, 11); });
            repeat(ctx, [&] {
                v = input;
                stopwatch sw;
                A::sort(ex, v.begin(), v.end());
                auto e = sw.stop();
                if (!std::is_sorted(v.begin(), v.end()))
                    throw std::logic_error("sort: not sorted");
                return fmt::format("wall_ns={} cpu_ns={} check={}", e.wall_ns, e.cpu_ns,
                                   algo::weighted_sum(v, [](std::uint32_t x) { return x; }));
            });
        }
    }
};

// stable-sort: `len` (key, payload) pairs by key, keys below `keys` (many
// equal ones), payload = the input position; seed 13.
struct stable_sort_kernel {
    static constexpr std::string_view name = "stable-sort";

    template <class Ex>
    static void run(Ex& ex, run_context const& ctx)
    {
        using A = algorithms_t<Ex>;
        using It = std::vector<algo::keyed>::iterator;
        if constexpr (!requires(It it) { A::stable_sort(ex, it, it, algo::by_key); }) {
            skip(A::why_not("stable-sort"));
        } else {
            auto len = ctx.args.get("len");
            auto keys = ctx.args.get("keys");
            using vec = std::vector<algo::keyed>;
            vec& v = kept<vec>(fmt::format("stable-sort.v {}", len), [&] { return vec(len); });
            vec const& input = kept<vec>(fmt::format("stable-sort.input {} {}", len, keys), [&] {
                splitmix64 rng(13);
                vec input(len);
                for (std::size_t i = 0; i < len; ++i)
                    input[i] = {std::uint32_t(rng.next_u64() % keys), std::uint32_t(i)};
                return input;
            });
            repeat(ctx, [&] {
                v = input;
                stopwatch sw;
                A::stable_sort(ex, v.begin(), v.end(), algo::by_key);
                auto e = sw.stop();
                if (!std::is_sorted(v.begin(), v.end(), algo::by_key))
                    throw std::logic_error("stable-sort: not sorted");
                return fmt::format("wall_ns={} cpu_ns={} check={}", e.wall_ns, e.cpu_ns,
                                   algo::weighted_sum(v, [](algo::keyed const& k) { return k.payload; }));
            });
        }
    }
};

// reduce: the sum of `len` doubles. Each is an integer below 2^24 (the top
// 24 bits of a SplitMix64 draw, seed 17), so every partial sum of up to
// 2^29 of them is an integer below 2^53, exact in a double: any order of
// addition gives the same bits, and every row's `check` is the same.
struct reduce_kernel {
    static constexpr std::string_view name = "reduce";

    template <class Ex>
    static void run(Ex& ex, run_context const& ctx)
    {
        using A = algorithms_t<Ex>;
        auto len = ctx.args.get("len");
        using vec = std::vector<double>;
        vec const& v = kept<vec>(fmt::format("reduce.input {}", len), [&] {
            splitmix64 rng(17);
            vec v(len);
            for (auto& x : v)
                x = double(rng.next_u64() >> 40);
            return v;
        });
        repeat(ctx, [&] {
            stopwatch sw;
            double sum = A::reduce(ex, v.begin(), v.end());
            auto e = sw.stop();
            return fmt::format("wall_ns={} cpu_ns={} check={}", e.wall_ns, e.cpu_ns, std::uint64_t(sum));
        });
    }
};

// transform: out[i] = sin(x) * exp(-x) + sqrt(x) over `len` floats in
// [0, 8) (24 random bits, seed 19). The check is the sum of the outputs'
// bit patterns as u64: the same bits everywhere, or it differs.
struct transform_kernel {
    static constexpr std::string_view name = "transform";

    template <class Ex>
    static void run(Ex& ex, run_context const& ctx)
    {
        using A = algorithms_t<Ex>;
        auto len = ctx.args.get("len");
        using vec = std::vector<float>;
        vec const& input = kept<vec>(fmt::format("transform.input {}", len), [&] {
            splitmix64 rng(19);
            vec input(len);
            for (auto& x : input)
                x = float(rng.next_u32() >> 8) * (1.0f / 16777216.0f) * 8.0f;
            return input;
        });
        vec& out = kept<vec>(fmt::format("transform.out {}", len), [&] { return vec(len); });
        repeat(ctx, [&] {
            std::fill(out.begin(), out.end(), 0.0f);
            stopwatch sw;
            // A lambda, as users write: every implementation can inline the
            // body (a function pointer is a constant only to the serial loop,
            // which gets the body inlined while the parallel ones call it).
            A::transform(ex, input.begin(), input.end(), out.begin(),
                         [](float x) noexcept { return algo::transform_body(x); });
            auto e = sw.stop();
            std::uint64_t check = 0;
            for (float y : out)
                check += std::bit_cast<std::uint32_t>(y);
            return fmt::format("wall_ns={} cpu_ns={} check={}", e.wall_ns, e.cpu_ns, check);
        });
    }
};

// scan: inclusive prefix sums of `len` int64 in [-1000, 1000] (seed 23),
// into a second vector. Check: the sum of the outputs (mod 2^64).
struct scan_kernel {
    static constexpr std::string_view name = "scan";

    template <class Ex>
    static void run(Ex& ex, run_context const& ctx)
    {
        using A = algorithms_t<Ex>;
        auto len = ctx.args.get("len");
        using vec = std::vector<std::int64_t>;
        vec const& input = kept<vec>(fmt::format("scan.input {}", len), [&] {
            splitmix64 rng(23);
            vec input(len);
            for (auto& x : input)
                x = std::int64_t(rng.next_u64() % 2001) - 1000;
            return input;
        });
        vec& out = kept<vec>(fmt::format("scan.out {}", len), [&] { return vec(len); });
        repeat(ctx, [&] {
            std::fill(out.begin(), out.end(), 0);
            stopwatch sw;
            A::inclusive_scan(ex, input.begin(), input.end(), out.begin());
            auto e = sw.stop();
            std::uint64_t check = 0;
            for (auto y : out)
                check += std::uint64_t(y);
            return fmt::format("wall_ns={} cpu_ns={} check={}", e.wall_ns, e.cpu_ns, check);
        });
    }
};

// find-first: find_if over `len` u32 below 2^31 (seed 29) for the one
// element 2^32 - 1, planted at len * match_permille / 1000 (1000: none).
// Check: the index found (len when none).
struct find_first_kernel {
    static constexpr std::string_view name = "find-first";

    template <class Ex>
    static void run(Ex& ex, run_context const& ctx)
    {
        using A = algorithms_t<Ex>;
        auto len = ctx.args.get("len");
        auto permille = ctx.args.get("match_permille");
        using vec = std::vector<std::uint32_t>;
        vec const& v = kept<vec>(fmt::format("find-first.input {} {}", len, permille), [&] {
            splitmix64 rng(29);
            vec v(len);
            for (auto& x : v)
                x = rng.next_u32() >> 1;
            if (permille < 1000)
                v[std::size_t(len * permille / 1000)] = algo::needle;
            return v;
        });
        repeat(ctx, [&] {
            stopwatch sw;
            auto it = A::find_if(ex, v.begin(), v.end(), algo::is_needle);
            auto e = sw.stop();
            return fmt::format("wall_ns={} cpu_ns={} check={}", e.wall_ns, e.cpu_ns, it - v.begin());
        });
    }
};

// mandelbrot: for_each over the rows of a width x height image of
// [-2, 1] x [-1.25, 1.25], at most max_iter iterations per pixel; rows
// through the set cost far more than rows outside it. Check: the total of
// the escape iterations.
struct mandelbrot_kernel {
    static constexpr std::string_view name = "mandelbrot";

    template <class Ex>
    static void run(Ex& ex, run_context const& ctx)
    {
        using A = algorithms_t<Ex>;
        algo::mandelbrot_view const view{std::uint32_t(ctx.args.get("width")), std::uint32_t(ctx.args.get("height")),
                                         std::uint32_t(ctx.args.get("max_iter"))};
        std::vector<algo::image_row> rows(view.height);
        repeat(ctx, [&] {
            for (std::uint32_t y = 0; y < view.height; ++y)
                rows[y] = {y, 0};
            stopwatch sw;
            A::for_each(ex, rows.begin(), rows.end(), [&view](algo::image_row& r) { r.iterations = view.row(r.y); });
            auto e = sw.stop();
            std::uint64_t check = 0;
            for (auto const& r : rows)
                check += r.iterations;
            return fmt::format("wall_ns={} cpu_ns={} check={}", e.wall_ns, e.cpu_ns, check);
        });
    }
};

using algorithm_kernels = std::tuple<sort_kernel, stable_sort_kernel, reduce_kernel, transform_kernel, scan_kernel,
                                     find_first_kernel, mandelbrot_kernel>;

inline bool is_algorithm_kernel(std::string_view name)
{
    return std::apply([&](auto... k) { return ((decltype(k)::name == name) || ...); }, algorithm_kernels{});
}

} // namespace forkjoin_bench

#endif // BOOST_FORKJOIN_PERFORMANCE_ALGORITHM_WORKLOADS_HPP
