#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Usage: attention_lint.sh RUBICK [synth|memories]
# Emitted attention pipelines (one key block; several blocks with a partial last one; four
# heads; transposed K and int8 O; vector units of 1, 2, 4 and 8 lanes, also more lanes than
# query rows; Q, K, V and O in external memory, on a narrow and a wide bus; the attention decode
# on PIM units, and PIM designs of GEMV and GEMM; chains of two and three stages, as
# docs/fusion.md builds them, two with an attention stage): verilator --lint-only -Wall prints nothing,
# Icarus compiles them, a second emit
# gives the same bytes, and no file holds the output path. With `synth`,
# Yosys synthesizes a small pipeline instead (seconds per pipeline). With `memories`, the
# attention core of a memory system (alone and in a chain) goes through Yosys' memory passes:
# every memory of the core (stage buffers, lane-schedule ROMs) has at most one write port and
# only registered read ports, what a block RAM or LUT RAM offers (docs/attention.md).
set -u
rubick=$1
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
cd "$(dirname "$0")/../.."
if [ "${2:-}" = synth ]; then
  out="$dir/small"
  "$rubick" emit examples/attention.tc --size L=4,S=6,D=4 --array 2x2 --block-keys 4 \
    --vector-lanes 2 -o "$out" >/dev/null || { echo "FAIL: emit"; exit 1; }
  top=$(sed -n 's/^  "top": "\(.*\)",$/\1/p' "$out/design.json")
  (cd "$out" && yosys -q -p "read_verilog $(tr '\n' ' ' < filelist.f); synth -top $top" >yosys.log 2>&1) ||
    { echo "FAIL: yosys"; tail -5 "$out/yosys.log"; exit 1; }
  echo "attention synth: ok"
  exit 0
fi
if [ "${2:-}" = memories ]; then
  failed=0
  n=0
  while read -r program flags; do
    n=$((n + 1))
    out="$dir/m$n"
    # shellcheck disable=SC2086
    "$rubick" emit "$program" $flags --no-testbench -o "$out" >/dev/null ||
      { echo "FAIL $program $flags: emit"; failed=1; continue; }
    core=$(cd "$out/rtl" && ls ./*_core.v | xargs grep -l "^module .*_core (" |
      xargs grep -l "_half" | xargs grep -l "rom_q" | head -1 | sed 's|^\./||; s|\.v$||')
    [ -n "$core" ] || { echo "FAIL $program $flags: no attention core"; failed=1; continue; }
    (cd "$out" && yosys -q -p "read_verilog $(tr '\n' ' ' < filelist.f); hierarchy -top $core;
      proc; opt; memory -nomap; tee -q -o mem.il dump $core/t:\$mem_v2" \
      >yosys.log 2>&1) || { echo "FAIL $program $flags: yosys"; tail -5 "$out/yosys.log"; failed=1; continue; }
    # Per memory: its name, write ports and read clock enables (one bit per read port).
    report=$(awk '/^  cell \$mem_v2 /{m=$3} /parameter .WR_PORTS /{w[m]=$3}
      /parameter .RD_CLK_ENABLE /{r[m]=$3}
      END{for (m in w) print m, w[m], r[m]}' "$out/mem.il" | sort)
    mems=$(echo "$report" | grep -c .)
    [ "$mems" -gt 10 ] || { echo "FAIL $program $flags: $mems memories in $core"; failed=1; }
    bad=$(echo "$report" | awk '$2 > 1 || $3 ~ /0/')
    if [ -n "$bad" ]; then
      echo "FAIL $program $flags: memories of $core a RAM cannot hold"
      echo "(name, write ports, read clock enables)"
      echo "$bad" | head -10
      failed=1
    else
      echo "$program $flags: $core, $mems memories, each one writer and registered reads"
    fi
  done <<'LIST'
tests/sim/attention_kt_int8.tc --array 4x4 --block-keys 8 --vector-lanes 4 --mem-bandwidth 16 --mem-latency 100
examples/attention_block.tc --size L=8,C=12,S=16,D=8,N=8 --array 4x4 --mem-bandwidth 8 --buffer-kib 4
LIST
  exit $failed
fi
failed=0
n=0
while read -r program flags; do
  n=$((n + 1))
  out="$dir/p$n"
  # shellcheck disable=SC2086
  "$rubick" emit "$program" $flags -o "$out" >/dev/null || { echo "FAIL $program $flags: emit"; failed=1; continue; }
  # shellcheck disable=SC2086
  "$rubick" emit "$program" $flags -o "$dir/again" >/dev/null || { echo "FAIL: second emit"; failed=1; continue; }
  diff -r "$out" "$dir/again" >/dev/null || { echo "FAIL $program $flags: not deterministic"; failed=1; }
  rm -rf "$dir/again"
  ! grep -rq "$dir" "$out" || { echo "FAIL $program $flags: output path in a file"; failed=1; }
  top=$(sed -n 's/^  "top": "\(.*\)",$/\1/p' "$out/design.json")
  lint=$(cd "$out" && verilator --lint-only -Wall -f filelist.f --top-module "$top" 2>&1)
  [ -z "$lint" ] || { echo "FAIL $program $flags: lint"; echo "$lint" | head -10; failed=1; }
  (cd "$out" && iverilog -g2005 -o /dev/null -f filelist.f) || { echo "FAIL $program $flags: iverilog"; failed=1; }
done <<'LIST'
examples/attention.tc --vector-lanes 1
examples/attention.tc --vector-lanes 4
examples/attention.tc --size L=20,S=36,D=16 --block-keys 16 --vector-lanes 1
examples/attention.tc --size L=20,S=36,D=16 --block-keys 16 --vector-lanes 8
examples/attention_heads.tc --array 4x4 --vector-lanes 2
tests/sim/attention_kt_int8.tc --array 4x4 --block-keys 8 --vector-lanes 1
tests/sim/attention_kt_int8.tc --array 4x4 --block-keys 8 --vector-lanes 4
examples/attention.tc --size L=3,S=5,D=2 --array 4x4 --vector-lanes 8
examples/attention.tc --size L=4,S=16,D=4 --array 4x4 --vector-lanes 8 --mem-bandwidth 4 --mem-latency 20
tests/sim/attention_kt_int8.tc --array 4x4 --block-keys 8 --vector-lanes 2 --mem-bandwidth 16 --mem-latency 100
examples/attention.tc --size L=1,S=256,D=8 --target tests/sim/pim/rows.json
examples/attention.tc --size L=1,S=64,D=16 --target aim
examples/gemv.tc --size M=16,N=12 --target tests/sim/pim/rows.json
examples/gemm.tc --size M=8,N=6,K=4 --target tests/sim/pim/out_banks.json
examples/gemv.tc --size M=16,N=12 --target tests/sim/pim/two_banks_fast.json
examples/mlp.tc --size M=8,K=12,N=8,P=6 --array 4x4 --mem-bandwidth 8 --buffer-kib 1
tests/sim/chain/mlp_requant.tc --array 2x4 --mem-bandwidth 16 --buffer-kib 2 --objective area
tests/sim/chain/three.tc --array 4x4 --mem-bandwidth 4 --buffer-kib 1
examples/attention_block.tc --size L=8,C=12,S=16,D=8,N=8 --array 4x4 --mem-bandwidth 8 --buffer-kib 4
tests/sim/chain/attention_proj.tc --array 4x4 --mem-bandwidth 8 --buffer-kib 4 --chip-kib 0
LIST
echo "attention lint: $n pipelines, PIM designs and chains"
exit $failed
