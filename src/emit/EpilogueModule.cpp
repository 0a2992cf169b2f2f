// SPDX-License-Identifier: Apache-2.0
#include "EpilogueModule.h"

#include "VerilogText.h"

#include "rubick/emit/Verilog.h"

#include <sstream>
#include <stdexcept>

namespace rubick::emit::detail {

namespace {

using Kind = dse::EpilogueOp::Kind;

// A signed wire of the lane's expression and its bits.
struct Wire {
  std::string name;
  int64_t bits = 64;
};

// Writes one lane's expression as signed wires e<lane>_<n>, each as wide as its exact value needs
// (dse::arithmeticBits, at most 64: the reference model's width, where it wraps), returning the
// wire of `e`. A value that fits its wire is the same in any wider two's complement, so the
// narrow wires compute exactly what 64-bit ones would.
class LaneWriter {
public:
  LaneWriter(std::ostream& os, Unused& unused, int64_t lane, int64_t accBits,
             const std::vector<int64_t>& operandBits)
      : os_(os), unused_(unused), lane_(lane), accBits_(accBits), operandBits_(operandBits) {}

  Wire write(const dse::EpilogueOp& e) {
    std::vector<Wire> a;
    if (e.kind != Kind::Requant)
      for (const dse::EpilogueOp& x : e.args)
        a.push_back(write(x));
    const std::string w = "e" + std::to_string(lane_) + "_" + std::to_string(next_++);
    const std::string l = std::to_string(lane_);
    switch (e.kind) {
    case Kind::Acc:
      return declare(w, accBits_, "acc" + l);
    case Kind::Operand: {
      const size_t k = static_cast<size_t>(e.value);
      return declare(w, operandBits_[k], "opv" + std::to_string(k) + "_" + l);
    }
    case Kind::Const: {
      int64_t b = 2;
      while (b < 64 && (e.value < -(int64_t(1) << (b - 1)) || e.value >= (int64_t(1) << (b - 1))))
        ++b;
      const std::string h = hexBits(e.value, b);
      return declare(w, b, h.substr(0, h.find('\'') + 1) + "sh" + h.substr(h.find('\'') + 2));
    }
    case Kind::Wrap:
      if (a[0].bits <= e.value) return declare(w, a[0].bits, a[0].name);
      unused_.add(a[0].name + "[" + std::to_string(a[0].bits - 1) + ":" + std::to_string(e.value) +
                  "]");
      return declare(w, e.value, a[0].name + "[" + std::to_string(e.value - 1) + ":0]");
    case Kind::Requant:
      return requant(w, e);
    default: { // arithmetic: the expression and width dse/Epilogue.cpp's table gives
      std::vector<int64_t> widths;
      for (const Wire& x : a)
        widths.push_back(x.bits);
      const int64_t b = std::min<int64_t>(64, dse::arithmeticBits(e, widths));
      std::vector<std::string> args;
      for (const Wire& x : a)
        args.push_back(extend(x, b));
      return declare(w, b, dse::arithmeticVerilog(e, args, b));
    }
    }
    throw std::logic_error("epilogue: unknown node");
  }

  /// `x` sign-extended to `bits` (at least its own).
  static std::string extend(const Wire& x, int64_t bits) {
    if (x.bits >= bits) return x.name;
    return "$signed({{" + std::to_string(bits - x.bits) + "{" + x.name + "[" +
           std::to_string(x.bits - 1) + "]}}, " + x.name + "})";
  }

private:
  std::ostream& os_;
  Unused& unused_;
  int64_t lane_, accBits_;
  const std::vector<int64_t>& operandBits_;
  int next_ = 0;

  Wire declare(const std::string& w, int64_t bits, const std::string& value) {
    os_ << "  wire signed " << range(bits) << " " << w << " = " << value << ";\n";
    return {w, bits};
  }

