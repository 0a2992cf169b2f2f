// Semantic analysis of one TC def: Module (syntax) -> Program (checked plain data).
// The order of checks follows the file: declarations, sizes, then each statement in turn
// (names, affine indices, ranges, bounds, inferred shapes), so the first error reported is the
// first one a reader meets.

#include "rubick/frontend/Sema.h"

#include "rubick/frontend/Parser.h"
#include "rubick/frontend/Printer.h"
#include "rubick/support/Checked.h"

#include <algorithm>
#include <map>
#include <optional>
#include <set>

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

namespace {

struct Builtin {
  const char* name;
  size_t arity;
};
constexpr Builtin kBuiltins[] = {{"exp", 1}, {"max", 2}, {"min", 2}, {"abs", 1}};

const Builtin* findBuiltin(const std::string& n) {
  for (const Builtin& b : kBuiltins)
    if (n == b.name) return &b;
  return nullptr;
}

/// The location of the leftmost token of an expression (binary nodes sit at their operator).
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

/// Ordered size symbols of a def with their first use: declared shapes, then names in `where`
/// bounds that are not indices of their statement.
std::vector<std::pair<std::string, SourceLoc>> sizeSymbols(const Def& d);

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

class Sema {
public:
  Sema(const Module& m, const std::shared_ptr<const SourceFile>& f, const SemaOptions& o)
      : mod_(m), file_(f), opts_(o) {}

