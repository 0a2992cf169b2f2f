#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Submits a sharded rubick explore or verify to Slurm: a job array with one shard per task and
# rubick merge as a job that depends on the whole array. `scripts/shard_slurm.sh --help`
# explains; docs/cluster.md has the details.
set -euo pipefail

prog=scripts/shard_slurm.sh
usage() {
  cat <<EOF
Usage: $prog -n N -d DIR [OPTIONS] -- explore|verify ARGS...

Submits a Slurm job array (sbatch --array=0-(N-1)) whose task I runs
\`rubick SUBCOMMAND ARGS --shard I/N --shard-dir DIR\` (I = \$SLURM_ARRAY_TASK_ID), and
\`rubick merge DIR\` as a job that starts when every task has succeeded
(--dependency=afterok:ARRAYJOB; it is cancelled when a task fails). The job scripts are written
to DIR/slurm/ (shard.sbatch, merge.sbatch) and kept, so a shard or the merge can be resubmitted
by hand. Merge's stdout (the table or the verify report) goes to DIR/slurm/merge.out, its
stderr to DIR/slurm/merge.err, shard I's output to DIR/slurm/shard-I.log.

The jobs run in this directory, so it, DIR and everything the arguments name must be on a file
system every node shares, at the same path, and rubick must be at --rubick's path on every node.

Options:
  -n, --shards N        Number of shards (required)
  -d, --dir DIR         Shard directory (required): shard I writes DIR/SUBCOMMAND-shard-I-of-N.jsonl
  -c, --cpus C          CPUs per shard (--cpus-per-task=C; also rubick --threads C for explore,
                        --jobs C for verify, unless ARGS sets them)
      --only LIST       Submit only these shards (comma-separated, e.g. 1,3: --array=1,3), then
                        the merge of all N: how failed shards are rerun
      --rubick PATH     The rubick binary (default: this checkout's build/rubick when built, else
                        rubick on PATH)
      --merge "ARGS"    Merge's options, split at white space, e.g. "--json best.json --plot p.svg"
                        (relative names are taken in this directory)
      --merge-arg ARG   One merge option word verbatim (repeatable; for names with spaces)
      --no-merge        Submit only the job array
      --sbatch-opt OPT  Pass OPT to both sbatch calls (repeatable), e.g. --sbatch-opt=--partition=short
      --shard-opt OPT   Pass OPT to the array's sbatch only, e.g. --shard-opt=--time=01:00:00
      --merge-opt OPT   Pass OPT to the merge's sbatch only, e.g. --merge-opt=--mem=4G
      --wait            Wait for the merge (or, with --no-merge, the array), then print merge's
                        stdout and stderr, name failed shards and exit with the job's status
      --dry-run         Print the job scripts and sbatch commands; write and submit nothing
                        (Slurm need not be installed)
  -h, --help            This text

Exit status: 0 when submitted (with --wait: when every shard and the merge succeeded); 2 for a
usage error or a missing sbatch; 3 (with --wait) when a shard failed (named, with the command
that resubmits just it); otherwise sbatch's or (with --wait) the merge's exit status.

Examples:
  $prog -n 4 -d shards --dry-run -- explore examples/gemm.tc --size M=16,N=16,K=16 --array-range 2..4
      show what would be submitted
  $prog -n 16 -d shards -c 4 --merge "--json best.json --plot pareto.svg" \\
      -- explore examples/gemm.tc --array-range 4..32
      16 tasks of 4 CPUs each; the merge writes best.json and pareto.svg here
  $prog -n 16 -d shards -c 4 --only 5,11 -- explore examples/gemm.tc --array-range 4..32
      resubmit shards 5 and 11 (and the merge) after they failed
  $prog -n 3 -d shards --wait -- explore examples/gemm.tc --size M=16,N=16,K=16 --array-range 2..4
      submit, wait, print the merged table
  $prog -n 3 -d vshards -c 2 -- verify examples/gemm.tc --size M=6,N=5,K=7 --array 4x4 --all --limit 12
      twelve designs simulated in three tasks, one verify report in vshards/slurm/merge.out
EOF
}

# shellcheck source-path=SCRIPTDIR source=shard_common.sh
. "$(dirname "${BASH_SOURCE[0]}")/shard_common.sh"

# This script's own options, for shard_options.
cpus="" wait=0
both_opts=() shard_opts=() merge_opts=()
own_option() {
  case $1 in
    -c | --cpus) need "$@"; cpus=$2; nshift=2 ;;
    --sbatch-opt) need "$@"; both_opts+=("$2"); nshift=2 ;;
    --sbatch-opt=*) both_opts+=("${1#*=}"); nshift=1 ;;
    --shard-opt) need "$@"; shard_opts+=("$2"); nshift=2 ;;
    --shard-opt=*) shard_opts+=("${1#*=}"); nshift=1 ;;
    --merge-opt) need "$@"; merge_opts+=("$2"); nshift=2 ;;
    --merge-opt=*) merge_opts+=("${1#*=}"); nshift=1 ;;
    --wait) wait=1; nshift=1 ;;
    *) return 1 ;;
  esac
}
check_own() {
  [ -z "$cpus" ] || [[ $cpus =~ ^[1-9][0-9]*$ ]] || die "-c: '$cpus' is not a positive whole number"
}
shard_options "$@"
has_threads=0 has_jobs=0
for a in "${args[@]}"; do
  case $a in
    --threads | --threads=*) has_threads=1 ;;
    --jobs | --jobs=*) has_jobs=1 ;;
  esac
done
if [ -n "$cpus" ]; then
  shard_opts=(--cpus-per-task="$cpus" "${shard_opts[@]}")
  if [ "$sub" = explore ] && ((!has_threads)); then args+=(--threads "$cpus"); fi
  if [ "$sub" = verify ] && ((!has_jobs)); then args+=(--jobs "$cpus"); fi
fi

# The array's index list.
shard_list
if [ -n "$only" ]; then
  array=$only
else
  array=0-$((shards - 1))
fi

# Absolute paths: the jobs' scripts name them on the nodes.
find_rubick dry-ok
((dry)) || [ -x "$rubick" ] || die "rubick '$rubick' is not an executable file (give --rubick PATH)"
workdir=$PWD
absdir=$dir
[[ $absdir == /* ]] || absdir=$workdir/$dir
jobdir=$absdir/slurm
# #SBATCH lines take no quotes.
[[ ! $jobdir =~ [[:space:]] && ! $workdir =~ [[:space:]] ]] ||
  die "the shard directory ($absdir) and this directory ($workdir) must not contain white space (they appear in #SBATCH lines)"

shard_script() {
  cat <<EOF
#!/bin/bash
# Written by $prog: task I of this job array runs shard I of $shards. Resubmit shards with
#   sbatch --array=I,J,... $(quoted "$jobdir/shard.sbatch")
# (then the merge, as below in merge.sbatch), or rerun one anywhere that shares the files:
#   cd $(quoted "$workdir") && $(quoted "$rubick" "$sub" "${args[@]}") --shard I/$shards --shard-dir $(quoted "$dir")
#SBATCH --job-name=rubick-$sub-shards
#SBATCH --output=$jobdir/shard-%a.log
#SBATCH --chdir=$workdir
set -uo pipefail
cd $(quoted "$workdir") || exit 1
i=\${SLURM_ARRAY_TASK_ID:?not run as a task of a Slurm job array}
rm -f $(quoted "$jobdir")/shard-"\$i".exit
$(quoted "$rubick" "$sub" "${args[@]}") --shard "\$i/$shards" --shard-dir $(quoted "$dir")
status=\$?
echo "\$status" >$(quoted "$jobdir")/shard-"\$i".exit
exit "\$status"
EOF
}

merge_script() {
  cat <<EOF
#!/bin/bash
# Written by $prog: the merge of the $shards shards in $(quoted "$dir"), submitted with
#   sbatch --dependency=afterok:ARRAYJOB --kill-on-invalid-dep=yes $(quoted "$jobdir/merge.sbatch")
#SBATCH --job-name=rubick-$sub-merge
#SBATCH --output=$jobdir/merge.out
#SBATCH --error=$jobdir/merge.err
#SBATCH --chdir=$workdir
set -euo pipefail
cd $(quoted "$workdir")
exec $(quoted "$rubick" merge "$dir" "${merge_args[@]}")
EOF
}

shard_cmd=(sbatch --parsable --array="$array" "${both_opts[@]}" "${shard_opts[@]}")
merge_cmd=(sbatch --parsable "${both_opts[@]}" "${merge_opts[@]}")
if ((dry)); then
  echo "# $jobdir/shard.sbatch:"
  shard_script
  echo
  if ((do_merge)); then
    echo "# $jobdir/merge.sbatch:"
    merge_script
    echo
  fi
  echo "# submitted with:"
  if ((do_merge)); then
    echo "ARRAYJOB=\$($(quoted "${shard_cmd[@]}" "$jobdir/shard.sbatch"))"
    echo "$(quoted "${merge_cmd[@]}") --dependency=afterok:\"\${ARRAYJOB%%;*}\" --kill-on-invalid-dep=yes$( ((wait)) && echo " --wait") $(quoted "$jobdir/merge.sbatch")"
  else
    echo "$(quoted "${shard_cmd[@]}")$( ((wait)) && echo " --wait") $(quoted "$jobdir/shard.sbatch")"
  fi
  exit 0
fi

command -v sbatch >/dev/null ||
  die "sbatch is not installed (Slurm's client: Debian/Ubuntu package slurm-client; this must run on a Slurm submit host). --dry-run shows the jobs without it"

mkdir -p "$jobdir"
shard_script >"$jobdir/shard.sbatch"
merge_script >"$jobdir/merge.sbatch"
for i in "${list[@]}"; do rm -f "$jobdir/shard-$i.exit"; done
((do_merge)) && rm -f "$jobdir/merge.out" "$jobdir/merge.err"

# Names the shards that did not succeed (from their .exit files); 0 when all did.
report_shards() {
  local i bad=()
  for i in "${list[@]}"; do
    if [ ! -f "$jobdir/shard-$i.exit" ]; then
      note "shard $i/$shards did not finish (see $jobdir/shard-$i.log)"
      bad+=("$i")
    elif [ "$(cat "$jobdir/shard-$i.exit")" != 0 ]; then
      note "shard $i/$shards failed with exit status $(cat "$jobdir/shard-$i.exit") (see $jobdir/shard-$i.log)"
      bad+=("$i")
    fi
  done
  ((${#bad[@]})) || return 0
  note "resubmit just those shards (and the merge) with:"
  echo "  $(rerun_with_only "$(IFS=,; echo "${bad[*]}")")" >&2
  return 1
}

set +e
out=$("${shard_cmd[@]}" "$jobdir/shard.sbatch")
rc=$?
set -e
((rc == 0)) || { note "sbatch of the job array failed (status $rc)"; exit "$rc"; }
arrayjob=${out%%;*}
note "submitted job array $arrayjob: shards $array of $shards (logs $jobdir/shard-I.log)"

if ((!do_merge)); then
  if ((wait)); then
    note "waiting for job array $arrayjob"
    set +e
    # scontrol cannot wait; an empty job that depends on the array (afterany) can.
    sbatch --parsable --wait --quiet "${both_opts[@]}" --dependency=afterany:"$arrayjob" \
      --job-name=rubick-wait --output=/dev/null --wrap=true >/dev/null
    set -e
    report_shards || exit 3
  fi
  exit 0
fi

mopts=("${merge_cmd[@]}" --dependency=afterok:"$arrayjob" --kill-on-invalid-dep=yes)
if ((!wait)); then
  set +e
  out=$("${mopts[@]}" "$jobdir/merge.sbatch")
  rc=$?
  set -e
  ((rc == 0)) || { note "sbatch of the merge failed (status $rc); job array $arrayjob is submitted"; exit "$rc"; }
  note "submitted merge job ${out%%;*} after job array $arrayjob: its table goes to $jobdir/merge.out"
  note "follow them with: squeue -j $arrayjob,${out%%;*}; a failed shard leaves a non-zero $jobdir/shard-I.exit (or none, if it was killed) and Slurm cancels the merge"
  exit 0
fi

note "submitted; waiting for the merge (after job array $arrayjob)"
set +e
"${mopts[@]}" --wait "$jobdir/merge.sbatch" >/dev/null
rc=$?
set -e
if ! report_shards; then
  exit 3
fi
[ ! -f "$jobdir/merge.out" ] || cat "$jobdir/merge.out"
[ ! -f "$jobdir/merge.err" ] || cat "$jobdir/merge.err" >&2
if ((rc != 0)); then
  note "the merge job failed (sbatch --wait exit status $rc; see $jobdir/merge.err)"
  exit "$rc"
fi
