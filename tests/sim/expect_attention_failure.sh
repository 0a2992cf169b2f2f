#!/usr/bin/env bash
# Usage: expect_attention_failure.sh RUBICK WORKDIR [RUNTIMEDIR]
# With RUBICK_VERIFY_FAULT=rtl (PE (0, 0) of GEMM 1 never computes), verify of the attention
# pipeline must exit 1, print mismatches of O with indices, and leave the waveform it names.
set -u
out=$(RUBICK_VERIFY_FAULT=rtl "$1" verify tests/sim/attention_kt_int8.tc --array 4x4 \
  --block-keys 8 --work "$2" ${3:+--runtime-dir "$3"} --quiet)
rc=$?
echo "$out"
[ $rc -eq 1 ] || { echo "expected exit status 1, got $rc"; exit 1; }
echo "$out" | grep -q '^FAIL' || { echo "no FAIL line"; exit 1; }
echo "$out" | grep -q 'mismatch O\[[0-9]*\]\[[0-9]*\]' || { echo "no mismatch with indices"; exit 1; }
wave=$(echo "$out" | sed -n 's/^ *waveform: //p')
[ -s "$wave" ] || { echo "waveform '$wave' missing"; exit 1; }
echo "caught"
