#!/usr/bin/env bash
# Copyright 2026 The Boost.ForkJoin developers.
# Distributed under the Boost Software License, Version 1.0.
#
# The whole test suite: installs what is missing, builds with b2, runs every
# test program and the other checks, and ends with "N passed, N failed"
# counting test cases. Exit status 0 only if nothing failed.
#
# FORKJOIN_TEST_FILTER=regex runs only the checks whose name matches.
# FORKJOIN_STRESS_JOBS=n injects n jobs per policy in the lost-wake-up
# stress (sleep_test; default 40,000, a tenth of a minute a policy), and
# FORKJOIN_FUZZ_SECONDS=s fuzzes for s seconds (default 30): the long hunts.
set -uo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$root"
tools/install-deps.sh test || exit 1

jobs=$(nproc)
passed=0
failed=0
log_dir=build/test-logs
mkdir -p "$log_dir"

wanted() { [[ -z "${FORKJOIN_TEST_FILTER:-}" || "$1" =~ $FORKJOIN_TEST_FILTER ]]; }

# What a failed Boost.Test program said: its error lines with the output just
# before each (a child process's report, a message), then the log's tail.
show_failure() {
    local log=$1
    grep -n -B6 -E 'error: in|fatal error|exception|Assertion|runtime error|SUMMARY:|terminate called|watchdog:' "$log" |
        head -n 80
    echo "--- the last test case entered"
    grep -E 'Entering test case' "$log" | tail -n 1
    echo "--- tail of $log"
    tail -n 20 "$log"
}

# Runs "$@" with its output in $log; after $limit seconds, writes every
# thread's stack to the log (gdb, if it can attach) and kills it: a hang
# leaves the evidence of where it hung, not only the test case's name.
run_with_limit() {
    local limit=$1 log=$2; shift 2
    "$@" >"$log" 2>&1 &
    local pid=$!
    (
        sleep "$limit" &
        wait $!
        kill -0 "$pid" 2>/dev/null || exit 0
        {
            echo "--- still running after ${limit}s: the stack of every thread"
            timeout 120 gdb -p "$pid" -batch -ex 'thread apply all bt' 2>&1 | grep -E '^(Thread |#)'
        } >>"$log"
        kill -KILL "$pid" 2>/dev/null
    ) &
    local watcher=$!
    wait "$pid" 2>/dev/null
    local status=$?
    pkill -P "$watcher" 2>/dev/null
    kill "$watcher" 2>/dev/null
    wait "$watcher" 2>/dev/null
    return $status
}

# A Boost.Test program: count its test cases from the short report. A crash
# or a time-out counts every case it would have run as failed, at least one.
run_boost_test() {
    local name=$1 binary=$2 limit=$3
    wanted "$name" || return 0
    local log="$log_dir/$name.log" start=$SECONDS
    # Boost.Test's signal handler longjmps to the main thread's frame from
    # whichever thread took the signal; in a pool that is a worker, and the
    # crash it causes buries the cause (ASan fails a CHECK on the foreign
    # stack). Without it a worker's std::terminate prints its exception and
    # aborts, and the log's last "Entering test case" names the test.
    run_with_limit "$limit" "$log" "$binary" --report_level=short --log_level=test_suite --catch_system_errors=no
    local status=$?
    local ok bad
    ok=$(grep -oE '[0-9]+ test cases? out of [0-9]+ passed' "$log" | head -1 | awk '{print $1}')
    bad=$(grep -oE '[0-9]+ test cases? out of [0-9]+ (failed|aborted)' "$log" | awk '{s += $1} END {print s + 0}')
    ok=${ok:-0}
    if ((status != 0 && bad == 0)); then
        local total
        total=$("$binary" --list_content 2>&1 | grep -c '\*$' || true)
        bad=$((total - ok > 0 ? total - ok : 1))
    fi
    passed=$((passed + ok))
    failed=$((failed + bad))
    printf '%-28s %4d passed %4d failed  %4ds\n' "$name" "$ok" "$bad" $((SECONDS - start))
    if ((bad > 0)); then show_failure "$log"; fi
}

# Any other check: one case, passed if the command exits 0.
run_check() {
    local name=$1; shift
    wanted "$name" || return 0
    local log="$log_dir/$name.log" start=$SECONDS
    if "$@" >"$log" 2>&1; then
        passed=$((passed + 1)); printf '%-28s    1 passed    0 failed  %4ds\n' "$name" $((SECONDS - start))
    else
        failed=$((failed + 1)); printf '%-28s    0 passed    1 failed  %4ds\n' "$name" $((SECONDS - start))
        tail -n 40 "$log"
    fi
}

