#!/usr/bin/env bash
# Copyright 2026 The Boost.ForkJoin developers.
# Distributed under the Boost Software License, Version 1.0.
#
# The whole test suite: installs what is missing, builds with b2, runs every
# test program and the other checks, and ends with "N passed, N failed"
# counting test cases. Exit status 0 only if nothing failed.
#
# Everything is built first (two b2 runs, one per compiler, so that both
# CPUs stay busy to the end); then the checks run $(nproc) at a time,
# longest first, each writing its line when it ends. They run beside each
# other by design: every program must pass on a loaded machine.
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
log_dir=build/test-logs
mkdir -p "$log_dir"
# Each check runs in a subshell of its own and leaves its counts here.
results=$(mktemp -d)
trap 'rm -rf "$results"' EXIT

# One check's line (and, if it failed, its evidence, on stdin) written as a
# whole under a lock, so that the lines of checks that end together do not
# interleave; the counts go to the results directory.
report() {
    local name=$1 ok=$2 bad=$3 secs=$4
    echo "$ok $bad" >"$results/$name"
    {
        printf '%-28s %4d passed %4d failed  %4ds\n' "$name" "$ok" "$bad" "$secs"
        cat
    } >"$results/$name.out"
    flock "$results" cat "$results/$name.out"
}

# Starts check "$@" in the background once fewer than $jobs checks run.
queue() {
    while (($(jobs -rp | wc -l) >= jobs)); do wait -n; done
    "$@" &
}

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
    if ((bad > 0)); then show_failure "$log"; fi | report "$name" "$ok" "$bad" $((SECONDS - start))
}

# Any other check: one case, passed if the command exits 0.
run_check() {
    local name=$1; shift
    wanted "$name" || return 0
    local log="$log_dir/$name.log" start=$SECONDS
    if "$@" >"$log" 2>&1; then
        report "$name" 1 0 $((SECONDS - start)) </dev/null
    else
        tail -n 40 "$log" | report "$name" 0 1 $((SECONDS - start))
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
    if ((bad > 0)); then tail -n 40 "$log"; fi | report "$name" "$ok" "$bad" $((SECONDS - start))
}

# How long each build took, on stderr: the suite's time is mostly compiling.
build_time() { printf '%-28s built in %4ds\n' "$1" $((SECONDS - $2)) >&2; }

# A build that fails counts as one failure; the checks still run, and each
# program that is missing fails too.
build_failures=0
build() {
    local what=$1 log=$2 start=$SECONDS; shift 2
    echo "building $what with b2 -j$jobs" >&2
    if b2 -j"$jobs" "$@" >"$log_dir/$log" 2>&1; then
        build_time "$what" "$start"
    else
        build_failures=$((build_failures + 1))
        echo "building $what failed:"
        grep -E -B2 -A8 'error:|\.\.\.failed' "$log_dir/$log" | head -n 80
    fi
}

# The core's Boost.Test programs also run under TSan and ASan+UBSan, and so
# does the future test, on Boost.Context's ucontext back end (the one that
# tells the sanitizers about fiber switches; see doc/futures.adoc).
sanitized_tests=(deque join scope spawn install broadcast pool sleep spin_wait fence lifecycle thread_count sort future_ucontext algorithm_ucontext)