  // saturate(floor((x m + 2^(s-1)) / 2^s)) to e.value bits, the product exact in 128 bits
  // (ref::requantise).
  Wire requant(const std::string& w, const dse::EpilogueOp& e) {
    if (e.args.size() != 3 || e.args[2].kind != Kind::Const)
      throw std::logic_error("epilogue: requant's shift is not a constant");
    const Wire x = write(e.args[0]), m = write(e.args[1]);
    const int64_t s = e.args[2].value, bits = e.value;
    // The product is exact in the operands' bits together; rounding and saturation in 128.
    const int64_t pb = std::min<int64_t>(128, x.bits + m.bits);
    os_ << "  wire signed " << range(pb) << " " << w << "_p = " << extend(x, pb) << " * "
        << extend(m, pb) << ";\n";
    std::string rounded = extend({w + "_p", pb}, 128);
    if (s > 0) {
      os_ << "  wire signed [127:0] " << w << "_r = (" << rounded << " + (128'sd1 <<< " << s - 1
          << ")) >>> " << s << ";\n";
      rounded = w + "_r";
    }
    const int64_t b = std::min<int64_t>(bits, 64);
    // The bounds of a b-bit signed integer, as 128-bit signed constants.
    const std::string maxv = "((128'sd1 <<< " + std::to_string(b - 1) + ") - 128'sd1)";
    const std::string minv = "(-(128'sd1 <<< " + std::to_string(b - 1) + "))";
    os_ << "  wire signed [127:0] " << w << "_s = (" << rounded << " > " << maxv << ") ? " << maxv
        << " : (" << rounded << " < " << minv << ") ? " << minv << " : " << rounded << ";\n";
    unused_.add(w + "_s[127:" + std::to_string(b) + "]");
    return declare(w, b, "$signed(" + w + "_s[" + std::to_string(b - 1) + ":0])");
  }
};

} // namespace

std::string epilogueModule(const arch::MemoryPlan& m) {
  if (!m.epilogue) throw std::logic_error("epilogueModule: no epilogue");
  const dse::Epilogue& ep = *m.epilogue;
  const arch::TensorTransfer& x = m.tensors.front();
  const arch::DmaMap& d = x.dma;
  const int64_t lanes = d.lanes, accBits = m.core.tensors.front().elementBits;
  const int64_t outBits = m.epilogueBits, groupCols = d.groupCols();
  // The rows index a dimension of their own (a vector operand along it reads the row); a
  // vector output's rows do not.
  const bool matrix = x.box.rowDim >= 0;
  const std::string name = m.core.name + "_epilogue";
  std::vector<int64_t> operandBits;
  for (const arch::OperandTransfer& o : m.operands)
    operandBits.push_back(o.operand.bits);
  std::ostringstream os;
  Unused unused;
  os << generatedBanner() << "// The epilogue of " << m.core.name
     << " on its output's write groups: " << dse::toString(ep.expr, ep) << ".\n"
     << "// Lanes " << lanes << " (" << (d.rowLanes ? "rows" : "columns")
     << " of the tile), combinational: in_* pass to out_* in the same cycle.\n"
     << "`default_nettype none\n\n"
     << "module " << name << " (\n"
     << "  input  wire aclk,\n"
     << "  input  wire aresetn,\n"
     << "  // The output's store start, with the stored tile's first row and column.\n"
     << "  input  wire start,\n"
     << "  input  wire [31:0] row0,\n"
     << "  input  wire [31:0] col0,\n"
     << "  // Write groups from the gather (accumulators) and to the writer (results).\n"
     << "  input  wire in_valid,\n"
     << "  output wire in_ready,\n"
     << "  input  wire " << range(lanes * accBits) << " in_data,\n"
     << "  output wire out_valid,\n"
     << "  input  wire out_ready,\n"
     << "  output wire " << range(lanes * outBits) << " out_data";
  for (size_t k = 0; k < m.operands.size(); ++k) {
    const std::string name = m.operands[k].operand.name;
    if (m.operands[k].operand.full())
      os << ",\n  // " << name << ": each lane's element, beside the accumulators.\n";
    else
      os << ",\n  // " << name << ": the element index of each lane, its value.\n"
         << "  output wire " << range(lanes * 32) << " op" << k << "_idx,\n";
    os << "  input  wire " << range(lanes * operandBits[k]) << " op" << k << "_val";
  }
  os << "\n);\n\n"
     << "  assign out_valid = in_valid;\n"
     << "  assign in_ready = out_ready;\n\n"
     << "  // The walk of the groups (row outer, column inner: " << groupCols
     << " groups a row): lane 0's row and column.\n"
     << "  reg [31:0] r_at, c_at, c_first, gc;\n"
     << "  always @(posedge aclk) begin\n"
     << "    if (!aresetn) begin\n"
     << "      r_at <= 32'd0;\n      c_at <= 32'd0;\n      c_first <= 32'd0;\n      gc <= 32'd0;\n"
     << "    end else if (start) begin\n"
     << "      r_at <= row0;\n      c_at <= col0;\n      c_first <= col0;\n      gc <= 32'd0;\n"
     << "    end else if (in_valid && out_ready) begin\n"
     << "      if (gc == 32'd" << groupCols - 1 << ") begin\n"
     << "        gc <= 32'd0;\n        c_at <= c_first;\n"
     << "        r_at <= r_at + 32'd" << (d.rowLanes ? lanes : 1) << ";\n"
     << "      end else begin\n"
     << "        gc <= gc + 32'd1;\n"
     << "        c_at <= c_at + 32'd" << (d.rowLanes ? 1 : lanes) << ";\n"
     << "      end\n"
     << "    end\n"
     << "  end\n";
  if (!matrix) unused.add("r_at");
  for (int64_t l = 0; l < lanes; ++l) {
    const std::string ls = std::to_string(l);
    os << "\n  // Lane " << l << ".\n"
       << "  wire [31:0] row_l" << ls << " = r_at + 32'd" << (d.rowLanes ? l : 0) << ";\n"
       << "  wire [31:0] col_l" << ls << " = c_at + 32'd" << (d.rowLanes ? 0 : l) << ";\n"
       << "  wire " << range(accBits) << " acc" << ls << " = in_data[" << l * accBits + accBits - 1
       << ":" << l * accBits << "];\n";
    if (!matrix) unused.add("row_l" + ls);
    bool rowUsed = false, colUsed = false;
    for (size_t k = 0; k < m.operands.size(); ++k) {
      const int64_t w = operandBits[k];
      if (!m.operands[k].operand.full()) {
        const bool byRow = matrix && m.operands[k].operand.dim == x.box.rowDim;
        (byRow ? rowUsed : colUsed) = true;
        os << "  assign op" << k << "_idx[" << l * 32 + 31 << ":" << l * 32
           << "] = " << (byRow ? "row_l" : "col_l") << ls << ";\n";
      }
      os << "  wire " << range(w) << " opv" << k << "_" << ls << " = op" << k << "_val["
         << l * w + w - 1 << ":" << l * w << "];\n";
    }
    if (matrix && !rowUsed) unused.add("row_l" + ls);
    if (!colUsed) unused.add("col_l" + ls);
    LaneWriter lw(os, unused, l, accBits, operandBits);
    const Wire result = lw.write(ep.expr);
    os << "  assign out_data[" << l * outBits + outBits - 1 << ":" << l * outBits << "] = ";
    if (result.bits <= outBits) {
      os << LaneWriter::extend(result, outBits) << ";\n";
    } else {
      os << result.name << "[" << outBits - 1 << ":0];\n";
      unused.add(result.name + "[" + std::to_string(result.bits - 1) + ":" +
                 std::to_string(outBits) + "]");
    }
  }
  os << "\n" << unused.declaration() << "\nendmodule\n\n`default_nettype wire\n";
  return os.str();
}

} // namespace rubick::emit::detail
