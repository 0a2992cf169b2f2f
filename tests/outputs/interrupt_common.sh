# SPDX-License-Identifier: Apache-2.0
# shellcheck shell=bash
# Sourced (not run) by the *_interrupt.sh tests: a signal sent to a rubick command in the
# background. After `source`, with the test's arguments RUBICK SIGNAL: $rubick, $sig, a scratch
# $dir (removed at exit, with the command killed if still running), the repository as the
# working directory and job control on (without it the shell starts background jobs with
# SIGINT ignored). The test starts its command in the background and sets $pid.
set -u
rubick=$1
sig=$2
dir=$(mktemp -d)
pid=
trap '[ -n "$pid" ] && kill -KILL "$pid" 2>/dev/null; rm -rf "$dir"' EXIT
cd "$(dirname "$0")/../.."
set -m
fail=0

# Sends $sig to $pid and waits for it; `interrupted` checks the exit status (128 + signal) and
# that stderr ($dir/stderr) has a line matching PATTERN (default: "interrupted").
interrupt() {
  kill -"$sig" "$pid"
  wait "$pid"
  rc=$?
  pid=
}
interrupted() {
  local want=$((128 + $(kill -l "$sig")))
  [ $rc -eq $want ] || { echo "expected exit status $want, got $rc"; fail=1; }
  grep -q "${1:-interrupted}" "$dir/stderr" || { echo "no message:"; cat "$dir/stderr"; fail=1; }
}

# No process the command started survives it (they all ran below $dir).
no_survivors() {
  sleep 0.5
  local p
  for p in /proc/[0-9]*; do
    case $(readlink "$p/cwd" 2>/dev/null) in "$dir"/*) echo "still running: $(tr '\0' ' ' <"$p/cmdline")"; fail=1 ;; esac
  done
}