gcc_targets=(test//stage example//stage)
gcc_what="tests and examples"
if wanted 'tsan|asan'; then
    gcc_targets+=(test//stage-tsan test//stage-asan)
    gcc_what="tests, examples and sanitizer variants"
fi
build "$gcc_what" b2.log "${gcc_targets[@]}"

# The future test built with clang 14 too: the library must build with both
# compilers, and the futures (templates over user callables) are where they
# disagree most. The differential fuzzer needs clang's libFuzzer.
clang_targets=()
if wanted 'clang'; then clang_targets+=(test//stage-clang); fi
if wanted 'fuzz'; then clang_targets+=(test/fuzz//stage); fi
if ((${#clang_targets[@]} > 0)); then
    build "the clang variant and the fuzzer" b2-clang.log toolset=clang-14 "${clang_targets[@]}"
fi

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

# Misuse caught at compile time: each program in test/compile_fail must fail
# to compile; the first error must carry the text of its "// expected
# error:" line (a static_assert's sentence, or the call a concept rejected),
# the diagnostic must point at the program's own line (the user's call, not
# only a header in detail/), and each "// expected note:" text must appear.
# Every other error must be a static_assert's sentence too, or sit at the
# program's own lines: none may come from inside the library, where a
# failed requirement's body went on being instantiated.
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
    local stray
    stray=$(grep 'error:' <<<"$output" | grep -v 'static assertion failed' | grep -vE "^$f:[0-9]+:")
    if [ -n "$stray" ]; then
        echo "$f: errors from inside the library after the first:"
        echo "$stray" | head -n 5
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

# Differential fuzzing: replay the kept regressions, then fuzz for a while.
fuzz() {
    mkdir -p build/fuzz-corpus build/fuzz-artifacts test/fuzz/regressions
    local regressions=(test/fuzz/regressions/*)
    if [ -e "${regressions[0]}" ]; then
        build/fuzz/program_fuzzer "${regressions[@]}" || return 1
    fi
    build/fuzz/program_fuzzer -max_total_time="${FORKJOIN_FUZZ_SECONDS:-30}" -rss_limit_mb=4096 \
        -artifact_prefix=build/fuzz-artifacts/ build/fuzz-corpus test/fuzz/regressions
}

# The checks, longest first, so that the last to end are short ones.

# The benchmark's smoke test: every workload on every implementation at
# reduced sizes; it fails if any run crashes, hangs or computes a wrong result.
queue run_check benchmark_quick performance/run.sh --quick
queue run_boost_test sleep build/test/sleep_test 900
[ -x test/model/check.sh ] && queue run_counted_check spin_models test/model/check.sh
queue run_check fuzz fuzz
queue run_check compile_time_errors compile_time_errors
queue run_check debug_build_warnings debug_build_warnings
for t in tsan_sort tsan_sleep asan_sleep; do
    queue run_boost_test "$t" "build/test-${t%%_*}/${t#*_}_test" 300
done
[ -x test/litmus/run.sh ] && queue run_counted_check fence_litmus test/litmus/run.sh

for t in lifecycle spin_wait future sort asio algorithm join deque scope spawn install broadcast pool fence thread_count oom policy_benchmark separate_compilation shared_library; do
    queue run_boost_test "$t" "build/test/${t}_test" 600
done
queue run_boost_test clang_future build/test-clang/future_test 600
queue run_check cmake_find_package cmake_consumer
queue run_check global_pool_exit build/test/global_exit_test
for e in quick_start custom_sleep_policy asio_timer asio_server; do
    queue run_check "example_$e" "build/example/$e"
done
queue run_check example_policy_bakeoff build/example/policy_bakeoff --repetitions 1

# The same tests under ThreadSanitizer and AddressSanitizer+UBSan.
for t in "${sanitized_tests[@]}" oom; do
    for s in tsan asan; do
        [[ "$s $t" == "tsan oom" || "$s $t" == "tsan sort" || "$t" == sleep ]] && continue
        queue run_boost_test "${s}_$t" "build/test-$s/${t}_test" 300
    done
done

# The documentation renders to HTML without a warning (bad markup, duplicate
# ids) and, with -v, without a broken cross-reference, which asciidoctor
# reports one level lower (INFO "possible invalid reference").
queue run_check docs asciidoctor --failure-level=INFO -v -o build/doc/index.html doc/index.adoc
wait

passed=0
failed=$build_failures
for count in "$results"/*; do
    [[ "$count" == *.out ]] && continue
    read -r ok bad <"$count"
    passed=$((passed + ok)); failed=$((failed + bad))
done
echo "$passed passed, $failed failed"
((failed == 0))
