#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Usage: run_error_case.sh RUBICK CASE
# CASE.tc holds a bad program; its first line may be `# args: <subcommand and flags>` (default
# `dump --poly`), and a line `# input: PATH` runs rubick on PATH instead of CASE.tc (for errors
# about the file itself), and a line `# exit: N` expects exit status N instead of 1 (3 for
# "unsupported"). The test passes when rubick exits with that status, prints exactly
# CASE.err on stderr, prints nothing on stdout, and leaves no output file (`-o` points into an
# empty folder unless the args give their own -o; `@OUT` in the args names a file in that
# folder instead, for commands with other output flags; `@EMPTY` stands for an empty argument,
# such as `--point @EMPTY`). With RUBICK_UPDATE_GOLDEN=1 the .err
# file is rewritten instead.
set -u
rubick=$1
case=$2
args=$(sed -n '1s/^# args: //p' "$case.tc")
[ -n "$args" ] || args="dump --poly"
input=$(sed -n 's/^# input: //p' "$case.tc")
expect=$(sed -n 's/^# exit: //p' "$case.tc")
[ -n "$expect" ] || expect=1
[ -n "$input" ] || input="$case.tc"
outdir=$(mktemp -d)
trap 'rm -rf "$outdir"' EXIT
output=(-o "$outdir/out")
case " $args " in *" -o "* | *"@OUT"* | *"emit "* | *"explore "*) output=() ;; esac
args=${args//@OUT/$outdir/out}
argv=()
# shellcheck disable=SC2086
for word in $args; do
  [ "$word" = @EMPTY ] && word=""
  argv+=("$word")
done
"$rubick" "${argv[@]}" "$input" "${output[@]}" >"$outdir/.stdout" 2>"$outdir/.stderr"
rc=$?
if [ "${RUBICK_UPDATE_GOLDEN:-0}" = 1 ]; then
  cp "$outdir/.stderr" "$case.err"
  echo "errors: updated $case.err"
fi
fail=0
[ "$rc" -eq "$expect" ] || { echo "expected exit status $expect, got $rc"; fail=1; }
[ -s "$outdir/.stdout" ] && { echo "unexpected stdout:"; cat "$outdir/.stdout"; fail=1; }
leftover=$(ls -A "$outdir" | grep -v '^\.std' || true)
[ -z "$leftover" ] || { echo "output left behind: $leftover"; fail=1; }
if ! cmp -s "$case.err" "$outdir/.stderr"; then
  echo "stderr differs from $case.err:"
  diff -u "$case.err" "$outdir/.stderr" | head -30
  fail=1
fi
exit $fail
