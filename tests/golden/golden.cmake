# SPDX-License-Identifier: Apache-2.0
# One line per golden test: rubick_golden(NAME EXPECTED_FILE ARGS...), run from the source root.
foreach(example gemm gemv bmm conv2d mttkrp attention gemm_alpha)
  rubick_golden(poly_${example} expected/poly_${example}.txt dump --poly examples/${example}.tc)
  rubick_golden(ast_${example} expected/ast_${example}.txt dump --ast examples/${example}.tc)
endforeach()

# The access-entry / data-layout IR (rubick dump --ir) and the dataflow space (dump --space).
rubick_golden(ir_seed expected/ir_seed.txt dump --ir examples/gemm.tc --size M=2,K=2,N=4
  --array 2x2 --dataflow "PE(k, j mod 2) | T(i + j mod 2, j / 2)")
rubick_golden(ir_gemm_output_stationary expected/ir_gemm_output_stationary.txt dump --ir
  examples/gemm.tc --size M=4,N=4,K=4 --dataflow "PE(j, i) | T(i + j + k)")
rubick_golden(ir_gemm_tiled expected/ir_gemm_tiled.txt dump --ir examples/gemm.tc --array 8x8
  --dataflow "PE(i mod 8, j mod 8) | T(k, j / 8, i / 8)")
rubick_golden(ir_gemv expected/ir_gemv.txt dump --ir examples/gemv.tc --size M=4,N=4
  --dataflow "PE(i, j) | T(0)")
rubick_golden(ir_bmm expected/ir_bmm.txt dump --ir examples/bmm.tc --size NB=2,M=4,N=4,K=4
  --dataflow "PE(i, j) | T(k, b)")
rubick_golden(ir_conv2d expected/ir_conv2d.txt dump --ir examples/conv2d.tc --array 8x8
  --dataflow "PE(f, w) | T(s, r, c, h)")
rubick_golden(ir_mttkrp expected/ir_mttkrp.txt dump --ir examples/mttkrp.tc --size I=4,J=4,K=4,L=4
  --dataflow "PE(i, j) | T(k, l)")
rubick_golden(ir_attention_qk expected/ir_attention_qk.txt dump --ir examples/attention.tc
  --stmt S0 --array 8x8 --dataflow "PE(i mod 8, j mod 8) | T(d, j / 8, i / 8)")
rubick_golden(ir_access_analysis expected/ir_access_analysis.txt dump --ir examples/conv2d.tc)
rubick_golden(space_gemm_4x4 expected/space_gemm_4x4.txt dump --space examples/gemm.tc --array 4x4)
# The microarchitecture plan (rubick dump --plan): output-stationary with multicast inputs, and
# a systolic one (chains of PEs, upstream and hop per PE, skewed port times).
rubick_golden(plan_gemm_os_2x2 expected/plan_gemm_os_2x2.txt dump --plan examples/gemm.tc
  --size M=4,N=4,K=4 --array 2x2 --dataflow "PE(i mod 2, j mod 2) | T(k, j / 2, i / 2)")
rubick_golden(plan_gemm_systolic_2x2 expected/plan_gemm_systolic_2x2.txt dump --plan
  examples/gemm.tc --size M=4,N=4,K=3 --array 2x2
  --dataflow "PE(i mod 2, j mod 2) | T(i mod 2 + j mod 2 + k, j / 2, i / 2)")
# The same dataflow read from a file gives the same IR.
rubick_golden(ir_seed_file expected/ir_seed.txt dump --ir examples/gemm.tc --size M=2,K=2,N=4
  --array 2x2 --dataflow @designs/dataflows/gemm_seed.df)

# rubick explore: the ranked table for GEMM on a 4x4 array.
# rubick explore of a chain (docs/fusion.md): the MLP block's statements alone and fused.
rubick_golden(explore_chain_mlp expected/explore_chain_mlp.txt explore examples/mlp.tc
  --size M=16,K=32,N=32,P=16 --array 4x4 --mem-bandwidth 8 --mem-latency 20 --buffer-kib 16 -q)
# A chain with an attention stage (docs/fusion.md, "Attention in a chain"): the pipeline's line
# under "built as", its spec and exact cycles.
rubick_golden(explore_chain_attention expected/explore_chain_attention.txt explore
  examples/attention_block.tc --size L=8,C=12,S=16,D=8,N=8 --array 4x4 --mem-bandwidth 8
  --mem-latency 20 --buffer-kib 4 -q)
# Tiles of rows chosen by the chain's exact cycles (docs/fusion.md, "Tiles of rows"): every count
# that divides the rows, each built and timed.
rubick_golden(explore_chain_row_tiles_auto expected/explore_chain_row_tiles_auto.txt explore
  tests/sim/chain/three.tc --size M=16,K=6,N=8,P=6,Q=4 --array 4x4 --mem-bandwidth 8
  --mem-latency 20 --buffer-kib 1 --row-tiles auto -q)
# rubick explore of a contraction with an epilogue (docs/fusion.md, "Epilogues"): the output's
# traffic at its final width, the vector operands' loads and registers, the residual per tile.
rubick_golden(explore_epilogue_residual expected/explore_epilogue_residual.txt explore
  tests/sim/epilogue/residual.tc --array 4x4 --mem-bandwidth 8 --mem-latency 20 --buffer-kib 1
  --top 8 -q)
rubick_golden(explore_gemm_4x4 expected/explore_gemm_4x4.txt explore examples/gemm.tc
  --size M=4,N=4,K=4 --array 4x4 --top 40 --quiet)
rubick_golden(explore_gemm_fpga expected/explore_gemm_fpga.txt explore examples/gemm.tc
  --size M=6,N=5,K=7 --target designs/targets/fpga.json --array 4x4 --max-fanout 4 --top 10 --quiet)

# rubick emit: the generated top of two small GEMM designs (emitted twice: must be identical).
foreach(case "emit_top_os_4x4|C=stationary,A=X-systolic,B=Y-systolic|M=4,N=4,K=4"
             "emit_top_tiled_reduction|C=Y-multicast|M=4,N=5,K=9")
  string(REPLACE "|" ";" parts "${case}")
  list(GET parts 0 name)
  list(GET parts 1 entries)
  list(GET parts 2 sizes)
  add_test(NAME golden.${name}
    COMMAND ${GOLDEN_RUNNER} ${CMAKE_CURRENT_SOURCE_DIR}/golden/expected/${name}.v
            ${CMAKE_CURRENT_SOURCE_DIR}/emit/print_top.sh $<TARGET_FILE:rubick> emit examples/gemm.tc
            --size ${sizes} --array 4x4 --entries ${entries}
    WORKING_DIRECTORY ${PROJECT_SOURCE_DIR})
  set_tests_properties(golden.${name} PROPERTIES LABELS golden)
endforeach()
