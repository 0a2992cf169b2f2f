# One line per golden test: rubick_golden(NAME EXPECTED_FILE ARGS...), run from the source root.
foreach(example gemm gemv bmm conv2d mttkrp attention)
  rubick_golden(poly_${example} expected/poly_${example}.txt dump --poly examples/${example}.tc)
  rubick_golden(ast_${example} expected/ast_${example}.txt dump --ast examples/${example}.tc)
endforeach()
