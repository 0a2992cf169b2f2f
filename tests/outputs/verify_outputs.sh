#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Usage: verify_outputs.sh RUBICK
# verify refuses a work directory holding files it did not write, and reports a missing
# external tool by name before creating anything (docs/verification.md); a runtime build
# removes only the dead build directories of its own host.
set -u
rubick=$1
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
cd "$(dirname "$0")/../.."
gemm=(examples/gemm.tc --size M=4,N=4,K=4 --array 4x4 --quiet)
fail=0
check() {
  local what=$1
  shift
  "$@" || { echo "FAIL: $what"; fail=1; }
}

# A foreign, non-empty work directory.
mkdir "$dir/home" && echo "years of work" >"$dir/home/thesis.tex"
err=$("$rubick" verify "${gemm[@]}" --work "$dir/home" 2>&1 >/dev/null)
rc=$?
check "verify --work on a user's directory exits 1 (got $rc)" [ $rc -eq 1 ]
check "the error names the directory and --force: $err" \
  grep -q "$dir/home: error: refusing to use this directory.*--force" <<<"$err"
check "the directory is untouched" [ "$(ls -A "$dir/home")" = thesis.tex ]
# The same for --runtime-dir.
err=$("$rubick" verify "${gemm[@]}" --work "$dir/w" --runtime-dir "$dir/home" 2>&1 >/dev/null)
rc=$?
check "--runtime-dir on a user's directory exits 1 (got $rc)" [ $rc -eq 1 ]
check "the directory is still untouched" [ "$(ls -A "$dir/home")" = thesis.tex ]

# PATH without make (every other tool verify runs is there).
mkdir "$dir/bin"
for tool in verilator g++ ar perl python3 sh; do
  p=$(command -v "$tool") && ln -s "$p" "$dir/bin/$tool"
done
err=$(PATH="$dir/bin" "$rubick" verify "${gemm[@]}" --work "$dir/nomake" 2>&1 >/dev/null)
rc=$?
check "verify without make exits 1 (got $rc)" [ $rc -eq 1 ]
check "the error names make: $err" grep -q "^verify: error: make is not on PATH" <<<"$err"
check "nothing was created" [ ! -e "$dir/nomake" ]

# A make that fails without a word: reported with its (empty) log, exit 1, no temporary left.
printf '#!/bin/sh\nexit 2\n' >"$dir/bin/make" && chmod +x "$dir/bin/make"
err=$(PATH="$dir/bin" "$rubick" verify "${gemm[@]}" --work "$dir/badmake" 2>&1 >/dev/null)
rc=$?
check "verify with a failing make exits 1 (got $rc)" [ $rc -eq 1 ]
check "the error says the runtime build failed and names its log: $err" \
  grep -q "^verify: error: building the simulation runtime failed.*failed.log" <<<"$err"
left=$(cd "$dir/badmake" && find . -name '*.tmp*' -o -name 'probe-*')
check "no temporary left: $left" [ -z "$left" ]

# Build directories another build left: of this host and a dead process, removed; of a live
# process or of another host (a runtime directory shared over a network), kept.
rt="$dir/badmake/.runtime"
key=$(cd "$rt" && ls -- *.failed.log | head -1)
key=${key%.failed.log}
host=$(uname -n | tr './' '__')
dead=4000000
while kill -0 "$dead" 2>/dev/null; do dead=$((dead + 1)); done
mkdir "$rt/$key.tmp-$host-$dead" "$rt/$key.tmp-$host-$$" "$rt/$key.tmp-other_host-$dead"
PATH="$dir/bin" "$rubick" verify "${gemm[@]}" --work "$dir/badmake" >/dev/null 2>&1
check "a dead process's build directory is removed" [ ! -e "$rt/$key.tmp-$host-$dead" ]
check "a live process's build directory is kept" [ -d "$rt/$key.tmp-$host-$$" ]
check "another host's build directory is kept" [ -d "$rt/$key.tmp-other_host-$dead" ]
[ $fail -eq 0 ] && echo ok
exit $fail
