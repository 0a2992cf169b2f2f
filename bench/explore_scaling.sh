#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Time, peak memory and designs/s of `rubick explore` as the design count grows (8x8, the 4..16
# and 4..32 ranges of arrays), with every design written by --csv (4..16: a 577 MB file in a
# temporary directory, removed after), and as the array grows (GEMM 256^3 on 128x128); then
# with an external memory (docs/memory.md: every design's buffer tiling searched), GEMM 256^3
# and 1024^3 on 16x16 and GEMM 64^3 on the 4..10 range. Prints a Markdown table for
# docs/performance.md. Needs GNU time (/usr/bin/time).
#
#   bench/explore_scaling.sh [RUBICK] [--no-4-32 | --memory]   (RUBICK defaults to build/rubick)
#
# The 4..32 range has 57 million designs and takes minutes; --no-4-32 skips it, --memory runs
# only the cases with a memory (about 15 s).
set -eu
rubick=build/rubick
big=yes
plain=yes
for a in "$@"; do
  case "$a" in
  --no-4-32) big=no ;;
  --memory) plain=no ;;
  *) rubick=$a ;;
  esac
done
[ -x "$rubick" ] || { echo "no rubick at $rubick (build it, or pass its path)" >&2; exit 1; }
[ -x /usr/bin/time ] || { echo "needs GNU time at /usr/bin/time" >&2; exit 1; }
log=$(mktemp)
out=$(mktemp)
csvdir=$(mktemp -d)
trap 'rm -f "$log" "$out"; rm -rf "$csvdir"' EXIT

echo "| case | designs | wall (s) | CPU user (s) | peak RSS (MB) | designs per CPU-s |"
echo "|---|---|---|---|---|---|"
run() {
  name=$1
  shift
  /usr/bin/time -f '%e %U %M' -o "$log" "$rubick" explore "$@" -q >"$out"
  designs=$(sed -n 's/.*: \([0-9]*\) designs from.*/\1/p' "$out")
  read -r wall user rss <"$log"
  awk -v n="$name" -v d="$designs" -v w="$wall" -v u="$user" -v r="$rss" 'BEGIN {
    printf "| %s | %d | %.2f | %.2f | %.0f | %.0f |\n", n, d, w, u, r / 1024, (u > 0 ? d / u : 0) }'
}
if [ "$plain" = yes ]; then
  run "GEMM 64^3, 8x8" examples/gemm.tc
  run "GEMM 64^3, 4..16 (169 shapes)" examples/gemm.tc --array-range 4..16
  run "GEMM 64^3, 4..16, --csv" examples/gemm.tc --array-range 4..16 --csv "$csvdir/all.csv"
  rm -f "$csvdir/all.csv"
  if [ "$big" = yes ]; then
    run "GEMM 64^3, 4..32 (841 shapes)" examples/gemm.tc --array-range 4..32
  fi
  run "GEMM 256^3, 128x128" examples/gemm.tc --size M=256,N=256,K=256 --array 128x128
fi
mem="--mem-bandwidth 64 --buffer-kib 64"
run "GEMM 256^3, 16x16, memory" examples/gemm.tc --size M=256,N=256,K=256 --array 16x16 $mem
run "GEMM 1024^3, 16x16, memory" examples/gemm.tc --size M=1024,N=1024,K=1024 --array 16x16 $mem
run "GEMM 64^3, 4..10, memory (16 B, 8 KiB)" examples/gemm.tc --array-range 4..10 \
  --mem-bandwidth 16 --buffer-kib 8
