// SPDX-License-Identifier: Apache-2.0
#include "rubick/dse/Epilogue.h"

#include "rubick/ref/Fixed.h"
#include "rubick/ref/Interpreter.h"
#include "rubick/support/Diagnostic.h"
#include "rubick/support/Unsupported.h"

#include <algorithm>
#include <map>

namespace rubick::dse {

using Op = EpilogueOp;
using Kind = EpilogueOp::Kind;

namespace {

int64_t wrapping(uint64_t v) {
  return static_cast<int64_t>(v);
}

// The arithmetic of an epilogue, one row per operation: how TC writes it (an operator, or a
// builtin's name), its value in the reference model's arithmetic (64-bit two's complement,
// ref/Interpreter.cpp), the bits its exact result needs given its arguments' (signed), the same
// on signed Verilog wires of that width ($0, $1: the arguments sign-extended to it; $z: zero
// of it) and as text. A new operation is a row here and a Kind; the leaves, the statements'
// wraps and requant (a 128-bit product) are written out below and in the emitter.
struct Arith {
  Kind kind;
  tc::Value::Kind tcKind; // Call: the builtin `builtin`
  const char* builtin;
  size_t arity;
  int64_t (*value)(int64_t, int64_t);
  int64_t (*bits)(int64_t, int64_t);
  const char* verilog;
  const char* text;
};

const Arith kArith[] = {
    {Kind::Neg, tc::Value::Kind::Neg, "-", 1,
     [](int64_t a, int64_t) { return wrapping(0 - static_cast<uint64_t>(a)); },
     [](int64_t a, int64_t) { return a + 1; }, "$z - $0", "-($0)"},
    {Kind::Add, tc::Value::Kind::Add, "+", 2,
     [](int64_t a, int64_t b) {
       return wrapping(static_cast<uint64_t>(a) + static_cast<uint64_t>(b));
     },
     [](int64_t a, int64_t b) { return std::max(a, b) + 1; }, "$0 + $1", "($0 + $1)"},
    {Kind::Sub, tc::Value::Kind::Sub, "-", 2,
     [](int64_t a, int64_t b) {
       return wrapping(static_cast<uint64_t>(a) - static_cast<uint64_t>(b));
     },
     [](int64_t a, int64_t b) { return std::max(a, b) + 1; }, "$0 - $1", "($0 - $1)"},
    {Kind::Mul, tc::Value::Kind::Mul, "*", 2,
     [](int64_t a, int64_t b) {
       return wrapping(static_cast<uint64_t>(a) * static_cast<uint64_t>(b));
     },
     [](int64_t a, int64_t b) { return a + b; }, "$0 * $1", "($0 * $1)"},
    {Kind::Max, tc::Value::Kind::Call, "max", 2,
     [](int64_t a, int64_t b) { return std::max(a, b); },
     [](int64_t a, int64_t b) { return std::max(a, b); }, "($0 > $1) ? $0 : $1", "max($0, $1)"},
    {Kind::Min, tc::Value::Kind::Call, "min", 2,
     [](int64_t a, int64_t b) { return std::min(a, b); },
     [](int64_t a, int64_t b) { return std::max(a, b); }, "($0 < $1) ? $0 : $1", "min($0, $1)"},
    {Kind::Abs, tc::Value::Kind::Call, "abs", 1,
     [](int64_t a, int64_t) { return a < 0 ? wrapping(0 - static_cast<uint64_t>(a)) : a; },
     [](int64_t a, int64_t) { return a + 1; }, "($0 < $z) ? $z - $0 : $0", "abs($0)"},
};

const Arith* arithOf(Kind k) {
  for (const Arith& a : kArith)
    if (a.kind == k) return &a;
  return nullptr;
}

// The TC operator or builtin `v` as an arithmetic row, or null.
const Arith* arithOf(const tc::Value& v) {
  for (const Arith& a : kArith)
    if (a.tcKind == v.kind && (v.kind != tc::Value::Kind::Call || v.func == a.builtin) &&
        a.arity == v.args.size())
      return &a;
  return nullptr;
}

// `pattern` with $0 and $1 replaced by the arguments and $z by `zero`.
std::string substitute(const std::string& pattern, const std::vector<std::string>& args,
                       const std::string& zero = "") {
  std::string out;
  for (size_t i = 0; i < pattern.size(); ++i) {
    if (pattern[i] == '$' && i + 1 < pattern.size() &&
        (pattern[i + 1] == '0' || pattern[i + 1] == '1')) {
      out += args.at(static_cast<size_t>(pattern[i + 1] - '0'));
      ++i;
    } else if (pattern[i] == '$' && i + 1 < pattern.size() && pattern[i + 1] == 'z') {
      out += zero;
      ++i;
    } else {
      out += pattern[i];
    }
  }
  return out;
}

// "+ - * unary minus, max, min, abs and requant": what an epilogue is built from.
std::string builtFrom() {
  std::string ops;
  for (const Arith& a : kArith)
    if (a.tcKind == tc::Value::Kind::Call) ops += std::string(", ") + a.builtin;
  return "+ - *, unary minus" + ops + " and requant";
}

} // namespace

std::string arithmeticVerilog(const EpilogueOp& e, const std::vector<std::string>& args,
                              int64_t bits) {
  const Arith* a = arithOf(e.kind);
  return a ? substitute(a->verilog, args, std::to_string(bits) + "'sd0") : "";
}

int64_t arithmeticBits(const EpilogueOp& e, const std::vector<int64_t>& argBits) {
  const Arith* a = arithOf(e.kind);
  if (!a || argBits.size() != a->arity) return 0;
  return a->bits(argBits[0], argBits.size() > 1 ? argBits[1] : 0);
}

bool hasEpilogueForm(const tc::Program& prog) {
  if (prog.statements.size() < 2) return false;
  for (size_t s = 1; s < prog.statements.size(); ++s) {
    const tc::Statement& st = prog.statements[s];
    if (st.op != tc::AssignOp::Assign) return false;
    for (const tc::Loop& l : st.loops)
      if (l.reduction) return false;
  }
  return true;
}

namespace {

class Recogniser {
public:
  Recogniser(const tc::Program& p, std::shared_ptr<const SourceFile> f)
      : prog_(p), file_(std::move(f)) {}

