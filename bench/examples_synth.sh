#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# `rubick synth` on the best design (rank 1) of every examples/*.tc (docs/synthesis.md, "Every
# example's best design"). For each example it emits the design as a user would (the file's own
# sizes, an 8x8 array; chains and epilogues with the memory system docs/fusion.md uses), runs
# `rubick synth` on the folder, and prints one Markdown table row per example: design ID, array,
# generic cells / flip-flops / memory bits / logic depth (memories kept as macros, `rubick synth
# --memory-macros`, unless MACROS=0), 7-series LUT / FF / DSP / block RAM / LUT RAM, the
# iCE40 HX8K's Fmax (or why it was not placed), Yosys' peak memory and CPU seconds, and the
# wall seconds of emit and synth. The table goes to stdout, progress to stderr. One synthesis
# at a time: about two hours on 2 cores, the attention designs and chains most of it
# (attention_block alone about 40 minutes of CPU and 3.8 GB).
#
#   bench/examples_synth.sh [SCRATCHDIR [EXAMPLE...]]
#
#   RUBICK=PATH        the binary (default build/rubick, relative to where it is run)
#   FLOWS=LIST         rubick synth --flows (default generic,xilinx). With ice40, a design is
#                      placed only when its generic cells (run first) are at most ICE40_MAX_CELLS
#                      (default 30000; above that it cannot fit the HX8K's 7,680 logic cells)
#   SEEDS=N            place-and-route seeds for ice40 (default 3)
#   MACROS=0           build the memories from flip-flops in the generic flow (default 1: macros)
#   SIZE_<example>=..  --size overrides for one example, e.g. SIZE_attention=L=8,S=8,D=8
#   FLAGS_<example>=.. emit flags replacing the example's defaults (below), e.g.
#                      FLAGS_attention_block="--array 4x4 --vector-lanes 4 --mem-bandwidth 16"
#
# SCRATCHDIR (default: a fresh folder under /tmp, removed afterwards) keeps every emitted design
# with its synth.json and synth/ logs; EXAMPLE names (gemm, mlp, ...) limit the run to those.
# Exits non-zero if any rubick command fails (the other examples still run; "does not fit" on
# the iCE40 is a result, not a failure).
set -euo pipefail

