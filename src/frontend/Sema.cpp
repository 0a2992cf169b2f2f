// SPDX-License-Identifier: Apache-2.0
// Semantic analysis of one TC def: Module (syntax) -> Program (checked plain data).
// The order of checks follows the def: declarations, sizes, then each statement in turn
// (names, affine indices, ranges, bounds, inferred shapes), so the first error reported is the
// first one a reader meets. This file holds the walk, declarations, sizes and names; the
// other concerns are in SemaIndex.cpp, SemaRange.cpp and SemaValue.cpp (src/frontend/SemaImpl.h).

#include "SemaImpl.h"

#include "rubick/frontend/Parser.h"
#include "rubick/frontend/Printer.h"

#include <algorithm>
#include <map>
#include <set>
#include <string_view>

namespace rubick::tc {

const char* toString(TensorRole r) {
  switch (r) {
  case TensorRole::Input:
    return "input";
  case TensorRole::Output:
    return "output";
  case TensorRole::Local:
    return "local";
  }
  return "?";
}

int Program::findTensor(const std::string& n) const {
  for (size_t i = 0; i < tensors.size(); ++i)
    if (tensors[i].name == n) return static_cast<int>(i);
  return -1;
}

namespace detail {
namespace {

void collectNames(const Expr& e, std::vector<const Expr*>& out) {
  if (e.kind == Expr::Kind::Name) out.push_back(&e);
  for (const Expr& a : e.args)
    collectNames(a, out);
}

// Names that sit in an index position of some tensor access in `e` (anything under a non-builtin
// call). Builtin calls pass through: their arguments are values.
void collectIndexNames(const Expr& e, std::vector<const Expr*>& out) {
  if (e.kind == Expr::Kind::Access && !findBuiltin(e.name)) {
    for (const Expr& a : e.args)
      collectNames(a, out);
    return;
  }
  for (const Expr& a : e.args)
    collectIndexNames(a, out);
}

} // namespace

constexpr Builtin kBuiltins[] = {{"exp", 1}, {"max", 2}, {"min", 2}, {"abs", 1}, {"requant", 3}};

const Builtin* findBuiltin(const std::string& n) {
  for (const Builtin& b : kBuiltins)
    if (n == b.name) return &b;
  return nullptr;
}

SourceLoc startLoc(const Expr& e) {
  switch (e.kind) {
  case Expr::Kind::Add:
  case Expr::Kind::Sub:
  case Expr::Kind::Mul:
  case Expr::Kind::Div:
    return startLoc(e.args[0]);
  default:
    return e.loc;
  }
}

uint32_t width(const std::string& s) {
  return s.empty() ? 1 : static_cast<uint32_t>(s.size());
}

std::vector<std::pair<std::string, SourceLoc>> sizeSymbols(const Def& d) {
  std::vector<std::pair<std::string, SourceLoc>> out;
  auto add = [&](const std::string& n, SourceLoc loc) {
    for (auto& p : out)
      if (p.first == n) return;
    out.emplace_back(n, loc);
  };
  for (const auto* list : {&d.inputs, &d.outputs})
    for (const TensorDecl& t : *list)
      if (t.shape)
        for (const DimDecl& dim : *t.shape)
          if (!dim.symbol.empty()) add(dim.symbol, dim.loc);
  for (const Stmt& s : d.stmts) {
    std::set<std::string> indices;
    for (const Ident& i : s.lhsIndices)
      indices.insert(i.name);
    std::vector<const Expr*> idx;
    collectIndexNames(s.rhs, idx);
    for (const Expr* e : idx)
      indices.insert(e->name);
    for (const RangeDecl& r : s.where)
      indices.insert(r.index.name);
    for (const RangeDecl& r : s.where) {
      std::vector<const Expr*> names;
      collectNames(r.lo, names);
      collectNames(r.hi, names);
      for (const Expr* n : names)
        if (!indices.count(n->name)) add(n->name, n->loc);
    }
  }
  return out;
}

Program Sema::run() {
  const Def& d = pickDef();
  prog_.name = d.name.name;
  prog_.expFrac = mod_.expFrac.value_or(kDefaultExpFrac);
  declare(d);
  bindSizes(d);
  materialiseDeclared(d);
  if (d.outputs.empty())
    fail(d.name.loc, width(d.name.name),
         "'" + d.name.name + "' has no outputs; list its results after '->', as in -> (C)");
  if (d.stmts.empty())
    fail(d.name.loc, width(d.name.name), "'" + d.name.name + "' has no statements");
  for (size_t i = 0; i < d.stmts.size(); ++i)
    statement(d.stmts[i], i);
  for (size_t t = 0; t < prog_.tensors.size(); ++t)
    if (prog_.tensors[t].role == TensorRole::Output && !state_[t].written)
      fail(prog_.tensors[t].loc, width(prog_.tensors[t].name),
           "output '" + prog_.tensors[t].name + "' is never written");
  return std::move(prog_);
}

const Def& Sema::pickDef() {
  if (mod_.defs.empty()) throw Error(file_->name(), "the file defines no function");
  // A map, not a pairwise scan: a 16 MiB file can hold a million tiny defs.
  std::map<std::string_view, size_t> first;
  for (size_t i = 0; i < mod_.defs.size(); ++i) {
    auto [it, fresh] = first.emplace(mod_.defs[i].name.name, i);
    if (!fresh)
      fail(mod_.defs[i].name.loc, width(mod_.defs[i].name.name),
           "function '" + mod_.defs[i].name.name + "' is defined twice",
           {{mod_.defs[it->second].name.loc, "first defined here"}});
  }
  if (!opts_.defName.empty()) {
    for (const Def& d : mod_.defs)
      if (d.name.name == opts_.defName) return d;
    throw Error("--def", "'" + file_->name() + "' defines no function named '" + opts_.defName +
                             "' (it defines: " + defList() + ")");
  }
  if (mod_.defs.size() > 1)
    throw Error(file_->name(), "the file defines " + std::to_string(mod_.defs.size()) +
                                   " functions (" + defList() + "); choose one with --def NAME");
  return mod_.defs.front();
}

std::string Sema::defList() const {
  // The first few names are enough to see the choice; the message stays short for any file.
  constexpr size_t kListed = 8;
  std::string s;
  for (size_t i = 0; i < mod_.defs.size() && i < kListed; ++i)
    s += (s.empty() ? "" : ", ") + mod_.defs[i].name.name;
  if (mod_.defs.size() > kListed)
    s += ", ... (" + std::to_string(mod_.defs.size() - kListed) + " more)";
  return s;
}

// Declarations: unique names, no tensor named like a size.
void Sema::declare(const Def& d) {
  std::map<std::string, SourceLoc> seen;
  for (const auto* list : {&d.inputs, &d.outputs}) {
    for (const TensorDecl& t : *list) {
      auto [it, fresh] = seen.emplace(t.name.name, t.name.loc);
      if (!fresh)
        fail(t.name.loc, width(t.name.name), "'" + t.name.name + "' is declared twice",
             {{it->second, "first declared here"}});
      if (findBuiltin(t.name.name))
        fail(t.name.loc, width(t.name.name),
             "'" + t.name.name + "' is a builtin function and cannot name a tensor");
      if (t.shape)
        for (const DimDecl& dim : *t.shape) {
          if (!dim.symbol.empty()) continue;
          uint32_t len = width(std::to_string(dim.value));
          if (dim.value <= 0)
            fail(dim.loc, len,
                 "dimension size must be positive, found " + std::to_string(dim.value));
          if (dim.value > kMaxSize)
            fail(dim.loc, len,
                 "dimension size " + std::to_string(dim.value) + " is too large (limit " +
                     std::to_string(kMaxSize) + ")");
        }
    }
  }
  for (const auto& [name, loc] : sizeSymbols(d)) {
    auto it = seen.find(name);
    if (it != seen.end())
      fail(loc, width(name), "'" + name + "' is used both as a size and as a tensor name",
           {{it->second, "tensor declared here"}});
    sizeLoc_[name] = loc;
    sizeOrder_.push_back(name);
  }
}

void Sema::bindSizes(const Def& d) {
  std::set<std::string> anyDefSizes;
  for (const Def& other : mod_.defs)
    for (const auto& p : sizeSymbols(other))
      anyDefSizes.insert(p.first);
  for (const SizeDefault& s : mod_.sizeDefaults) {
    if (!anyDefSizes.count(s.name))
      fail(s.loc, width(s.name),
           "size '" + s.name + "' appears in no tensor shape or range bound of this file");
    if (s.value > kMaxSize)
      fail(s.loc, width(s.name),
           "size " + s.name + "=" + std::to_string(s.value) + " is too large (limit " +
               std::to_string(kMaxSize) + ")");
    if (sizeLoc_.count(s.name)) sizes_[s.name] = s.value;
  }
  for (const SizeDefault& s : opts_.sizes) {
    if (!sizeLoc_.count(s.name)) {
      std::string list;
      for (size_t i = 0; i < sizeOrder_.size() && i < 8; ++i)
        list += (list.empty() ? "" : ", ") + sizeOrder_[i];
      if (sizeOrder_.size() > 8)
        list += ", ... (" + std::to_string(sizeOrder_.size() - 8) + " more)";
      throw Error("--size", "'" + s.name + "' is not a size of '" + d.name.name + "' (" +
                                (list.empty() ? "it has no sizes" : "its sizes: " + list) + ")");
    }
    if (s.value <= 0 || s.value > kMaxSize)
      throw Error("--size", "size " + s.name + "=" + std::to_string(s.value) +
                                " is out of range (1.." + std::to_string(kMaxSize) + ")");
    sizes_[s.name] = s.value;
  }
  for (const std::string& n : sizeOrder_) {
    auto it = sizes_.find(n);
    if (it == sizes_.end())
      fail(sizeLoc_[n], width(n),
           "size '" + n + "' has no value; bind it with --size " + n +
               "=<n> or a '# rubick: size " + n + "=<n>' comment");
    prog_.sizes.emplace_back(n, it->second);
  }
}

int64_t Sema::dimValue(const DimDecl& dim) {
  return dim.symbol.empty() ? dim.value : sizes_.at(dim.symbol);
}

void Sema::addTensor(Tensor t, TensorState st) {
  prog_.tensors.push_back(std::move(t));
  state_.push_back(st);
}

void Sema::materialiseDeclared(const Def& d) {
  for (const TensorDecl& decl : d.inputs) {
    Tensor t;
    t.name = decl.name.name;
    t.role = TensorRole::Input;
    t.type = *decl.type;
    t.loc = decl.name.loc;
    for (const DimDecl& dim : *decl.shape) {
      t.shape.push_back(dimValue(dim));
      t.dimSymbols.push_back(dim.symbol);
    }
    addTensor(std::move(t), TensorState{true, true, decl.type});
  }
  for (const TensorDecl& decl : d.outputs) {
    Tensor t;
    t.name = decl.name.name;
    t.role = TensorRole::Output;
    t.loc = decl.name.loc;
    TensorState st;
    st.declaredType = decl.type;
    if (decl.shape) {
      st.shapeKnown = true;
      for (const DimDecl& dim : *decl.shape) {
        t.shape.push_back(dimValue(dim));
        t.dimSymbols.push_back(dim.symbol);
      }
    }
    addTensor(std::move(t), st);
  }
}

void Sema::addVar(StmtCtx& c, const std::string& n, SourceLoc loc) {
  if (c.var(n) >= 0) return;
  c.vars.push_back(n);
  c.varLocs.push_back(loc);
}

void Sema::statement(const Stmt& s, size_t number) {
  StmtCtx c;
  c.stmt = &s;
  int lhs = lhsTensor(s);
  // Index names: left-hand side, then index positions on the right, then `where`.
  for (const Ident& i : s.lhsIndices) {
    if (isSize(i.name))
      fail(i.loc, width(i.name),
           "'" + i.name + "' is a size; left-hand side indices must be index names");
    if (prog_.findTensor(i.name) >= 0)
      fail(i.loc, width(i.name),
           "'" + i.name + "' is a tensor; left-hand side indices must be index names");
    if (c.var(i.name) >= 0)
      fail(i.loc, width(i.name), "index '" + i.name + "' appears twice on the left-hand side");
    addVar(c, i.name, i.loc);
  }
  checkAccessNames(s.rhs, c, /*inIndex=*/false);
  for (const RangeDecl& r : s.where) {
    if (isSize(r.index.name))
      fail(r.index.loc, width(r.index.name), "'" + r.index.name + "' is a size, not an index");
    if (c.var(r.index.name) >= 0) continue;
    // An index may appear only as a value (C(i) +=! j where j in 0:4): the range names it.
    if (const Expr* use = valueUse(s.rhs, r.index.name);
        use && prog_.findTensor(r.index.name) < 0) {
      addVar(c, r.index.name, use->loc);
      continue;
    }
    fail(r.index.loc, width(r.index.name),
         "'where' names index '" + r.index.name + "', which this statement does not use");
  }
  std::vector<AffineIndex> lhsIdx;
  Access write;
  write.tensor = lhs;
  write.loc = s.lhs.loc;
  write.text = lhsText(s);
  {
    const Tensor& t = prog_.tensors[lhs];
    bool rankKnown = state_[lhs].shapeKnown;
    if (rankKnown && t.shape.size() != s.lhsIndices.size())
      fail(s.lhs.loc, width(s.lhs.name), rankMessage(t, s.lhsIndices.size()));
    for (const Ident& i : s.lhsIndices) {
      AffineIndex a;
      a.coeffs.assign(c.vars.size(), 0);
      a.coeffs[c.var(i.name)] = 1;
      write.indices.push_back(a);
    }
  }
  if (s.op != AssignOp::Assign && !initialisesWithIdentity(s.op) && !state_[lhs].written)
    fail(s.opLoc, width(toString(s.op)),
         "'" + s.lhs.name + "' is updated with '" + toString(s.op) +
             "' before any statement writes it; use '" + toString(s.op) +
             "!' to start from the operator's identity");
  // Reduction: indices only on the right need a reduction operator.
  for (size_t v = s.lhsIndices.size(); v < c.vars.size(); ++v)
    if (s.op == AssignOp::Assign)
      fail(c.varLocs[v], width(c.vars[v]),
           "index '" + c.vars[v] +
               "' is not on the left-hand side, so the statement reduces over it; "
               "use a reduction operator such as +=!",
           {{s.opLoc, "the operator is '='"}});

  // Affine reads, with their argument locations for messages.
  std::vector<Access> reads;
  std::vector<std::vector<SourceLoc>> readArgLocs;
  std::vector<const Expr*> readExprs;
  collectReads(s.rhs, c, reads, readArgLocs, readExprs);

  inferRanges(c, lhs, write, reads, readArgLocs);

  // Bounds of reads (their tensors all have known shapes).
  for (size_t r = 0; r < reads.size(); ++r)
    checkBounds(reads[r], readArgLocs[r], c);

  // The written tensor: shape from the written ranges if not yet known, else a bounds check.
  std::vector<SourceLoc> lhsLocs;
  for (const Ident& i : s.lhsIndices)
    lhsLocs.push_back(i.loc);
  Tensor& t = prog_.tensors[lhs];
  if (!state_[lhs].shapeKnown) {
    t.shape.clear();
    t.dimSymbols.clear();
    for (size_t d = 0; d < s.lhsIndices.size(); ++d) {
      const Range& r = c.ranges[c.var(s.lhsIndices[d].name)];
      if (r.lo < 0)
        fail(s.lhsIndices[d].loc, width(s.lhsIndices[d].name),
             "index '" + s.lhsIndices[d].name + "' starts at " + std::to_string(r.lo) + ", so '" +
                 t.name + "' would be written at a negative position");
      t.shape.push_back(r.hi);
      t.dimSymbols.push_back(r.symbol);
    }
    state_[lhs].shapeKnown = true;
  } else {
    checkBounds(write, lhsLocs, c);
  }
  if (!state_[lhs].written && !state_[lhs].declaredType) {
    t.type = inferType(reads, s.rhs, s.op);
    t.typeInferred = true;
  } else if (state_[lhs].declaredType) {
    t.type = *state_[lhs].declaredType;
  }

  Statement out;
  out.name = "S" + std::to_string(number);
  out.text = print(s);
  out.loc = s.lhs.loc;
  out.op = s.op;
  for (size_t v = 0; v < c.vars.size(); ++v) {
    Loop l;
    l.name = c.vars[v];
    l.lo = c.ranges[v].lo;
    l.hi = c.ranges[v].hi;
    l.reduction = v >= s.lhsIndices.size();
    out.loops.push_back(l);
  }
  out.write = std::move(write);
  size_t nextRead = 0;
  out.rhs = value(s.rhs, c, nextRead);
  out.reads = std::move(reads);
  state_[lhs].written = true;
  prog_.statements.push_back(std::move(out));
}

// The first plain use of `name` in value position, if any.
const Expr* Sema::valueUse(const Expr& e, const std::string& name) {
  if (e.kind == Expr::Kind::Name) return e.name == name ? &e : nullptr;
  for (const Expr& a : e.args)
    if (const Expr* u = valueUse(a, name)) return u;
  return nullptr;
}

std::string Sema::lhsText(const Stmt& s) const {
  std::string txt = s.lhs.name + "(";
  for (size_t i = 0; i < s.lhsIndices.size(); ++i)
    txt += (i ? "," : "") + s.lhsIndices[i].name;
  return txt + ")";
}

std::string Sema::rankMessage(const Tensor& t, size_t given) {
  return "'" + t.name + "' has " + std::to_string(t.shape.size()) + " dimension" +
         (t.shape.size() == 1 ? "" : "s") + " but is indexed with " + std::to_string(given) +
         " ind" + (given == 1 ? "ex" : "ices");
}

int Sema::lhsTensor(const Stmt& s) {
  const std::string& n = s.lhs.name;
  if (isSize(n)) fail(s.lhs.loc, width(n), "'" + n + "' is a size, not a tensor");
  if (findBuiltin(n)) fail(s.lhs.loc, width(n), "'" + n + "' is a builtin function, not a tensor");
  int t = prog_.findTensor(n);
  if (t >= 0 && prog_.tensors[t].role == TensorRole::Input)
    fail(s.lhs.loc, width(n), "cannot assign to input '" + n + "'",
         {{prog_.tensors[t].loc, "declared as an input here"}});
  if (t < 0) {
    Tensor local;
    local.name = n;
    local.role = TensorRole::Local;
    local.loc = s.lhs.loc;
    addTensor(std::move(local), TensorState{});
    t = static_cast<int>(prog_.tensors.size()) - 1;
  }
  return t;
}

// Resolves tensor/function names and registers index names used in index positions.
void Sema::checkAccessNames(const Expr& e, StmtCtx& c, bool inIndex) {
  switch (e.kind) {
  case Expr::Kind::Access: {
    if (const Builtin* b = findBuiltin(e.name)) {
      if (inIndex)
        fail(e.loc, width(e.name),
             "non-affine index expression: call to '" + e.name + "' inside an index");
      if (e.args.size() != b->arity)
        fail(e.loc, width(e.name),
             "'" + e.name + "' takes " + std::to_string(b->arity) + " argument" +
                 (b->arity == 1 ? "" : "s") + ", given " + std::to_string(e.args.size()));
      // requant(x, m, s): the shift is part of the arithmetic's definition, a constant.
      if (e.name == "requant" && (e.args[2].kind != Expr::Kind::IntLit || e.args[2].intValue < 0 ||
                                  e.args[2].intValue > 31))
        fail(e.args[2].loc, 1,
             "the shift of 'requant' (its third argument) must be an integer literal 0..31");
      for (const Expr& a : e.args)
        checkAccessNames(a, c, false);
      return;
    }
    int t = prog_.findTensor(e.name);
    if (inIndex)
      fail(e.loc, width(e.name),
           t >= 0 ? "non-affine index expression: tensor '" + e.name +
                        "' used inside an index (indirect access is not supported)"
                  : "non-affine index expression: call to unknown function '" + e.name +
                        "' inside an index");
    if (t < 0) {
      if (isSize(e.name)) fail(e.loc, width(e.name), "'" + e.name + "' is a size, not a tensor");
      fail(e.loc, width(e.name), "unknown tensor or function '" + e.name + "'");
    }
    for (const Expr& a : e.args)
      checkAccessNames(a, c, true);
    return;
  }
  case Expr::Kind::Name:
    if (inIndex) {
      if (isSize(e.name)) return;
      int t = prog_.findTensor(e.name);
      if (t >= 0)
        fail(e.loc, width(e.name),
             "non-affine index expression: tensor '" + e.name +
                 "' used inside an index (indirect access is not supported)");
      addVar(c, e.name, e.loc);
    }
    return;
  default:
    for (const Expr& a : e.args)
      checkAccessNames(a, c, inIndex);
  }
}

} // namespace detail

Program analyze(const Module& module, const std::shared_ptr<const SourceFile>& file,
                const SemaOptions& options) {
  return detail::Sema(module, file, options).run();
}

Program loadProgram(const std::string& path, const SemaOptions& options) {
  auto file = std::make_shared<const SourceFile>(readSourceFile(path));
  Module m = parse(file);
  return analyze(m, file, options);
}

} // namespace rubick::tc
