#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Usage: doc_commands.sh RUBICK SRCDIR list|run [verify|other] [K/N]
# Every rubick command the documentation shows must run: the lines of README.md and docs/*.md
# that start with `rubick ` or `build/rubick ` inside a code block (indented by 4 spaces or
# fenced; a trailing backslash continues the line; README's first two lines are split at
# `&&`), and the `Examples:` lines of every subcommand's --help. `list` prints them; `run`
# runs each (only the verify commands, or only the others) verbatim in a scratch folder that
# holds links to examples/ and designs/, and fails, naming the command and its source, on any
# non-zero exit. So an example that stops working (a renamed flag, a design ID that no longer
# exists) fails a test instead of misleading a reader. K/N runs only the selected commands
# numbered K modulo N (from 0), so slow simulating ones can run as N tests side by side.
# A documented verify sweep (--all without --limit: up to hundreds of Verilator builds) runs
# with --limit $RUBICK_DOC_SWEEP_LIMIT appended (default 2; 0 runs it whole): enough to show
# that the command works. The sweeps themselves are ctest tests (tests/sim/CMakeLists.txt).
set -u
rubick=$(realpath "$1") src=$(realpath "$2") mode=$3 which=${4:-all} shard=${5:-0/1}
shardK=${shard%/*} shardN=${shard#*/}
sweepLimit=${RUBICK_DOC_SWEEP_LIMIT:-2}

collect() {
  local f
  for f in "$src/README.md" "$src"/docs/*.md; do
    awk -v file="${f#"$src"/}" '
      function emit(cmd) { sub(/^[ \t]+/, "", cmd); print file ":" start "\t" cmd }
      /^```/ { fenced = !fenced; next }
      {
        line = $0
        if (cont != "") {                      # continuation of the previous command
          sub(/^[ \t]+/, "", line)
          cont = cont " " line
          if (cont ~ /\\$/) { sub(/[ \t]*\\$/, "", cont); next }
          emit(cont); cont = ""; next
        }
        if (file == "README.md" && NR <= 2) {  # the two setup-and-run lines
          n = split(line, parts, /[ \t]*&&[ \t]*/)
          for (i = 1; i <= n; ++i) if (parts[i] ~ /^(build\/)?rubick /) { start = NR; emit(parts[i]) }
          next
        }
        if (!(fenced || line ~ /^(    |\t)/)) next
        s = line; sub(/^[ \t]+/, "", s); sub(/^\$ /, "", s)
        if (s !~ /^(build\/)?rubick /) next
        start = NR
        if (s ~ /\\$/) { sub(/[ \t]*\\$/, "", s); cont = s; next }
        emit(s)
      }' "$f"
  done
  local sub
  for sub in explore merge emit verify dump synth; do
    # Footer lines are "  rubick ...", maybe continued with '\', maybe followed by three or
    # more spaces and a description.
    "$rubick" "$sub" --help | awk -v file="rubick $sub --help" '
      function emit(cmd) { sub(/   +.*$/, "", cmd); print file ":" start "\t" cmd }
      cont != "" {
        s = $0; sub(/^ +/, "", s); cont = cont " " s
        if (cont ~ /\\$/) { sub(/ *\\$/, "", cont); next }
        emit(cont); cont = ""; next
      }
      /^  rubick / {
        s = $0; sub(/^ +/, "", s); start = NR
        if (s ~ /\\$/) { sub(/ *\\$/, "", s); cont = s; next }
        emit(s)
      }'
  done
}

if [ "$mode" = list ]; then
  collect
  exit 0
fi

scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
ln -s "$src/examples" "$scratch/examples"
ln -s "$src/designs" "$scratch/designs"
mkdir -p "$scratch/bin" "$scratch/build"
ln -s "$rubick" "$scratch/bin/rubick"
ln -s "$rubick" "$scratch/build/rubick"
export PATH="$scratch/bin:$PATH"
# Verify's default work folder is shared by every run; keep this test's runs apart from a
# user's or another test's by giving the scratch folder as TMPDIR where rubick honours it.
export TMPDIR="$scratch"

ran=0 failed=0 index=-1
declare -A seen
while IFS=$'\t' read -r where cmd; do
  case "$cmd" in *" verify "*) kind=verify ;; *) kind=other ;; esac
  [ "$which" = all ] || [ "$which" = "$kind" ] || continue
  # A command shown in several places runs once (its outcome cannot differ).
  key=$(echo "$cmd" | tr -s ' ' | sed 's#^build/##')
  [ -z "${seen[$key]:-}" ] || continue
  seen[$key]=1
  index=$((index + 1))
  [ $((index % shardN)) -eq "$shardK" ] || continue
  ran=$((ran + 1))
  run=$cmd note=""
  if [ "$kind" = verify ] && [ "$sweepLimit" != 0 ]; then
    case "$cmd" in
    *" --limit "*) ;;
    *" --all"*) run="$cmd --limit $sweepLimit" note=", first $sweepLimit designs" ;;
    esac
  fi
  SECONDS=0
  if ! (cd "$scratch" && bash -c "$run" >"$scratch/.out" 2>"$scratch/.err"); then
    failed=$((failed + 1))
    echo "FAIL ($where$note): $cmd"
    tail -5 "$scratch/.err" | sed 's/^/    /'
  else
    echo "ok   ($where, ${SECONDS} s$note): $cmd"
  fi
done < <(collect | sort -u -t$'\t' -k2,2 | sort)
echo "$ran documented command(s) run: $((ran - failed)) passed, $failed failed"
[ "$ran" -gt 0 ] && [ "$failed" -eq 0 ]
