#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Usage: synth_interrupt.sh RUBICK SIGNAL
# SIGNAL (INT or TERM) sent to `rubick synth` while Yosys runs: rubick stops Yosys, removes its
# scratch directory, leaves the design's folder as emit wrote it and exits 128 + the signal's
# number.
source "$(dirname "$0")/interrupt_common.sh"
"$rubick" emit examples/gemm.tc --size M=16,N=16,K=16 --array 4x4 -o "$dir/design" >/dev/null ||
  { echo "emit failed"; exit 1; }
before=$(cd "$dir/design" && find . -type f | sort | xargs md5sum)
# The scratch directory goes under TMPDIR, so this test sees it.
mkdir "$dir/tmp"
TMPDIR="$dir/tmp" "$rubick" synth "$dir/design" --flows generic >"$dir/stdout" 2>"$dir/stderr" &
pid=$!
# Wait (at most 60 s) until Yosys runs in the scratch directory.
for _ in $(seq 600); do
  compgen -G "$dir/tmp/rubick-synth-*/synth/generic.ys" >/dev/null && break
  kill -0 "$pid" 2>/dev/null || break
  sleep 0.1
done
compgen -G "$dir/tmp/rubick-synth-*/synth/generic.ys" >/dev/null ||
  { echo "synthesis never started"; cat "$dir/stderr"; exit 1; }
sleep 0.5
interrupt
interrupted
left=$(ls -A "$dir/tmp")
[ -z "$left" ] || { echo "scratch left behind: $left"; fail=1; }
after=$(cd "$dir/design" && find . -type f | sort | xargs md5sum)
[ "$before" = "$after" ] || { echo "the design's folder changed"; fail=1; }
no_survivors # Yosys ran in the scratch directory
[ $fail -eq 0 ] && echo ok
exit $fail
