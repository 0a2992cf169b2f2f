#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Builds the libFuzzer target (clang, ASan+UBSan) into build-fuzz/ and runs it.
# Usage: scripts/fuzz.sh [RUNS]   (default 1000000 executions in total, split over the jobs)
#   FUZZ_JOBS      parallel fuzzing processes (default: number of cores)
#   FUZZ_MAX_LEN   largest input in bytes (default 512)
#   FUZZ_FRESH=1   start from the seeds only (drops build-fuzz/corpus from earlier runs)
#   FUZZ_ARGS      extra libFuzzer flags
# The seeds in fuzz/corpus/ are read-only; new inputs go to build-fuzz/corpus/. A crash is saved
# as build-fuzz/crash-*; reproduce it with build-fuzz/fuzz/fuzz_frontend FILE. Exits non-zero if
# any job found one.
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-1000000}
jobs=${FUZZ_JOBS:-$(nproc)}
max_len=${FUZZ_MAX_LEN:-512}

CC=clang CXX=clang++ cmake -S . -B build-fuzz -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DRUBICK_FUZZ=ON -DRUBICK_TESTS=OFF >/dev/null
cmake --build build-fuzz --target fuzz_frontend

cd build-fuzz
[ "${FUZZ_FRESH:-0}" = 1 ] && rm -rf corpus
mkdir -p corpus
rm -f fuzz-*.log
per_job=$(((runs + jobs - 1) / jobs))
echo "fuzz: $jobs job(s) x $per_job runs, max_len $max_len, $(find corpus -type f | wc -l) corpus" \
  "inputs from earlier runs" >&2
start=$(date +%s)
status=0
# shellcheck disable=SC2086
ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 \
  fuzz/fuzz_frontend -runs="$per_job" -max_len="$max_len" -timeout=10 -rss_limit_mb=2048 \
  -dict=../fuzz/tc.dict -jobs="$jobs" -workers="$jobs" -print_final_stats=1 \
  -artifact_prefix=./ ${FUZZ_ARGS:-} corpus ../fuzz/corpus || status=$?
elapsed=$(($(date +%s) - start))
total=0
for log in fuzz-*.log; do
  [ -f "$log" ] || continue
  done_line=$(grep -E '^Done [0-9]+ runs' "$log" || true)
  echo "fuzz: $log: ${done_line:-no 'Done' line (crashed or stopped?)}" >&2
  n=$(grep -oE 'stat::number_of_executed_units: *[0-9]+' "$log" | grep -oE '[0-9]+$' || echo 0)
  total=$((total + n))
done
crashes=$(find . -maxdepth 1 \( -name 'crash-*' -o -name 'leak-*' -o -name 'timeout-*' \
  -o -name 'oom-*' \) | wc -l)
echo "fuzz: $total executions in ${elapsed} s, $crashes crash/leak/timeout/oom file(s)," \
  "exit status $status" >&2
[ "$status" = 0 ] && [ "$crashes" = 0 ]