  Epilogue run() {
    Epilogue e;
    const tc::Statement& c = prog_.statements[0];
    e.contraction = 0;
    e.accumulator = c.write.tensor;
    if (c.readsOutput())
      fail(c.loc, "an epilogue's contraction starts its result afresh ('+=!', '=', ...); '" +
                      std::string(tc::toString(c.op)) + "' would add to a local never written");
    if (tensor(c.write).role != tc::TensorRole::Local)
      fail(c.write.loc,
           "an epilogue takes the contraction's result on its way out: " + tensor(c.write).name +
               " must be a local (not listed as an output), read only by the "
               "statements after it");
    // The output's dimensions, each a loop of the contraction.
    dims_ = c.write.indices.size();
    for (size_t d = 0; d < dims_; ++d)
      if (singleLoop(c.write.indices[d]) < 0)
        fail(c.write.loc, "an epilogue needs the contraction to write " + tensor(c.write).name +
                              " at plain loop indices, such as H(i,j)");
    shape_ = tensor(c.write).shape;
    values_[e.accumulator] =
        Op{Kind::Wrap, tc::bitWidth(tensor(c.write).type), {Op{Kind::Acc, 0, {}}}};
    for (size_t s = 1; s < prog_.statements.size(); ++s) {
      const tc::Statement& st = prog_.statements[s];
      e.statements.push_back(s);
      loopDim_ = dimsOfWrite(st);
      const int bits = tc::bitWidth(tensor(st.write).type);
      bits_ = bits;
      Op v = value(st, st.rhs, e);
      if (values_.count(st.write.tensor))
        fail(st.write.loc, tensor(st.write).name + " is written twice; an epilogue writes each "
                                                   "tensor once");
      values_[st.write.tensor] = Op{Kind::Wrap, bits, {std::move(v)}};
      const bool last = s + 1 == prog_.statements.size();
      const tc::TensorRole role = tensor(st.write).role;
      if (!last && role != tc::TensorRole::Local)
        fail(st.write.loc, "only the last statement of an epilogue writes an output; " +
                               tensor(st.write).name + " is written before it");
      if (last && role != tc::TensorRole::Output)
        fail(st.write.loc, "the last statement of an epilogue writes the program's output");
      if (last) {
        e.output = st.write.tensor;
        e.outputName = tensor(st.write).name;
        e.outputBits = bits;
        e.outputShape = shape_;
        e.expr = values_[st.write.tensor];
      }
    }
    int outputs = 0;
    for (const tc::Tensor& t : prog_.tensors)
      outputs += t.role == tc::TensorRole::Output;
    if (outputs != 1)
      fail(prog_.statements.back().loc, "an epilogue's program has one output; '" + prog_.name +
                                            "' has " + std::to_string(outputs));
    return e;
  }

private:
  const tc::Program& prog_;
  std::shared_ptr<const SourceFile> file_;
  size_t dims_ = 0;
  std::vector<int64_t> shape_;
  std::vector<int> loopDim_; // per loop of the current statement: the output dimension
  int bits_ = 32;            // the current statement's written width
  std::map<int, Op> values_; // per tensor written so far: its value

