#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The Rubick paper's dataflow trade-offs on GEMM, measured with real synthesis
# (docs/synthesis.md, "The Rubick paper's trade-offs, measured"). For a few access-entry
# combinations (C = output, A and B = inputs) it emits the explorer's best design with exactly
# those entries (`rubick emit --entries`), synthesises it (`rubick synth`), and prints one
# Markdown table of the explorer's latency and wires beside the tools' cells, logic depth,
# 7-series LUTs, FFs, DSPs and RAMs and, on a 2x2 array, the iCE40 HX8K logic cells, RAM4K
# blocks and Fmax; then the relative differences that correspond to the paper's claims:
#   - systolic-heavy against multicast-heavy designs: wires and latency (paper: 82.4% fewer
#     wires for 2.7% more latency);
#   - inputs without multicast against inputs with: Fmax (paper: +7% frequency);
#   - an output reduced by an X adder tree (output X-multicast) against an output-stationary
#     one: RAM (paper: 5x less BRAM).
# GEMM 8^3 on 4x4 gets the generic and Xilinx flows (it does not fit an iCE40), GEMM 8^3 on
# 2x2 all three flows (3 place-and-route seeds), GEMM 64^3 on 8x8 the explorer's numbers only.
#
#   bench/paper_tradeoff.sh build/rubick [SCRATCHDIR]
#
# RUBICK and SCRATCHDIR are relative to where it is run; the program is the repository's
# examples/gemm.tc. SCRATCHDIR (default: a fresh folder under /tmp, removed afterwards) keeps
# every emitted design with its synth.json and synth/ logs. The table goes to stdout, progress
# to stderr. About 5.5 minutes on 2 cores (330 s on 2026-11-28); exits non-zero if any step
# fails.
set -euo pipefail

