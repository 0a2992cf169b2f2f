#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Usage: verify_shard.sh RUBICK RUNTIMEDIR
# `rubick verify --all --limit 12` once, then in 3 shards (two directories, as if on two
# machines) merged by `rubick merge`: every design's row is the one run's, in the same order.
# A shard whose designs fail (RUBICK_VERIFY_FAULT=rtl) makes merge exit 1 and print a command
# that reproduces the failure; rerunning that shard alone completes a passing set. A missing
# shard is named with its command; explore and verify shards together, attention programs and
# explore's output flags are refused.
set -u
rubick=$1 runtime=$2
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
cd "$(dirname "$0")/../.."
fail() { echo "verify_shard: $*" >&2; exit 1; }
run=(verify examples/gemm.tc --size M=4,N=4,K=4 --array 2x2 --all --limit 12)
where=(--runtime-dir "$runtime" -q)
rows() { grep -E '^(PASS|FAIL) ' "$1"; }

"$rubick" "${run[@]}" --work "$dir/w" "${where[@]}" >"$dir/one.txt" ||
  fail "the unsharded verify failed: $(cat "$dir/one.txt")"
[ "$(rows "$dir/one.txt" | wc -l)" = 12 ] || fail "expected 12 designs: $(cat "$dir/one.txt")"
for i in 0 1 2; do
  "$rubick" "${run[@]}" --shard "$i/3" --shard-dir "$dir/s$((i / 2))" --work "$dir/w" \
    "${where[@]}" >"$dir/shard$i.txt" || fail "shard $i/3 failed: $(cat "$dir/shard$i.txt")"
  [ "$(rows "$dir/shard$i.txt" | wc -l)" = 4 ] || fail "shard $i/3 did not verify 4 designs"
done
"$rubick" merge "$dir/s0" "$dir/s1" >"$dir/merged.txt" || fail "merge failed: $(cat "$dir/merged.txt")"
cat "$dir/merged.txt"
diff <(rows "$dir/one.txt") <(rows "$dir/merged.txt") || fail "merged rows differ from one run's"
grep -q '^12 design(s), 1 trial(s) each: 12 passed, 0 failed$' "$dir/merged.txt" ||
  fail "merge's counts are wrong"
grep -q '^cycles: 12 of 12 design(s) ran in exactly the predicted cycles' "$dir/merged.txt" ||
  fail "merge's cycle check is wrong"

# Shard 1 on broken hardware: merge fails and says how to reproduce each failure.
RUBICK_VERIFY_FAULT=rtl "$rubick" "${run[@]}" --shard 1/3 --shard-dir "$dir/s0" --work "$dir/wf" \
  "${where[@]}" >"$dir/fault.txt" && fail "shard 1/3 passed on broken hardware"
"$rubick" merge "$dir/s0" "$dir/s1" >"$dir/merged.txt" && fail "merge passed with a failed shard"
grep -q '^12 design(s), 1 trial(s) each: 8 passed, 4 failed$' "$dir/merged.txt" ||
  fail "expected 4 failures: $(cat "$dir/merged.txt")"
repro=$(sed -n 's/^reproduce [0-9a-f]*: //p' "$dir/merged.txt" | head -1)
case $repro in
  "rubick verify examples/gemm.tc --size M=4,N=4,K=4 --array 2x2 --point "*) ;;
  *) fail "unexpected reproduce line: '$repro'" ;;
esac
read -r -a words <<<"${repro#rubick }"
RUBICK_VERIFY_FAULT=rtl "$rubick" "${words[@]}" --work "$dir/wf" "${where[@]}" >/dev/null &&
  fail "the reproduce command passed on broken hardware"
# Rerunning the failed shard alone completes the set.
"$rubick" "${run[@]}" --shard 1/3 --shard-dir "$dir/s0" --work "$dir/w" "${where[@]}" \
  >/dev/null || fail "the rerun of shard 1/3 failed"
"$rubick" merge "$dir/s0" "$dir/s1" >"$dir/merged.txt" || fail "merge after the rerun failed"
diff <(rows "$dir/one.txt") <(rows "$dir/merged.txt") || fail "rows differ after the rerun"

# Refusals, each with its reason.
expect() { # expect STATUS TEXT CMD...: CMD exits STATUS and says TEXT on stderr
  local status=$1 text=$2
  shift 2
  "$@" >/dev/null 2>"$dir/err"
  local rc=$?
  [ $rc = "$status" ] || fail "$* exited $rc, expected $status: $(cat "$dir/err")"
  grep -qF -- "$text" "$dir/err" || fail "$*: no '$text' in: $(cat "$dir/err")"
}
expect 1 "shard 2/3 is missing (no verify-shard-2-of-3.jsonl" "$rubick" merge "$dir/s0"
expect 1 "run it: rubick verify examples/gemm.tc" "$rubick" merge "$dir/s0"
expect 1 "are explore's: verify shards merge into a report" "$rubick" merge "$dir/s0" "$dir/s1" \
  --json "$dir/x.json"
"$rubick" explore examples/gemm.tc --size M=4,N=4,K=4 --array 2x2 --shard 0/1 \
  --shard-dir "$dir/s1" -q >/dev/null || fail "explore --shard 0/1 failed"
expect 1 "both explore and verify shards" "$rubick" merge "$dir/s0" "$dir/s1"
expect 3 "only a statement's designs are sharded" "$rubick" verify examples/attention.tc \
  --size L=4,S=4,D=4 --shard 0/2 --shard-dir "$dir/s2" --work "$dir/wa" "${where[@]}"
[ ! -e "$dir/s2/verify-shard-0-of-2.jsonl" ] || fail "a refused shard wrote its file"
expect 1 "--shard I/N and --shard-dir DIR go together" "$rubick" "${run[@]}" --shard 0/2 \
  --work "$dir/wx" "${where[@]}"
echo "verify_shard: passed"
