// SPDX-License-Identifier: Apache-2.0
// Structural matching of the six attention statements (see AttentionForm.h).

#include "rubick/attn/AttentionForm.h"

#include "rubick/support/Diagnostic.h"

#include <optional>
#include <vector>

namespace rubick::attn {
namespace {

using tc::Access;
using tc::AssignOp;
using tc::Program;
using tc::Statement;
using tc::Value;

const char* const kForm =
    "multi-statement programs map as a whole only in the attention form of "
    "docs/attention.md (explore also takes other chains with a memory system, "
    "--mem-bandwidth: docs/fusion.md); --stmt S0 (or the written tensor's name) works on one "
    "statement alone";

class Matcher {
public:
  Matcher(const Program& p, const std::shared_ptr<const SourceFile>& f, bool hint = true)
      : prog_(p), file_(f), hint_(hint) {}

  AttentionForm run() {
    if (prog_.statements.size() != 6)
      throw Error(file_ ? file_->name() : prog_.name,
                  "'" + prog_.name + "' has " + std::to_string(prog_.statements.size()) +
                      " statements" + (hint_ ? std::string("; ") + kForm : ""));
    AttentionForm f;
    const Statement& s0 = prog_.statements[0];
    // Heads: a leading loop of the score statement that indexes every tensor first.
    heads_ = s0.loops.size() == 4 ? 1 : 0;
    f.multiHead = heads_ == 1;
    // S0: Sc(h?, i, j) +=! Q(., .) * K(., .) with loops (h?) i j d.
    expect(s0,
           s0.op == AssignOp::PlusEqBang && s0.loops.size() == size_t(3 + heads_) &&
               isProduct(s0.rhs),
           "a score product 'Sc(i, j) +=! Q(i, d) * K(j, d)'");
    const size_t i = heads_, j = heads_ + 1, d = heads_ + 2;
    expect(s0, isOut(s0.write, {i, j}), "the scores written as Sc(i, j)");
    int qa = matchPair(s0, s0.reads[0], i, d) ? 0 : matchPair(s0, s0.reads[1], i, d) ? 1 : -1;
    expect(s0, qa >= 0 && matchPair(s0, s0.reads[1 - qa], j, d),
           "queries indexed by (i, d) and keys by (j, d) or (d, j)");
    f.scores = s0.write.tensor;
    f.q = s0.reads[qa].tensor;
    f.k = s0.reads[1 - qa].tensor;
    f.l = extent(s0, i);
    f.s = extent(s0, j);
    f.d = extent(s0, d);
    if (heads_) f.heads = extent(s0, 0);

    // S1: mx(i) max=! Sc(i, j).
    const Statement& s1 = prog_.statements[1];
    expect(s1,
           s1.op == AssignOp::MaxEqBang && loops(s1, 2) && isOut(s1.write, {i}) &&
               isRead(s1, s1.rhs, f.scores, {i, j}),
           "the row maximum 'mx(i) max=! Sc(i, j)' of the scores");
    f.max = s1.write.tensor;

    // S2: E(i, j) = exp(Sc(i, j) - mx(i)).
    const Statement& s2 = prog_.statements[2];
    const Value& call = s2.rhs;
    bool ok2 = s2.op == AssignOp::Assign && loops(s2, 2) && isOut(s2.write, {i, j}) &&
               call.kind == Value::Kind::Call && call.func == "exp" && call.args.size() == 1 &&
               call.args[0].kind == Value::Kind::Sub &&
               isRead(s2, call.args[0].args[0], f.scores, {i, j}) &&
               isRead(s2, call.args[0].args[1], f.max, {i});
    expect(s2, ok2, "the exponentials 'E(i, j) = exp(Sc(i, j) - mx(i))'");
    f.e = s2.write.tensor;

    // S3: sm(i) +=! E(i, j).
    const Statement& s3 = prog_.statements[3];
    expect(s3,
           s3.op == AssignOp::PlusEqBang && loops(s3, 2) && isOut(s3.write, {i}) &&
               isRead(s3, s3.rhs, f.e, {i, j}),
           "the row sum 'sm(i) +=! E(i, j)' of the exponentials");
    f.sum = s3.write.tensor;

    // S4: U(i, e) +=! E(i, j) * V(j, e), loops (h?) i e j.
    const Statement& s4 = prog_.statements[4];
    bool ok4 = s4.op == AssignOp::PlusEqBang && s4.loops.size() == size_t(3 + heads_) &&
               isProduct(s4.rhs) && isOut(s4.write, {i, j});
    int ea = -1;
    if (ok4) {
      // In S4 the loops are (h?) i e j: the write's second index is e (loop j's slot here).
      ea = isRead(s4, s4.rhs.args[0], f.e, {i, d})   ? 0
           : isRead(s4, s4.rhs.args[1], f.e, {i, d}) ? 1
                                                     : -1;
      ok4 = ea >= 0 && matchPair(s4, s4.reads[s4.rhs.args[1 - ea].ref], d, j);
    }
    expect(s4, ok4, "the weighted values 'U(i, e) +=! E(i, j) * V(j, e)'");
    f.u = s4.write.tensor;
    f.v = s4.reads[s4.rhs.args[1 - ea].ref].tensor;
    f.dv = extent(s4, j);
    expect(s4, extent(s4, d) == f.s, "the exponentials' key dimension to match the scores'");

    // S5: O(i, e) = U(i, e) / sm(i).
    const Statement& s5 = prog_.statements[5];
    const Value& div = s5.rhs;
    bool ok5 = s5.op == AssignOp::Assign && loops(s5, 2) && isOut(s5.write, {i, j}) &&
               div.kind == Value::Kind::Div && isRead(s5, div.args[0], f.u, {i, j}) &&
               isRead(s5, div.args[1], f.sum, {i});
    expect(s5, ok5, "the normalisation 'O(i, e) = U(i, e) / sm(i)'");
    f.o = s5.write.tensor;

    // Roles: Q, K, V inputs; O the only output; everything else local.
    for (int t : {f.q, f.k, f.v})
      expect(s0, prog_.tensors[t].role == tc::TensorRole::Input,
             "'" + prog_.tensors[t].name + "' to be an input");
    for (size_t t = 0; t < prog_.tensors.size(); ++t) {
      bool isO = int(t) == f.o;
      const tc::Tensor& x = prog_.tensors[t];
      if (x.role == tc::TensorRole::Output && !isO)
        expect(prog_.statements[0], false,
               "'" + prog_.tensors[f.o].name + "' as the only output, but '" + x.name +
                   "' is one too (make it a local)");
    }
    expect(s5, prog_.tensors[f.o].role == tc::TensorRole::Output,
           "'" + prog_.tensors[f.o].name + "' to be the output");
    for (const tc::Tensor& t : {prog_.tensors[f.q], prog_.tensors[f.k], prog_.tensors[f.v]})
      expect(s0, t.type == tc::ScalarType::Int8 || t.type == tc::ScalarType::Int16,
             "int8 or int16 queries, keys and values ('" + t.name + "' is " + tc::toString(t.type) +
                 ")");
    const tc::Tensor& kt = prog_.tensors[f.k];
    const Access& kr = s0.reads[1 - qa];
    for (size_t dim = 0; dim < kr.indices.size(); ++dim)
      if (kr.indices[dim].coeffs[j] == 1) f.keySize = kt.dimSymbols[dim];
    if (heads_) f.headSize = prog_.tensors[f.q].dimSymbols[0];
    f.queryDim = dimOf(s0.reads[qa], i);
    f.keyDimK = dimOf(kr, j);
    f.keyDimV = dimOf(s4.reads[s4.rhs.args[1 - ea].ref], d);
    return f;
  }

private:
  const Program& prog_;
  std::shared_ptr<const SourceFile> file_;
  bool hint_ = true; // where else to look, after what does not fit
  int heads_ = 0;

