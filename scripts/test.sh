#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Runs the test suite: the normal build's ctest (every label but sim-long, the long simulation
# sweeps: `ctest --test-dir build -L sim-long` runs those), then the fast labels (unit, golden,
# errors) again under AddressSanitizer + UndefinedBehaviorSanitizer (the unit tests there as
# GoogleTest shards, not through ctest).
# Assumes scripts/setup.sh has run (the README's test line does both).
set -euo pipefail
cd "$(dirname "$0")/.."
jobs=$(nproc)
ctest --test-dir build --output-on-failure -j "$jobs" -LE sim-long

# Only what those labels run is built there (the CLI and the unit tests: not the benchmarks nor
# the Verilated RTL and harness tests, which are most of the tree's build). clang builds it in
# two thirds of gcc's time (measured: 369 s against 575 s on 2 cores) and its sanitized tests
# run as fast; a build-asan configured before keeps its compiler.
CC=clang CXX=clang++ RUBICK_BUILD_DIR=build-asan RUBICK_TARGETS="rubick rubick_unit_tests" \
  RUBICK_CMAKE_ARGS="-DRUBICK_SANITIZE=ON -DCMAKE_BUILD_TYPE=Debug -DRUBICK_BENCH=OFF" \
  scripts/setup.sh
export ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1

# The unit tests (label unit) as GoogleTest shards, one process per core, from the directory
# ctest runs them in: a sanitized process takes about 0.4 s to start and to check for leaks at
# exit, which ctest's process per test pays some 340 times (measured: 200 s of 300).
pids=()
for ((s = 0; s < jobs; s++)); do
  (cd build-asan/tests && GTEST_TOTAL_SHARDS=$jobs GTEST_SHARD_INDEX=$s \
    ./rubick_unit_tests --gtest_brief=1 >"../unit-shard-$s.log" 2>&1) &
  pids+=($!)
done
unit_failed=0
for s in "${!pids[@]}"; do
  if wait "${pids[$s]}"; then
    echo "sanitizer unit tests, shard $s of $jobs: $(grep '^\[  PASSED  \]' \
      "build-asan/unit-shard-$s.log")"
  else
    unit_failed=1
    echo "sanitizer unit tests, shard $s of $jobs FAILED:" >&2
    cat "build-asan/unit-shard-$s.log" >&2
  fi
done
ctest --test-dir build-asan --output-on-failure -j "$jobs" -L 'golden|errors'
exit "$unit_failed"
