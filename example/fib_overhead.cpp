// Copyright 2026 The Boost.ForkJoin developers.
// Distributed under the Boost Software License, Version 1.0.
// (See accompanying file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)

// The cost of join itself: fib(32) with a join at every level and no
// cutoff, on 1 and 2 threads of each sleep policy, as a ratio to the serial
// fib(32). The benchmark program in performance/ does this and more against
// Rayon, oneTBB and OpenMP.
//
// Each repetition times the serial version and the pool back to back and
// takes their ratio; the report is the median of those ratios. On a shared
// machine whose speed drifts over seconds, ratios of neighbouring
// measurements are stable where separately taken medians are not.

#include <boost/forkjoin.hpp>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <vector>

namespace fj = boost::forkjoin;

// noinline so that the compiler cannot merge the serial recursion into the
// caller: the baseline keeps a call per level, like the parallel version.
[[gnu::noinline]] long fib_serial(int n) { return n < 2 ? n : fib_serial(n - 1) + fib_serial(n - 2); }

long fib(int n)
{
    if (n < 2)
        return n;
    auto [a, b] = fj::join([n] { return fib(n - 1); }, [n] { return fib(n - 2); });
    return a + b;
}

template <class F>
double time_ms(F&& f)
{
    auto const start = std::chrono::steady_clock::now();
    f();
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
}

double median(std::vector<double> v)
{
    std::sort(v.begin(), v.end());
    return v[v.size() / 2];
}

// The argument goes through a volatile so that the compiler can neither
// evaluate the call once and reuse it nor fold it at compile time.
int volatile fib_n = 32;
long volatile sink = 0;

template <class Policy>
bool measure(char const* name)
{
    bool ok = true;
    for (std::size_t threads : {1, 2}) {
        fj::basic_thread_pool<Policy> pool({.num_threads = threads});
        std::vector<double> serial, parallel, ratio;
        for (int rep = 0; rep < 16; ++rep) {
            double const s = time_ms([] { sink = fib_serial(fib_n); });
            long result = 0;
            double const p = time_ms([&] { result = pool.install([] { return fib(fib_n); }); });
            ok &= result == 2178309;
            if (rep == 0)
                continue; // warm-up
            serial.push_back(s);
            parallel.push_back(p);
            ratio.push_back(p / s);
        }
        std::printf("%-8s %zu thread%s  %7.2f ms (serial %5.2f ms)  %5.2fx serial  %5.2f ns/join\n", name, threads,
                    threads == 1 ? " " : "s", median(parallel), median(serial), median(ratio),
                    median(parallel) * 1e6 / 3'524'577.0);
    }
    return ok;
}

int main()
{
    std::printf("fib(32), 3,524,577 joins; medians of 15 paired repetitions\n");
    bool ok = measure<fj::sleep::spin>("spin");
    ok &= measure<fj::sleep::legacy>("legacy");
    ok &= measure<fj::sleep::jec>("jec");
    return ok ? 0 : 1;
}
