#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Usage: parallel_explore.sh RUBICK
# GEMM 64^3 (examples/gemm.tc's own sizes) over every array from 4x4 to 16x16, explored
# unsharded (the table on stdout, --json, --plot), then in 4 shards run locally by
# scripts/shard_parallel.sh (GNU parallel) and merged: the table, JSON and SVG must be byte for
# byte the same (cmp). --csv is left out (its merge holds every row in memory: docs/scale.md).
set -euo pipefail
rubick=$(realpath "$1")
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
cd "$(dirname "$0")/../.."
# shellcheck source-path=SCRIPTDIR source=compare_outputs.sh
. tests/scale/compare_outputs.sh
run=(examples/gemm.tc --array-range 4..16)

start=$SECONDS
explore_unsharded
unsharded=$((SECONDS - start))

start=$SECONDS
explore_sharded shard_parallel.sh -n 4 -d "$dir/shards" --rubick "$rubick"
sharded=$((SECONDS - start))

compare_outputs
# Not vacuous: four shard files, a table with Pareto-optimal designs, a front in the JSON.
[ "$(find "$dir/shards" -name 'explore-shard-*-of-4.jsonl' | wc -l)" -eq 4 ] ||
  { echo "expected 4 shard files in $dir/shards"; fail=1; }
grep -q '\*' "$dir/u.txt" || { echo "no Pareto-optimal design in the table"; fail=1; }
[ "$(wc -c <"$dir/u.json")" -gt 1000 ] || { echo "the JSON is too short to compare"; fail=1; }
((fail)) && exit 1
echo "ok: $(sed -n 2p "$dir/u.txt")"
echo "unsharded explore ${unsharded} s; 4 shards (GNU parallel, $(nproc) cores) and merge ${sharded} s"