if [ $# -ge 1 ] && { [ "$1" = -h ] || [ "$1" = --help ]; }; then
  sed -n '3,29p' "$0" | sed 's/^# \{0,1\}//'
  exit 0
fi
command -v python3 > /dev/null || { echo "examples_synth: needs python3" >&2; exit 1; }
root=$(cd "$(dirname "$0")/.." && pwd)
rubick=${RUBICK:-build/rubick}
if [ ! -x "$rubick" ] && [ -x "$root/$rubick" ]; then rubick="$root/$rubick"; fi
[ -x "$rubick" ] || { echo "examples_synth: $rubick not found or not executable" >&2; exit 1; }
rubick=$(realpath "$rubick")
flows=${FLOWS:-generic,xilinx}
seeds=${SEEDS:-3}
ice40_max_cells=${ICE40_MAX_CELLS:-30000}
macros=()
[ "${MACROS:-1}" = 0 ] || macros=(--memory-macros)
case ",$flows," in *,generic,*) ;; *) flows="generic,$flows" ;; esac # the table needs it
if [ $# -ge 1 ]; then
  mkdir -p "$1"
  scratch=$(realpath "$1")
  shift
else
  scratch=$(mktemp -d /tmp/rubick-examples-synth.XXXXXX)
  trap 'rm -rf "$scratch"' EXIT
fi
# GNU time, when there, gives each synth's peak memory (Yosys) and CPU seconds (the wall
# seconds depend on what else the machine runs).
timed=0
if /usr/bin/time -a -f '%M %U %S' -o /dev/null true 2> /dev/null; then timed=1; fi
timed() { # timed FILE CMD...
  local file=$1
  shift
  if [ $timed -eq 1 ]; then
    /usr/bin/time -a -f '%M %U %S' -o "$file" "$@"
  else
    "$@"
  fi
}

cd "$root"
if [ $# -ge 1 ]; then
  programs=()
  for name in "$@"; do programs+=("examples/${name%.tc}.tc"); done
else
  programs=(examples/*.tc)
fi

# Flags a user gives the example (docs/user-guide.md, docs/fusion.md): an epilogue or a chain
# is built with a memory system; everything else is one statement or an attention pipeline,
# emitted with the defaults (the file's sizes, an 8x8 array, the pipeline search).
flags_of() {
  case $1 in
    gemm_layer) echo "--array 4x4 --mem-bandwidth 8 --buffer-kib 4" ;;
    mlp | attention_block) echo "--array 8x8 --mem-bandwidth 16 --mem-latency 20 --buffer-kib 64" ;;
    *) echo "" ;;
  esac
}

now() { date +%s%N; }
secs() { python3 -c "import sys; print(f'{(int(sys.argv[2]) - int(sys.argv[1])) / 1e9:.0f}')" "$1" "$2"; }

manifest="$scratch/manifest.tsv"
: > "$manifest"
failed=0
SECONDS=0
for tc in "${programs[@]}"; do
  name=$(basename "$tc" .tc)
  dir="$scratch/$name"
  [ -f "$tc" ] || { echo "examples_synth: no $tc" >&2; failed=1; continue; }
  fvar="FLAGS_$name"
  read -r -a flags <<< "${!fvar-$(flags_of "$name")}"
  var="SIZE_$name"
  size=${!var:-}
  sizeflag=()
  [ -n "$size" ] && sizeflag=(--size "$size")
  echo "examples_synth: $name: rubick emit $tc ${flags[*]} ${sizeflag[*]}" >&2
  t0=$(now)
  status=0
  "$rubick" emit "$tc" "${flags[@]}" "${sizeflag[@]}" --no-testbench -o "$dir" >&2 ||
    status=$?
  t1=$(now)
  if [ $status -ne 0 ]; then
    echo "examples_synth: $name: rubick emit failed (status $status)" >&2
    printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$name" "$size" "$dir" "emit failed (status $status)" \
      "$(secs "$t0" "$t1")" 0 "" >> "$manifest"
    failed=1
    continue
  fi
  # generic (and xilinx) first; ice40 only if the design may fit.
  first=${flows//,ice40/}
  first=${first//ice40,/}
  usage="$scratch/$name.time"
  : > "$usage"
  echo "examples_synth: $name: rubick synth --flows $first" >&2
  timed "$usage" "$rubick" synth "$dir" --flows "$first" "${macros[@]}" --quiet >&2 || status=$?
  note=ok
  if [ $status -ne 0 ]; then
    note="synth failed (status $status)"
    failed=1
  elif [ "$first" != "$flows" ]; then
    cells=$(python3 -c "import json,sys; print(json.load(open(sys.argv[1]))['generic']['cells'])" \
      "$dir/synth.json")
    if [ "$cells" -le "$ice40_max_cells" ]; then
      echo "examples_synth: $name: rubick synth --flows ice40 --seeds $seeds" >&2
      if ! timed "$usage" "$rubick" synth "$dir" --flows ice40 --seeds "$seeds" --quiet >&2; then
        note="synth --flows ice40 failed"
        failed=1
      fi
    else
      note="ice40 skipped"
    fi
  fi
  t2=$(now)
  printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$name" "$size" "$dir" "$note" "$(secs "$t0" "$t1")" \
    "$(secs "$t1" "$t2")" "$usage" >> "$manifest"
done

python3 - "$manifest" "$SECONDS" "$ice40_max_cells" <<'PY'
import json, os, re, sys

def n(v):
    return f"{v:,}"

def sizes_of(program, override):
    text = open(program).read()
    m = re.search(r"#\s*rubick:\s*size\s+(.*)", text)
    own = m.group(1).replace(" ", "") if m else ""
    return (override + " (smaller)") if override else own

def arrays(design):
    def arr(a):
        return f'{a["p"]}x{a["q"]}'
    def pipe(spec):  # block=N,lanes=W,gemm1=ID,gemm2=ID
        f = dict(kv.split("=", 1) for kv in spec.split(","))
        return f'attention ({f.get("lanes", "?")} lanes, block {f.get("block", "?")})'
    kind = design.get("kind")
    if kind == "attention":
        g1, g2 = design["gemm1"]["array"], design["gemm2"]["array"]
        return (f'{arr(g1)} + {arr(g2)}, {design["vector_lanes"]} lanes, '
                f'block {design["block_keys"]}')
    if kind == "chain":
        parts = []
        for s in design["stages"]:
            parts.append(arr(s["array"]) if "array" in s else pipe(s.get("pipeline", "")))
        return "chain: " + " + ".join(parts) + ", AXI"
    a = arr(design["dataflow"]["array"])
    return a + (", AXI" if "memory" in design else "")

def usage(path):
    """Peak memory (MB) and CPU seconds of the synth runs GNU time measured, or "-"."""
    if not path or not os.path.exists(path):
        return "-", "-"
    peak, cpu = 0, 0.0
    for line in open(path):
        f = line.split()
        if len(f) == 3 and f[0].isdigit():
            peak, cpu = max(peak, int(f[0])), cpu + float(f[1]) + float(f[2])
    return (f"{peak / 1024:,.0f}", f"{cpu:,.0f}") if peak else ("-", "-")

print("| example | sizes | design | array | generic cells | FF | memory bits | depth | LUT | FF | DSP "
      "| RAMB18+36 | LUT RAM | iCE40 HX8K | peak MB | synth CPU s | wall s (emit + synth) |")
print("|---|---|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|---:|---:|---:|")
for line in open(sys.argv[1]):
    name, override, folder, note, emit_s, synth_s, times = line.rstrip("\n").split("\t")
    program = f"examples/{name}.tc"
    if note.startswith("emit failed"):
        print(f"| {name} | {sizes_of(program, override)} | {note} |" + " - |" * 13 + f" {emit_s} + - |")
        continue
    design = json.load(open(os.path.join(folder, "design.json")))
    synth = {}
    if os.path.exists(os.path.join(folder, "synth.json")):
        synth = json.load(open(os.path.join(folder, "synth.json")))
    g, x, ice = synth.get("generic"), synth.get("xilinx"), synth.get("ice40")
    gen = (f'{n(g["cells"])} | {n(g["flip_flops"])} | {n(g.get("memory_bits", 0))} '
           f'| {g["logic_depth"]}') if g else "- | - | - | -"
    xil = (f'{n(x["luts"])} | {n(x["flip_flops"])} | {x["dsps"]} | {x["ramb18"]}+{x["ramb36"]} '
           f'| {n(x["lut_rams"])}') if x else "- | - | - | - | -"
    if note.startswith("synth failed") or note.endswith("failed"):
        i40 = note
    elif ice:
        if ice.get("placed"):
            i40 = (f'{ice["median_fmax_mhz"]:.2f} MHz ({n(ice["logic_cells"])} of '
                   f'{n(ice["logic_cells_available"])} LC)')
        else:
            i40 = ice.get("why") or "not placed"
    elif note == "ice40 skipped":
        i40 = f"not run (over {n(int(sys.argv[3]))} generic cells)"
    else:
        i40 = "-"
    mb, cpu = usage(times)
    print(f'| {name} | {sizes_of(program, override)} | `{design["id"]}` | {arrays(design)} '
          f'| {gen} | {xil} | {i40} | {mb} | {cpu} | {emit_s} + {synth_s} |')
print()
print(f"Run time {sys.argv[2]} s.")
PY
if [ $failed -ne 0 ]; then
  echo "examples_synth: some rubick commands failed (see above)" >&2
  exit 1
fi
