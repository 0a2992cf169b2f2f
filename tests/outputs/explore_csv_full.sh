#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Usage: explore_csv_full.sh RUBICK
# `explore --csv` on a disk that fills up (made deterministic with a 1 MiB file-size limit, so
# the write fails with EFBIG instead of ENOSPC): the search stops at once with exit status 1 and
# an error naming the file, the temporary is removed and an earlier CSV stays as it was.
set -u
rubick=$1
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
cd "$(dirname "$0")/../.."
printf 'id,pareto,p,q,latency,earlier\n' >"$dir/all.csv"
start=$(date +%s%N)
(
  trap '' XFSZ # ignored signals stay ignored in rubick: the write fails instead of killing it
  ulimit -f 1024
  exec "$rubick" explore examples/gemm.tc --array-range 4..16 --csv "$dir/all.csv" --quiet
) >"$dir/.stdout" 2>"$dir/.stderr"
rc=$?
elapsed_ms=$((($(date +%s%N) - start) / 1000000))
err=$(cat "$dir/.stderr")
fail=0
[ $rc -eq 1 ] || { echo "expected exit status 1, got $rc: $err"; fail=1; }
[ "$err" = "$dir/all.csv: error: cannot write file: File too large" ] || { echo "wrong message: $err"; fail=1; }
[ -s "$dir/.stdout" ] && { echo "printed a table"; fail=1; }
[ "$(ls -A "$dir" | grep -v '^\.std')" = all.csv ] || { echo "left behind: $(ls -A "$dir")"; fail=1; }
[ "$(cat "$dir/all.csv")" = "id,pareto,p,q,latency,earlier" ] || { echo "the earlier CSV changed"; fail=1; }
# The whole search takes 10-30 s; the failure is noticed within about 100 ms of the write.
[ $elapsed_ms -lt 5000 ] || { echo "took $elapsed_ms ms to stop"; fail=1; }
[ $fail -eq 0 ] && echo "ok (stopped in $elapsed_ms ms)"
exit $fail
