// SPDX-License-Identifier: Apache-2.0
// Text form of the polyhedral model, for `rubick dump --poly` and its golden tests.

#include "rubick/poly/PolyProgram.h"

#include <sstream>

namespace rubick::poly {
namespace {

const char* identityText(tc::AssignOp op) {
  switch (op) {
  case tc::AssignOp::PlusEqBang:
    return "0";
  case tc::AssignOp::StarEqBang:
    return "1";
  case tc::AssignOp::MaxEqBang:
    return "the type's minimum";
  case tc::AssignOp::MinEqBang:
    return "the type's maximum";
  default:
    return nullptr;
  }
}

const char* reductionSymbol(tc::AssignOp op) {
  switch (op) {
  case tc::AssignOp::PlusEq:
  case tc::AssignOp::PlusEqBang:
    return "+";
  case tc::AssignOp::StarEq:
  case tc::AssignOp::StarEqBang:
    return "*";
  case tc::AssignOp::MaxEq:
  case tc::AssignOp::MaxEqBang:
    return "max";
  case tc::AssignOp::MinEq:
  case tc::AssignOp::MinEqBang:
    return "min";
  default:
    return "";
  }
}

} // namespace

std::string printPoly(const PolyProgram& p) {
  const tc::Program& prog = p.program;
  std::ostringstream os;
  os << "def " << prog.name << "\n";
  if (!prog.sizes.empty()) {
    os << "sizes:";
    for (const auto& [n, v] : prog.sizes)
      os << " " << n << "=" << v;
    os << "\n";
  }
  os << "\ntensors:\n";
  for (size_t t = 0; t < prog.tensors.size(); ++t) {
    const tc::Tensor& ten = prog.tensors[t];
    os << "  " << ten.name << ": " << toString(ten.role) << " " << toString(ten.type)
       << (ten.typeInferred ? " (inferred)" : "") << " [";
    for (size_t d = 0; d < ten.shape.size(); ++d)
      os << (d ? ", " : "") << ten.shape[d];
    os << "]  " << p.tensorDomains[t] << "\n";
  }
  for (const PolyStatement& ps : p.statements) {
    const tc::Statement& s = prog.statements[ps.statement];
    os << "\nstatement " << s.name << ": " << s.text << "\n";
    os << "  loops:";
    for (const tc::Loop& l : s.loops)
      os << " " << l.name << (l.reduction ? "(reduction)" : "");
    os << "\n  domain: " << ps.domain << "\n";
    for (const PolyAccess& a : ps.accesses) {
      os << (a.write ? "  write:  " : "  read:   ") << a.relation.gist_domain(ps.domain);
      if (a.write && isReduction(s.op)) {
        os << "  reduction " << reductionSymbol(s.op);
        if (!a.reductionLoops.empty()) {
          os << " over";
          for (int l : a.reductionLoops)
            os << " " << s.loops[l].name;
        }
        if (const char* id = identityText(s.op)) os << ", initialised with " << id;
      }
      os << "\n";
    }
  }
  return os.str();
}

} // namespace rubick::poly
