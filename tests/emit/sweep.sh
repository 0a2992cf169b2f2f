#!/usr/bin/env bash
# Usage: sweep.sh RUBICK MODE PROGRAM ARRAY SIZES [LIMIT]
# Picks, from `rubick explore --csv`, the first design that uses each access entry in each role
# (a deterministic sample covering every entry the program can use), emits each and checks it:
#   MODE lint:  verilator --lint-only -Wall prints nothing, and Icarus compiles it;
#   MODE synth: Yosys synthesizes it (`synth -top`).
# LIMIT keeps only the first LIMIT designs of the sample (by id), for slow modes.
set -u
rubick=$1 mode=$2 program=$3 array=$4 sizes=$5 limit=${6:-1000000}
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
"$rubick" explore "$program" --size "$sizes" --array "$array" --csv "$dir/all.csv" -q >/dev/null ||
  { echo "explore failed"; exit 1; }
# Columns ending in _entry hold each access's entry; keep the first row per (column, entry).
ids=$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i ~ /_entry$/) col[i] = 1; next }
  { for (i in col) { k = i ":" $i; if (!(k in seen)) { seen[k] = 1; pick[$1] = 1 } } }
  END { for (id in pick) print id }' "$dir/all.csv" | sort | head -n "$limit")
count=0 failed=0
for id in $ids; do
  count=$((count + 1))
  out="$dir/$id"
  if ! "$rubick" emit "$program" --size "$sizes" --array "$array" --point "$id" -o "$out" >/dev/null; then
    echo "FAIL $id: emit"; failed=$((failed + 1)); continue
  fi
  top=$(sed -n 's/^  "top": "\(.*\)",$/\1/p' "$out/design.json")
  case $mode in
  lint)
    lint=$(cd "$out" && verilator --lint-only -Wall -f filelist.f --top-module "$top" 2>&1)
    [ -z "$lint" ] || { echo "FAIL $id: lint"; echo "$lint" | head -10; failed=$((failed + 1)); continue; }
    (cd "$out" && iverilog -g2005 -o /dev/null -f filelist.f) || { echo "FAIL $id: iverilog"; failed=$((failed + 1)); }
    ;;
  synth)
    (cd "$out" && yosys -q -p "read_verilog $(tr '\n' ' ' < filelist.f); synth -top $top" >yosys.log 2>&1) ||
      { echo "FAIL $id: yosys"; tail -5 "$out/yosys.log"; failed=$((failed + 1)); }
    ;;
  esac
done
echo "$mode: $count designs, $failed failed"
[ "$count" -gt 0 ] && [ "$failed" -eq 0 ]
