#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Verification benchmark: how long `rubick verify` takes to build a design in Verilator and how
# fast the simulation runs, for GEMM output-stationary systolic designs
# (C=stationary, A=X-systolic, B=Y-systolic) on 4x4, 8x8 and 16x16 arrays, up to GEMM 256^3 on
# 16x16; for that one also the measured cycles and PE utilisation side by side with the ideal
# (every PE busy every cycle) and the theory's per-tile reference (T + R + C - 2 cycles per
# output tile).
#
#   bench/verify_bench.sh [build-dir]        (default: build; needs build-dir/rubick)
#
# Every case gets a fresh work directory, so every build is cold. The design's own build
# (build_s) and the runtime all designs of a work directory share (Verilator's library and the
# testbench core, built once per work directory) are reported apart. Takes 4-6 minutes on
# 2 cores. docs/performance.md records the figures.
set -euo pipefail
cd "$(dirname "$0")/.."
rubick="${1:-build}/rubick"
[ -x "$rubick" ] || { echo "verify_bench: $rubick not found; build it first" >&2; exit 1; }
scratch=$(mktemp -d /tmp/rubick-verify-bench.XXXXXX)
trap 'rm -rf "$scratch"' EXIT

# One design; prints "measured predicted util build_s sim_cycles sim_s cycles_per_s runtime_s
# wall_s" (util in %, runtime_s the shared runtime's build). Exits when the design fails.
verify_os() { # NAME ARRAY M N K BUILD
  local out start end
  start=$(date +%s.%N)
  if ! out=$("$rubick" verify examples/gemm.tc --size "M=$3,N=$4,K=$5" --array "$2" \
    --entries C=stationary,A=X-systolic,B=Y-systolic --work "$scratch/$1" --quiet --timing --build "$6"); then
    echo "$out" >&2
    echo "verify_bench: $1 failed" >&2
    exit 1
  fi
  end=$(date +%s.%N)
  echo "$out" >"$scratch/$1.out"
  echo "$out" | awk -v start="$start" -v end="$end" '
    $1 == "PASS" { line = $3 " " $4 " " $5 " " $6 " " $7 " " $8 " " $9 }
    /^shared runtime/ { rt = ($NF == "reused") ? 0 : $(NF - 1) }
    END { sub(/%/, "", line); print line, rt, end - start }'
}

echo "machine: $(nproc) cores, $(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -1)"
echo "$(verilator --version), $(g++ --version | head -1)"
echo "load average before the run: $(cut -d' ' -f1-3 /proc/loadavg)"
echo
echo "GEMM output-stationary systolic: Verilator build and simulation speed (fresh work dirs)"
echo "(build: verify --build quick or --build optimised; the default, auto, picks optimised for"
echo " simulations over 2e7 cycles x PEs: here the 128^3 and 256^3 cases)"
printf '| %-16s | %-5s | %-9s | %10s | %12s | %10s | %12s | %9s | %12s |\n' case array build \
  "build_s" "runtime_s" "verify_s" "sim_cycles" "sim_s" "cycles/s"
printf '|%s|%s|%s|%s|%s|%s|%s|%s|%s|\n' ------------------ ------- ----------- ------------ \
  -------------- ------------ -------------- ----------- --------------
for c in "16x16x16 4x4 16 16 16" "64x64x64 8x8 64 64 64" "64x64x64 16x16 64 64 64" \
  "128x128x128 16x16 128 128 128" "256x256x256 16x16 256 256 256"; do
  read -r name array m n k <<<"$c"
  for mode in quick optimised; do
    res=$(verify_os "os_${name}_${array}_$mode" "$array" "$m" "$n" "$k" "$mode")
    read -r measured predicted _ build cycles secs rate runtime wall <<<"$res"
    printf '| GEMM %-11s | %-5s | %-9s | %10s | %12s | %10.1f | %12s | %9s | %12s |\n' "$name" \
      "$array" "$mode" "$build" "$runtime" "$wall" "$cycles" "$secs" "$rate"
  done
done

echo
echo "GEMM 256x256x256 on 16x16, output-stationary systolic (256 output tiles of 16x16, T = 256)"
# The last case of the loop above.
echo "design: $(awk '$1 == "PASS" { $1 = $2 = $3 = $4 = $5 = $6 = $7 = $8 = $9 = ""; print }' \
  "$scratch/os_256x256x256_16x16_optimised.out" | sed 's/^ *//')"
macs=$((256 * 256 * 256))
pes=256
ideal=$((macs / pes))
tile=$((256 + 16 + 16 - 2))
theory=$((256 * tile))
util() { awk -v m="$macs" -v p="$pes" -v c="$1" 'BEGIN { print 100 * m / (p * c) }'; }
row() { # LABEL CYCLES
  printf '| %-44s | %8s | %8s | %13.1f%% |\n' "$1" "$2" "$(awk -v c="$2" 'BEGIN { print c / 256 }')" \
    "$(util "$2")"
}
printf '| %-44s | %8s | %8s | %14s |\n' "" cycles "per tile" "PE utilisation"
printf '|%s|%s|%s|%s|\n' ---------------------------------------------- ---------- ---------- \
  ----------------
row "measured in Verilator" "$measured"
row "predicted by rubick's schedule (explore)" "$predicted"
row "ideal: MACs / 256 PEs" "$ideal"
row "theory: 256 tiles x (T + R + C - 2)" "$theory"