# A check script that reports its own "N passed, N failed" line.
run_counted_check() {
    local name=$1; shift
    wanted "$name" || return 0
    local log="$log_dir/$name.log" start=$SECONDS
    "$@" >"$log" 2>&1
    local status=$?
    local line ok bad
    line=$(grep -E '^[0-9]+ passed, [0-9]+ failed' "$log" | tail -1)
    ok=$(echo "$line" | awk '{print $1}'); ok=${ok:-0}
    bad=$(echo "$line" | awk '{print $3}'); bad=${bad:-0}
    if ((status != 0 && bad == 0)); then bad=1; fi
    passed=$((passed + ok)); failed=$((failed + bad))
    printf '%-28s %4d passed %4d failed  %4ds\n' "$name" "$ok" "$bad" $((SECONDS - start))
    if ((bad > 0)); then tail -n 40 "$log"; fi
}

# How long each build took, on stderr: the suite's time is mostly compiling.
build_time() { printf '%-28s built in %4ds\n' "$1" $((SECONDS - $2)) >&2; }

echo "building tests and examples with b2 -j$jobs" >&2
build_start=$SECONDS
if ! b2 -j"$jobs" test//stage example//stage >"$log_dir/b2.log" 2>&1; then
    tail -n 60 "$log_dir/b2.log"
    echo "0 passed, 1 failed"
    exit 1
fi
build_time "tests and examples" "$build_start"

# The core's Boost.Test programs also run under TSan and ASan+UBSan, and so
# does the future test, on Boost.Context's ucontext back end (the one that
# tells the sanitizers about fiber switches; see doc/futures.adoc).
sanitized_tests=(deque join scope spawn install broadcast pool sleep spin_wait fence lifecycle thread_count sort future_ucontext algorithm_ucontext)

for t in deque join scope spawn install broadcast pool spin_wait fence lifecycle thread_count future algorithm sort oom asio policy_benchmark separate_compilation; do
    run_boost_test "$t" "build/test/${t}_test" 600
done
run_boost_test sleep build/test/sleep_test 900

run_check global_pool_exit build/test/global_exit_test

# The future test built with clang 14 too: the library must build with both
# compilers, and the futures (templates over user callables) are where they
# disagree most.
if wanted 'clang'; then
    echo "building the clang variant with b2 -j$jobs" >&2
    build_start=$SECONDS
    if b2 -j"$jobs" toolset=clang-14 test//stage-clang >"$log_dir/b2-clang.log" 2>&1; then
        build_time "clang variant" "$build_start"
        run_boost_test clang_future build/test-clang/future_test 600
    else
        tail -n 60 "$log_dir/b2-clang.log"
        failed=$((failed + 1))
    fi
fi

for e in quick_start custom_sleep_policy asio_timer asio_server; do
    run_check "example_$e" "build/example/$e"
done
run_check example_policy_bakeoff build/example/policy_bakeoff --repetitions 1

