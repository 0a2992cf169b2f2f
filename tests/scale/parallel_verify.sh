#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Usage: parallel_verify.sh RUBICK RUNTIMEDIR
# `rubick verify` of 12 GEMM designs once, then in 3 shards run at the same time by
# scripts/shard_parallel.sh (GNU parallel), all three in one work directory and one runtime
# directory, and merged: every design's row is the one run's, in the same order.
set -euo pipefail
rubick=$(realpath "$1") runtime=$2
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
cd "$(dirname "$0")/../.."
run=(examples/gemm.tc --size M=4,N=4,K=4 --array 2x2 --all --limit 12 --runtime-dir "$runtime")
rows() { grep -E '^(PASS|FAIL) ' "$1"; }

"$rubick" verify "${run[@]}" --work "$dir/one" -q >"$dir/one.txt"
if ! scripts/shard_parallel.sh -n 3 -j 3 -d "$dir/shards" --rubick "$rubick" \
  -- verify "${run[@]}" --work "$dir/shared" --jobs 1 -q >"$dir/merged.txt" 2>"$dir/err"; then
  echo "scripts/shard_parallel.sh failed:"
  cat "$dir/err" "$dir/merged.txt"
  exit 1
fi
cat "$dir/merged.txt"
[ "$(rows "$dir/one.txt" | wc -l)" -eq 12 ] || { echo "expected 12 designs in one run"; exit 1; }
diff <(rows "$dir/one.txt") <(rows "$dir/merged.txt") ||
  { echo "the merged rows differ from the one run's"; exit 1; }
grep -q '^12 design(s), 1 trial(s) each: 12 passed, 0 failed$' "$dir/merged.txt" ||
  { echo "merge's counts are wrong"; exit 1; }
echo "ok"