  const tc::Tensor& tensor(const tc::Access& a) const {
    return prog_.tensors[static_cast<size_t>(a.tensor)];
  }

  [[noreturn]] void fail(const SourceLoc& loc, const std::string& what, bool notYet = false) const {
    const std::string msg = what;
    if (notYet) {
      if (!file_) throw Unsupported(prog_.name, msg);
      throw Unsupported(file_, Diagnostic{loc, 1, msg, {}});
    }
    if (!file_) throw Error(prog_.name, msg);
    throw Error(file_, Diagnostic{loc, 1, msg, {}});
  }

  // The loop an index is (coefficient 1, no constant), or -1.
  static int singleLoop(const tc::AffineIndex& x) {
    int loop = -1;
    for (size_t l = 0; l < x.coeffs.size(); ++l) {
      if (x.coeffs[l] == 0) continue;
      if (x.coeffs[l] != 1 || loop >= 0) return -1;
      loop = static_cast<int>(l);
    }
    return x.constant == 0 ? loop : -1;
  }

  // Per loop of `st`, the output dimension its write puts it at.
  std::vector<int> dimsOfWrite(const tc::Statement& st) const {
    const tc::Access& w = st.write;
    if (w.indices.size() != dims_ || tensor(w).shape != shape_)
      fail(w.loc, "an epilogue statement writes a tensor of the contraction's shape at plain "
                  "loop indices, such as Y(i,j)");
    std::vector<int> dim(st.loops.size(), -1);
    for (size_t d = 0; d < dims_; ++d) {
      const int l = singleLoop(w.indices[d]);
      if (l < 0 || dim[static_cast<size_t>(l)] >= 0)
        fail(w.loc, "an epilogue statement writes a tensor of the contraction's shape at plain "
                    "loop indices, such as Y(i,j)");
      dim[static_cast<size_t>(l)] = static_cast<int>(d);
    }
    return dim;
  }

