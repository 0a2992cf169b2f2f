#!/usr/bin/env bash
# Usage: replace_outdir.sh RUBICK
# An existing output directory survives a failing emit untouched, and is replaced (not merged)
# by a successful one.
set -u
rubick=$1
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
cd "$(dirname "$0")/../.."
mkdir "$dir/out" && echo keep >"$dir/out/marker"
if "$rubick" emit examples/gemm.tc --size M=4,N=4,K=4 --array 4x4 --point nosuchid -o "$dir/out" 2>/dev/null; then
  echo "emit with a bad --point succeeded"; exit 1
fi
[ "$(cat "$dir/out/marker")" = keep ] || { echo "failed emit touched the existing directory"; exit 1; }
ls "$dir" | grep -q tmp && { echo "temporary directory left behind"; exit 1; }
"$rubick" emit examples/gemm.tc --size M=4,N=4,K=4 --array 4x4 -o "$dir/out" >/dev/null || exit 1
[ ! -e "$dir/out/marker" ] || { echo "successful emit merged into the old directory"; exit 1; }
[ -f "$dir/out/design.json" ] || { echo "design.json missing"; exit 1; }
echo ok
