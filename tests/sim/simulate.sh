#!/usr/bin/env bash
# Usage: simulate.sh RUBICK HARNESS SEED [emit arguments...]
# Emits a design into a temporary directory, lints it (verilator -Wall must print nothing),
# builds it with the self-checking harness and runs it. Exit status 0 when everything passes.
set -u
rubick=$1 harness=$2 seed=$3
shift 3
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
"$rubick" emit "$@" -o "$dir/design" >/dev/null || { echo "emit failed"; exit 1; }
cd "$dir/design"
top=$(sed -n 's/^  "top": "\(.*\)",$/\1/p' design.json)
lint=$(verilator --lint-only -Wall -f filelist.f --top-module "$top" 2>&1)
[ -z "$lint" ] || { echo "lint warnings:"; echo "$lint" | head -20; exit 1; }
verilator --cc --exe --build -j 2 -Wno-fatal --top-module "$top" --prefix Vdut \
  -CFLAGS -O1 -o sim -f filelist.f "$harness" >build.log 2>&1 || { tail -30 build.log; exit 1; }
./obj_dir/sim design.json "$seed"
