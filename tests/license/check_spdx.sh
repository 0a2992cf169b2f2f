#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Every source file (C++, Verilog, shell, CMake) carries the project's SPDX licence line
# in its first three lines (docs/license.md). Prints the files that do not; fails when any.
#   check_spdx.sh SOURCE_DIR
set -uo pipefail
cd "$1" || exit 2
# The tracked files; outside a git work tree (a source archive) every file but build folders.
list() {
  if git rev-parse --is-inside-work-tree > /dev/null 2>&1; then
    git ls-files
  else
    find . -path './build*' -prune -o -type f -print | sed 's|^\./||'
  fi
}
missing=0
while IFS= read -r f; do
  case $f in
  *.cpp | *.h | *.v | *.sh | *.cmake | */CMakeLists.txt | CMakeLists.txt | .ci/run) ;;
  *) continue ;;
  esac
  [ -f "$f" ] || continue
  if ! head -n 3 "$f" | grep -q 'SPDX-License-Identifier: Apache-2.0'; then
    echo "no SPDX licence line: $f"
    missing=$((missing + 1))
  fi
done < <(list)
[ "$missing" -eq 0 ] && echo "every source file has its SPDX licence line"
[ "$missing" -eq 0 ]