# A user's debug build: the examples compile at -O0 with -Wall -Wextra
# -Werror. GCC warns about some things (a compare-exchange's memory orders)
# only without optimization, where the b2 builds above never look.
# pool_options written with designated initializers, as the docs show
# ({.num_threads = 4}), must not warn either: its members all have default
# member initializers, which GCC 12's -Wmissing-field-initializers needs.
debug_build_warnings() {
    printf '%s\n' example/*.cpp |
        xargs -P "$jobs" -I{} g++ -std=c++20 -O0 -Wall -Wextra -Werror -Iinclude \
              -c {} -o /dev/null
}
run_check debug_build_warnings debug_build_warnings

# Misuse caught at compile time: each program in test/compile_fail must fail
# to compile; the first error must carry the text of its "// expected
# error:" line (a static_assert's sentence, or the call a concept rejected),
# the diagnostic must point at the program's own line (the user's call, not
# only a header in detail/), and each "// expected note:" text must appear.
compile_fails_as_expected() {
    local f=$1 output expected first note
    expected=$(sed -n 's|^// expected error: ||p' "$f")
    if [ -z "$expected" ]; then
        echo "$f has no '// expected error:' line"
        return 1
    fi
    if output=$(g++ -std=c++20 -fsyntax-only -Iinclude "$f" 2>&1); then
        echo "$f compiled"
        return 1
    fi
    first=$(grep -m1 'error:' <<<"$output")
    if ! grep -qF "$expected" <<<"$first" || ! grep -qE "^$f:[0-9]+:" <<<"$output"; then
        echo "$f failed to compile, but its first error is not '$expected' at its own line:"
        echo "$output" | head -n 20
        return 1
    fi
    while IFS= read -r note; do
        if ! grep -qF "$note" <<<"$output"; then
            echo "$f: the diagnostic does not mention '$note':"
            echo "$output" | head -n 40
            return 1
        fi
    done < <(sed -n 's|^// expected note: ||p' "$f")
}
export -f compile_fails_as_expected
# One compiler per CPU: each program parses the whole library.
compile_time_errors() {
    printf '%s\n' test/compile_fail/*.cpp | xargs -P "$jobs" -I{} bash -c 'compile_fails_as_expected "$1"' _ {}
}
run_check compile_time_errors compile_time_errors

# The CMake package: install to a temporary prefix and build example/ as a
# separate consumer project with find_package(boost_forkjoin).
cmake_consumer() {
    local work status
    work=$(mktemp -d)
    cmake -S . -B "$work/build" -DCMAKE_BUILD_TYPE=Release -DBOOST_FORKJOIN_BUILD_TESTS=OFF \
          -DBOOST_FORKJOIN_BUILD_EXAMPLES=OFF -DCMAKE_INSTALL_PREFIX="$work/prefix" &&
    cmake --install "$work/build" &&
    cmake -S example -B "$work/consumer" -DCMAKE_BUILD_TYPE=Release -DCMAKE_PREFIX_PATH="$work/prefix" &&
    cmake --build "$work/consumer" -j"$jobs" --target quick_start &&
    "$work/consumer/quick_start"
    status=$?
    rm -rf "$work"
    return $status
}
run_check cmake_find_package cmake_consumer

# The same tests under ThreadSanitizer and AddressSanitizer+UBSan.
if wanted 'tsan|asan'; then
    echo "building sanitizer variants with b2 -j$jobs" >&2
    build_start=$SECONDS
    if b2 -j"$jobs" test//stage-tsan test//stage-asan >"$log_dir/b2-sanitizers.log" 2>&1; then
        build_time "sanitizer variants" "$build_start"
        for t in "${sanitized_tests[@]}"; do
            run_boost_test "tsan_$t" "build/test-tsan/${t}_test" 300
            run_boost_test "asan_$t" "build/test-asan/${t}_test" 300
        done
        run_boost_test asan_oom build/test-asan/oom_test 300
    else
        tail -n 60 "$log_dir/b2-sanitizers.log"
        failed=$((failed + 1))
    fi
fi

# Differential fuzzing: replay the kept regressions, then fuzz for a while.
fuzz() {
    b2 -j"$jobs" toolset=clang-14 test/fuzz//stage || return 1
    mkdir -p build/fuzz-corpus build/fuzz-artifacts test/fuzz/regressions
    local regressions=(test/fuzz/regressions/*)
    if [ -e "${regressions[0]}" ]; then
        build/fuzz/program_fuzzer "${regressions[@]}" || return 1
    fi
    build/fuzz/program_fuzzer -max_total_time="${FORKJOIN_FUZZ_SECONDS:-30}" -rss_limit_mb=4096 \
        -artifact_prefix=build/fuzz-artifacts/ build/fuzz-corpus test/fuzz/regressions
}
run_check fuzz fuzz

# The benchmark's smoke test: every workload on every implementation at
# reduced sizes; it fails if any run crashes, hangs or computes a wrong result.
run_check benchmark_quick performance/run.sh --quick

# The documentation renders to HTML without a warning (bad markup, duplicate
# ids) and, with -v, without a broken cross-reference, which asciidoctor
# reports one level lower (INFO "possible invalid reference").
run_check docs asciidoctor --failure-level=INFO -v -o build/doc/index.html doc/index.adoc

[ -x test/model/check.sh ] && run_counted_check spin_models test/model/check.sh
[ -x test/litmus/run.sh ] && run_counted_check fence_litmus test/litmus/run.sh

echo "$passed passed, $failed failed"
((failed == 0))