  Program run() {
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

  const Def& pickDef() {
    if (mod_.defs.empty()) throw Error(file_->name(), "the file defines no function");
    for (size_t i = 0; i < mod_.defs.size(); ++i)
      for (size_t j = 0; j < i; ++j)
        if (mod_.defs[i].name.name == mod_.defs[j].name.name)
          fail(mod_.defs[i].name.loc, width(mod_.defs[i].name.name),
               "function '" + mod_.defs[i].name.name + "' is defined twice",
               {{mod_.defs[j].name.loc, "first defined here"}});
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

  std::string defList() const {
    std::string s;
    for (const Def& d : mod_.defs)
      s += (s.empty() ? "" : ", ") + d.name.name;
    return s;
  }

  // Declarations: unique names, no tensor named like a size.
  void declare(const Def& d) {
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

  void bindSizes(const Def& d) {
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
        for (const auto& n : sizeOrder_)
          list += (list.empty() ? "" : ", ") + n;
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

  int64_t dimValue(const DimDecl& dim) {
    return dim.symbol.empty() ? dim.value : sizes_.at(dim.symbol);
  }

  void addTensor(Tensor t, TensorState st) {
    prog_.tensors.push_back(std::move(t));
    state_.push_back(st);
  }

  void materialiseDeclared(const Def& d) {
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

  void addVar(StmtCtx& c, const std::string& n, SourceLoc loc) {
    if (c.var(n) >= 0) return;
    c.vars.push_back(n);
    c.varLocs.push_back(loc);
  }

  void statement(const Stmt& s, size_t number) {
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
  static const Expr* valueUse(const Expr& e, const std::string& name) {
    if (e.kind == Expr::Kind::Name) return e.name == name ? &e : nullptr;
    for (const Expr& a : e.args)
      if (const Expr* u = valueUse(a, name)) return u;
    return nullptr;
  }

  std::string lhsText(const Stmt& s) const {
    std::string txt = s.lhs.name + "(";
    for (size_t i = 0; i < s.lhsIndices.size(); ++i)
      txt += (i ? "," : "") + s.lhsIndices[i].name;
    return txt + ")";
  }

  static std::string rankMessage(const Tensor& t, size_t given) {
    return "'" + t.name + "' has " + std::to_string(t.shape.size()) + " dimension" +
           (t.shape.size() == 1 ? "" : "s") + " but is indexed with " + std::to_string(given) +
           " ind" + (given == 1 ? "ex" : "ices");
  }

  int lhsTensor(const Stmt& s) {
    const std::string& n = s.lhs.name;
    if (isSize(n)) fail(s.lhs.loc, width(n), "'" + n + "' is a size, not a tensor");
    if (findBuiltin(n))
      fail(s.lhs.loc, width(n), "'" + n + "' is a builtin function, not a tensor");
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
  void checkAccessNames(const Expr& e, StmtCtx& c, bool inIndex) {
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

  // ---- affine index expressions ---------------------------------------------------------------

  [[noreturn]] void overflow(const Expr& e) {
    fail(startLoc(e), 1, "index expression '" + print(e) + "' overflows 64-bit integers");
  }

  AffineIndex affine(const Expr& e, const StmtCtx& c) {
    AffineIndex a;
    a.coeffs.assign(c.vars.size(), 0);
    switch (e.kind) {
    case Expr::Kind::IntLit:
      a.constant = e.intValue;
      return a;
    case Expr::Kind::FloatLit:
      fail(e.loc, width(e.text), "index expressions must be integers, found '" + e.text + "'");
    case Expr::Kind::Name:
      if (isSize(e.name)) {
        a.constant = sizes_.at(e.name);
      } else {
        a.coeffs[c.var(e.name)] = 1;
      }
      return a;
    case Expr::Kind::Neg:
      return scale(affine(e.args[0], c), -1, e);
    case Expr::Kind::Add:
    case Expr::Kind::Sub: {
      AffineIndex l = affine(e.args[0], c), r = affine(e.args[1], c);
      int64_t sign = e.kind == Expr::Kind::Add ? 1 : -1;
      for (size_t i = 0; i < l.coeffs.size(); ++i) {
        auto m = checkedMul(sign, r.coeffs[i]);
        auto v = m ? checkedAdd(l.coeffs[i], *m) : std::nullopt;
        if (!v) overflow(e);
        l.coeffs[i] = *v;
      }
      auto m = checkedMul(sign, r.constant);
      auto v = m ? checkedAdd(l.constant, *m) : std::nullopt;
      if (!v) overflow(e);
      l.constant = *v;
      return l;
    }
    case Expr::Kind::Mul: {
      AffineIndex l = affine(e.args[0], c), r = affine(e.args[1], c);
      bool lConst = isConstant(l), rConst = isConstant(r);
      if (!lConst && !rConst)
        fail(e.loc, 1,
             "non-affine index expression '" + print(e) +
                 "': indices may only be multiplied by constants");
      return lConst ? scale(r, l.constant, e) : scale(l, r.constant, e);
    }
    case Expr::Kind::Div:
      fail(e.loc, 1,
           "non-affine index expression '" + print(e) + "': division is not allowed in an index");
    case Expr::Kind::Access:
    case Expr::Kind::Call:
      break; // rejected by checkAccessNames
    }
    fail(e.loc, 1, "non-affine index expression '" + print(e) + "'");
  }

  static bool isConstant(const AffineIndex& a) {
    return std::all_of(a.coeffs.begin(), a.coeffs.end(), [](int64_t v) { return v == 0; });
  }

  AffineIndex scale(AffineIndex a, int64_t k, const Expr& e) {
    for (int64_t& v : a.coeffs) {
      auto r = checkedMul(v, k);
      if (!r) overflow(e);
      v = *r;
    }
    auto r = checkedMul(a.constant, k);
    if (!r) overflow(e);
    a.constant = *r;
    return a;
  }

  void collectReads(const Expr& e, const StmtCtx& c, std::vector<Access>& reads,
                    std::vector<std::vector<SourceLoc>>& argLocs, std::vector<const Expr*>& exprs) {
    if (e.kind == Expr::Kind::Access && !findBuiltin(e.name)) {
      addRead(e, c, reads, argLocs, exprs);
      return;
    }
    if (e.kind == Expr::Kind::Name && !isSize(e.name) && c.var(e.name) < 0) {
      int t = prog_.findTensor(e.name);
      if (t < 0) fail(e.loc, width(e.name), "unknown name '" + e.name + "'");
      if (state_[t].shapeKnown && !prog_.tensors[t].shape.empty())
        fail(e.loc, width(e.name), "'" + e.name + "' is a tensor; index it as " + e.name + "(...)");
      addRead(e, c, reads, argLocs, exprs);
      return;
    }
    for (const Expr& a : e.args)
      collectReads(a, c, reads, argLocs, exprs);
  }

  void addRead(const Expr& e, const StmtCtx& c, std::vector<Access>& reads,
               std::vector<std::vector<SourceLoc>>& argLocs, std::vector<const Expr*>& exprs) {
    int t = prog_.findTensor(e.name);
    const Tensor& tensor = prog_.tensors[t];
    if (!state_[t].written)
      fail(e.loc, width(e.name), "'" + e.name + "' is read before any statement writes it");
    if (tensor.shape.size() != e.args.size())
      fail(e.loc, width(e.name), rankMessage(tensor, e.args.size()));
    Access a;
    a.tensor = t;
    a.loc = e.loc;
    a.text = print(e);
    std::vector<SourceLoc> locs;
    for (const Expr& arg : e.args) {
      a.indices.push_back(affine(arg, c));
      locs.push_back(startLoc(arg));
    }
    reads.push_back(std::move(a));
    argLocs.push_back(std::move(locs));
    exprs.push_back(&e);
  }

  // ---- ranges ---------------------------------------------------------------------------------

  int64_t constantValue(const Expr& e) {
    switch (e.kind) {
    case Expr::Kind::IntLit:
      return e.intValue;
    case Expr::Kind::Name:
      if (isSize(e.name)) return sizes_.at(e.name);
      fail(e.loc, width(e.name),
           "range bounds may use sizes and integers only; '" + e.name +
               "' is an index (ranges that depend on other indices, as in triangular loops, "
               "are not supported)");
    case Expr::Kind::Neg: {
      auto v = checkedMul(-1, constantValue(e.args[0]));
      if (!v) overflow(e);
      return *v;
    }
    case Expr::Kind::Add:
    case Expr::Kind::Sub:
    case Expr::Kind::Mul:
    case Expr::Kind::Div: {
      int64_t l = constantValue(e.args[0]), r = constantValue(e.args[1]);
      std::optional<int64_t> v;
      if (e.kind == Expr::Kind::Add) v = checkedAdd(l, r);
      if (e.kind == Expr::Kind::Sub) v = checkedSub(l, r);
      if (e.kind == Expr::Kind::Mul) v = checkedMul(l, r);
      if (e.kind == Expr::Kind::Div) {
        if (r == 0) fail(e.loc, 1, "division by zero in a range bound");
        if (!(l == INT64_MIN && r == -1)) v = floorDiv(l, r);
      }
      if (!v) overflow(e);
      return *v;
    }
    case Expr::Kind::FloatLit:
      fail(e.loc, width(e.text), "range bounds must be integers, found '" + e.text + "'");
    case Expr::Kind::Access:
    case Expr::Kind::Call:
      break;
    }
    fail(e.loc, width(e.name), "range bounds may use sizes and integers only");
  }

  std::string dimOrigin(const Tensor& t, size_t d) const {
    std::string s = "dimension " + std::to_string(d) + " of '" + t.name + "'";
    if (d < t.dimSymbols.size() && !t.dimSymbols[d].empty()) s += " (size " + t.dimSymbols[d] + ")";
    return s;
  }

  static std::string rangeText(const Range& r) {
    return std::to_string(r.lo) + ":" + std::to_string(r.hi);
  }

  void inferRanges(StmtCtx& c, int lhs, const Access& write, const std::vector<Access>& reads,
                   const std::vector<std::vector<SourceLoc>>& readArgLocs) {
    c.ranges.assign(c.vars.size(), Range{});
    const Stmt& s = *c.stmt;
    for (const RangeDecl& r : s.where) {
      int v = c.var(r.index.name);
      Range nr;
      nr.source = Range::Source::Where;
      nr.lo = constantValue(r.lo);
      nr.hi = constantValue(r.hi);
      nr.loc = r.index.loc;
      nr.origin = "'where'";
      if (nr.lo < -kMaxSize || nr.hi > kMaxSize)
        fail(startLoc(r.lo), 1,
             "range " + r.index.name + " in " + rangeText(nr) + " is too large (limit " +
                 std::to_string(kMaxSize) + ")");
      if (nr.hi <= nr.lo)
        fail(startLoc(r.lo), 1, "empty range: " + r.index.name + " in " + rangeText(nr));
      Range& cur = c.ranges[v];
      if (cur.known() && (cur.lo != nr.lo || cur.hi != nr.hi))
        fail(r.index.loc, width(r.index.name),
             "conflicting ranges for index '" + r.index.name + "': " + rangeText(cur) + " and " +
                 rangeText(nr),
             {{cur.loc, "first range given here"}});
      cur = nr;
    }

    // Candidate constraints: every access whose tensor shape is known.
    struct Use {
      const Access* access;
      const std::vector<SourceLoc>* locs;
    };
    std::vector<Use> uses;
    std::vector<SourceLoc> lhsLocs;
    for (const Ident& i : s.lhsIndices)
      lhsLocs.push_back(i.loc);
    if (state_[lhs].shapeKnown) uses.push_back({&write, &lhsLocs});
    for (size_t r = 0; r < reads.size(); ++r)
      uses.push_back({&reads[r], &readArgLocs[r]});

    // Plain uses: the index alone in a dimension.
    for (const Use& u : uses) {
      const Tensor& t = prog_.tensors[u.access->tensor];
      for (size_t d = 0; d < u.access->indices.size(); ++d) {
        const AffineIndex& a = u.access->indices[d];
        int only = -1, nonzero = 0;
        for (size_t v = 0; v < a.coeffs.size(); ++v)
          if (a.coeffs[v] != 0) {
            ++nonzero;
            only = static_cast<int>(v);
          }
        if (nonzero != 1 || a.coeffs[only] != 1 || a.constant != 0) continue;
        Range& cur = c.ranges[only];
        if (cur.source == Range::Source::Where) continue;
        Range nr;
        nr.source = Range::Source::Plain;
        nr.lo = 0;
        nr.hi = t.shape[d];
        nr.loc = (*u.locs)[d];
        nr.origin = dimOrigin(t, d);
        nr.symbol = d < t.dimSymbols.size() ? t.dimSymbols[d] : "";
        if (cur.known() && cur.hi != nr.hi)
          fail(nr.loc, width(c.vars[only]),
               "conflicting ranges for index '" + c.vars[only] + "': " + rangeText(cur) + " from " +
                   cur.origin + ", but " + rangeText(nr) + " from " + nr.origin + "; add 'where " +
                   c.vars[only] + " in lo:hi' to choose",
               {{cur.loc, "first range inferred here"}});
        if (!cur.known()) cur = nr;
      }
    }

    // Derived uses: solve an index from an affine use once its partners' ranges are known.
    bool progress = true;
    while (progress) {
      progress = false;
      for (size_t v = 0; v < c.vars.size(); ++v) {
        if (c.ranges[v].known()) continue;
        std::optional<Range> acc;
        for (const Use& u : uses) {
          const Tensor& t = prog_.tensors[u.access->tensor];
          for (size_t d = 0; d < u.access->indices.size(); ++d) {
            const AffineIndex& a = u.access->indices[d];
            if (a.coeffs[v] == 0) continue;
            bool othersKnown = true;
            for (size_t w = 0; w < a.coeffs.size(); ++w)
              if (w != v && a.coeffs[w] != 0 && !c.ranges[w].known()) othersKnown = false;
            if (!othersKnown) continue;
            Range r = solve(a, v, t.shape[d], c, (*u.locs)[d], u.access->text);
            if (!acc) {
              acc = r;
            } else {
              acc->lo = std::max(acc->lo, r.lo);
              acc->hi = std::min(acc->hi, r.hi);
            }
          }
        }
        if (acc) {
          if (acc->hi <= acc->lo)
            fail(acc->loc, width(c.vars[v]),
                 "no range of index '" + c.vars[v] + "' keeps every access in bounds");
          c.ranges[v] = *acc;
          progress = true;
        }
      }
    }
    for (size_t v = 0; v < c.vars.size(); ++v) {
      const Range& r = c.ranges[v];
      if (!r.known())
        fail(c.varLocs[v], width(c.vars[v]),
             "cannot infer the range of index '" + c.vars[v] + "'; add 'where " + c.vars[v] +
                 " in lo:hi'");
      // Derived ranges can land far from any size (A(i - 100000000000)); keep every loop within
      // the limit that sizes obey.
      if (r.lo < -kMaxSize || r.hi > kMaxSize)
        fail(r.loc, 1,
             "the range of index '" + c.vars[v] + "' inferred from " + r.origin + ", " +
                 rangeText(r) + ", is too large (limit " + std::to_string(kMaxSize) + ")");
    }
  }

  // Interval of an affine index over the known ranges (every other index ranges over a box).
  std::pair<int64_t, int64_t> interval(const AffineIndex& a, const StmtCtx& c, int skip,
                                       const std::string& text, SourceLoc loc) {
    int64_t lo = a.constant, hi = a.constant;
    for (size_t w = 0; w < a.coeffs.size(); ++w) {
      if (static_cast<int>(w) == skip || a.coeffs[w] == 0) continue;
      const Range& r = c.ranges[w];
      auto x = checkedMul(a.coeffs[w], r.lo), y = checkedMul(a.coeffs[w], r.hi - 1);
      if (!x || !y) fail(loc, 1, "index expression in '" + text + "' overflows 64-bit integers");
      auto nl = checkedAdd(lo, std::min(*x, *y)), nh = checkedAdd(hi, std::max(*x, *y));
      if (!nl || !nh) fail(loc, 1, "index expression in '" + text + "' overflows 64-bit integers");
      lo = *nl;
      hi = *nh;
    }
    return {lo, hi};
  }

  Range solve(const AffineIndex& a, size_t v, int64_t dimSize, const StmtCtx& c, SourceLoc loc,
              const std::string& text) {
    auto [rmin, rmax] = interval(a, c, static_cast<int>(v), text, loc);
    // 0 <= coef*v + rest <= dimSize-1 for every rest in [rmin, rmax].
    auto L = checkedSub(0, rmin), U = checkedSub(dimSize - 1, rmax);
    if (!L || !U) fail(loc, 1, "index expression in '" + text + "' overflows 64-bit integers");
    int64_t k = a.coeffs[v];
    Range r;
    r.source = Range::Source::Derived;
    r.loc = loc;
    r.origin = "'" + text + "'";
    // Neither division can overflow (k != 0, and L, U > INT64_MIN); the +1 can.
    std::optional<int64_t> hi;
    if (k > 0) {
      r.lo = ceilDiv(*L, k);
      hi = checkedAdd(floorDiv(*U, k), 1);
    } else {
      r.lo = ceilDiv(*U, k);
      hi = checkedAdd(floorDiv(*L, k), 1);
    }
    if (!hi) fail(loc, 1, "index expression in '" + text + "' overflows 64-bit integers");
    r.hi = *hi;
    return r;
  }

  void checkBounds(const Access& a, const std::vector<SourceLoc>& locs, const StmtCtx& c) {
    const Tensor& t = prog_.tensors[a.tensor];
    for (size_t d = 0; d < a.indices.size(); ++d) {
      auto [lo, hi] = interval(a.indices[d], c, -1, a.text, locs[d]);
      if (lo < 0 || hi >= t.shape[d])
        fail(locs[d], 1,
             "'" + a.text + "' is out of bounds: it indexes " + dimOrigin(t, d) + " with " +
                 std::to_string(lo) + ".." + std::to_string(hi) +
                 ", but the valid indices are 0.." + std::to_string(t.shape[d] - 1));
    }
  }

  // ---- values ---------------------------------------------------------------------------------

  // Undeclared types: an integer sum or product reduction gets int32 (an int8 GEMM's result
  // does not fit int8); anything else takes the widest type it reads, as in TC.
  ScalarType inferType(const std::vector<Access>& reads, const Expr& rhs, AssignOp op) {
    ScalarType t = widestType(reads, rhs);
    bool accumulates = op == AssignOp::PlusEq || op == AssignOp::PlusEqBang ||
                       op == AssignOp::StarEq || op == AssignOp::StarEqBang;
    if (accumulates && isInteger(t) && bitWidth(t) < 32) return ScalarType::Int32;
    return t;
  }

  ScalarType widestType(const std::vector<Access>& reads, const Expr& rhs) {
    std::optional<ScalarType> best;
    auto rank = [](ScalarType t) {
      // Floats above integers; within a family, wider above narrower.
      return (isInteger(t) ? 0 : 100) + bitWidth(t);
    };
    for (const Access& a : reads) {
      ScalarType t = prog_.tensors[a.tensor].type;
      if (!best || rank(t) > rank(*best)) best = t;
    }
    if (best) return *best;
    return hasFloatLiteral(rhs) ? ScalarType::Float32 : ScalarType::Int32;
  }

  static bool hasFloatLiteral(const Expr& e) {
    if (e.kind == Expr::Kind::FloatLit) return true;
    return std::any_of(e.args.begin(), e.args.end(), hasFloatLiteral);
  }

  Value value(const Expr& e, const StmtCtx& c, size_t& nextRead) {
    Value v;
    v.loc = e.loc;
    switch (e.kind) {
    case Expr::Kind::IntLit:
      v.kind = Value::Kind::Int;
      v.intValue = e.intValue;
      return v;
    case Expr::Kind::FloatLit:
      v.kind = Value::Kind::Float;
      v.floatValue = e.floatValue;
      return v;
    case Expr::Kind::Name:
      if (int var = c.var(e.name); var >= 0) {
        v.kind = Value::Kind::Index;
        v.ref = var;
      } else if (isSize(e.name)) {
        v.kind = Value::Kind::Int;
        v.intValue = sizes_.at(e.name);
      } else {
        v.kind = Value::Kind::Read;
        v.ref = static_cast<int>(nextRead++);
      }
      return v;
    case Expr::Kind::Access:
    case Expr::Kind::Call:
      if (findBuiltin(e.name)) {
        v.kind = Value::Kind::Call;
        v.func = e.name;
        for (const Expr& a : e.args)
          v.args.push_back(value(a, c, nextRead));
      } else {
        v.kind = Value::Kind::Read;
        v.ref = static_cast<int>(nextRead++);
      }
      return v;
    case Expr::Kind::Neg:
      v.kind = Value::Kind::Neg;
      break;
    case Expr::Kind::Add:
      v.kind = Value::Kind::Add;
      break;
    case Expr::Kind::Sub:
      v.kind = Value::Kind::Sub;
      break;
    case Expr::Kind::Mul:
      v.kind = Value::Kind::Mul;
      break;
    case Expr::Kind::Div:
      v.kind = Value::Kind::Div;
      break;
    }
    for (const Expr& a : e.args)
      v.args.push_back(value(a, c, nextRead));
    return v;
  }

  const Module& mod_;
  std::shared_ptr<const SourceFile> file_;
  const SemaOptions& opts_;
  Program prog_;
  std::vector<TensorState> state_;
  std::map<std::string, int64_t> sizes_;
  std::map<std::string, SourceLoc> sizeLoc_;
  std::vector<std::string> sizeOrder_;
};

} // namespace

Program analyze(const Module& module, const std::shared_ptr<const SourceFile>& file,
                const SemaOptions& options) {
  return Sema(module, file, options).run();
}

Program loadProgram(const std::string& path, const SemaOptions& options) {
  auto file = std::make_shared<const SourceFile>(readSourceFile(path));
  Module m = parse(file);
  return analyze(m, file, options);
}

} // namespace rubick::tc
