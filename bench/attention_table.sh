#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The attention pipeline's measured table (docs/attention.md, "Measured"): for each case the
# rank-1 pipeline by latency at that block size and vector width on 8x8 arrays, verified in
# Verilator (every output bit-exact, measured cycles = predicted), with the explorer's phase
# breakdown and the pipeline's build time (quick build, shared runtime excluded).
#
#   bench/attention_table.sh [build-dir]     (default: build; needs build-dir/rubick)
#
# Prints one markdown row per case. Takes 2-3 minutes on 2 cores.
set -euo pipefail
cd "$(dirname "$0")/.."
rubick="${1:-build}/rubick"
[ -x "$rubick" ] || { echo "attention_table: $rubick not found; build it first" >&2; exit 1; }
scratch=$(mktemp -d /tmp/rubick-attention-table.XXXXXX)
trap 'rm -rf "$scratch"' EXIT

row() { # PROGRAM L S D HEADS BLOCK W
  local prog=$1 l=$2 s=$3 d=$4 heads=$5 block=$6 w=$7 sizes explore out
  sizes="L=$l,S=$s,D=$d"
  [ "$heads" -gt 1 ] && sizes="H=$heads,$sizes"
  local flags=(--size "$sizes" --block-keys "$block" --vector-lanes "$w")
  explore=$("$rubick" explore "$prog" "${flags[@]}" --top 1 2>/dev/null | grep "^rank 1 (")
  if ! out=$("$rubick" verify "$prog" "${flags[@]}" --work "$scratch/w" --timing --quiet); then
    echo "$out" >&2
    echo "attention_table: L=$l S=$s D=$d heads=$heads block $block W=$w failed" >&2
    exit 1
  fi
  # "... query Q cycles; per block (N blocks): copy C, GEMM 1 G, row max M, exp E, GEMM 2 H,
  # accumulate A cycles; then normalise Z cycles" -> the numbers after each name.
  local n
  n=$(echo "$explore" | sed -E 's/.*query ([0-9]+).*\(([0-9]+) blocks?\): copy ([0-9]+), GEMM 1 ([0-9]+), row max ([0-9]+), exp ([0-9]+), GEMM 2 ([0-9]+), accumulate ([0-9]+).*normalise ([0-9]+).*/\1 \2 \3 \4 \5 \6 \7 \8 \9/')
  echo "$out" | awk -v l="$l" -v s="$s" -v d="$d" -v heads="$heads" -v block="$block" \
    -v w="$w" -v n="$n" '
    $1 == "PASS" && $3 == $4 { split(n, p, " "); ok = 1
      printf "| %s, %s, %s | %s | %s | %s | %s | %s | %s, %s | %s, %s, %s, %s, %s, %s | %.1f s |\n",
        l, s, d, heads, block, p[2], w, $3, p[1], p[9], p[3], p[4], p[5], p[6], p[7], p[8], $5 }
    END { if (!ok) exit 1 }'
}

echo "| L, S, D | heads | block | blocks | W | latency = measured cycles | per head: query, normalise | per block: copy, G1, max, exp, G2, acc | build |"
echo "|---|---:|---:|---:|---:|---:|---|---|---:|"
for w in 1 4 8; do
  row examples/attention.tc 16 16 16 1 16 "$w"
  row examples/attention.tc 20 36 16 1 16 "$w"
  row examples/attention.tc 20 36 16 1 36 "$w"
  row examples/attention.tc 64 128 32 1 32 "$w"
  row examples/attention.tc 64 128 32 1 128 "$w"
  row examples/attention_heads.tc 16 16 16 4 16 "$w"
done
