#!/usr/bin/env bash
# Copyright 2026 The Boost.ForkJoin developers.
# Distributed under the Boost Software License, Version 1.0.
#
# Builds and runs the fence litmus tests (see README.md). Arguments are
# passed on, e.g. --iterations 20000000 for a longer run.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
mkdir -p "$root/build/litmus"
g++ -std=c++20 -O2 -pthread -I"$root/include" "$root/test/litmus/fence_litmus.cpp" -o "$root/build/litmus/fence_litmus"
exec "$root/build/litmus/fence_litmus" "$@"
