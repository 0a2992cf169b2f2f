#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Usage: explore_shard.sh RUBICK identical|errors
# identical: `rubick explore --shard I/4` four times (different thread counts), then `rubick
#   merge`, prints and writes byte for byte what the unsharded explore does (stdout, --json,
#   --csv, --plot), for several option sets (a memory system, another objective, a short top).
# errors: a missing, duplicated or foreign shard, shards of different runs, an incomplete
#   shard file and a bad --shard are refused with a message naming them and exit status 1.
set -u
rubick=$1
mode=$2
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
cd "$(dirname "$0")/../.."
fail=0
small=(examples/gemm.tc --size M=16,N=16,K=16 --array-range 2..4)

# Runs rubick, keeping stdout, stderr and the exit status in $dir/out, $dir/err, $rc.
run() {
  "$rubick" "$@" >"$dir/out" 2>"$dir/err"
  rc=$?
}

identical() {
  local name=$1
  shift
  local d="$dir/$name"
  mkdir -p "$d"
  run explore "$@" --json "$d/u.json" --csv "$d/u.csv" --plot "$d/u.svg" -q
  [ $rc -eq 0 ] || { echo "$name: unsharded explore failed ($rc): $(cat "$dir/err")"; fail=1; return; }
  cp "$dir/out" "$d/u.txt"
  for i in 0 1 2 3; do
    # Shards 0 and 1 in one directory, 2 and 3 in another (as if on two machines).
    run explore "$@" --shard "$i/4" --shard-dir "$d/s$((i / 2))" --threads $((i % 2 + 1)) -q
    [ $rc -eq 0 ] || { echo "$name: shard $i/4 failed ($rc): $(cat "$dir/err")"; fail=1; return; }
  done
  run merge "$d/s0" "$d/s1" --json "$d/m.json" --csv "$d/m.csv" --plot "$d/m.svg" -q
  [ $rc -eq 0 ] || { echo "$name: merge failed ($rc): $(cat "$dir/err")"; fail=1; return; }
  cp "$dir/out" "$d/m.txt"
  for f in txt json csv svg; do
    cmp -s "$d/u.$f" "$d/m.$f" || { echo "$name: merge's $f differs:"; diff "$d/u.$f" "$d/m.$f" | head -8; fail=1; }
  done
  # Not vacuous: a table, designs in the CSV, a front in the plot.
  [ "$(wc -l <"$d/u.csv")" -gt 10 ] || { echo "$name: too few designs to compare"; fail=1; }
  grep -q '\*' "$d/u.txt" || { echo "$name: no Pareto-optimal design in the table"; fail=1; }
  echo "$name: ok ($(($(wc -l <"$d/u.csv") - 1)) designs)"
}

expect_error() {
  local name=$1 message=$2
  shift 2
  run "$@"
  if [ $rc -ne 1 ] || ! grep -qF -- "$message" "$dir/err"; then
    echo "$name: expected exit status 1 and '$message', got $rc: $(cat "$dir/err")"
    fail=1
  else
    echo "$name: ok"
  fi
}

case $mode in
identical)
  identical plain "${small[@]}"
  identical wires_top3 "${small[@]}" --objective wires --top 3
  identical memory "${small[@]}" --mem-bandwidth 16 --buffer-kib 64 --top 5
  identical area_top1 examples/gemm.tc --size M=16,N=16,K=16 --array 4x4 --objective area --top 1
  ;;
errors)
  s="$dir/shards"
  for i in 0 1 2 3; do
    run explore "${small[@]}" --shard "$i/4" --shard-dir "$s" -q
    [ $rc -eq 0 ] || { echo "shard $i/4 failed: $(cat "$dir/err")"; exit 1; }
  done
  mkdir -p "$dir/two" "$dir/other" "$dir/partial"
  cp "$s/explore-shard-1-of-4.jsonl" "$dir/two/"
  expect_error duplicated "shard 1/4 twice" merge "$s" "$dir/two"
  mv "$s/explore-shard-2-of-4.jsonl" "$dir/"
  expect_error missing "shard 2/4 is missing (no explore-shard-2-of-4.jsonl" merge "$s"
  grep -qF -- "--shard 2/4 --shard-dir $s" "$dir/err" || { echo "missing: no command to rerun it: $(cat "$dir/err")"; fail=1; }
  # The rerun of the one missing shard completes the set.
  run explore "${small[@]}" --shard 2/4 --shard-dir "$s" -q
  run merge "$s" -q
  [ $rc -eq 0 ] || { echo "rerun: merge still fails: $(cat "$dir/err")"; fail=1; }
  run explore "${small[@]}" --top 7 --shard 0/4 --shard-dir "$dir/other" -q
  cp "$s"/explore-shard-[123]-of-4.jsonl "$dir/other/"
  expect_error different_options "are shards of different runs (other options or inputs)" merge "$dir/other"
  run explore "${small[@]}" --shard 0/2 --shard-dir "$dir/partial" -q
  cp "$s/explore-shard-1-of-4.jsonl" "$dir/partial/"
  expect_error different_counts "are shards of different runs (4 and 2 shards)" merge "$dir/partial"
  head -n 3 "$s/explore-shard-3-of-4.jsonl" >"$dir/two/explore-shard-3-of-4.jsonl"
  rm "$dir/two/explore-shard-1-of-4.jsonl"
  expect_error incomplete "explore-shard-3-of-4.jsonl: error: incomplete" merge "$dir/two"
  echo "not rubick's" >"$dir/two/explore-shard-0-of-4.jsonl"
  expect_error foreign_file "explore-shard-0-of-4.jsonl" explore "${small[@]}" --shard 0/4 --shard-dir "$dir/two" -q
  [ "$(cat "$dir/two/explore-shard-0-of-4.jsonl")" = "not rubick's" ] || { echo "foreign file replaced"; fail=1; }
  expect_error bad_shard "I counts from 0" explore "${small[@]}" --shard 4/4 --shard-dir "$dir/bad" -q
  expect_error shard_without_dir "--shard I/N and --shard-dir DIR go together" explore "${small[@]}" --shard 0/4 -q
  expect_error shard_with_csv "give --json, --csv, --plot and --synth-top to \`rubick merge\`" explore "${small[@]}" --shard 0/4 --shard-dir "$s" --csv "$dir/x.csv" -q
  mkdir -p "$dir/empty"
  expect_error empty_dir "no explore shard files (explore-shard-I-of-N.jsonl) in $dir/empty" merge "$dir/empty"
  expect_error not_a_dir "not a directory of shard files" merge "$dir/does_not_exist"
  ;;
*)
  echo "usage: $0 RUBICK identical|errors"
  exit 2
  ;;
esac
exit $fail
