#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Usage: expect_failure.sh RUBICK WORKDIR RUNTIMEDIR MISMATCH PROGRAM [VERIFY FLAGS...]
# With RUBICK_VERIFY_FAULT=rtl (PE (0, 0) of the first array never computes), `RUBICK verify
# PROGRAM FLAGS` must exit 1, print a line starting "mismatch MISMATCH" (such as C[0][0]), and
# leave the waveform it names. RUNTIMEDIR: verify's --runtime-dir (empty: the default).
# RUBICK_FAULT=epilogue breaks the epilogue's lane 0 instead (src/verify/Simulate.cpp).
set -u
rubick=$1 work=$2 runtime=$3 mismatch=$4 program=$5
shift 5
out=$(RUBICK_VERIFY_FAULT=${RUBICK_FAULT:-rtl} "$rubick" verify "$program" "$@" --work "$work" \
  ${runtime:+--runtime-dir "$runtime"} --quiet)
rc=$?
echo "$out"
[ $rc -eq 1 ] || { echo "expected exit status 1, got $rc"; exit 1; }
echo "$out" | grep -q '^FAIL' || { echo "no FAIL line"; exit 1; }
echo "$out" | grep -qF "mismatch $mismatch" || { echo "no 'mismatch $mismatch' line"; exit 1; }
wave=$(echo "$out" | sed -n 's/^ *waveform: //p')
[ -s "$wave" ] || { echo "waveform '$wave' missing"; exit 1; }
echo "caught"
