// SPDX-License-Identifier: Apache-2.0
#pragma once
// A checked TC function: names resolved, sizes bound to numbers, index ranges inferred, every
// access proven in bounds. This is plain data; the poly layer turns it into isl objects.
//
//   def gemm(int8(M,K) A, int8(K,N) B) -> (C) { C(i,j) +=! A(i,k) * B(k,j) }   with M=N=K=4
//   => tensors A[4,4] B[4,4] C[4,4] (C: int8, inferred)
//      S0: loops i:0..4 j:0..4 k:0..4 (k reduction), write C[i,j], reads A[i,k] B[k,j]

#include "rubick/frontend/Ast.h"

#include <map>
#include <string>
#include <vector>

namespace rubick::tc {

enum class TensorRole { Input, Output, Local };
const char* toString(TensorRole r);

struct Tensor {
  std::string name;
  TensorRole role = TensorRole::Input;
  ScalarType type = ScalarType::Int32;
  bool typeInferred = false;
  std::vector<int64_t> shape;
  /// Per dimension the size symbol it was declared with ("M"), or "" for literals/inferred.
  std::vector<std::string> dimSymbols;
  SourceLoc loc;
  /// The number of elements (the product of the shape; 1 for a scalar).
  int64_t elements() const {
    int64_t n = 1;
    for (int64_t s : shape)
      n *= s;
    return n;
  }
};

/// coeffs[l] * loop_l + ... + constant, over the statement's loops.
struct AffineIndex {
  std::vector<int64_t> coeffs;
  int64_t constant = 0;
};

struct Access {
  int tensor = -1; // index into Program::tensors
  std::vector<AffineIndex> indices;
  SourceLoc loc;
  std::string text; // as written, for messages ("A(i + r, k)")
};

struct Loop {
  std::string name;
  int64_t lo = 0, hi = 0; // lo <= index < hi
  bool reduction = false; // not an index of the left-hand side
};

/// A value computed per iteration, with references resolved.
struct Value {
  enum class Kind { Int, Float, Read, Index, Neg, Add, Sub, Mul, Div, Call };
  Kind kind = Kind::Int;
  int64_t intValue = 0;
  double floatValue = 0;
  int ref = -1;     // Read: index into Statement::reads; Index: loop number
  std::string func; // Call: builtin name
  std::vector<Value> args;
  SourceLoc loc;
};

struct Statement {
  std::string name; // S0, S1, ... in program order
  std::string text; // the statement as written (normalised spacing)
  std::vector<Loop> loops;
  Access write;
  AssignOp op = AssignOp::Assign;
  std::vector<Access> reads; // in order of appearance on the right-hand side
  Value rhs;
  SourceLoc loc;
  /// True when the operator reads the old value of the left-hand side (+=, max=, ...).
  bool readsOutput() const { return isReduction(op) && !initialisesWithIdentity(op); }
};

struct Program {
  std::string name;
  std::vector<Tensor> tensors; // inputs, then outputs, then locals in order of definition
  std::vector<Statement> statements;
  /// Every size symbol with its bound value, in first-use order.
  std::vector<std::pair<std::string, int64_t>> sizes;
  /// exp's argument x stands for x / 2^expFrac (`# rubick: fixed exp_frac=F`).
  int expFrac = kDefaultExpFrac;

  int findTensor(const std::string& n) const;
};

} // namespace rubick::tc
