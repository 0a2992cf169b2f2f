#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Usage: dataflow_ids.sh RUBICK [FLAG...]
# `emit --dataflow SPEC` builds, with no search, the design explore lists for that dataflow:
# for explore's top designs (--json) and designs from the start, middle and end of its search
# order (--csv), each row's dataflow given back to emit (same flags) must give the row's ID and
# latency, and the same files as `emit --point ID`. FLAGs replace the default problem
# (examples/gemm.tc --max-fanout 8), e.g. one with a memory system.
set -u
rubick=$1
shift
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
cd "$(dirname "$0")/../.."
flags=(examples/gemm.tc --max-fanout 8)
[ $# -eq 0 ] || flags=("$@")
"$rubick" explore "${flags[@]}" --top 3 --json "$dir/top.json" --csv "$dir/all.csv" -q >/dev/null ||
  { echo "FAIL: explore"; exit 1; }

# Rows as "id<TAB>latency<TAB>spec": the JSON's shown designs (one a line: the id, the
# dataflow's spec, the metrics' latency), and CSV rows (id is the first field, latency the
# fifth, the quoted dataflow the last).
rows=$(grep '^    {"id":"' "$dir/top.json" | head -3 |
         sed -E 's/^ *\{"id":"([0-9a-f]+)".*"spec":"([^"]*)".*"metrics":\{"latency":([0-9]+).*$/\1\t\3\t\2/')
n=$(($(wc -l <"$dir/all.csv") - 1))
[ "$n" -gt 100 ] || { echo "FAIL: only $n designs in the CSV"; exit 1; }
for line in 2 $((n / 2 + 1)) $((n + 1)); do
  rows+=$'\n'$(sed -n "${line}p" "$dir/all.csv" |
    awk -F, '{ spec = $0; sub(/^.*,"/, "", spec); sub(/"$/, "", spec); print $1 "\t" $5 "\t" spec }')
done
[ "$(grep -c . <<<"$rows")" -eq 6 ] || { echo "FAIL: expected 6 rows, got:"; echo "$rows"; exit 1; }

fail=0
while IFS=$'\t' read -r id latency spec; do
  out=$("$rubick" emit "${flags[@]}" --dataflow "$spec" -o "$dir/df" 2>&1) ||
    { echo "FAIL: emit --dataflow '$spec': $out"; fail=1; continue; }
  got=$(sed -n '1s/^design \([0-9a-f]*\): .*/\1/p' <<<"$out")
  [ "$got" = "$id" ] || { echo "FAIL: '$spec' built as $got, explore lists it as $id"; fail=1; }
  if [ "$latency" != - ]; then
    grep -q "^latency $latency cycles;" <<<"$out" ||
      { echo "FAIL: '$spec': explore's latency $latency, emit says: $out"; fail=1; }
  fi
  "$rubick" emit "${flags[@]}" --point "$id" -o "$dir/point" >/dev/null ||
    { echo "FAIL: emit --point $id"; fail=1; continue; }
  # The files name the command that emitted them (docs/integration.md): that line (and so the
  # manifest's digests) alone differs.
  diff -r -x .rubick-output -I '^// rubick emit ' -I '^Emitted by `rubick emit ' "$dir/df" "$dir/point" >/dev/null ||
    { echo "FAIL: --dataflow '$spec' and --point $id emit different files"; fail=1; }
  echo "ok: $id $spec"
done <<<"$rows"
exit $fail
