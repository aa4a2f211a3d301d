#!/usr/bin/env bash
# Copyright 2026 The Boost.ForkJoin developers.
# Distributed under the Boost Software License, Version 1.0.
#
# Installs the Debian 12 packages a task needs, only those missing.
#   tools/install-deps.sh test        the test suite (Boost, b2, CMake, spin, clang, asciidoctor, and
#                                     the benchmark's, whose --quick run is a smoke test)
#   tools/install-deps.sh benchmark   the benchmark (adds fmt, oneTBB, gnuplot, Rayon's sources, cargo)
set -euo pipefail

packages=(g++ cmake libboost1.81-all-dev libboost1.81-tools-dev)
benchmark_packages=(libfmt-dev libtbb-dev gnuplot-nox cargo librust-rayon-dev)
case "${1:-test}" in
    test) packages+=(spin clang-14 libclang-rt-14-dev python3 asciidoctor ruby-rouge gdb "${benchmark_packages[@]}") ;;
    benchmark) packages+=("${benchmark_packages[@]}") ;;
    *) echo "usage: $0 test|benchmark" >&2; exit 2 ;;
esac

missing=()
for p in "${packages[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
    echo "installing: ${missing[*]}" >&2
    if [ "$(id -u)" -ne 0 ]; then
        echo "error: run as root, or install these packages first" >&2
        exit 1
    fi
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq
    apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi
