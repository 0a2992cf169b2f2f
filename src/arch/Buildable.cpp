// SPDX-License-Identifier: Apache-2.0
#include "rubick/arch/Buildable.h"

#include "rubick/dse/CostModel.h"

namespace rubick::arch {

namespace {

const char* kindWord(tc::Value::Kind k) {
  switch (k) {
  case tc::Value::Kind::Int:
  case tc::Value::Kind::Float:
    return "a constant";
  case tc::Value::Kind::Index:
    return "a loop index";
  case tc::Value::Kind::Neg:
    return "negation";
  case tc::Value::Kind::Add:
    return "'+'";
  case tc::Value::Kind::Sub:
    return "'-'";
  case tc::Value::Kind::Div:
    return "'/'";
  case tc::Value::Kind::Call:
    return "a function call";
  default:
    return "an operation";
  }
}

// Counts the reads of a product of tensor elements, integer constants and negations (the
// constants and signs make one constant factor); the first other operation found, if any, goes
// to `other`.
void productReads(const tc::Value& v, size_t& reads, const char*& other) {
  if (v.kind == tc::Value::Kind::Read) {
    ++reads;
  } else if (v.kind == tc::Value::Kind::Mul || v.kind == tc::Value::Kind::Neg) {
    for (const tc::Value& a : v.args)
      productReads(a, reads, other);
  } else if (v.kind == tc::Value::Kind::Float && !other) {
    other = "a floating-point constant";
  } else if (v.kind != tc::Value::Kind::Int && !other) {
    other = kindWord(v.kind);
  }
}

} // namespace

std::string buildProblem(const tc::Program& prog, const dataflow::StatementView& v,
                         const std::vector<int64_t>& elementBits) {
  const tc::Statement* stmt = nullptr;
  for (const tc::Statement& s : prog.statements)
    if (s.name == v.statement) stmt = &s;
  if (!stmt) return "internal: statement " + v.statement + " not found";
  const std::string where = stmt->name + " (" + stmt->text + ")";
  if (stmt->op == tc::AssignOp::StarEq || stmt->op == tc::AssignOp::StarEqBang)
    return where +
           ": the hardware builds '=', '+=!', '+=', 'max=!', 'min=!', 'max=' and "
           "'min=' statements; '" +
           tc::toString(stmt->op) + "' is not supported yet";
  size_t reads = 0;
  const char* other = nullptr;
  productReads(stmt->rhs, reads, other);
  if (other)
    return where + ": the hardware builds PEs that multiply tensor elements (such as C(i,j) +=! " +
           "A(i,k) * B(k,j)); this right-hand side uses " + other + ", which is not supported yet";
  if (reads == 0) return where + ": the right-hand side reads no tensor";
  if (reads != v.accesses.size() - 1)
    return "internal: " + where + ": the product does not read every tensor reference once";
  const size_t operands = reads + (v.factor != 1 ? 1 : 0);
  if (operands > 4)
    return where + ": the hardware builds PEs with at most 4 operands; this product has " +
           std::to_string(operands) + (v.factor != 1 ? " (its constant factor included)" : "");
  if (elementBits.size() != v.accesses.size()) return "internal: element widths missing";
  if (elementBits.front() > 64) return where + ": outputs wider than 64 bits are not supported";
  std::vector<int64_t> inBits(elementBits.begin() + 1, elementBits.end());
  const int64_t acc = dse::accumulatorBits(v, inBits);
  if (acc > 64)
    return where + ": the accumulator would need " + std::to_string(acc) +
           " bits; at most 64 are supported";
  return "";
}

} // namespace rubick::arch
