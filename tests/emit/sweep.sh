#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Usage: sweep.sh RUBICK MODE PROGRAM ARRAY SIZES [LIMIT [FLAG...]]
# Picks, from `rubick explore --csv`, a deterministic sample of designs that together use every
# access entry the program can use in every role, emits each and checks it:
#   MODE lint:  verilator --lint-only -Wall prints nothing, and Icarus compiles it;
#   MODE synth: Yosys synthesizes it (`synth -top`);
# and in both modes every Verilog file carries the licence line and README.md its Terms.
# The sample is a greedy cover (each pick adds the most (role, entry) pairs not yet covered; ties
# go to the smallest ID), about half as many designs as one per pair. Each design is emitted from
# its row's dataflow (`emit --dataflow`, no search) and must get the row's ID.
# LIMIT keeps only the first LIMIT designs of the sample (by id), for slow modes (0: all).
# FLAGs go to both explore and emit (e.g. a memory system: --mem-bandwidth 8 --buffer-kib 1).
set -u
rubick=$1 mode=$2 program=$3 array=$4 sizes=$5 limit=${6:-0}
shift $(($# < 6 ? $# : 6))
flags=("$@")
[ "$limit" -gt 0 ] || limit=1000000
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
"$rubick" explore "$program" --size "$sizes" --array "$array" "${flags[@]}" --csv "$dir/all.csv" -q >/dev/null ||
  { echo "explore failed"; exit 1; }
# Prints "id<TAB>dataflow" for the sample. Fields may be quoted (entries such as
# "diag-systolic(-x,-y)" and the dataflow hold commas).
awk '
  function split_csv(line, f,    n, i, c, q, cur) {
    n = 0; q = 0; cur = ""
    for (i = 1; i <= length(line); i++) {
      c = substr(line, i, 1)
      if (q) {
        if (c != "\"") cur = cur c
        else if (substr(line, i + 1, 1) == "\"") { cur = cur c; i++ }
        else q = 0
      } else if (c == "\"") q = 1
      else if (c == ",") { f[++n] = cur; cur = "" }
      else cur = cur c
    }
    f[++n] = cur
    return n
  }
  NR == 1 {
    n = split_csv($0, h)
    for (i = 1; i <= n; i++) {
      if (h[i] ~ /_entry$/) col[++m] = i
      if (h[i] == "dataflow") dfcol = i
    }
    next
  }
  {
    split_csv($0, f)
    ++rows; id[rows] = f[1]; df[rows] = f[dfcol]
    for (j = 1; j <= m; j++) {
      k = j SUBSEP f[col[j]]
      key[rows, j] = k
      if (!(k in want)) { want[k] = 1; left++ }
    }
  }
  END {
    if (!m || !dfcol) { print "no entry or dataflow columns" > "/dev/stderr"; exit 1 }
    while (left > 0) {
      best = 0; bestn = 0
      for (r = 1; r <= rows; r++) {
        n = 0
        for (j = 1; j <= m; j++) n += !(key[r, j] in done)
        if (n > bestn || (n == bestn && n > 0 && id[r] < id[best])) { best = r; bestn = n }
      }
      for (j = 1; j <= m; j++) done[key[best, j]] = 1
      left -= bestn
      print id[best] "\t" df[best]
    }
  }' "$dir/all.csv" >"$dir/cover" || { echo "sampling failed"; exit 1; }
sort "$dir/cover" | head -n "$limit" >"$dir/sample"
count=0 failed=0
while IFS=$'\t' read -r id dataflow; do
  count=$((count + 1))
  out="$dir/$id"
  if ! "$rubick" emit "$program" --size "$sizes" --array "$array" "${flags[@]}" --dataflow "$dataflow" --no-testbench -o "$out" >/dev/null; then
    echo "FAIL $id: emit"; failed=$((failed + 1)); continue
  fi
  got=$(sed -n 's/^  "id": "\(.*\)",$/\1/p' "$out/design.json")
  [ "$got" = "$id" ] || { echo "FAIL $id: emitted from its dataflow as $got"; failed=$((failed + 1)); continue; }
  top=$(sed -n 's/^  "top": "\(.*\)",$/\1/p' "$out/design.json")
  # The terms (docs/license.md): every Verilog file's licence line, the README's Terms section.
  unlicensed=$(for f in "$out"/rtl/*.v; do
    head -n 2 "$f" | grep -q 'SPDX-License-Identifier: Apache-2.0' || basename "$f"
  done)
  [ -z "$unlicensed" ] || { echo "FAIL $id: no licence line in $unlicensed"; failed=$((failed + 1)); continue; }
  grep -q '^## Terms$' "$out/README.md" || { echo "FAIL $id: README without Terms"; failed=$((failed + 1)); continue; }
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
done <"$dir/sample"
echo "$mode: $count designs, $failed failed"
[ "$count" -gt 0 ] && [ "$failed" -eq 0 ]
