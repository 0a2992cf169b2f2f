#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The whole `rubick verify examples/gemm.tc --all` sweep (8406 designs of GEMM 64^3 on 8x8 at
# the time of writing), run in pieces so it can stop and resume: each piece is
# `--all --skip S --limit N`, and one line per piece is appended to the results file. A piece
# already in the results file (same commit of rubick, same range) is not run again, and builds
# in the work directory are reused, so rerunning after an interruption continues where it was.
#
#   bench/verify_sweep.sh [RUBICK] [WORK] [PIECE]
#     RUBICK  the rubick binary (default build/rubick)
#     WORK    kept between runs: results and reports, and verify's work directory WORK/verify
#             (default /tmp/rubick-sweep; ~2 MB per design)
#     PIECE   designs per piece (default 500)
#   Extra arguments for verify go in SWEEP_ARGS (e.g. SWEEP_ARGS="--jobs 1"); SWEEP_COMMIT names
#   the commit RUBICK was built from (default: the checkout's HEAD).
#
# Results: WORK/results.tsv with columns commit, first, last, total, passed, failed, seconds.
# Failing pieces keep their full report in WORK/piece-FIRST.txt. About 2 s of CPU per design
# (quick builds, docs/performance.md): the whole sweep is ~2.5 hours on 2 idle cores.
set -euo pipefail
cd "$(dirname "$0")/.."
rubick=${1:-build/rubick}
work=${2:-/tmp/rubick-sweep}
piece=${3:-500}
[ -x "$rubick" ] || { echo "verify_sweep: $rubick not found; build it first" >&2; exit 1; }
mkdir -p "$work"
results="$work/results.tsv"
# verify uses only a directory of its own (it refuses one holding other files).
verifyWork="$work/verify"
[ -f "$results" ] || printf 'commit\tfirst\tlast\ttotal\tpassed\tfailed\tseconds\n' >"$results"
commit=${SWEEP_COMMIT:-$(git rev-parse --short HEAD 2>/dev/null || echo unknown)}

# How many designs --all selects: verify's own count, from a one-design piece's summary line.
total=$("$rubick" verify examples/gemm.tc --all --limit 1 --work "$verifyWork" --quiet ${SWEEP_ARGS:-} |
  sed -n 's/^designs 1-1 of the \([0-9]*\) selected$/\1/p')
[ -n "$total" ] || { echo "verify_sweep: could not count the designs" >&2; exit 1; }
echo "verify_sweep: $total designs, pieces of $piece, results in $results"

for ((skip = 0; skip < total; skip += piece)); do
  first=$((skip + 1))
  last=$((skip + piece < total ? skip + piece : total))
  if awk -F'\t' -v c="$commit" -v f="$first" -v l="$last" \
    '$1 == c && $2 == f && $3 == l && $6 == 0 { found = 1 } END { exit !found }' "$results"; then
    continue
  fi
  start=$(date +%s)
  set +e
  # shellcheck disable=SC2086
  out=$("$rubick" verify examples/gemm.tc --all --skip "$skip" --limit "$piece" --work "$verifyWork" \
    --quiet ${SWEEP_ARGS:-})
  set -e
  seconds=$(($(date +%s) - start))
  summary=$(echo "$out" | tail -1)
  passed=$(echo "$summary" | sed -n 's/.*: \([0-9]*\) passed, \([0-9]*\) failed$/\1/p')
  failed=$(echo "$summary" | sed -n 's/.*: \([0-9]*\) passed, \([0-9]*\) failed$/\2/p')
  if [ -z "$passed" ]; then
    echo "$out" >"$work/piece-$first.txt"
    echo "verify_sweep: designs $first-$last did not run (see $work/piece-$first.txt)" >&2
    exit 1
  fi
  [ "$failed" -eq 0 ] || echo "$out" >"$work/piece-$first.txt"
  printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$commit" "$first" "$last" "$total" "$passed" "$failed" \
    "$seconds" >>"$results"
  echo "designs $first-$last: $passed passed, $failed failed, ${seconds}s"
done
awk -F'\t' -v c="$commit" 'NR > 1 && $1 == c { p += $5; f += $6 }
  END { printf "commit %s: %d passed, %d failed\n", c, p, f }' "$results"
