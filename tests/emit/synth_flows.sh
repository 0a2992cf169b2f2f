#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Usage: synth_flows.sh RUBICK SRCDIR
# `rubick synth` on a small emitted design (GEMM 4^3 on 2x2): every flow runs (generic, Xilinx,
# iCE40 place and route with one seed), synth.json holds nonzero cells, LUTs and an Fmax, the
# wrapper lints clean with the design, the folder stays rubick's (emit may replace it again),
# --memory-macros counts the memories apart (their bits are the design's buffers; explore
# --synth-top --synth-memory-macros shows the same), a copy of the
# folder synthesises alone from its saved script, and a folder rubick did not write is refused.
set -euo pipefail
rubick=$(realpath "$1") src=$(realpath "$2")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"
fail() { echo "synth_flows: $*" >&2; exit 1; }
emit=("$rubick" emit "$src/examples/gemm.tc" --size M=4,N=4,K=4 --array 2x2 -o design)
"${emit[@]}" >/dev/null
"$rubick" synth design --seeds 1 -q >out.txt || fail "rubick synth failed: $(cat out.txt)"
cat out.txt
json=design/synth.json
number() { grep -o "\"$1\": [0-9.]*" "$json" | head -1 | grep -o '[0-9.]*$'; }
for key in cells logic_depth luts flip_flops dsps median_fmax_mhz logic_cells; do
  v=$(number "$key") || fail "synth.json has no $key"
  awk -v v="$v" 'BEGIN { exit !(v > 0) }' || fail "$key is $v in synth.json"
done
grep -q '"placed": true' "$json" || fail "not placed on the iCE40"
# The 2x2 GEMM multiplies in four DSP48E1 (one per PE).
[ "$(number dsps)" = 4 ] || fail "expected 4 DSP48E1, synth.json says $(number dsps)"
(cd design && verilator --lint-only -Wall --top-module rubick_synth_wrap $(cat filelist.f) \
  synth/rubick_synth_wrap.v) || fail "the wrapper does not lint with the design"
# --memory-macros: the same logic without the memories, which are counted apart; their bits
# are the design's buffers (design.json's buffer_bytes, from the emitter's bank sizes).
flops_cells=$(number cells)
"$rubick" synth design --flows generic --memory-macros -q >out.txt || fail "--memory-macros failed"
grep -q '"memories_as": "macros"' "$json" || fail "synth.json does not say memories_as macros"
bytes=$(grep -o '"buffer_bytes": [0-9]*' design/design.json | grep -o '[0-9]*$')
[ "$(number memory_bits)" = $((bytes * 8)) ] ||
  fail "memory_bits $(number memory_bits), expected $((bytes * 8)) (buffer_bytes $bytes)"
[ "$(number cells)" -lt "$flops_cells" ] ||
  fail "macros gave $(number cells) cells, not fewer than $flops_cells with flip-flop memories"
grep -q '"median_fmax_mhz"' "$json" || fail "the generic rerun dropped the ice40 results"
# explore --synth-top with --synth-memory-macros: rank 1 is the design emit wrote, so its 'mem
# bits' column is the same buffer_bytes * 8; without --synth-top the flag is refused.
"$rubick" explore "$src/examples/gemm.tc" --size M=4,N=4,K=4 --array 2x2 --synth-top 1 \
  --synth-flows generic --synth-memory-macros -q >explore.txt || fail "explore --synth-top failed"
id=$(grep -o '"id": "[0-9a-f]*"' design/design.json | head -1 | grep -o '[0-9a-f]\{16\}')
row=$(awk '/^synthesised/ { s = 1 } s && $1 == "1" { print }' explore.txt)
[ "$(echo "$row" | awk '{ print $2 }')" = "$id" ] || fail "explore's synthesised rank 1 is not $id: $row"
[ "$(echo "$row" | awk '{ print $NF }')" = $((bytes * 8)) ] ||
  fail "explore's mem bits column: $row (expected $((bytes * 8)))"
if "$rubick" explore "$src/examples/gemm.tc" --size M=4,N=4,K=4 --array 2x2 \
  --synth-memory-macros -q >/dev/null 2>err.txt; then
  fail "--synth-memory-macros without --synth-top was accepted"
fi
grep -q "requires --synth-top" err.txt || fail "unexpected error: $(cat err.txt)"
# A copy of the folder synthesises from its own script.
cp -r design copy
(cd copy && yosys -q -s synth/generic.ys) || fail "synth/generic.ys does not run in a copy"
# The folder is still rubick's: emit replaces it, synth results and all.
"${emit[@]}" >/dev/null || fail "emit refused to replace a synthesised folder"
[ ! -e design/synth.json ] || fail "emit kept synth.json"
# Not rubick's: refused, with the reason.
mkdir other && echo x >other/file.v
if "$rubick" synth other -q 2>err.txt; then fail "synth accepted a folder rubick did not write"; fi
grep -q "not a design folder" err.txt || fail "unexpected error: $(cat err.txt)"
echo "synth_flows: passed"
