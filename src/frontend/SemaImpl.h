// SPDX-License-Identifier: Apache-2.0
#pragma once
// The semantic analyser, private to src/frontend. One class walks a def in the order of the
// checks (src/frontend/Sema.cpp); its members live in one file per concern: Sema.cpp
// (declarations, sizes, statements, names), SemaIndex.cpp (affine index expressions and the
// reads of a statement), SemaRange.cpp (range inference and bounds checks), SemaValue.cpp (value
// trees and element types).

#include "rubick/frontend/Sema.h"

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace rubick::tc::detail {

struct Builtin {
  const char* name;
  size_t arity;
};
const Builtin* findBuiltin(const std::string& n);

/// The location of the leftmost token of an expression (binary nodes sit at their operator).
SourceLoc startLoc(const Expr& e);

/// Caret length of a name (at least 1).
uint32_t width(const std::string& s);

/// Ordered size symbols of a def with their first use: declared shapes, then names in `where`
/// bounds that are not indices of their statement.
std::vector<std::pair<std::string, SourceLoc>> sizeSymbols(const Def& d);

struct TensorState {
  bool shapeKnown = false;
  bool written = false;
  std::optional<ScalarType> declaredType;
};

/// What is known about one index's range while a statement is analysed.
struct Range {
  enum class Source { None, Where, Plain, Derived };
  Source source = Source::None;
  int64_t lo = 0, hi = 0;
  SourceLoc loc;
  std::string origin; // "dimension 0 of 'A' (size M)", "'where'", ...
  std::string symbol; // Plain: the size symbol of that dimension ("M"), kept for inferred shapes
  bool known() const { return source != Source::None; }
};

/// One def's analysis: run() checks it and returns the Program, or throws the first error.
class Sema {
public:
  Sema(const Module& m, const std::shared_ptr<const SourceFile>& f, const SemaOptions& o)
      : mod_(m), file_(f), opts_(o) {}
  Program run();

private:
  [[noreturn]] void fail(SourceLoc loc, uint32_t len, std::string msg,
                         std::vector<DiagNote> notes = {}) {
    Diagnostic diag;
    diag.loc = loc;
    diag.length = len;
    diag.message = std::move(msg);
    diag.notes = std::move(notes);
    throw Error(file_, std::move(diag));
  }

  const Def& pickDef();
  std::string defList() const;
  void declare(const Def& d);
  void bindSizes(const Def& d);
  int64_t dimValue(const DimDecl& dim);
  void addTensor(Tensor t, TensorState st);
  void materialiseDeclared(const Def& d);

  // ---- per statement -------------------------------------------------------------------------

  struct StmtCtx {
    const Stmt* stmt = nullptr;
    std::vector<std::string> vars;  // index names: LHS first, then first appearance
    std::vector<SourceLoc> varLocs; // first appearance
    std::vector<Range> ranges;      // per var
    int var(const std::string& n) const {
      for (size_t i = 0; i < vars.size(); ++i)
        if (vars[i] == n) return static_cast<int>(i);
      return -1;
    }
  };

  bool isSize(const std::string& n) const { return sizes_.count(n) != 0; }
  void addVar(StmtCtx& c, const std::string& n, SourceLoc loc);
  void statement(const Stmt& s, size_t number);
  static const Expr* valueUse(const Expr& e, const std::string& name);
  std::string lhsText(const Stmt& s) const;
  static std::string rankMessage(const Tensor& t, size_t given);
  int lhsTensor(const Stmt& s);
  void checkAccessNames(const Expr& e, StmtCtx& c, bool inIndex);

  // ---- affine index expressions ---------------------------------------------------------------
  [[noreturn]] void overflow(const Expr& e);
  AffineIndex affine(const Expr& e, const StmtCtx& c);
  static bool isConstant(const AffineIndex& a);
  AffineIndex scale(AffineIndex a, int64_t k, const Expr& e);
  void collectReads(const Expr& e, const StmtCtx& c, std::vector<Access>& reads,
                    std::vector<std::vector<SourceLoc>>& argLocs, std::vector<const Expr*>& exprs);
  void addRead(const Expr& e, const StmtCtx& c, std::vector<Access>& reads,
               std::vector<std::vector<SourceLoc>>& argLocs, std::vector<const Expr*>& exprs);

  // ---- ranges ---------------------------------------------------------------------------------
  int64_t constantValue(const Expr& e);
  std::string dimOrigin(const Tensor& t, size_t d) const;
  static std::string rangeText(const Range& r);
  void inferRanges(StmtCtx& c, int lhs, const Access& write, const std::vector<Access>& reads,
                   const std::vector<std::vector<SourceLoc>>& readArgLocs);
  std::pair<int64_t, int64_t> interval(const AffineIndex& a, const StmtCtx& c, int skip,
                                       const std::string& text, SourceLoc loc);
  Range solve(const AffineIndex& a, size_t v, int64_t dimSize, const StmtCtx& c, SourceLoc loc,
              const std::string& text);
  void checkBounds(const Access& a, const std::vector<SourceLoc>& locs, const StmtCtx& c);

  // ---- values ---------------------------------------------------------------------------------
  ScalarType inferType(const std::vector<Access>& reads, const Expr& rhs, AssignOp op);
  ScalarType widestType(const std::vector<Access>& reads, const Expr& rhs);
  static bool hasFloatLiteral(const Expr& e);
  Value value(const Expr& e, const StmtCtx& c, size_t& nextRead);

  const Module& mod_;
  std::shared_ptr<const SourceFile> file_;
  const SemaOptions& opts_;
  Program prog_;
  std::vector<TensorState> state_;
  std::map<std::string, int64_t> sizes_;
  std::map<std::string, SourceLoc> sizeLoc_;
  std::vector<std::string> sizeOrder_;
};

} // namespace rubick::tc::detail
