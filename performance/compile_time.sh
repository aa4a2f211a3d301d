#!/usr/bin/env bash
# Copyright 2026 The Boost.ForkJoin developers.
# Distributed under the Boost Software License, Version 1.0.
# (See accompanying file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
#
# Compile time as users feel it: the user CPU seconds of `g++ -std=c++20 -O2
# -c` for the fixed translation units in performance/compile_time/, each
# beside its oneTBB (or std::execution) twin, compiled alternately so that a
# drifting machine slows both alike. Prints a table of medians and ranges,
# with each library row's ratio to its twin, and writes the same as JSON.
#
#   performance/compile_time.sh [--reps N] [--json FILE]
#
# Defaults: 5 repetitions, build/benchmark/compile_time.json. Exit status 1
# if a unit fails to compile.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(dirname "$here")
reps=5
json=$root/build/benchmark/compile_time.json
while (($#)); do
    case "$1" in
    --reps) reps=$2; shift 2 ;;
    --json) json=$2; shift 2 ;;
    *) echo "usage: $0 [--reps N] [--json FILE]" >&2; exit 2 ;;
    esac
done
[[ "$reps" =~ ^[1-9][0-9]{0,3}$ ]] || { echo "$0: --reps takes 1 to 9999" >&2; exit 2; }

# Each row: the library's unit, its twin, and what the pair measures.
# A unit named name+separate is name.cpp compiled with
# BOOST_FORKJOIN_SEPARATE_COMPILATION: the library's cold code then comes
# from the one unit that includes <boost/forkjoin/src.hpp>, compiled once
# per program (doc/reference.adoc, "Separate compilation").
pairs=(
    "forkjoin_join tbb_parallel_invoke one join in a pool, its own header"
    "forkjoin_join+separate tbb_parallel_invoke the same, separate compilation"
    "forkjoin_umbrella tbb_umbrella the umbrella header, one join"
    "forkjoin_umbrella+separate tbb_umbrella the same, separate compilation"
    "forkjoin_sort tbb_sort a parallel sort and a reduction"
    "forkjoin_sort+separate tbb_sort the same, separate compilation"
    "forkjoin_sort std_par_sort the same against std::execution::par"
)

out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

# User CPU seconds of one compile.
compile_seconds() {
    local unit=$1 file=${1%+separate} defines=() t
    [[ "$unit" == *+separate ]] && defines=(-DBOOST_FORKJOIN_SEPARATE_COMPILATION)
    TIMEFORMAT=%U
    t=$( { time g++ -std=c++20 -O2 "${defines[@]}" -I"$root/include" -c "$here/compile_time/$file.cpp" \
                 -o "$out/$unit.o" 2>"$out/$unit.err"; } 2>&1 ) ||
        { echo "$unit failed to compile:" >&2; cat "$out/$unit.err" >&2; exit 1; }
    echo "$t"
}

# Median and range of the numbers on stdin.
summary() { sort -g | awk '{v[NR] = $1} END {m = (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2;
                                             printf "%.2f %.2f %.2f", m, v[1], v[NR]}'; }

declare -A samples
units=()
for p in "${pairs[@]}"; do
    read -r a b _ <<<"$p"
    for u in "$a" "$b"; do
        [[ -n "${samples[$u]+set}" ]] || { samples[$u]=""; units+=("$u"); }
    done
done
for ((r = 0; r < reps; ++r)); do
    echo "compile_time: repetition $((r + 1)) of $reps" >&2
    # Alternate the order each repetition.
    if ((r % 2)); then order=($(printf '%s\n' "${units[@]}" | tac)); else order=("${units[@]}"); fi
    for u in "${order[@]}"; do
        samples[$u]+="$(compile_seconds "$u") "
    done
done

cpu=$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -1)
printf '\ncompile time: user CPU s of g++ -std=c++20 -O2 -c, median [min-max] of %d, %s, %s\n\n' \
    "$reps" "$(g++ -dumpfullversion)" "$cpu"
printf '%-27s %-22s %-24s %-24s %s\n' "library unit" "twin" "library s" "twin s" "ratio"
rows=()
for p in "${pairs[@]}"; do
    read -r a b what <<<"$p"
    read -r am alo ahi <<<"$(tr ' ' '\n' <<<"${samples[$a]}" | grep . | summary)"
    read -r bm blo bhi <<<"$(tr ' ' '\n' <<<"${samples[$b]}" | grep . | summary)"
    ratio=$(awk -v x="$am" -v y="$bm" 'BEGIN {printf "%.2f", x / y}')
    printf '%-27s %-22s %-24s %-24s %sx  (%s)\n' "$a" "$b" "$am [$alo-$ahi]" "$bm [$blo-$bhi]" "$ratio" "$what"
    rows+=("$(printf '{"unit": "%s", "twin": "%s", "what": "%s", "median_s": %s, "min_s": %s, "max_s": %s, ' \
                     "$a" "$b" "$what" "$am" "$alo" "$ahi"
              printf '"twin_median_s": %s, "twin_min_s": %s, "twin_max_s": %s, "ratio": %s, ' "$bm" "$blo" "$bhi" "$ratio"
              printf '"samples_s": [%s], "twin_samples_s": [%s]}' "$(echo ${samples[$a]} | tr ' ' ',')" \
                     "$(echo ${samples[$b]} | tr ' ' ',')")")
done
{
    printf '{"reps": %d, "compiler": "g++ %s", "cpu": "%s", "rows": [\n' "$reps" "$(g++ -dumpfullversion)" "$cpu"
    (IFS=$'\n'; echo "${rows[*]}" | sed '$!s/$/,/')
    echo "]}"
} > "$out/compile_time.json"
mkdir -p "$(dirname "$json")"
cp "$out/compile_time.json" "$json"
echo
echo "JSON: $json"
