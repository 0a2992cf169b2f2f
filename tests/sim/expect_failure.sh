#!/usr/bin/env bash
# Usage: expect_failure.sh RUBICK WORKDIR [RUNTIMEDIR]
# With RUBICK_VERIFY_FAULT=rtl (PE (0, 0) never computes), verify must exit 1, print mismatches
# with indices, and leave the waveform it names. RUNTIMEDIR: verify's --runtime-dir.
set -u
out=$(RUBICK_VERIFY_FAULT=rtl "$1" verify examples/gemm.tc --size M=6,N=5,K=7 --array 4x4 \
  --work "$2" ${3:+--runtime-dir "$3"} --quiet)
rc=$?
echo "$out"
[ $rc -eq 1 ] || { echo "expected exit status 1, got $rc"; exit 1; }
echo "$out" | grep -q '^FAIL' || { echo "no FAIL line"; exit 1; }
echo "$out" | grep -q 'mismatch C\[0\]\[0\]' || { echo "no mismatch with indices"; exit 1; }
wave=$(echo "$out" | sed -n 's/^ *waveform: //p')
[ -s "$wave" ] || { echo "waveform '$wave' missing"; exit 1; }
echo "caught"
