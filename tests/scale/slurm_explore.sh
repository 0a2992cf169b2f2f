#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Usage: slurm_explore.sh RUBICK
# Needs a running Slurm cluster (sbatch submits to it; nothing is set up here) whose nodes see
# the source tree and the scratch directory (made in the current directory, the build tree, or
# in $RUBICK_SLURM_SCRATCH) at the same paths. GEMM 16^3 over the arrays 2x2 to 4x4, explored
# unsharded and as a 3-task job array with a dependent merge (scripts/shard_slurm.sh --wait):
# the table, JSON and SVG must be byte for byte the same (cmp).
set -euo pipefail
rubick=$(realpath "$1")
dir=$(mktemp -d -p "$(realpath "${RUBICK_SLURM_SCRATCH:-$PWD}")" slurm_explore.XXXXXX)
trap 'rm -rf "$dir"' EXIT
cd "$(dirname "$0")/../.."
# shellcheck source-path=SCRIPTDIR source=compare_outputs.sh
. tests/scale/compare_outputs.sh
run=(examples/gemm.tc --size "M=16,N=16,K=16" --array-range 2..4)

explore_unsharded
start=$SECONDS
explore_sharded shard_slurm.sh -n 3 -d "$dir/shards" --rubick "$rubick" --wait
compare_outputs
grep -q '\*' "$dir/u.txt" || { echo "no Pareto-optimal design in the table"; fail=1; }
((fail)) && exit 1
echo "ok: $(sed -n 2p "$dir/u.txt"); job array and merge in $((SECONDS - start)) s"
