#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Runs a sharded rubick explore or verify with GNU parallel (here or on several hosts), then
# rubick merge. `scripts/shard_parallel.sh --help` explains; docs/cluster.md has the details.
set -euo pipefail

prog=scripts/shard_parallel.sh
usage() {
  cat <<EOF
Usage: $prog -n N -d DIR [OPTIONS] -- explore|verify ARGS...

Runs \`rubick SUBCOMMAND ARGS --shard I/N --shard-dir DIR\` for I = 0..N-1 with GNU parallel,
here or on other hosts, then \`rubick merge DIR\` here. Merge's stdout (the table or the verify
report) is this script's stdout, byte for byte; the shards' output and this script's messages
go to stderr.

Options:
  -n, --shards N         Number of shards (required)
  -d, --dir DIR          Shard directory (required): shard I writes DIR/SUBCOMMAND-shard-I-of-N.jsonl
  -j, --jobs J           Shards run at once on each host (parallel -j; default: one per CPU core).
                         Each shard uses all the host's cores unless ARGS has --threads
                         (explore) or --jobs (verify).
  -S, --sshlogin LOGINS  Run the shards on these hosts (parallel --sshlogin, repeatable:
                         comma-separated [user@]host, ':' is this machine, 'K/host' runs at
                         most K there). Without it every shard runs here.
      --no-shared-fs     The hosts do not share this directory: send every file ARGS name (and
                         each --transfer FILE) to a scratch directory on the host, bring the
                         shard file back, delete the scratch (needs rsync on both ends)
      --transfer FILE    With --no-shared-fs: also send FILE (repeatable)
      --only LIST        Run only these shards (comma-separated, e.g. 1,3), then merge all N:
                         how a failed shard is rerun
      --rubick PATH      The rubick binary, at the same path on every host (default: this
                         checkout's build/rubick when built, else rubick on PATH)
      --merge "ARGS"     Merge's options, split at white space, e.g. "--json best.json --plot p.svg"
      --merge-arg ARG    One merge option word verbatim (repeatable; for names with spaces)
      --no-merge         Only run the shards
      --parallel-opt OPT Pass OPT to parallel (repeatable), e.g. --parallel-opt=--retries=2
      --dry-run          Print the commands and run nothing
  -h, --help             This text

Remote hosts (--sshlogin) need passwordless ssh, GNU parallel's remote part (perl) and rubick at
--rubick's path. On a shared file system (the simple case: this directory at the same path on
every host) the shards run in this directory and write DIR there. Without one (--no-shared-fs),
every argument that names an existing file is sent (give paths below this directory: they are
recreated under the scratch directory); files a program or target includes, or @FILE arguments,
need --transfer. Shipped target presets (--target fpga) come with each host's rubick.

Exit status: 0 when every shard and the merge succeeded; 2 for a usage error or a missing tool;
3 when a shard failed (they are named, with the command that reruns just them, and merge is
not run); otherwise merge's exit status (verify: 1 when a design failed).

Examples:
  $prog -n 4 -d shards -- explore examples/gemm.tc --size M=16,N=16,K=16 --array-range 2..4
      four shards on this machine, then the merged table
  $prog -n 4 -d shards -j 2 --merge "--json best.json --plot pareto.svg" \\
      -- explore examples/gemm.tc --array-range 4..16 --threads 1
      two shards at a time with one thread each; merge writes the JSON and the plot
  $prog -n 8 -d shards -S 2/node1,2/node2,: -- explore examples/gemm.tc --array-range 4..16
      on node1, node2 and here, sharing this directory (e.g. over NFS)
  $prog -n 8 -d shards -S node1,node2 --no-shared-fs -- explore examples/gemm.tc --array-range 4..16
      the same without a shared file system: examples/gemm.tc is sent, the shard files come back
  $prog -n 4 -d shards --only 2 -- explore examples/gemm.tc --array-range 4..16
      rerun shard 2 alone (as printed when it failed), then merge all four
  $prog -n 3 -d vshards -- verify examples/gemm.tc --size M=6,N=5,K=7 --array 4x4 --all --limit 12
      twelve designs simulated in three shards, one verify report
EOF
}

# shellcheck source-path=SCRIPTDIR source=shard_common.sh
. "$(dirname "${BASH_SOURCE[0]}")/shard_common.sh"

# This script's own options, for shard_options.
jobs="" shared=1
logins=() transfers=() popts=()
own_option() {
  case $1 in
    -j | --jobs) need "$@"; jobs=$2; nshift=2 ;;
    -S | --sshlogin) need "$@"; logins+=("$2"); nshift=2 ;;
    --no-shared-fs) shared=0; nshift=1 ;;
    --transfer) need "$@"; transfers+=("$2"); nshift=2 ;;
    --parallel-opt) need "$@"; popts+=("$2"); nshift=2 ;;
    --parallel-opt=*) popts+=("${1#--parallel-opt=}"); nshift=1 ;;
    *) return 1 ;;
  esac
}
check_own() {
  [ -z "$jobs" ] || [[ $jobs =~ ^([0-9]+%?|[+-][0-9]+)$ ]] || die "-j: '$jobs' is not a job count"
}
shard_options "$@"
if ((!shared)) && ((${#logins[@]} == 0)); then
  die "--no-shared-fs needs --sshlogin (without it every shard runs here)"
fi
((${#transfers[@]} == 0)) || ((!shared)) || die "--transfer needs --no-shared-fs"
# The shards to run; rubick as an absolute path.
shard_list
find_rubick strict
local_run=1
if ((${#logins[@]})); then
  local_run=0
  for l in "${logins[@]}"; do
    [[ ,$l, =~ ,([0-9]+/)?:, ]] && local_run=1
  done
fi
if ((!shared)) && ((local_run)); then
  die "--no-shared-fs cannot use this machine (':' in --sshlogin): parallel would run its shards in an empty scratch directory. Run them in a second call without --no-shared-fs and -S (--only LIST)"
fi
if ((!dry)) && { ((local_run)) || ((do_merge)); } && [ ! -x "$rubick" ]; then
  die "rubick '$rubick' is not an executable file (give --rubick PATH)"
fi

command -v parallel >/dev/null ||
  die "GNU parallel is not installed (Debian/Ubuntu: apt-get install parallel)"
if ! parallel --version 2>/dev/null | head -n 1 | grep -q 'GNU parallel'; then
  die "'$(command -v parallel)' is not GNU parallel (moreutils has another 'parallel'; Debian/Ubuntu: apt-get install parallel)"
fi

# The parallel command. {} is the shard number; -q quotes every word for the shell (also on
# the remote host), so arguments with spaces or quotes arrive as given.
joblog=$dir/.shard_parallel.joblog
pcmd=(parallel -q --joblog "$joblog" --tagstring "[{}/$shards]")
[ -z "$jobs" ] || pcmd+=(-j "$jobs")
for l in "${logins[@]}"; do pcmd+=(--sshlogin "$l"); done
if ((${#logins[@]})); then
  if ((shared)); then
    pcmd+=(--workdir "$PWD")
  else
    # Every existing file the arguments name (ARG or --option=ARG), and --transfer's.
    for a in "${args[@]}"; do
      f=$a
      [[ $f == --*=* ]] && f=${f#*=}
      [ -f "$f" ] && transfers+=("$f")
    done
    for f in "${transfers[@]}"; do
      [ -f "$f" ] || die "--transfer: no file '$f'"
      case $f in
        /* | ../* | */../*) note "warning: '$f' is not below this directory: it is sent to the same path on each host" ;;
      esac
      pcmd+=(--transferfile "$f")
    done
    pcmd+=(--workdir ... --return "$dir/$sub-shard-{}-of-$shards.jsonl" --cleanup)
  fi
fi
pcmd+=("${popts[@]}")
pcmd+=("$rubick" "$sub" "${args[@]}" --shard "{}/$shards" --shard-dir "$dir" ::: "${list[@]}")
mcmd=("$rubick" merge "$dir" "${merge_args[@]}")

if ((dry)); then
  echo "# the shards (${#list[@]} of $shards):"
  quoted "${pcmd[@]}"
  if ((do_merge)); then
    echo "# then, when every shard succeeded:"
    quoted "${mcmd[@]}"
  fi
  exit 0
fi

mkdir -p "$dir"
rm -f "$joblog"
note "running ${#list[@]} of $shards shards of rubick $sub into $dir/"
start=$SECONDS
set +e
"${pcmd[@]}" >&2
prc=$?
set -e

# Which shards failed: the joblog's Seq is the place of the shard in the list (from 1); a
# shard not in the joblog never ran (parallel was stopped).
declare -A exitval=()
if [ -f "$joblog" ]; then
  while IFS=$'\t' read -r seq _ _ _ _ _ ev sig _; do
    [[ $seq =~ ^[0-9]+$ ]] || continue
    if [ "$ev" = 0 ] && [ "$sig" = 0 ]; then
      exitval[$seq]=ok
    elif [ "$sig" != 0 ]; then
      exitval[$seq]="killed by signal $sig"
    else
      exitval[$seq]="exit status $ev"
    fi
  done <"$joblog"
fi
failed=()
for k in "${!list[@]}"; do
  r=${exitval[$((k + 1))]:-"did not run"}
  if [ "$r" != ok ]; then
    failed+=("${list[$k]}")
    note "shard ${list[$k]}/$shards failed ($r)"
  fi
done
if ((${#failed[@]} == 0)) && ((prc != 0)); then
  note "parallel exited with status $prc although every shard succeeded"
  failed=(parallel)
fi
if ((${#failed[@]})); then
  if [ "${failed[0]}" != parallel ]; then
    note "${#failed[@]} of ${#list[@]} shards failed: ${failed[*]} (the joblog is $joblog); rerun just them (and merge) with:"
    echo "  $(rerun_with_only "$(IFS=,; echo "${failed[*]}")")" >&2
    note "or each by itself, anywhere that shares $dir:"
    for i in "${failed[@]}"; do
      echo "  $(quoted "$rubick" "$sub" "${args[@]}" --shard "$i/$shards" --shard-dir "$dir")" >&2
    done
  fi
  exit 3
fi
note "${#list[@]} shards done in $((SECONDS - start)) s"

((do_merge)) || exit 0
set +e
"${mcmd[@]}"
mrc=$?
set -e
if ((mrc != 0)); then
  note "rubick merge exited with status $mrc: $(quoted "${mcmd[@]}")"
  exit "$mrc"
fi
