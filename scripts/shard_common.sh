# SPDX-License-Identifier: Apache-2.0
# What scripts/shard_parallel.sh and scripts/shard_slurm.sh share: sourced by both, not run.
# The script sets prog (its name in messages) and defines
#   usage            its --help text
#   own_option ARGS  takes the script's own option at the front of ARGS: sets nshift to the
#                    number of words it used, or returns 1 when ARGS[0] is not one of them
#   check_own        validates the script's own options (after -n and -d, before the command)
# then calls shard_options "$@".
# shellcheck shell=bash
# shellcheck disable=SC2034 # the variables set here are the sourcing script's
# shellcheck disable=SC2154 # prog is the sourcing script's

die() {
  echo "$prog: $*" >&2
  exit 2
}
note() { echo "$prog: $*" >&2; }

# Words quoted for a shell (single quotes only where needed).
quoted() {
  local out="" w
  for w in "$@"; do
    if [[ $w =~ ^[][A-Za-z0-9_./=:,@%+{}-]+$ ]]; then
      out+=" $w"
    else
      out+=" '${w//\'/\'\\\'\'}'"
    fi
  done
  echo "${out# }"
}

need() { [ $# -ge 2 ] || die "$1 needs a value (see --help)"; }

# Parses the command line (this script's options, '--', explore|verify ARGS...) and checks the
# options both scripts have. Sets shards, dir, only, rubick, merge_args, do_merge, dry; sub and
# args (the rubick command); own_args (the options before '--') and args_given (ARGS as given,
# for the rerun hint).
shard_options() {
  local a words
  orig_args=("$@")
  shards="" dir="" rubick="" only="" dry=0 do_merge=1
  merge_args=()
  while [ $# -gt 0 ]; do
    case $1 in
      -h | --help) usage; exit 0 ;;
      -n | --shards) need "$@"; shards=$2; shift 2 ;;
      -d | --dir) need "$@"; dir=$2; shift 2 ;;
      --only) need "$@"; only=$2; shift 2 ;;
      --rubick) need "$@"; rubick=$2; shift 2 ;;
      --merge) need "$@"; read -r -a words <<<"$2"; merge_args+=("${words[@]}"); shift 2 ;;
      --merge-arg) need "$@"; merge_args+=("$2"); shift 2 ;;
      --no-merge) do_merge=0; shift ;;
      --dry-run) dry=1; shift ;;
      --) shift; break ;;
      *)
        own_option "$@" || die "unknown option '$1' (the rubick command follows '--'; see --help)"
        shift "$nshift"
        ;;
    esac
  done
  [ -n "$shards" ] || die "-n N (the number of shards) is required (see --help)"
  [[ $shards =~ ^[1-9][0-9]*$ ]] || die "-n: '$shards' is not a positive whole number"
  [ -n "$dir" ] || die "-d DIR (the shard directory) is required (see --help)"
  check_own
  [ $# -ge 1 ] || die "no rubick command after '--' (explore ARGS... or verify ARGS...)"
  own_args=("${orig_args[@]:0:${#orig_args[@]}-$#-1}")
  args_given=("${@:2}")
  sub=$1
  shift
  args=("$@")
  case $sub in
    explore | verify) ;;
    *) die "'$sub' cannot be sharded: give explore or verify after '--'" ;;
  esac
  for a in "${args[@]}"; do
    case $a in
      --shard | --shard=* | --shard-dir | --shard-dir=*)
        die "'$a' is set by this script (-n, -d): leave it out of the rubick arguments" ;;
    esac
    if [ "$sub" = explore ]; then
      case $a in
        --json | --json=* | --csv | --csv=* | --plot | --plot=* | --synth-top | --synth-top=*)
          die "'${a%%=*}' belongs to merge: give it with --merge \"${a%%=*} ...\"" ;;
      esac
    fi
  done
}

# Sets list to the shards to run: --only's, checked, or all of 0..N-1.
shard_list() {
  local i
  local -A seen=()
  list=()
  if [ -n "$only" ]; then
    IFS=, read -r -a list <<<"$only"
    for i in "${list[@]}"; do
      if ! [[ $i =~ ^(0|[1-9][0-9]*)$ ]] || ((i >= shards)); then
        die "--only: '$i' is not a shard of 0..$((shards - 1))"
      fi
      [ -z "${seen[$i]:-}" ] || die "--only: shard $i is named twice"
      seen[$i]=1
    done
    ((${#list[@]})) || die "--only: no shard named"
  else
    for ((i = 0; i < shards; i++)); do list+=("$i"); done
  fi
}

# Makes rubick an absolute path (the shards may run in another directory or on another host):
# --rubick's, else this checkout's build/rubick, else rubick on PATH. Found nowhere: strict dies;
# dry-ok, with --dry-run, prints it as plain 'rubick'.
find_rubick() { # strict|dry-ok
  local here
  here=$(cd "$(dirname "$0")/.." && pwd)
  if [ -z "$rubick" ]; then
    if [ -x "$here/build/rubick" ]; then
      rubick=$here/build/rubick
    elif command -v rubick >/dev/null; then
      rubick=$(command -v rubick)
    elif [ "$1" = dry-ok ] && ((dry)); then
      rubick=rubick
    else
      die "no rubick: neither $here/build/rubick nor rubick on PATH (build it, or give --rubick PATH)"
    fi
  elif [[ $rubick == */* ]]; then
    [[ $rubick == /* ]] || rubick=$PWD/$rubick
  elif command -v "$rubick" >/dev/null; then
    rubick=$(command -v "$rubick")
  fi
}

# The command line with --only LIST instead of any --only, quoted: how the shards in LIST are
# rerun (and the merge).
rerun_with_only() {
  local w skip=0 kept=()
  for w in "${own_args[@]}"; do
    if ((skip)); then skip=0; continue; fi
    case $w in
      --only) skip=1; continue ;;
    esac
    kept+=("$w")
  done
  quoted "$0" "${kept[@]}" --only "$1" -- "$sub" "${args_given[@]}"
}
