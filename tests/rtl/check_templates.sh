#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Per-file checks of rtl_templates/ (ctest label rtl). Fails on any diagnostic output.
#   check_templates.sh MODE TEMPLATE_DIR TEST_DIR
#   style     one module per file named after the file, the SPDX licence line, then the
#             header comment, no date,
#             `default_nettype none at the top and `default_nettype wire at the end,
#             no SystemVerilog-only keywords
#   lint      verilator --lint-only -Wall on every template alone (with the templates it
#             instantiates), with its default parameters and the overrides in lint_configs.txt
#   iverilog  iverilog -g2005 on every template alone, then on every test top (other parameters)
#   yosys     yosys synth -top on every template alone, then elaboration of every test top
# Tools come from $VERILATOR, $IVERILOG, $YOSYS (default: from PATH).
set -uo pipefail
mode=$1
tdir=$2
testdir=$3
verilator=${VERILATOR:-verilator}
iverilog=${IVERILOG:-iverilog}
yosys=${YOSYS:-yosys}

failures=0
report() { # name output status
  if [ "$3" -ne 0 ] || [ -n "$2" ]; then
    echo "FAIL $mode: $1"
    [ -n "$2" ] && printf '%s\n' "$2"
    failures=$((failures + 1))
  else
    echo "ok   $mode: $1"
  fi
}

style() { # file module
  local f=$1 m=$2 msg=""
  local modules
  modules=$(grep -E '^\s*module\s' "$f" | sed -E 's/^\s*module\s+([A-Za-z0-9_]+).*/\1/')
  [ "$modules" = "$m" ] || msg+="expected exactly one module '$m', found: ${modules//$'\n'/ }"$'\n'
  head -n 1 "$f" | grep -qx "// SPDX-License-Identifier: Apache-2.0" ||
    msg+="first line must be '// SPDX-License-Identifier: Apache-2.0'"$'\n'
  sed -n 2p "$f" | grep -q "^// $m: " || msg+="second line must be '// $m: <what it is>'"$'\n'
  grep -qE '(19|20)[0-9]{2}-[01][0-9]-[0-3][0-9]' "$f" && msg+="contains a date"$'\n'
  local first_code
  first_code=$(grep -vE '^\s*(//.*)?$' "$f" | head -n 1)
  [ "$first_code" = '`default_nettype none' ] ||
    msg+="first code line must be \`default_nettype none"$'\n'
  [ "$(grep -vE '^\s*$' "$f" | tail -n 1)" = '`default_nettype wire' ] ||
    msg+="last line must be \`default_nettype wire"$'\n'
  local sv
  # shellcheck disable=SC2016 # a literal $error
  sv=$(grep -nwE 'automatic|logic|always_ff|always_comb|interface|typedef|\$error' "$f" |
    grep -vE '^[0-9]+:\s*//' || true)
  [ -n "$sv" ] && msg+="SystemVerilog keywords: $sv"$'\n'
  printf '%s' "$msg"
}

shopt -s nullglob
templates=("$tdir"/*.v)
[ ${#templates[@]} -gt 0 ] || { echo "no templates in $tdir"; exit 1; }

for f in "${templates[@]}"; do
  m=$(basename "$f" .v)
  case $mode in
  style) out=$(style "$f" "$m"); rc=0 ;;
  lint) out=$("$verilator" --lint-only -Wall -y "$tdir" "$f" 2>&1); rc=$? ;;
  iverilog) out=$("$iverilog" -g2005 -o /dev/null -y "$tdir" "$f" 2>&1); rc=$? ;;
  yosys) out=$("$yosys" -q -p "read_verilog $f; hierarchy -libdir $tdir -top $m; synth -top $m" 2>&1); rc=$? ;;
  *) echo "unknown mode $mode"; exit 2 ;;
  esac
  report "$m" "$out" "$rc"
done

# More parameter sets for the linter.
if [ "$mode" = lint ]; then
  while read -r m args; do
    case $m in '' | '#'*) continue ;; esac
    # shellcheck disable=SC2086
    out=$("$verilator" --lint-only -Wall -y "$tdir" $args "$tdir/$m.v" 2>&1)
    report "$m $args" "$out" $?
  done <"$testdir/lint_configs.txt"
fi

# The test tops instantiate the templates with other parameters (Verilator already lints them
# with -Wall when it builds the tests).
for f in "$testdir"/tb_*.v; do
  top=$(basename "$f" .v)
  case $mode in
  iverilog) out=$("$iverilog" -g2005 -o /dev/null -y "$tdir" "$f" 2>&1); rc=$? ;;
  yosys)
    script="read_verilog ${templates[*]} $f; hierarchy -check -top $top; proc; opt_clean"
    out=$("$yosys" -q -p "$script" 2>&1)
    rc=$?
    ;;
  *) continue ;;
  esac
  report "$top" "$out" "$rc"
done

if [ "$failures" -ne 0 ]; then
  echo "$failures failure(s)"
  exit 1
fi
