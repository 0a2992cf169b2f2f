#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Usage: verify_interrupt.sh RUBICK SIGNAL
# SIGNAL (INT or TERM) sent to `rubick verify` while it builds: rubick stops the tools it runs,
# removes its temporary and half-built directories and exits 128 + the signal's number.
source "$(dirname "$0")/interrupt_common.sh"
# A fresh runtime directory, so the build (several seconds of g++) is surely under way.
"$rubick" verify examples/gemm.tc --size M=4,N=4,K=4 --array 4x4 --quiet --work "$dir/work" \
  >"$dir/stdout" 2>"$dir/stderr" &
pid=$!
# Wait (at most 60 s) until Verilator has run and make compiles in the temporary build directory.
for _ in $(seq 600); do
  compgen -G "$dir/work/.runtime/*.tmp-*/obj/Vdut.mk" >/dev/null && break
  kill -0 "$pid" 2>/dev/null || break # rubick ended early: reported below
  sleep 0.1
done
compgen -G "$dir/work/.runtime/*.tmp-*" >/dev/null || { echo "the build never started"; cat "$dir/stderr"; exit 1; }
sleep 1
interrupt
interrupted
left=$(cd "$dir/work" && find . -name '*.tmp*' -o -name 'probe-*')
[ -z "$left" ] || { echo "left behind: $left"; fail=1; }
designs=$(cd "$dir/work" && ls | grep -v '^\.' || true)
[ -z "$designs" ] || { echo "half-built design directories left: $designs"; fail=1; }
no_survivors # the tools ran in the work directory
[ $fail -eq 0 ] && echo ok
exit $fail
