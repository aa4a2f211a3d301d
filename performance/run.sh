#!/bin/sh
# Copyright 2026 The Boost.ForkJoin developers.
# Distributed under the Boost Software License, Version 1.0.
# (See accompanying file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
#
# Installs what is missing (Debian 12, as root), builds forkjoin_bench and
# its Rayon peer, then runs the benchmark with the arguments given here, e.g.
#
#   performance/run.sh --quick
#   performance/run.sh --workloads fib,quicksort --json results.json --plots plots
#
# Without arguments it runs the full benchmark, then the compile-time rows
# (compile_time.sh), and writes the results to build/benchmark/
# (results.json, results.csv, one PNG per workload, compile_time.json).
#
# Environment:
#   FORKJOIN_BENCH_BUILDER    b2 (default: the primary build) or cmake
#   FORKJOIN_BENCH_BUILD_DIR  CMake build directory (default performance/build)
#   FORKJOIN_BENCH_JOBS       parallel build jobs (default 2)
set -eu

here=$(cd "$(dirname "$0")" && pwd)
root=$(dirname "$here")
jobs=${FORKJOIN_BENCH_JOBS:-2}
builder=${FORKJOIN_BENCH_BUILDER:-b2}

"$root/tools/install-deps.sh" benchmark >&2

case "$builder" in
cmake)
    build=${FORKJOIN_BENCH_BUILD_DIR:-$here/build}
    # Progress goes to stderr so that stdout carries only the report.
    cmake -S "$here" -B "$build" -DCMAKE_BUILD_TYPE=Release >&2
    cmake --build "$build" --parallel "$jobs" >&2
    exe=$build/forkjoin_bench
    ;;
b2)
    (cd "$root" && b2 -j"$jobs" performance) >&2
    exe=$here/stage/forkjoin_bench
    ;;
*)
    echo "run.sh: FORKJOIN_BENCH_BUILDER must be cmake or b2, not '$builder'" >&2
    exit 2
    ;;
esac

if ! command -v cargo >/dev/null 2>&1; then
    echo "run.sh: note: cargo not found, so the Rayon rows will be n/a" >&2
fi

if [ "$#" -eq 0 ]; then
    out=$root/build/benchmark
    mkdir -p "$out"
    "$exe" --json "$out/results.json" --csv "$out/results.csv" --plots "$out"
    # The full run ends with compile time, beside oneTBB's (compile_time.sh).
    echo
    exec "$here/compile_time.sh" --json "$out/compile_time.json"
fi
exec "$exe" "$@"
