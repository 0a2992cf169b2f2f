# SPDX-License-Identifier: Apache-2.0
# What parallel_explore.sh and slurm_explore.sh share: sourced by both (in the source tree's
# root, with rubick, dir and run=(the explore arguments) set), not run.
# shellcheck shell=bash
# shellcheck disable=SC2154 # rubick, dir and run are the sourcing test's
# shellcheck disable=SC2034 # fail is the sourcing test's

# The unsharded explore: $dir/u.txt (the table), u.json, u.svg.
explore_unsharded() {
  "$rubick" explore "${run[@]}" --json "$dir/u.json" --plot "$dir/u.svg" -q >"$dir/u.txt"
}

# SCRIPT OPTIONS...: the sharded explore by scripts/SCRIPT and its merge: $dir/m.txt, m.json,
# m.svg. Prints the script's stderr and exits 1 when it fails.
explore_sharded() {
  local script=$1
  shift
  if ! "scripts/$script" "$@" \
    --merge-arg --json --merge-arg "$dir/m.json" --merge-arg --plot --merge-arg "$dir/m.svg" \
    --merge-arg -q -- explore "${run[@]}" -q >"$dir/m.txt" 2>"$dir/m.err"; then
    echo "scripts/$script failed:"
    cat "$dir/m.err"
    exit 1
  fi
}

# Sets fail=1 (else 0) when the merged table, JSON or SVG is not byte for byte the unsharded
# run's, printing the start of each difference.
compare_outputs() {
  local f
  fail=0
  for f in txt json svg; do
    if ! cmp "$dir/u.$f" "$dir/m.$f"; then
      echo "the merged $f differs from the unsharded run's:"
      diff "$dir/u.$f" "$dir/m.$f" | head -8
      fail=1
    fi
  done
}
