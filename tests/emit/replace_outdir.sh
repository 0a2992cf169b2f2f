#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Usage: replace_outdir.sh RUBICK
# An existing output directory survives a failing emit untouched; one rubick did not write is
# refused even by a successful emit; rubick's own is replaced (not merged) by a successful one.
set -u
rubick=$1
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
cd "$(dirname "$0")/../.."
gemm=(examples/gemm.tc --size M=4,N=4,K=4 --array 4x4)
mkdir "$dir/out" && echo keep >"$dir/out/marker"
if "$rubick" emit "${gemm[@]}" --point nosuchid -o "$dir/out" 2>/dev/null; then
  echo "emit with a bad --point succeeded"; exit 1
fi
[ "$(cat "$dir/out/marker")" = keep ] || { echo "failed emit touched the existing directory"; exit 1; }
ls "$dir" | grep -q tmp && { echo "temporary directory left behind"; exit 1; }
if "$rubick" emit "${gemm[@]}" -o "$dir/out" >/dev/null 2>&1; then
  echo "emit replaced a directory rubick did not write"; exit 1
fi
[ "$(cat "$dir/out/marker")" = keep ] || { echo "refused emit touched the existing directory"; exit 1; }
"$rubick" emit "${gemm[@]}" --name first -o "$dir/own" >/dev/null || exit 1
"$rubick" emit "${gemm[@]}" --name second -o "$dir/own" >/dev/null || exit 1
[ ! -e "$dir/own/rtl/first_top.v" ] || { echo "successful emit merged into the old directory"; exit 1; }
[ -f "$dir/own/rtl/second_top.v" ] || { echo "second_top.v missing"; exit 1; }
ls "$dir" | grep -q 'tmp\|old' && { echo "temporary directory left behind"; exit 1; }
echo ok
