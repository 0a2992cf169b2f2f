#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Usage: relative_paths.sh RUBICK RUNTIME
# verify with --work, --runtime-dir and --wave given relative to the current directory: the
# tools run inside each design's directory, so rubick must resolve them first (a relative
# --work once failed with "cannot run verilator").
set -u
rubick=$(realpath "$1")
runtime=$(realpath -m "$2")
src=$(realpath "$(dirname "$0")/../..")
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
cd "$dir" || exit 1
mkdir -p "$runtime"
out=$("$rubick" verify "$src/examples/gemm.tc" --size M=4,N=4,K=4 --array 4x4 \
  --entries C=stationary,A=X-systolic,B=Y-systolic --work rel \
  --runtime-dir "$(realpath --relative-to=. "$runtime")" --wave w.fst --quiet 2>&1)
rc=$?
fail=0
[ $rc -eq 0 ] || { echo "FAIL: verify exited $rc"; echo "$out"; fail=1; }
grep -q "1 passed, 0 failed" <<<"$out" || { echo "FAIL: no pass in: $out"; fail=1; }
[ -d rel ] || { echo "FAIL: the work directory is not ./rel"; fail=1; }
[ -s w.fst ] || { echo "FAIL: no waveform at ./w.fst"; fail=1; }
[ $fail -eq 0 ] && echo "relative_paths: verify resolved --work, --runtime-dir and --wave"
exit $fail
