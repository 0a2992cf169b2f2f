#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Usage: print_top.sh RUBICK emit [emit arguments...]
# Emits a design into a temporary directory and prints its generated top module (for golden
# tests), after checking that a second emit gives byte-identical files.
set -eu
rubick=$1
shift
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
"$rubick" "$@" -o "$dir/a" >/dev/null
"$rubick" "$@" -o "$dir/b" >/dev/null
diff -r "$dir/a" "$dir/b" >&2 || { echo "emit is not deterministic" >&2; exit 1; }
cat "$dir"/a/rtl/*_top.v