  [[noreturn]] void fail(const Statement& s, const std::string& what) const {
    std::string msg = "statement '" + s.text + "' does not fit the attention pipeline: expected " +
                      what + (hint_ ? std::string(" (") + kForm + ")" : "");
    if (!file_) throw Error(prog_.name, msg);
    throw Error(file_, Diagnostic{s.loc, 1, msg, {}});
  }
  void expect(const Statement& s, bool ok, const std::string& what) const {
    if (!ok) fail(s, what);
  }
  // The dimension of `a` indexed by loop l.
  static int dimOf(const Access& a, size_t l) {
    for (size_t dim = 0; dim < a.indices.size(); ++dim)
      if (a.indices[dim].coeffs[l] == 1) return int(dim);
    return 0;
  }
  // Loop l, counted after the head loop; every loop starts at 0.
  int64_t extent(const Statement& s, size_t l) const { return s.loops[l].hi - s.loops[l].lo; }
  bool loops(const Statement& s, size_t n) const { return s.loops.size() == n + size_t(heads_); }
  // The index is exactly loop `l` (and the head loop sits first, as loop 0).
  static bool isLoop(const tc::AffineIndex& a, size_t l) {
    if (a.constant != 0) return false;
    for (size_t c = 0; c < a.coeffs.size(); ++c)
      if (a.coeffs[c] != (c == l ? 1 : 0)) return false;
    return true;
  }
  bool indexedBy(const Statement& s, const Access& a, const std::vector<size_t>& ls) const {
    if (a.indices.size() != ls.size() + size_t(heads_)) return false;
    if (heads_ && !isLoop(a.indices[0], 0)) return false;
    for (size_t k = 0; k < ls.size(); ++k)
      if (!isLoop(a.indices[k + heads_], ls[k])) return false;
    for (const tc::Loop& l : s.loops)
      if (l.lo != 0) return false;
    return true;
  }
  bool isOut(const Access& w, const std::vector<size_t>& ls) const {
    if (w.indices.size() != ls.size() + size_t(heads_)) return false;
    if (heads_ && !isLoop(w.indices[0], 0)) return false;
    for (size_t k = 0; k < ls.size(); ++k)
      if (!isLoop(w.indices[k + heads_], ls[k])) return false;
    return true;
  }
  bool isRead(const Statement& s, const Value& v, int tensor, const std::vector<size_t>& ls) const {
    return v.kind == Value::Kind::Read && s.reads[v.ref].tensor == tensor &&
           indexedBy(s, s.reads[v.ref], ls);
  }
  // Both loops index the access, in either order.
  bool matchPair(const Statement& s, const Access& a, size_t l0, size_t l1) const {
    return indexedBy(s, a, {l0, l1}) || indexedBy(s, a, {l1, l0});
  }
  static bool isProduct(const Value& v) {
    return v.kind == Value::Kind::Mul && v.args.size() == 2 &&
           v.args[0].kind == Value::Kind::Read && v.args[1].kind == Value::Kind::Read;
  }
};

} // namespace

AttentionForm recogniseAttention(const tc::Program& prog,
                                 const std::shared_ptr<const SourceFile>& file) {
  return Matcher(prog, file).run();
}

std::string attentionMismatch(const tc::Program& prog) {
  try {
    Matcher(prog, nullptr, false).run();
    return "";
  } catch (const Error& e) {
    return e.diag().message;
  }
}

} // namespace rubick::attn