if [ $# -lt 1 ] || [ $# -gt 2 ]; then
  echo "usage: $0 RUBICK [SCRATCHDIR]" >&2
  exit 2
fi
[ -x "$1" ] || { echo "paper_tradeoff: $1 not found or not executable" >&2; exit 1; }
command -v python3 > /dev/null || { echo "paper_tradeoff: needs python3" >&2; exit 1; }
rubick=$(realpath "$1")
if [ $# -eq 2 ]; then
  mkdir -p "$2"
  scratch=$(realpath "$2")
else
  scratch=$(mktemp -d /tmp/rubick-paper-tradeoff.XXXXXX)
  trap 'rm -rf "$scratch"' EXIT
fi

cd "$(dirname "$0")/.." # the repository root: examples/gemm.tc
SECONDS=0
manifest="$scratch/manifest.tsv"
: > "$manifest"

# design KEY "GROUP" ENTRIES SIZE ARRAY FLOWS   (FLOWS "none": the explorer's numbers only)
design() {
  local key=$1 group=$2 entries=$3 size=$4 array=$5 flows=$6
  local dir="$scratch/${key}_${size}_${array}"
  echo "paper_tradeoff: $key, GEMM $size^3 on $array ($entries)" >&2
  if ! "$rubick" emit examples/gemm.tc --size "M=$size,N=$size,K=$size" --array "$array" \
    --entries "$entries" -o "$dir" --no-testbench >&2; then
    echo "paper_tradeoff: emit failed: $entries on $array" >&2
    exit 1
  fi
  if [ "$flows" != none ]; then
    if ! "$rubick" synth "$dir" --flows "$flows" --seeds 3 --quiet >&2; then
      echo "paper_tradeoff: synth failed: $dir" >&2
      exit 1
    fi
  fi
  printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$key" "$group" "$entries" "$size" "$array" "$flows" \
    "$dir" >> "$manifest"
}

sysos="C=stationary,A=X-systolic,B=Y-systolic"
sysout="C=X-systolic,A=Y-systolic,B=stationary"
mcos="C=stationary,A=X-multicast,B=Y-multicast"
mctree="C=X-multicast,A=Y-multicast,B=stationary"
treesys="C=X-multicast,A=X-systolic,B=Y-systolic"
treest="C=X-multicast,A=Y-systolic,B=stationary"

# GEMM 8^3 on 4x4: area and wires (generic + Xilinx).
design sys-os "systolic inputs, C stationary" "$sysos" 8 4x4 generic,xilinx
design sys-out "systolic, C systolic" "$sysout" 8 4x4 generic,xilinx
design mc-os "multicast inputs, C stationary" "$mcos" 8 4x4 generic,xilinx
design mc-tree "multicast A, C adder tree" "$mctree" 8 4x4 generic,xilinx
design tree-sys "C adder tree, systolic inputs" "$treesys" 8 4x4 generic,xilinx
design tree-st "C adder tree, no input multicast" "$treest" 8 4x4 generic,xilinx
# GEMM 8^3 on 2x2: also placed and routed on the iCE40 HX8K (Fmax).
design sys-os "systolic inputs, C stationary" "$sysos" 8 2x2 generic,xilinx,ice40
design mc-os "multicast inputs, C stationary" "$mcos" 8 2x2 generic,xilinx,ice40
design tree-st "C adder tree, no input multicast" "$treest" 8 2x2 generic,xilinx,ice40
# GEMM 64^3 on 8x8: the explorer's latency and wires at a larger size (no synthesis).
design sys-os "systolic inputs, C stationary" "$sysos" 64 8x8 none
design sys-out "systolic, C systolic" "$sysout" 64 8x8 none
design mc-os "multicast inputs, C stationary" "$mcos" 64 8x8 none
design mc-tree "multicast A, C adder tree" "$mctree" 64 8x8 none
design tree-sys "C adder tree, systolic inputs" "$treesys" 64 8x8 none
design tree-st "C adder tree, no input multicast" "$treest" 64 8x8 none

python3 - "$manifest" "$SECONDS" <<'PY'
import json, os, sys

rows = []
for line in open(sys.argv[1]):
    key, group, entries, size, array, flows, folder = line.rstrip("\n").split("\t")
    design = json.load(open(os.path.join(folder, "design.json")))
    synth = {}
    if flows != "none":
        synth = json.load(open(os.path.join(folder, "synth.json")))
        for flow in flows.split(","):
            if flow not in synth:
                sys.exit(f"paper_tradeoff: {folder}/synth.json has no {flow} result")
    rows.append(dict(key=key, group=group, entries=entries, size=int(size), array=array,
                     id=design["id"], metrics=design["metrics"], synth=synth))

def find(key, size, array):
    for r in rows:
        if (r["key"], r["size"], r["array"]) == (key, size, array):
            return r
    sys.exit(f"paper_tradeoff: no design {key} {size} {array}")

def ice(r):
    s = r["synth"].get("ice40")
    return s if s and s.get("placed") else None

def cell(r, flow, field, fmt="{:,}"):
    s = r["synth"].get(flow)
    if s is None:
        return "-"
    if flow == "ice40" and not s.get("placed"):
        return "not placed"
    return fmt.format(s[field])

print("| group | entries (C, A, B) | GEMM, array | design | latency | wires | cells | depth "
      "| LUT | FF | DSP | LUT RAM / RAMB18+36 | iCE40 LC | iCE40 RAM4K | iCE40 Fmax (MHz) |")
print("|---|---|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
for r in rows:
    m, x = r["metrics"], r["synth"].get("xilinx")
    ram = f'{x["lut_rams"]} / {x["ramb18"]}+{x["ramb36"]}' if x else "-"
    ents = ", ".join(e.split("=")[1] for e in r["entries"].split(","))
    print(f'| {r["key"]}: {r["group"]} | {ents} | {r["size"]}^3, {r["array"]} | `{r["id"]}` '
          f'| {m["latency"]} | {m["wires"]} | {cell(r, "generic", "cells")} '
          f'| {cell(r, "generic", "logic_depth")} | {cell(r, "xilinx", "luts")} '
          f'| {cell(r, "xilinx", "flip_flops")} | {cell(r, "xilinx", "dsps")} | {ram} '
          f'| {cell(r, "ice40", "logic_cells")} | {cell(r, "ice40", "rams")} '
          f'| {cell(r, "ice40", "median_fmax_mhz", "{:.2f}")} |')

def rel(a, b):
    return f"{100.0 * (a - b) / b:+.1f}%"

def ratio(a, b):
    return f"{a / b:.2f}x" if b else "n/a (0 in the second)"

print()
print("Claim 1, systolic-heavy against multicast-heavy (paper: 82.4% fewer wires, "
      "2.7% more latency):")
print()
for size, array in ((8, "4x4"), (64, "8x8")):
    mc = find("mc-os", size, array)
    for key in ("sys-os", "sys-out"):
        s = find(key, size, array)
        line = (f'- {size}^3 on {array}, {key} against mc-os: wires {rel(s["metrics"]["wires"], mc["metrics"]["wires"])} '
                f'({s["metrics"]["wires"]} vs {mc["metrics"]["wires"]}), latency '
                f'{rel(s["metrics"]["latency"], mc["metrics"]["latency"])} '
                f'({s["metrics"]["latency"]} vs {mc["metrics"]["latency"]})')
        if s["synth"] and mc["synth"]:
            sg, mg = s["synth"]["generic"], mc["synth"]["generic"]
            sx, mx = s["synth"]["xilinx"], mc["synth"]["xilinx"]
            line += (f'; cells {rel(sg["cells"], mg["cells"])}, 7-series LUT + FF '
                     f'{rel(sx["luts"] + sx["flip_flops"], mx["luts"] + mx["flip_flops"])} '
                     f'({sx["luts"] + sx["flip_flops"]} vs {mx["luts"] + mx["flip_flops"]})')
        print(line)

print()
print("Claim 2a, inputs without multicast against inputs with (paper: +7% frequency):")
print()
s, mc = find("sys-os", 8, "2x2"), find("mc-os", 8, "2x2")
if ice(s) and ice(mc):
    print(f'- 8^3 on 2x2, sys-os against mc-os: iCE40 Fmax '
          f'{rel(ice(s)["median_fmax_mhz"], ice(mc)["median_fmax_mhz"])} '
          f'({ice(s)["median_fmax_mhz"]:.2f} vs {ice(mc)["median_fmax_mhz"]:.2f} MHz), logic cells '
          f'{rel(ice(s)["logic_cells"], ice(mc)["logic_cells"])}')
else:
    print("- 8^3 on 2x2: not compared (a design was not placed on the iCE40)")
t = find("tree-st", 8, "2x2")
if ice(t) and ice(mc):
    print(f'- 8^3 on 2x2, tree-st (no input multicast, C adder tree) against mc-os: iCE40 Fmax '
          f'{rel(ice(t)["median_fmax_mhz"], ice(mc)["median_fmax_mhz"])} '
          f'({ice(t)["median_fmax_mhz"]:.2f} vs {ice(mc)["median_fmax_mhz"]:.2f} MHz)')

print()
print("Claim 2b, C stationary against C reduced by an X adder tree, RAM of the stationary "
      "one / of the adder-tree one (paper: 5x less BRAM with the adder tree):")
print()
for size, array, key in ((8, "4x4", "tree-sys"), (8, "4x4", "tree-st"), (8, "2x2", "tree-st")):
    s, t = find("sys-os", size, array), find(key, size, array)
    sx, tx = s["synth"]["xilinx"], t["synth"]["xilinx"]
    sb, tb = sx["ramb18"] + 2 * sx["ramb36"], tx["ramb18"] + 2 * tx["ramb36"]
    line = (f'- {size}^3 on {array}, sys-os / {key}: 7-series LUT RAM {ratio(sx["lut_rams"], tx["lut_rams"])} '
            f'({sx["lut_rams"]} vs {tx["lut_rams"]}), block RAM (RAMB18 equivalents) {sb} vs {tb}')
    if ice(s) and ice(t):
        line += f'; iCE40 RAM4K {ratio(ice(s)["rams"], ice(t)["rams"])} ({ice(s)["rams"]} vs {ice(t)["rams"]})'
    line += (f'; explorer latency {s["metrics"]["latency"]} vs {t["metrics"]["latency"]}, '
             f'buffer {s["metrics"]["buffer_bytes"]} vs {t["metrics"]["buffer_bytes"]} bytes')
    print(line)

print()
print(f"Run time {int(sys.argv[2])} s on {os.cpu_count()} cores.")
PY
