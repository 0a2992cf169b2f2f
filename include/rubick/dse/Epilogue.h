// SPDX-License-Identifier: Apache-2.0
#pragma once
// A contraction followed by elementwise statements on its result (docs/fusion.md, "Epilogues"):
// the hardware applies them on the output's way out, between the banks and the memory, so the
// accumulator never leaves the chip and only the final output is written.
//
//   def layer(int8(M,K) X, int8(K,N) W, int32(N) b, int32(N) m) -> (int8(M,N) Y) {
//     H(i,j) +=! X(i,k) * W(k,j)                        the contraction (H: a local)
//     Y(i,j) = requant(max(H(i,j) + b(j), 0), m(j), 12)  the epilogue
//   }
//   => accumulator H, output Y, operands b (along dimension 1), m (along dimension 1),
//      expression wrap8(requant8(max(wrap32(acc) + b, 0), m, 12))
//
// The form: statement 0 writes a local that only the later statements read; every later
// statement is an `=` over the same index space (no reduction loop), writing a local that only
// later statements read, or, the last one, the program's one output; they read the contraction's
// result and earlier ones at exactly the written index, program inputs of one dimension along
// one output dimension (a bias or a scale per row or column) or of the output's shape at the
// written index (a residual), integer constants, and use + - * unary minus, max, min, abs and
// requant. A full operand may be read at the written index plus constants, R(i + 1, j), in a
// tensor large enough.

#include "rubick/dse/Memory.h"
#include "rubick/frontend/Program.h"
#include "rubick/support/SourceFile.h"

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace rubick::dse {

/// A node of the epilogue's expression. Arithmetic is the reference model's: 64-bit two's
/// complement, each statement's value wrapped to the tensor it writes (Wrap), requant saturated
/// to it (ref::requantise).
struct EpilogueOp {
  enum class Kind { Acc, Operand, Const, Neg, Add, Sub, Mul, Max, Min, Abs, Requant, Wrap };
  Kind kind = Kind::Const;
  int64_t value = 0; // Const: the value; Operand: its index; Wrap, Requant: the written bits
  std::vector<EpilogueOp> args;
};

/// An input the epilogue reads: a vector along one dimension of the output (b(j) of Y(i,j):
/// dim 1), or a tensor of the output's shape at the element written (a residual R(i,j): dim -1,
/// `full`).
struct EpilogueOperand {
  int tensor = -1; // in Program::tensors
  std::string name;
  int dim = 0;        // the output dimension that indexes it; -1: every dimension
  int64_t extent = 0; // its elements
  int64_t bits = 0;   // element bits (its declared type)
  std::vector<int64_t> shape;
  // A full operand read at the written index plus constants (a shortcut X(n, c, h + 1, w + 1)
  // of a convolution that shrank the image): per output dimension, the constant; empty: none.
  std::vector<int64_t> offset = {};
  bool full() const { return dim < 0; }
};

struct Epilogue {
  size_t contraction = 0; // the statement whose result the epilogue takes
  int accumulator = -1;   // the local tensor it writes
  int output = -1;        // the program output the last statement writes
  std::string outputName; // its name
  int64_t outputBits = 0; // and the width of its type
  std::vector<int64_t> outputShape;
  std::vector<size_t> statements;
  std::vector<EpilogueOperand> operands;
  EpilogueOp expr;
};

/// True when `prog` looks like a contraction with an epilogue: several statements, each after
/// the first an `=` without reduction loops. recogniseEpilogue then says what else it needs.
bool hasEpilogueForm(const tc::Program& prog);

/// The epilogue of `prog`. Throws rubick::Error at the first construct outside the form
/// (Unsupported for what is in the form's spirit but not built yet, such as an operand that is a
/// row of a matrix, or '/'). Messages point into `file` when given.
Epilogue recogniseEpilogue(const tc::Program& prog,
                           std::shared_ptr<const SourceFile> file = nullptr);

/// The output's dimensions that index a vector operand, a bit each (b(j) of Y(i,j): bit 1): a
/// memory design keeps each of them as its output tile's rows or columns (dse/TileBox.h).
uint32_t indexDims(const Epilogue& e);

/// The output's dimensions along which a full operand is larger than the output (it is read at
/// an offset or is a part of a larger tensor), a bit each: the output's tiles never count them
/// as whole, so that the operand's tiles are boxes of the same rows and columns
/// (dse/TileBox.h).
uint32_t splitDims(const Epilogue& e);

/// The epilogue's value for accumulator value `acc` (as the contraction's tensor holds it) and
/// the operands' elements at the same place.
int64_t evaluateEpilogue(const EpilogueOp& e, int64_t acc, const std::vector<int64_t>& operands);

/// What the explorer's memory model needs of an epilogue on `memory`: the output's bytes per
/// element in memory, no partial sums leaving the chip, and the operands' loads before the first
/// tile (each latency + kLoadOverhead + its beats, one after the other).
MemorySystem withEpilogue(MemorySystem memory, const Epilogue& e);

/// The Verilog of an arithmetic node (neither a leaf, a wrap nor requant) on signed wires
/// `args` of `bits` bits (its arguments sign-extended to it); "" for the others, which the
/// emitter writes out.
std::string arithmeticVerilog(const EpilogueOp& e, const std::vector<std::string>& args,
                              int64_t bits);

/// The bits an arithmetic node's exact result needs (two's complement) when its arguments need
/// `argBits`; 0 for the other nodes. (The emitter caps it at 64, the reference model's width.)
int64_t arithmeticBits(const EpilogueOp& e, const std::vector<int64_t>& argBits);

/// "wrap8(requant8(max(acc + b, 0), m, 12))": the expression as the hardware computes it.
std::string toString(const EpilogueOp& e, const Epilogue& ep);

} // namespace rubick::dse
