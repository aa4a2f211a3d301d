// Copyright 2026 The Boost.ForkJoin developers.
// Distributed under the Boost Software License, Version 1.0.
// (See accompanying file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)

// The cost of join itself: fib(32) with a join at every level and no
// cutoff, on 1 and 2 threads of each sleep policy, as a ratio to the serial
// fib(32) measured in the same run (medians of 7). The benchmark program in
// performance/ does this and more against Rayon, oneTBB and OpenMP.

#include <boost/forkjoin.hpp>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <vector>

namespace fj = boost::forkjoin;

// noinline so that the compiler cannot turn the serial recursion into a
// loop: the baseline is a real call per node, like the parallel version.
[[gnu::noinline]] long fib_serial(int n) { return n < 2 ? n : fib_serial(n - 1) + fib_serial(n - 2); }

long fib(int n)
{
    if (n < 2)
        return n;
    auto [a, b] = fj::join([n] { return fib(n - 1); }, [n] { return fib(n - 2); });
    return a + b;
}

template <class F>
double median_ms(F&& f, int reps = 7)
{
    std::vector<double> times;
    f(); // warm-up
    for (int i = 0; i < reps; ++i) {
        auto const start = std::chrono::steady_clock::now();
        f();
        times.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count());
    }
    std::sort(times.begin(), times.end());
    return times[times.size() / 2];
}

template <class Policy>
void measure(char const* name, double serial_ms)
{
    for (std::size_t threads : {1, 2}) {
        fj::basic_thread_pool<Policy> pool({.num_threads = threads});
        long result = 0;
        double const ms = median_ms([&] { result = pool.install([] { return fib(32); }); });
        std::printf("%-8s %zu thread%s  %7.2f ms  %5.2fx serial  %5.2f ns/join  (fib = %ld)\n", name, threads,
                    threads == 1 ? " " : "s", ms, ms / serial_ms, ms * 1e6 / 3'524'577.0, result);
    }
}

int main()
{
    // The argument goes through a volatile so that the compiler can neither
    // evaluate the call once and reuse it nor fold it at compile time.
    int volatile n = 32;
    long volatile sink = 0;
    double const serial_ms = median_ms([&] { sink = fib_serial(n); });
    std::printf("serial            %7.2f ms\n", serial_ms);
    measure<fj::sleep::spin>("spin", serial_ms);
    measure<fj::sleep::legacy>("legacy", serial_ms);
    measure<fj::sleep::jec>("jec", serial_ms);
    return sink == 2178309 ? 0 : 1;
}
