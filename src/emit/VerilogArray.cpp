// SPDX-License-Identifier: Apache-2.0
// The generated PE array. Per PE: a valid mask (is this PE's iteration at this cycle inside
// the tile and the domain?), a multiplier whose product is zero when invalid, and its place in
// each tensor's network. Inputs: held and broadcast values come straight from their port
// register; systolic values come from the upstream PE's pipeline register (or the port at a
// chain start). Outputs: the products of a group feed an adder tree of uniform depth; a held
// output accumulates per port; a multicast output leaves the tree; a systolic output adds each
// group's sum into a partial-sum chain that starts with the seed and ends at the port.

#include "rubick/emit/Verilog.h"

#include "VerilogText.h"
#include "Widths.h"

#include <sstream>

namespace rubick::emit {

using namespace detail;
using arch::Plan;
using arch::TensorPlan;

namespace {

std::string slice(int64_t index, int64_t width) {
  return "[" + std::to_string((index + 1) * width - 1) + ":" + std::to_string(index * width) + "]";
}

std::string peName(const Plan& pl, int e) {
  return std::to_string(e / pl.q) + "_" + std::to_string(e % pl.q);
}

} // namespace

std::string arrayModule(const Plan& pl) {
  std::ostringstream os;
  Unused unused;
  const int npe = static_cast<int>(pl.p * pl.q);
  const int64_t tw = pl.tauBits, vw = validWidth(pl), pw = pl.productBits;

  // Overlapped tiles (dse/Schedule.h): a PE may work for the previous tile, in its context.
  const bool overlap = pl.schedule.interval < pl.schedule.tileCycles;
  os << generatedBanner() << "// PE array for " << pl.statement << "\n"
     << "// dataflow " << pl.spec << " on " << pl.p << "x" << pl.q << " PEs\n"
     << "`default_nettype none\n\n"
     << "module " << pl.name << "_array (\n"
     << "  input  wire clk,\n"
     << "  input  wire signed " << range(tw) << " tau";
  if (overlap) os << ",\n  input  wire signed " << range(tw) << " tau_prev,\n  input  wire prev_on";
  for (size_t c = 0; c < pl.coords.size(); ++c)
    if (limitVaries(pl.coords[c])) {
      os << ",\n  input  wire signed " << range(vw) << " lim_" << c;
      if (overlap) os << ",\n  input  wire signed " << range(vw) << " lim_p_" << c;
    }
  for (const TensorPlan& t : pl.tensors) {
    int64_t w = t.ports.size() * t.wireBits;
    if (!t.output) {
      os << ",\n  input  wire " << range(w) << " " << t.id << "_in";
    } else {
      if (t.held || t.systolic) os << ",\n  input  wire " << range(w) << " " << t.id << "_seed";
      if (t.held && overlap)
        os << ",\n  input  wire " << range(int64_t(t.ports.size())) << " " << t.id << "_init";
      os << ",\n  output wire " << range(w) << " " << t.id << "_out";
    }
  }
  os << "\n);\n\n";

  // Valid masks.
  os << "  // Valid masks: u_c = a_c * tau + b_c(x, y) must lie in [0, limit_c) for each c:\n";
  for (size_t c = 0; c < pl.coords.size(); ++c) {
    const arch::Coordinate& co = pl.coords[c];
    os << "  //   u_" << c << " = " << co.name << ", a = " << co.a << ", limit "
       << (limitVaries(co) ? "lim_" + std::to_string(c) + " (smaller on the last tile)"
                           : std::to_string(co.factor))
       << "\n";
  }
  // Per context (the current tile; with overlap also the previous one): tau and the limits.
  const int nctx = overlap ? 2 : 1;
  const std::string ctxTau[2] = {"tau", "tau_prev"}, ctxSuffix[2] = {"", "_p"};
  for (int x = 0; x < nctx; ++x) {
    const std::string tv = ctxTau[x] + "_v";
    os << "  wire signed " << range(vw) << " " << tv << " = ";
    if (vw > tw)
      os << "{{" << (vw - tw) << "{" << ctxTau[x] << "[" << (tw - 1) << "]}}, " << ctxTau[x]
         << "};\n";
    else
      os << ctxTau[x] << ";\n";
    for (size_t c = 0; c < pl.coords.size(); ++c) {
      int64_t a = pl.coords[c].a;
      if (a == 0) continue;
      os << "  wire signed " << range(vw) << " at_" << c << ctxSuffix[x] << " = ";
      if (a == 1)
        os << tv << ";\n";
      else if (a == -1)
        os << "-" << tv << ";\n";
      else
        os << tv << " * " << slit(a, vw) << ";\n";
    }
  }
  bool anyDynamic = false;
  for (int e = 0; e < npe; ++e) {
    std::vector<std::string> terms[2];
    bool never = false;
    for (int x = 0; x < nctx; ++x)
      for (size_t c = 0; c < pl.coords.size(); ++c) {
        const arch::Coordinate& co = pl.coords[c];
        int64_t b = co.b[e];
        std::string lim =
            limitVaries(co) ? "lim" + ctxSuffix[x] + "_" + std::to_string(c) : slit(co.factor, vw);
        if (co.a == 0) {
          if (b < 0 || b >= co.factor)
            never = true;
          else if (limitVaries(co))
            terms[x].push_back("(" + slit(b, vw) + " < " + lim + ")");
          continue;
        }
        std::string u = "(at_" + std::to_string(c) + ctxSuffix[x] + " + " + slit(b, vw) + ")";
        terms[x].push_back("(" + u + " >= " + slit(0, vw) + ")");
        terms[x].push_back("(" + u + " < " + lim + ")");
      }
    os << "  wire valid_" << peName(pl, e) << " = ";
    if (never || terms[0].empty()) {
      os << (never ? "1'b0" : "1'b1") << ";\n";
      continue;
    }
    anyDynamic = true;
    for (int x = 0; x < nctx; ++x) {
      if (x) os << " ||\n    (prev_on && ";
      for (size_t i = 0; i < terms[x].size(); ++i)
        os << (i ? " && " : "") << terms[x][i];
      if (x) os << ")";
    }
    os << ";\n";
  }
  if (!anyDynamic)
    for (int x = 0; x < nctx; ++x)
      unused.add(ctxTau[x] + "_v");

  // Input networks.
  for (const TensorPlan& t : pl.tensors) {
    if (t.output) continue;
    const int64_t w = t.wireBits;
    os << "\n  // " << t.name << ": " << ir::toString(t.entry) << " input, " << t.ports.size()
       << " port(s), " << w << " bits\n";
    std::vector<bool> feedsOthers(npe, false);
    for (int e = 0; e < npe; ++e)
      if (t.upstream[e] >= 0) feedsOthers[t.upstream[e]] = true;
    for (int e = 0; e < npe; ++e)
      os << "  wire " << range(w) << " " << t.id << "_op_" << peName(pl, e) << ";\n";
    for (int e = 0; e < npe; ++e)
      if (feedsOthers[e])
        os << "  wire " << range(w) << " " << t.id << "_r_" << peName(pl, e) << ";\n";
    for (int e = 0; e < npe; ++e) {
      os << "  assign " << t.id << "_op_" << peName(pl, e) << " = ";
      if (t.upstream[e] >= 0)
        os << t.id << "_r_" << peName(pl, t.upstream[e]) << ";\n";
      else
        os << t.id << "_in" << slice(t.portOf[e], w) << ";\n";
    }
    for (int e = 0; e < npe; ++e)
      if (feedsOthers[e])
        os << "  rubick_pipe #(.W(" << w << ")) " << t.id << "_pipe_" << peName(pl, e)
           << " (.clk(clk), .d(" << t.id << "_op_" << peName(pl, e) << "), .q(" << t.id << "_r_"
           << peName(pl, e) << "));\n";
  }

  // Multipliers. A maximum or minimum takes what an invalid PE gives as a value: it gives one
  // that no valid value loses to.
  const int64_t outBits = pl.accumulatorBits;
  const int64_t invalid = foldInvalid(pl.fold, pw, outBits);
  const std::string invalidParam =
      pl.fold == dataflow::Fold::Sum ? std::string() : ", .INVALID(" + hexBits(invalid, 64) + ")";
  os << "\n  // Multipliers: prod = valid ? product of the operands : "
     << (pl.fold == dataflow::Fold::Sum ? std::string("0") : std::to_string(invalid))
     << ", registered.\n";
  std::vector<const TensorPlan*> ins;
  for (const TensorPlan& t : pl.tensors)
    if (!t.output) ins.push_back(&t);
  for (int e = 0; e < npe; ++e)
    os << "  wire signed " << range(pw) << " prod_" << peName(pl, e) << ";\n";
  // The constant factor, if any, is the last operand.
  const int64_t fw = dataflow::factorBits(pl.factor);
  const size_t nops = ins.size() + (fw ? 1 : 0);
  auto operand = [&](size_t k, int e) {
    if (k < ins.size()) return ins[k]->id + "_op_" + peName(pl, e);
    return k < nops ? hexBits(pl.factor, fw) : std::string("1'b0");
  };
  for (int e = 0; e < npe; ++e) {
    os << "  rubick_mul #(.N(" << nops << ")";
    for (size_t k = 0; k < 4; ++k)
      os << ", .W" << k << "(" << (k < ins.size() ? ins[k]->wireBits : k < nops ? fw : 1) << ")";
    os << ", .PW(" << pw << ")" << invalidParam << ") mul_" << peName(pl, e)
       << " (.clk(clk), .valid(valid_" << peName(pl, e) << ")";
    for (size_t k = 0; k < 4; ++k)
      os << ", .op" << k << "(" << operand(k, e) << ")";
    os << ", .prod(prod_" << peName(pl, e) << "));\n";
  }

  // Output networks.
  for (const TensorPlan& t : pl.tensors) {
    if (!t.output) continue;
    const int64_t aw = t.wireBits;
    os << "\n  // " << t.name << ": " << ir::toString(t.entry) << " output, " << t.ports.size()
       << " port(s), " << aw << "-bit sums, adder trees of " << t.treeInputs << " (depth "
       << t.treeDepth << ")\n";
    for (size_t g = 0; g < t.groups.size(); ++g) {
      os << "  wire signed " << range(aw) << " " << t.id << "_g" << g << ";\n";
      std::vector<std::string> members;
      for (size_t m = t.groups[g].size(); m-- > 0;)
        members.push_back("prod_" + peName(pl, t.groups[g][m]));
      int64_t pad = t.treeInputs - static_cast<int64_t>(t.groups[g].size());
      if (pad > 0)
        members.insert(members.begin(),
                       pl.fold == dataflow::Fold::Sum
                           ? "{" + std::to_string(pad * pw) + "{1'b0}}"
                           : "{" + std::to_string(pad) + "{" + hexBits(invalid, pw) + "}}");
      os << "  rubick_add_tree #(.N(" << t.treeInputs << "), .WI(" << pw << "), .WO(" << aw << ")"
         << foldParam(pl.fold) << ") " << t.id << "_tree" << g << " (.clk(clk), .in("
         << concat(members) << "), .sum(" << t.id << "_g" << g << "));\n";
    }
    // Held sums start over at tau = -1, or (overlapped tiles) when the top says, per bank.
    if (t.held && !overlap) os << "  wire " << t.id << "_init = (tau == " << slit(-1, tw) << ");\n";
    for (size_t p = 0; p < t.ports.size(); ++p) {
      const std::vector<int>& chain = t.chainOfPort[p];
      std::string outSlice = t.id + "_out" + slice(p, aw);
      std::string seed = t.id + "_seed" + slice(p, aw);
      if (t.held) {
        os << "  rubick_accum #(.W(" << aw << ")" << foldParam(pl.fold) << ") " << t.id << "_acc"
           << p << " (.clk(clk), .init(" << t.id << "_init"
           << (overlap ? "[" + std::to_string(p) + "]" : std::string()) << "), .init_val(" << seed
           << "), .in(" << t.id << "_g" << chain[0] << "), .acc(" << outSlice << "));\n";
      } else if (t.systolic) {
        for (size_t h = 0; h < chain.size(); ++h) {
          std::string sum = t.id + "_s" + std::to_string(p) + "_" + std::to_string(h);
          os << "  wire signed " << range(aw) << " " << sum << ";\n";
          os << "  rubick_psum #(.W(" << aw << ")" << foldParam(pl.fold) << ") " << t.id << "_psum"
             << p << "_" << h << " (.clk(clk), .sum_in("
             << (h == 0 ? seed : t.id + "_s" + std::to_string(p) + "_" + std::to_string(h - 1))
             << "), .add(" << t.id << "_g" << chain[h] << "), .sum_out(" << sum << "));\n";
        }
        os << "  assign " << outSlice << " = " << t.id << "_s" << p << "_" << chain.size() - 1
           << ";\n";
      } else {
        os << "  assign " << outSlice << " = " << t.id << "_g" << chain[0] << ";\n";
      }
    }
  }
  os << "\n" << unused.declaration() << "endmodule\n\n`default_nettype wire\n";
  return os.str();
}

} // namespace rubick::emit
