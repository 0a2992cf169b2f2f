#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The PIM model's table (docs/pim.md, "What the presets give"): GEMV 4096^2 and GEMM 256^3 on
# the aim, hbm-pim, logic-die and upmem presets, rank 1 of each with its cycles, time, roofline, bank
# bandwidth, row hits and where every tensor lives, and the explore time of each run.
#
#   bench/pim_presets.sh [build-dir]     (default: build; needs build-dir/rubick)
#
# Prints one markdown row per case, in a few seconds. The units' run is the replay of the
# hardware emit builds (what `rubick verify` with the same flags measures; docs/pim.md,
# "Measured").
set -euo pipefail
cd "$(dirname "$0")/.."
rubick="${1:-build}/rubick"
[ -x "$rubick" ] || { echo "pim_presets: $rubick not found; build it first" >&2; exit 1; }

echo "| problem | target | rank 1 | spread | cycles | time | roofline | bank bw | row hit | placement | explore |"
echo "|---|---|---|---|---|---|---|---|---|---|---|"
for problem in "gemv.tc M=4096,N=4096" "gemm.tc M=256,N=256,K=256"; do
  set -- $problem
  for target in aim hbm-pim logic-die upmem; do
    start=$EPOCHREALTIME
    out=$("$rubick" explore "examples/$1" --size "$2" --target "designs/targets/$target.json" \
      --top 1 --compare-target none -q)
    seconds=$(awk -v a="$start" -v b="$EPOCHREALTIME" 'BEGIN { print b - a }')
    # The header names the tensors; rank 1's row gives the figures (columns split on 2+ spaces).
    echo "$out" | awk -v p="${1%.tc} $2" -v t="$target" -v s="$seconds" '
      /^rank  id/ { n = split($0, h, /  +/) }
      /^ +1  / {
        sub(/^ +/, ""); m = split($0, c, /  +/)
        place = ""
        for (i = 13; i <= n - 2 && i <= m; i++) {
          split(c[i], w, " "); place = place (place == "" ? "" : ", ") h[i] ": " w[1]
        }
        printf "| %s | %s | `%s` | %s | %s | %s | %s | %s | %s | %s | %.2f s |\n",
          p, t, c[2], c[3], c[4], c[5], c[6], c[7], c[8], place, s
      }'
  done
done

# The attention decode (docs/pim.md, "Attention decode"): its block, designs and run per preset.
echo
for target in aim hbm-pim; do
  start=$EPOCHREALTIME
  out=$("$rubick" explore examples/attention.tc --size L=1,S=2048,D=128 \
    --target "designs/targets/$target.json" -q)
  seconds=$(awk -v a="$start" -v b="$EPOCHREALTIME" 'BEGIN { print b - a }')
  echo "attention decode S=2048 D=128 on $target ($seconds s):"
  echo "$out" | sed -n 's/^decode: /  /p'
done
