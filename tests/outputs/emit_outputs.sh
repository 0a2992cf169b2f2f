#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Usage: emit_outputs.sh RUBICK
# rubick never replaces what it did not write (docs/user-guide.md, "Output files"): emit into a
# directory holding a user's file, or onto a regular file, is refused and touches nothing;
# emitting twice into rubick's own directory works; --force replaces; a rejected --name
# writes nothing anywhere.
set -u
rubick=$1
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
cd "$(dirname "$0")/../.."
gemm=(examples/gemm.tc --size M=4,N=4,K=4 --array 4x4)
fail=0
check() { # description, condition...
  local what=$1
  shift
  "$@" || { echo "FAIL: $what"; fail=1; }
}
# Runs rubick; sets rc and err.
run() {
  "$rubick" "$@" >"$dir/.stdout" 2>"$dir/.stderr"
  rc=$?
  err=$(cat "$dir/.stderr")
}
leftovers() { ls -A "$dir" | grep -E '\.(tmp|old)\.' ; }

# A directory holding the user's program.
mkdir "$dir/user" && cp examples/gemm.tc "$dir/user/gemm.tc"
run emit "${gemm[@]}" -o "$dir/user"
check "emit into a user's directory exits 1 (got $rc)" [ $rc -eq 1 ]
check "the error names the directory and --force: $err" \
  grep -q "$dir/user: error: refusing to replace this directory.*--force" <<<"$err"
check "the user's file is intact" cmp -s examples/gemm.tc "$dir/user/gemm.tc"
check "nothing else in the user's directory" [ "$(ls -A "$dir/user")" = gemm.tc ]
check "no temporary left" [ -z "$(leftovers)" ]

# A regular file where the directory should go.
echo "notes" >"$dir/notes.txt"
run emit "${gemm[@]}" -o "$dir/notes.txt"
check "emit onto a file exits 1 (got $rc)" [ $rc -eq 1 ]
check "the error names the file: $err" grep -q "notes.txt: error: refusing to replace this file" <<<"$err"
check "the file is intact" [ "$(cat "$dir/notes.txt")" = notes ]

# Twice into the same (own) directory.
run emit "${gemm[@]}" -o "$dir/out"
check "first emit succeeds (got $rc: $err)" [ $rc -eq 0 ]
check "the manifest is written" [ -f "$dir/out/.rubick-output" ]
run emit "${gemm[@]}" --objective wires -o "$dir/out"
check "second emit into rubick's directory succeeds (got $rc: $err)" [ $rc -eq 0 ]
check "no temporary left" [ -z "$(leftovers)" ]
# A file the user added to it makes it foreign again.
echo mine >"$dir/out/rtl/mine.v"
run emit "${gemm[@]}" -o "$dir/out"
check "emit over a user's added file exits 1 (got $rc)" [ $rc -eq 1 ]
check "the error names the added file: $err" grep -q "rtl/mine.v" <<<"$err"
check "the added file is intact" [ "$(cat "$dir/out/rtl/mine.v")" = mine ]

# --force replaces.
run emit "${gemm[@]}" --force -o "$dir/user"
check "emit --force succeeds (got $rc: $err)" [ $rc -eq 0 ]
check "--force replaced the directory" [ -f "$dir/user/design.json" ] && [ ! -e "$dir/user/gemm.tc" ]

# Rejected names write nothing, inside the output directory or outside it.
before=$(cd "$dir" && find . | sort)
for name in ../../x 1abc 'a;b' module ''; do
  run emit "${gemm[@]}" --name "$name" -o "$dir/named/deeper"
  check "--name '$name' exits 1 (got $rc)" [ $rc -eq 1 ]
  check "--name '$name' is reported: $err" grep -q "^--name: error: " <<<"$err"
done
check "rejected names wrote nothing" [ "$before" = "$(cd "$dir" && find . | sort)" ]

# Single files: a user's file is refused, rubick's own is replaced, --force overwrites.
echo "my,data" >"$dir/mine.csv"
run explore "${gemm[@]}" -q --top 1 --csv "$dir/mine.csv"
check "explore --csv onto a user's file exits 1 (got $rc)" [ $rc -eq 1 ]
check "the CSV error names the file: $err" grep -q "mine.csv: error: refusing to overwrite" <<<"$err"
check "the user's CSV is intact" [ "$(cat "$dir/mine.csv")" = "my,data" ]
run explore "${gemm[@]}" -q --top 1 --csv "$dir/a.csv" --json "$dir/a.json" --plot "$dir/a.svg"
check "explore writes new files (got $rc: $err)" [ $rc -eq 0 ]
run explore "${gemm[@]}" -q --top 1 --csv "$dir/a.csv" --json "$dir/a.json" --plot "$dir/a.svg"
check "explore replaces its own files (got $rc: $err)" [ $rc -eq 0 ]
run explore "${gemm[@]}" -q --top 1 --force --csv "$dir/mine.csv"
check "explore --force overwrites (got $rc: $err)" [ $rc -eq 0 ] && grep -q '^id,pareto' "$dir/mine.csv"
run dump --poly examples/gemm.tc -o "$dir/d.txt"
check "dump -o a new file (got $rc: $err)" [ $rc -eq 0 ]
run dump --poly examples/gemm.tc -o "$dir/d.txt"
check "dump -o an existing file exits 1 (got $rc)" [ $rc -eq 1 ]
run dump --poly examples/gemm.tc --force -o "$dir/d.txt"
check "dump --force overwrites (got $rc: $err)" [ $rc -eq 0 ]
check "no temporary left" [ -z "$(leftovers)" ]
[ $fail -eq 0 ] && echo ok
exit $fail
