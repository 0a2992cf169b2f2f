// SPDX-License-Identifier: Apache-2.0
#pragma once
// Syntax tree of a TC program, exactly as written (no names resolved, no ranges inferred).
//
//   def gemm(int8(M,K) A, int8(K,N) B) -> (C) {
//       C(i,j) +=! A(i,k) * B(k,j)
//   }

#include "rubick/support/SourceFile.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace rubick::tc {

enum class ScalarType { Int8, Int16, Int32, Int64, Float16, Float32, Float64 };

/// Parses a TC type name ("int8", "float", "half", ...).
std::optional<ScalarType> parseScalarType(std::string_view name);
const char* toString(ScalarType t);
bool isInteger(ScalarType t);
int bitWidth(ScalarType t);

enum class AssignOp {
  Assign,
  PlusEq,
  PlusEqBang,
  StarEq,
  StarEqBang,
  MaxEq,
  MaxEqBang,
  MinEq,
  MinEqBang
};
const char* toString(AssignOp op);
/// True for every operator but `=`: the statement folds values into its left-hand side.
bool isReduction(AssignOp op);
/// True for the `!` forms: the left-hand side is first set to the operator's identity.
bool initialisesWithIdentity(AssignOp op);

struct Expr {
  enum class Kind {
    IntLit,   // intValue
    FloatLit, // floatValue, text keeps the spelling
    Name,     // name: an index, a size or (in value position) a scalar
    Access,   // name(args...): a tensor element
    Call,     // name(args...): a builtin function such as exp
    Neg,      // -args[0]
    Add,
    Sub,
    Mul,
    Div, // args[0] op args[1]
  };
  Kind kind = Kind::IntLit;
  SourceLoc loc;
  int64_t intValue = 0;
  double floatValue = 0;
  std::string text;
  std::string name;
  std::vector<Expr> args;
};

/// Name(args) is parsed as Access; sema turns it into Call when `name` is a builtin function.
struct Ident {
  std::string name;
  SourceLoc loc;
};

/// One dimension of a declared shape: a size symbol (`M`) or a literal (`16`).
struct DimDecl {
  std::string symbol; // empty when literal
  int64_t value = 0;
  SourceLoc loc;
};

struct TensorDecl {
  Ident name;
  std::optional<ScalarType> type; // outputs may omit the type
  SourceLoc typeLoc;
  std::optional<std::vector<DimDecl>> shape; // outputs may omit the shape
};

struct RangeDecl {
  Ident index;
  Expr lo, hi; // index in lo:hi (hi exclusive)
};

struct Stmt {
  Ident lhs;
  std::vector<Ident> lhsIndices;
  AssignOp op = AssignOp::Assign;
  SourceLoc opLoc;
  Expr rhs;
  std::vector<RangeDecl> where;
};

struct Def {
  Ident name;
  std::vector<TensorDecl> inputs;
  std::vector<TensorDecl> outputs;
  std::vector<Stmt> stmts;
};

/// A `# rubick: size M=64, N=32` comment: default sizes for the file.
struct SizeDefault {
  std::string name;
  int64_t value = 0;
  SourceLoc loc;
};

/// The fixed-point format of exp's argument (docs/attention-numerics.md): its value is
/// x / 2^expFrac. Set by `# rubick: fixed exp_frac=F`.
inline constexpr int kDefaultExpFrac = 12;
inline constexpr int kMaxExpFrac = 24;

struct Module {
  std::vector<Def> defs;
  std::vector<SizeDefault> sizeDefaults;
  std::optional<int> expFrac; // as written in a `# rubick: fixed` comment, if any
};

} // namespace rubick::tc
