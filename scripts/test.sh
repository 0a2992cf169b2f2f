#!/usr/bin/env bash
# Runs the test suite: the normal build's ctest (every label but sim-long, the long simulation
# sweeps: `ctest --test-dir build -L sim-long` runs those), then the fast labels (unit, golden,
# errors) again under AddressSanitizer + UndefinedBehaviorSanitizer.
# Assumes scripts/setup.sh has run (the README's test line does both).
set -euo pipefail
cd "$(dirname "$0")/.."
jobs=$(nproc)
ctest --test-dir build --output-on-failure -j "$jobs" -LE sim-long

# The benchmarks are not run there, so not built.
RUBICK_BUILD_DIR=build-asan \
  RUBICK_CMAKE_ARGS="-DRUBICK_SANITIZE=ON -DCMAKE_BUILD_TYPE=Debug -DRUBICK_BENCH=OFF" \
  scripts/setup.sh
ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 \
  ctest --test-dir build-asan --output-on-failure -j "$jobs" -L 'unit|golden|errors'
