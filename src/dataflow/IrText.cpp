// SPDX-License-Identifier: Apache-2.0
#include "rubick/dataflow/IrText.h"

#include "rubick/dataflow/Banks.h"
#include "rubick/dataflow/IslVerify.h"
#include "rubick/linalg/AffineText.h"

#include <sstream>

namespace rubick::dataflow {
namespace {

std::string vec(const IntVec& v) {
  std::string s = "(";
  for (size_t i = 0; i < v.size(); ++i)
    s += (i == 2 ? "|" : i ? "," : "") + std::to_string(v[i]);
  return s + ")";
}

std::string matRows(const std::vector<IntVec>& rows) {
  std::string s = "[";
  for (size_t r = 0; r < rows.size(); ++r) {
    s += r ? "; " : "";
    for (size_t c = 0; c < rows[r].size(); ++c)
      s += (c ? " " : "") + std::to_string(rows[r][c]);
  }
  return s + "]";
}

std::string stampText(size_t nOuter) {
  std::string s = "(x, y | t1";
  for (size_t o = 0; o < nOuter; ++o)
    s += ", t" + std::to_string(o + 2);
  return s + ")";
}

std::string movementText(const TensorDecomposition& t, const std::string& name, size_t nOuter) {
  static const char* axis[] = {"x", "y", "t1"};
  std::string lhs = stampText(nOuter);
  std::string rhs;
  for (size_t r = 0; r < t.movement.rows(); ++r) {
    std::vector<std::pair<Rational, std::string>> terms;
    for (int c = 0; c < 3; ++c)
      terms.emplace_back(t.movement(r, c), axis[c]);
    for (size_t o = 0; o < nOuter; ++o)
      terms.emplace_back(t.movementOuter[r][o], "t" + std::to_string(o + 2));
    rhs += (r ? ", " : "") + affineText(terms, t.movementConstant[r]);
  }
  return lhs + " -> " + name + "(" + rhs + ")";
}

} // namespace

std::string printAccessAnalysis(const tc::Program& prog, const StatementView& v) {
  std::ostringstream os;
  const tc::Statement* s = nullptr;
  for (const tc::Statement& st : prog.statements)
    if (st.name == v.statement) s = &st;
  os << "statement " << v.statement << ": " << (s ? s->text : "") << "\n";
  os << "loops:";
  for (size_t l = 0; l < v.loops.size(); ++l)
    os << " " << v.loops[l] << "(" << v.extent[l] << ")";
  os << "\n";
  for (const AccessView& a : v.accesses) {
    Mat m = Mat::fromRows(a.coeffs, v.loops.size());
    os << "\n"
       << (a.write ? "write " : "read  ") << a.name << ": access " << matRows(a.coeffs)
       << " over (";
    for (size_t l = 0; l < v.loops.size(); ++l)
      os << (l ? ", " : "") << v.loops[l];
    os << ")\n  independent of:";
    std::vector<IntVec> ns = m.nullSpace();
    if (ns.empty()) os << " nothing (every loop moves it)";
    for (const IntVec& n : ns) {
      os << " (";
      for (size_t l = 0; l < n.size(); ++l)
        os << (l ? "," : "") << n[l];
      os << ")";
    }
    os << "\n";
  }
  os << "\nGive a dataflow with --dataflow 'PE(x, y) | T(t1, t2, ...)' to see its IR, or use\n"
        "`rubick dump --space` for the whole dataflow space.\n";
  return os.str();
}

std::string printIr(const poly::IslContext& ctx, const tc::Program& prog, const StatementView& v,
                    const Dataflow& d) {
  std::ostringstream os;
  const tc::Statement* s = nullptr;
  for (const tc::Statement& st : prog.statements)
    if (st.name == v.statement) s = &st;
  os << "statement " << v.statement << ": " << (s ? s->text : "") << "\n";
  os << "array:     " << d.p << "x" << d.q << "\n";
  os << "dataflow:  " << toSpec(d, v) << "\n";
  os << "S:         " << matRows(d.s) << " over (";
  for (size_t c = 0; c < d.k(); ++c) {
    const InnerDim& in = d.inner[c];
    os << (c ? ", " : "") << v.loops[in.loop];
    if (in.factor != v.extent[in.loop]) os << " mod " << in.factor;
  }
  IntVec e = d.extent();
  os << ")\nextent:    x " << e[0] << ", y " << e[1] << ", t1 " << e[2];
  for (size_t o = 0; o < d.outer.size(); ++o)
    os << ", t" << (o + 2) << " " << d.outerExtent(o, v.extent);
  os << "\n";
  LegalityReport legal = checkLegality(ctx, v, d);
  os << "legal:     "
     << (legal.legal() ? "yes (isl: one-to-one, time >= 0, inside the array)"
                       : "no: " + legal.why())
     << "\n";
  Decomposition dec = decompose(v, d);
  std::string failed;
  bool verified = verifyDecomposition(ctx, v, d, dec, &failed);
  for (const TensorDecomposition& t : dec.tensors) {
    const AccessView& a = v.accesses[t.access];
    const tc::Tensor& ten = prog.tensors[a.tensor];
    os << "\ntensor " << a.name << " (" << (a.write ? "output" : "input") << ", "
       << tc::toString(ten.type) << ")\n";
    os << "  movement: " << movementText(t, ten.name, d.outer.size()) << "\n";
    os << "  reuse:   ";
    for (const IntVec& r : t.reuse)
      os << " " << vec(r);
    if (t.reuse.empty()) os << " none";
    os << "\n";
    if (!t.ok()) {
      os << "  not realisable: " << t.reason << "\n";
      continue;
    }
    const ir::EntryInfo& inf = ir::info(t.entry->kind);
    os << "  entry:    #" << inf.number << " " << ir::toString(*t.entry)
       << "  Omega = " << ir::omegaText(*t.entry, d.p, d.q, d.outer.size()) << "\n";
    os << "            ports " << inf.ports(d.p, d.q) << ", " << (a.write ? "fan-in " : "fan-out ")
       << inf.fanout(d.p, d.q) << "\n";
    os << "  layout:   " << ir::toString(t.layout, ten.name) << "  [" << ir::transformName(t.layout)
       << "]\n";
    BankInfo b = analyzeBanks(v, d, t);
    os << "  banks:    " << b.ports.size() << " used, depth " << b.maxDepth() << ", "
       << b.totalWords() << " words (" << b.totalWords() * a.elementBits / 8 << " bytes)\n";
    if (!b.sequence.empty()) {
      os << "  bank " << vec(b.ports.front()) << " addresses:";
      size_t shown = 0;
      for (const BankStep& st : b.sequence.front()) {
        if (shown++ == 16) {
          os << " ...";
          break;
        }
        os << " " << st.address;
      }
      os << "\n";
    }
  }
  os << "\ncheck: M = L o Omega on the bounded domain (isl): "
     << (dec.ok() ? (verified ? "holds for every tensor" : "FAILS for " + failed)
                  : (verified ? "holds for the realisable tensors" : "FAILS for " + failed))
     << "\n";
  return os.str();
}

std::string printSpace(const StatementView& v, int64_t p, int64_t q, const EnumerationResult& r) {
  std::ostringstream os;
  os << "statement " << v.statement << " on a " << p << "x" << q << " array\n";
  os << "inner loop choices:        " << r.stats.innerChoices << "\n";
  os << "oriented entry tuples:     " << r.stats.entryCombinations
     << " (reuse dimension matches each access)\n";
  os << "  after shared-reuse check: " << r.stats.afterEntryChecks << "\n";
  os << "space-time matrices tried: " << r.stats.candidates << "\n";
  size_t matrices = 0;
  for (const auto& [k, n] : r.stats.perCombination)
    matrices += n;
  os << "realisable space-time matrices: " << matrices
     << " (dataflows incl. tilings: " << r.dataflows.size() << ")\n";
  size_t total = 1;
  for (size_t a = 0; a < v.accesses.size(); ++a)
    total *= ir::kEntryCount;
  os << "realisable entry combinations: " << r.stats.perCombination.size() << " of " << total
     << "\n\n";
  os << "count  entries (";
  for (size_t a = 0; a < v.accesses.size(); ++a)
    os << (a ? ", " : "") << v.accesses[a].name;
  os << ")\n";
  for (const auto& [kinds, n] : r.stats.perCombination) {
    os.width(5);
    os << n << "  ";
    for (size_t a = 0; a < kinds.size(); ++a)
      os << (a ? ", " : "") << ir::info(kinds[a]).name;
    os << "\n";
  }
  return os.str();
}

} // namespace rubick::dataflow
