#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Usage: explore_interrupt.sh RUBICK SIGNAL
# SIGNAL (INT or TERM) sent to `rubick explore --csv` while it searches and streams the CSV to
# its temporary file: rubick stops within a fraction of a second, removes the temporary, leaves
# an existing CSV of an earlier run as it was, and exits 128 + the signal's number.
source "$(dirname "$0")/interrupt_common.sh"
mkdir "$dir/out"
# An earlier run's CSV (rubick's signature), which the interrupted run must not touch.
printf 'id,pareto,p,q,latency,earlier\n' >"$dir/out/all.csv"
# 2.5 million designs: many seconds of work, so the signal surely arrives during the search.
"$rubick" explore examples/gemm.tc --array-range 4..16 --csv "$dir/out/all.csv" --quiet \
  >"$dir/stdout" 2>"$dir/stderr" &
pid=$!
# Wait (at most 60 s) until the temporary holds rows, i.e. the search is under way.
for _ in $(seq 600); do
  tmp=$(compgen -G "$dir/out/all.csv.tmp.*")
  [ -n "$tmp" ] && [ "$(stat -c %s "$tmp")" -gt 2000000 ] && break
  kill -0 "$pid" 2>/dev/null || break # rubick ended early: reported below
  sleep 0.1
done
[ -n "${tmp:-}" ] || { echo "the CSV's temporary never appeared"; cat "$dir/stderr"; exit 1; }
start=$(date +%s%N)
interrupt
elapsed_ms=$((($(date +%s%N) - start) / 1000000))
interrupted "^rubick explore: interrupted"
[ -s "$dir/stdout" ] && { echo "printed a table:"; head -3 "$dir/stdout"; fail=1; }
[ "$(ls -A "$dir/out")" = all.csv ] || { echo "left behind: $(ls -A "$dir/out")"; fail=1; }
[ "$(cat "$dir/out/all.csv")" = "id,pareto,p,q,latency,earlier" ] || { echo "the earlier CSV changed"; fail=1; }
# Generous for a loaded machine; the search polls every 100 ms.
[ $elapsed_ms -lt 5000 ] || { echo "took $elapsed_ms ms to stop"; fail=1; }
[ $fail -eq 0 ] && echo "ok (stopped in $elapsed_ms ms)"
exit $fail
