#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Usage: run_golden.sh EXPECTED_FILE COMMAND [ARGS...]
# Runs the command and compares its stdout with EXPECTED_FILE; shows the first differences.
# With RUBICK_UPDATE_GOLDEN=1 the expected file is rewritten instead.
set -u
expected=$1
shift
actual=$(mktemp)
trap 'rm -f "$actual"' EXIT
"$@" >"$actual"
rc=$?
if [ $rc -ne 0 ]; then
  echo "golden: command failed with exit code $rc: $*" >&2
  exit 1
fi
if [ "${RUBICK_UPDATE_GOLDEN:-0}" = 1 ]; then
  cp "$actual" "$expected"
  echo "golden: updated $expected"
  exit 0
fi
if [ ! -f "$expected" ]; then
  echo "golden: missing $expected (run with RUBICK_UPDATE_GOLDEN=1 to create it)" >&2
  exit 1
fi
if ! diff -u "$expected" "$actual" | head -40; then :; fi
cmp -s "$expected" "$actual" || { echo "golden: output differs from $expected" >&2; exit 1; }