  Op read(const tc::Access& a, Epilogue& e) {
    auto it = values_.find(a.tensor);
    if (it != values_.end()) {
      // An earlier value: at exactly the element being written.
      for (size_t d = 0; d < a.indices.size(); ++d) {
        const int l = singleLoop(a.indices[d]);
        if (l < 0 || loopDim_[static_cast<size_t>(l)] != static_cast<int>(d))
          fail(a.loc, "an epilogue reads " + tensor(a).name +
                          " at the element it writes (the same indices in the same places)");
      }
      return it->second;
    }
    const tc::Tensor& t = tensor(a);
    if (t.role != tc::TensorRole::Input)
      fail(a.loc, "an epilogue reads the contraction's result, earlier epilogue values and "
                  "inputs; " +
                      t.name + " is none of them");
    if (a.indices.size() == dims_ && dims_ > 1) {
      // A tensor read at the element written, plus constants (a residual, or a shortcut at an
      // offset): it moves through banks of its own, a tile at a time.
      bool loops = true, identity = true, shifted = false;
      std::vector<int64_t> offset(dims_, 0);
      for (size_t d = 0; d < dims_; ++d) {
        tc::AffineIndex x = a.indices[d];
        offset[d] = x.constant;
        x.constant = 0;
        const int l = singleLoop(x);
        loops &= l >= 0 && offset[d] >= 0;
        identity &= l >= 0 && loopDim_[static_cast<size_t>(l)] == static_cast<int>(d);
        shifted |= offset[d] != 0;
      }
      if (loops && !identity)
        fail(a.loc, "an epilogue reads a tensor of the output's shape at the element it writes "
                    "(the same indices in the same places, plus constants), such as R(i,j)");
      if (!loops)
        fail(a.loc,
             "an epilogue reads inputs of one dimension along a dimension of the output (such "
             "as b(j)) or of the output's shape at the element written (such as R(i,j), or "
             "R(i + 1,j) in a larger R); " +
                 a.text + " is neither",
             true);
      for (size_t d = 0; d < dims_; ++d)
        if (t.shape[d] < shape_[d] + offset[d])
          fail(a.loc, t.name + " is read at every element of the output" +
                          std::string(shifted ? " plus an offset" : "") + ", so dimension " +
                          std::to_string(d) + " needs at least " +
                          std::to_string(shape_[d] + offset[d]) + " elements, not " +
                          std::to_string(t.shape[d]));
      for (size_t k = 0; k < e.operands.size(); ++k)
        if (e.operands[k].tensor == a.tensor) {
          if (e.operands[k].offset != (shifted ? offset : std::vector<int64_t>{}))
            fail(a.loc, t.name + " is read at two different places");
          return Op{Kind::Operand, static_cast<int64_t>(k), {}};
        }
      EpilogueOperand op;
      op.tensor = a.tensor;
      op.name = t.name;
      op.dim = -1;
      op.shape = t.shape;
      op.extent = t.elements();
      op.bits = tc::bitWidth(t.type);
      if (shifted) op.offset = offset;
      e.operands.push_back(op);
      return Op{Kind::Operand, static_cast<int64_t>(e.operands.size() - 1), {}};
    }
    if (a.indices.size() != 1)
      fail(a.loc,
           "an epilogue reads inputs of one dimension along a dimension of the output (a bias or "
           "scale per row or column, such as b(j)) or of the output's shape at the element "
           "written (such as R(i,j)); " +
               a.text + " is neither",
           true);
    const int l = singleLoop(a.indices[0]);
    if (l < 0)
      fail(a.loc, "an epilogue reads an operand at a loop index of the output, such as b(j)");
    const int dim = loopDim_[static_cast<size_t>(l)];
    if (t.shape[0] != shape_[static_cast<size_t>(dim)])
      fail(a.loc, t.name + " has " + std::to_string(t.shape[0]) +
                      " elements; as an operand along that dimension it needs exactly " +
                      std::to_string(shape_[static_cast<size_t>(dim)]));
    for (size_t k = 0; k < e.operands.size(); ++k)
      if (e.operands[k].tensor == a.tensor) {
        if (e.operands[k].dim != dim)
          fail(a.loc, t.name + " is read along two dimensions of the output");
        return Op{Kind::Operand, static_cast<int64_t>(k), {}};
      }
    e.operands.push_back({a.tensor, t.name, dim, t.shape[0], tc::bitWidth(t.type), t.shape});
    return Op{Kind::Operand, static_cast<int64_t>(e.operands.size() - 1), {}};
  }

  Op value(const tc::Statement& st, const tc::Value& v, Epilogue& e) {
    auto args = [&]() {
      std::vector<Op> a;
      for (const tc::Value& x : v.args)
        a.push_back(value(st, x, e));
      return a;
    };
    switch (v.kind) {
    case tc::Value::Kind::Int:
      return Op{Kind::Const, v.intValue, {}};
    case tc::Value::Kind::Read:
      return read(st.reads[static_cast<size_t>(v.ref)], e);
    case tc::Value::Kind::Neg:
    case tc::Value::Kind::Add:
    case tc::Value::Kind::Sub:
    case tc::Value::Kind::Mul:
    case tc::Value::Kind::Call:
    case tc::Value::Kind::Div:
      if (const Arith* x = arithOf(v)) return Op{x->kind, 0, args()};
      if (v.kind == tc::Value::Kind::Call && v.func == "requant") {
        std::vector<Op> a = args();
        return Op{Kind::Requant, bits_, std::move(a)};
      }
      fail(v.loc,
           "an epilogue is built from " + builtFrom() + "; '" +
               (v.kind == tc::Value::Kind::Div ? std::string("/") : v.func) +
               "' is not built in one yet",
           true);
    case tc::Value::Kind::Float:
      fail(v.loc, "an epilogue computes on integers; a floating-point constant has no hardware");
    case tc::Value::Kind::Index:
      fail(v.loc, "an epilogue does not use loop indices as values yet", true);
    }
    fail(v.loc, "internal: unknown value");
  }
};

} // namespace

Epilogue recogniseEpilogue(const tc::Program& prog, std::shared_ptr<const SourceFile> file) {
  if (!hasEpilogueForm(prog))
    throw std::logic_error("recogniseEpilogue: not a contraction with elementwise statements");
  return Recogniser(prog, std::move(file)).run();
}

int64_t evaluateEpilogue(const EpilogueOp& e, int64_t acc, const std::vector<int64_t>& operands) {
  auto arg = [&](size_t i) { return evaluateEpilogue(e.args[i], acc, operands); };
  if (const Arith* a = arithOf(e.kind)) return a->value(arg(0), a->arity > 1 ? arg(1) : 0);
  switch (e.kind) {
  case Kind::Acc:
    return acc;
  case Kind::Operand:
    return operands.at(static_cast<size_t>(e.value));
  case Kind::Const:
    return e.value;
  case Kind::Requant:
    return ref::requantise(arg(0), arg(1), arg(2), static_cast<int>(e.value));
  case Kind::Wrap:
    return ref::wrap(arg(0), static_cast<int>(e.value));
  default:
    break;
  }
  throw std::logic_error("evaluateEpilogue: unknown node");
}

uint32_t indexDims(const Epilogue& e) {
  uint32_t dims = 0;
  for (const EpilogueOperand& op : e.operands)
    if (!op.full()) dims |= uint32_t(1) << op.dim;
  return dims;
}

uint32_t splitDims(const Epilogue& e) {
  uint32_t dims = 0;
  for (const EpilogueOperand& op : e.operands)
    if (op.full())
      for (size_t d = 0; d < op.shape.size(); ++d)
        if (op.shape[d] != e.outputShape[d]) dims |= uint32_t(1) << d;
  return dims;
}

MemorySystem withEpilogue(MemorySystem memory, const Epilogue& e) {
  memory.outputBytes = e.outputBits / 8;
  memory.outputIndexDims = indexDims(e);
  memory.outputSplitDims = splitDims(e);
  memory.outputsFinal = true;
  memory.prologueCycles = memory.prologueBytes = memory.prologueBufferBytes = 0;
  const int64_t bus = std::max<int64_t>(1, memory.bytesPerCycle);
  memory.outputOperandBytes = 0;
  memory.lateOperandBytes.clear();
  for (const EpilogueOperand& op : e.operands) {
    if (op.full()) {
      // Moved a tile at a time beside the output: banks of the output's tile, and a late load
      // of each tile while the core computes it (the sequencer's LATE).
      memory.outputOperandBytes += op.bits / 8;
      memory.lateOperandBytes.push_back(op.bits / 8);
      continue;
    }
    const int64_t bytes = op.extent * (op.bits / 8), beats = (bytes + bus - 1) / bus;
    memory.prologueCycles += memory.latency + kLoadOverhead + beats;
    memory.prologueBytes += beats * bus;
    memory.prologueBufferBytes += bytes;
  }
  return memory;
}

std::string toString(const EpilogueOp& e, const Epilogue& ep) {
  auto arg = [&](size_t i) { return toString(e.args[i], ep); };
  if (const Arith* a = arithOf(e.kind)) {
    std::vector<std::string> args;
    for (size_t i = 0; i < e.args.size(); ++i)
      args.push_back(arg(i));
    return substitute(a->text, args);
  }
  switch (e.kind) {
  case Kind::Acc:
    return "acc";
  case Kind::Operand:
    return ep.operands.at(static_cast<size_t>(e.value)).name;
  case Kind::Const:
    return std::to_string(e.value);
  case Kind::Requant:
    return "requant" + std::to_string(e.value) + "(" + arg(0) + ", " + arg(1) + ", " + arg(2) + ")";
  case Kind::Wrap:
    return "wrap" + std::to_string(e.value) + "(" + arg(0) + ")";
  default:
    break;
  }
  return "?";
}

} // namespace rubick::dse
