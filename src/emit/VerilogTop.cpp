// SPDX-License-Identifier: Apache-2.0
// The generated top: controller, per tensor an address generator and its banks, port
// registers for inputs, write-back (with read-modify-write) for outputs, the host ports, and
// the array. Event times follow dse/Schedule.h: input address at tau = te + hop0 - 2, held
// values read at -2 and loaded at -1, outputs written at their lag after the port time.

#include "rubick/emit/Verilog.h"

#include "VerilogHostPorts.h"
#include "VerilogMemoryCore.h"
#include "VerilogText.h"
#include "Widths.h"

#include <algorithm>
#include <map>
#include <sstream>

namespace rubick::emit {

using namespace detail;
using arch::Plan;
using arch::TensorPlan;

namespace {

std::string packed32(const std::vector<int64_t>& fields) {
  std::string s = "{";
  for (size_t i = fields.size(); i-- > 0;)
    s += "32'd" + std::to_string(fields[i]) + (i ? ", " : "");
  return s + "}";
}

// A resized copy of a signed value: sign-extended or truncated from `from` to `to` bits.
std::string resize(const std::string& v, int64_t from, int64_t to, Unused& unused) {
  if (from == to) return v;
  if (from > to) {
    unused.add(v);
    return v + "[" + std::to_string(to - 1) + ":0]";
  }
  return "{{" + std::to_string(to - from) + "{" + v + "[" + std::to_string(from - 1) + "]}}, " + v +
         "}";
}

} // namespace

std::vector<std::string> templatesUsed(const Plan& pl) {
  std::vector<std::string> t = {"rubick_ctrl", "rubick_agu", "rubick_bank", "rubick_mul",
                                "rubick_add_tree"};
  bool pipe = false, hold = false, accum = false, psum = false;
  for (const TensorPlan& tp : pl.tensors) {
    if (!tp.output) {
      hold |= tp.held;
      pipe |= !tp.held; // streaming port registers
    } else {
      accum |= tp.held;
      psum |= tp.systolic;
    }
  }
  if (pipe) t.push_back("rubick_pipe");
  if (hold) t.push_back("rubick_hold");
  if (accum) t.push_back("rubick_accum");
  if (psum) t.push_back("rubick_psum");
  // Systolic inputs use pipeline registers in the array.
  for (const TensorPlan& tp : pl.tensors)
    if (!tp.output && tp.systolic && std::find(t.begin(), t.end(), "rubick_pipe") == t.end())
      t.push_back("rubick_pipe");
  std::sort(t.begin(), t.end());
  return t;
}

namespace {

// The core's text: with host ports (`reload` null) or, for a memory design, with ping-pong banks
// and DMA ports.
// `streamed` (per tensor, PIM stream units): 1, inputs read from a stream port outside instead
// of banks inside (stream_need, stream_rdata: bank by bank, those tensors in plan order), and
// outputs written to a write port (wstream_valid, wstream_data); 2, inputs whose banks are
// outside, shared by the units (shared_rd, shared_raddr, shared_rdata).
std::string coreText(const Plan& pl, int64_t lanes, const std::vector<char>* reload,
                     const std::vector<char>* streamed = nullptr) {
  const bool memory = reload != nullptr;
  auto isStreamed = [&](size_t ti) { return streamed && (*streamed)[ti] == 1; };
  auto isShared = [&](size_t ti) { return streamed && (*streamed)[ti] == 2; };
  int64_t streamPorts = 0, streamBits = 0, writePorts = 0, writeBits = 0;
  int64_t sharedPorts = 0, sharedAw = 1, sharedW = 1;
  for (size_t ti = 0; ti < pl.tensors.size(); ++ti) {
    if (isShared(ti)) {
      sharedPorts += static_cast<int64_t>(pl.tensors[ti].ports.size());
      sharedAw = std::max(sharedAw, pl.tensors[ti].addressBits);
      sharedW = std::max(sharedW, pl.tensors[ti].elementBits);
    }
    if (isStreamed(ti)) {
      const int64_t n = static_cast<int64_t>(pl.tensors[ti].ports.size());
      (pl.tensors[ti].output ? writePorts : streamPorts) += n;
      (pl.tensors[ti].output ? writeBits : streamBits) = pl.tensors[ti].elementBits;
    }
  }
  std::vector<std::string> sharedRd, sharedAddr, sharedData; // per shared bank, in order
  std::vector<int64_t> sharedBits;
  std::vector<std::string> streamNeeds, streamData; // per streamed input bank, in order
  std::vector<std::string> writeValid, writeData;   // per streamed output bank
  std::ostringstream os;
  Unused unused;
  bool hostWrites = false; // some bank takes the host's writes
  const int64_t tw = pl.tauBits, ew = timeWidth(pl), vw = validWidth(pl);
  const dse::Schedule& sch = pl.schedule;
  const size_t nd = std::max<size_t>(1, pl.outer.size());
  int64_t maxExt = 1;
  std::vector<int64_t> extents;
  for (const arch::OuterDim& o : pl.outer) {
    extents.push_back(o.extent);
    maxExt = std::max(maxExt, o.extent);
  }
  if (extents.empty()) extents.push_back(1);
  const int64_t ow = arch::bitsFor(maxExt);
  size_t maxPorts = 1;
  int64_t ha = 1, hd = 1;
  for (const TensorPlan& t : pl.tensors) {
    maxPorts = std::max(maxPorts, t.ports.size());
    ha = std::max(ha, t.addressBits);
    hd = std::max(hd, t.elementBits);
  }
  const int64_t ts = arch::bitsFor(static_cast<int64_t>(pl.tensors.size()));
  const int64_t bs = arch::bitsFor(static_cast<int64_t>(maxPorts));

  os << generatedBanner() << "// " << pl.statement << "\n"
     << "// dataflow " << pl.spec << " on " << pl.p << "x" << pl.q << " PEs\n"
     << "// " << sch.tiles << " tile(s) of " << sch.tileCycles << " cycles (tau " << sch.first
     << " .. " << sch.last << "): done " << sch.latency
     << " cycles after the edge that samples start.\n"
     << (memory ? "// Banks are ping-pong pairs: the core uses the half its tensor's _half input "
                  "names, "
                  "the DMA ports the other.\n"
                : "// Host: write input banks and read output banks while busy is low (see "
                  "README.md).\n")
     << "`default_nettype none\n\n"
     << "module " << pl.name << (memory || streamed ? "_core" : "_top") << " (\n"
     << "  input  wire clk,\n"
     << "  input  wire rst,\n"
     << "  input  wire start,\n"
     << "  output wire busy,\n"
     << "  output wire done";
  const bool chain = memory && pl.chain;
  if (chain) os << ",\n  output wire run_next,\n  output wire run_done";
  if (memory)
    memoryPorts(os, pl, *reload);
  else
    os << ",\n"
       << "  input  wire " << (lanes > 1 ? range(lanes) + " " : "") << "host_we,\n"
       << "  input  wire " << range(lanes * ts) << " host_wtensor,\n"
       << "  input  wire " << range(lanes * bs) << " host_wbank,\n"
       << "  input  wire " << range(lanes * ha) << " host_waddr,\n"
       << "  input  wire " << range(lanes * hd) << " host_wdata,\n"
       << "  input  wire " << (lanes > 1 ? range(lanes) + " " : "") << "host_re,\n"
       << "  input  wire " << range(lanes * ts) << " host_rtensor,\n"
       << "  input  wire " << range(lanes * bs) << " host_rbank,\n"
       << "  input  wire " << range(lanes * ha) << " host_raddr,\n"
       << "  output reg  " << range(lanes * hd) << " host_rdata";
  if (streamed)
    os << ",\n  output wire " << range(streamPorts) << " stream_need,\n"
       << "  input  wire " << range(streamPorts * streamBits) << " stream_rdata";
  if (writePorts)
    os << ",\n  output wire " << range(writePorts) << " wstream_valid,\n"
       << "  output wire " << range(writePorts * writeBits) << " wstream_data";
  if (sharedPorts)
    os << ",\n  output wire " << range(sharedPorts) << " shared_rd,\n"
       << "  output wire " << range(sharedPorts * sharedAw) << " shared_raddr,\n"
       << "  input  wire " << range(sharedPorts * sharedW) << " shared_rdata";
  os << "\n);\n\n";

  // Controller.
  os << "  // Controller: tau runs " << sch.first << " .. " << sch.last
     << " in every tile; outer stamps (innermost first):";
  for (const arch::OuterDim& o : pl.outer)
    os << " " << o.name << " (" << o.extent << ")";
  os << "\n"
     << "  wire signed " << range(tw) << " tau, tau_prev;\n"
     << "  wire step, prev_on;\n"
     << "  wire " << range(nd * ow) << " stamps, stamps_prev;\n"
     << (chain ? "" : "  wire ctrl_next, ctrl_done;\n") << "  rubick_ctrl #(.TW(" << tw
     << "), .TAU_FIRST(" << slit(sch.first, tw) << "), .TAU_LAST(" << slit(sch.last, tw)
     << "), .NDIM(" << nd << "), .EXTENTS(" << packed32(extents) << "), .OW(" << ow
     << "), .INTERVAL(" << sch.interval << ")" << (chain ? ", .CHAIN(1)" : "") << ") ctrl (\n"
     << "    .clk(clk), .rst(rst), .start(start), .busy(busy), .done(done), .tau(tau), "
        ".step(step), .stamps(stamps),\n"
     << "    .prev_on(prev_on), .tau_prev(tau_prev), .stamps_prev(stamps_prev), .next("
     << (chain ? "run_next" : "ctrl_next") << "), .run_done(" << (chain ? "run_done" : "ctrl_done")
     << "));\n"
     << "  wire accept = start & ~busy;\n";
  if (!chain) {
    unused.add("ctrl_next");
    unused.add("ctrl_done");
  }
  unused.add("stamps");
  if (chain) {
    // Chained runs: the previous tile may belong to the run before, whose tensors use other
    // halves (and acc_zero): each context keeps its own, latched when its run starts.
    os << "  // Per context (current _c, previous tile _p): each tensor's half and acc_zero.\n";
    for (const TensorPlan& t : pl.tensors) {
      os << "  reg " << t.id << "_half_c, " << t.id << "_half_p;\n"
         << "  always @(posedge clk) begin\n"
         << "    if (start) " << t.id << "_half_c <= " << t.id << "_half;\n"
         << "    if (step) " << t.id << "_half_p <= " << t.id << "_half_c;\n"
         << "  end\n";
      if (!t.bufferRecurs) continue;
      os << "  reg " << t.id << "_acc_c, " << t.id << "_acc_p;\n"
         << "  always @(posedge clk) begin\n"
         << "    if (start) " << t.id << "_acc_c <= " << t.id << "_acc_zero;\n"
         << "    if (step) " << t.id << "_acc_p <= " << t.id << "_acc_c;\n"
         << "  end\n";
    }
  }
  // Overlapped tiles: while the previous tile still runs, every event is also checked in its
  // context (tau_prev, stamps_prev, each tensor's base_prev), and takes that context's address.
  const bool overlap = sch.interval < sch.tileCycles;
  unused.add("stamps_prev"); // only the limits and first visits of the previous tile use it
  if (!overlap) {
    unused.add("prev_on");
    unused.add("tau_prev");
  }
  auto stampOf = [&](const std::string& v, size_t o) {
    return v + "[" + std::to_string((o + 1) * ow - 1) + ":" + std::to_string(o * ow) + "]";
  };
  auto stamp = [&](size_t o) { return stampOf("stamps", o); };
  for (const char* t : {"tau", "tau_prev"}) {
    if (!overlap && std::string(t) == "tau_prev") break;
    os << "  wire signed " << range(ew) << " " << t << "_e = ";
    if (ew > tw)
      os << "{{" << (ew - tw) << "{" << t << "[" << (tw - 1) << "]}}, " << t << "};\n";
    else
      os << t << ";\n";
  }
  bool usedTauE = false;

  // Loop limits that change on a partial last tile.
  std::vector<std::string> limPorts;
  for (size_t c = 0; c < pl.coords.size(); ++c) {
    const arch::Coordinate& co = pl.coords[c];
    if (!limitVaries(co)) continue;
    const int64_t last = pl.outer[co.outerDim].extent - 1;
    os << "  wire signed " << range(vw) << " lim_" << c << " = (" << stamp(co.outerDim)
       << " == " << ulit(last, ow) << ") ? " << slit(co.lastLimit, vw) << " : "
       << slit(co.factor, vw) << "; // " << co.name << " on the last tile\n";
    limPorts.push_back(".lim_" + std::to_string(c) + "(lim_" + std::to_string(c) + ")");
    if (!overlap) continue;
    os << "  wire signed " << range(vw) << " lim_p_" << c << " = ("
       << stampOf("stamps_prev", co.outerDim) << " == " << ulit(last, ow) << ") ? "
       << slit(co.lastLimit, vw) << " : " << slit(co.factor, vw)
       << "; // the same for the previous tile\n";
    limPorts.push_back(".lim_p_" + std::to_string(c) + "(lim_p_" + std::to_string(c) + ")");
  }

  std::vector<std::string> arrayPorts;
  std::vector<std::pair<std::string, int64_t>> readSources; // (rdata wire, width) per bank
  std::vector<std::pair<int, int>> readIds;                 // (tensor, bank)
  for (size_t ti = 0; ti < pl.tensors.size(); ++ti) {
    const TensorPlan& t = pl.tensors[ti];
    const std::string& id = t.id;
    const int64_t w = t.elementBits, aw = t.addressBits, nw = t.wireBits;
    const int64_t d = t.treeDepth;
    os << "\n  // " << t.name << " (" << (t.output ? "output" : "input")
       << "): " << ir::toString(t.entry) << ", " << t.ports.size() << " bank(s) of " << t.depth
       << " x " << w << " bits, port times " << t.teMin << " .. " << t.teMax << "\n";
    os << "  wire " << range(aw) << " " << id << "_base, " << id << "_base_p;\n";
    std::vector<int64_t> strides = t.strides;
    if (strides.empty()) strides.push_back(0);
    os << "  rubick_agu #(.AW(" << aw << "), .NDIM(" << nd << "), .EXTENTS(" << packed32(extents)
       << "), .STRIDES(" << packed32(strides) << ")) " << id
       << "_agu (.clk(clk), .rst(rst), .start(accept), .step(step), .base(" << id
       << "_base), .base_prev(" << id << "_base_p));\n";
    if (!overlap) unused.add(id + "_base_p");
    std::string first = "1'b1", firstP = "1'b1";
    if (t.accumulates) {
      // `+=`: the host wrote the output's start values; every visit adds to the bank.
      first = firstP = "1'b0";
    } else if (t.recurs) {
      first = id + "_first";
      firstP = id + "_first_p";
      for (const std::string& f : {first, firstP}) {
        if (f == firstP && !overlap) break;
        os << "  wire " << f << " =";
        for (size_t k = 0; k < t.recurDims.size(); ++k)
          os << (k ? " &&" : "") << " ("
             << stampOf(f == first ? "stamps" : "stamps_prev", t.recurDims[k])
             << " == " << ulit(0, ow) << ")";
        if (t.bufferRecurs)
          os << (t.recurDims.empty() ? " " : " && ") << id
             << (!chain       ? "_acc_zero"
                 : f == first ? "_acc_c"
                              : "_acc_p");
        os << (f == first ? "; // first visit of its partial sums\n"
                          : "; // ... of the previous tile\n");
      }
    }

    // Port-time windows, one per distinct shift (te = tau_e + shift), with read/write enables.
    std::map<int64_t, std::string> te;
    auto timeAt = [&](int64_t shift) {
      auto it = te.find(shift);
      if (it != te.end()) return it->second;
      std::string n =
          id + "_te" + (shift < 0 ? "m" + std::to_string(-shift) : std::to_string(shift));
      os << "  wire signed " << range(ew) << " " << n << " = tau_e + " << slit(shift, ew) << ";\n";
      os << "  wire " << n << "_in = busy && (" << n << " >= " << slit(t.teMin, ew) << ") && (" << n
         << " <= " << slit(t.teMax, ew) << ");\n";
      os << "  wire " << range(ew) << " " << n << "_off = " << n << " - " << slit(t.teMin, ew)
         << ";\n";
      unused.add(n + "_off");
      usedTauE = true;
      te[shift] = n;
      return n;
    };
    auto addrOf = [&](const std::string& n) {
      std::string off = ew >= aw ? n + "_off[" + std::to_string(aw - 1) + ":0]"
                                 : "{" + std::to_string(aw - ew) + "'d0, " + n + "_off}";
      return "(" + off + " + " + id + "_base)";
    };
    std::string tauIs = "(tau == ";
    std::vector<std::string> toArray, inits;

    // Overlapped tiles: an event of bank p in the current tile (context 0) or the previous one
    // (context 1), on the port's own window. `winEvent`: at port times te = tau + shift in the
    // window; `tauEvent`: at one tau. Both name `<n>_c0`, `<n>_c1`; the address follows the
    // context whose event it is.
    const std::string ctxTau[2] = {"tau", "tau_prev"}, ctxGate[2] = {"busy", "prev_on"};
    const std::string ctxBase[2] = {id + "_base", id + "_base_p"};
    auto offBits = [&](const std::string& n) {
      return ew >= aw ? n + "_off[" + std::to_string(aw - 1) + ":0]"
                      : "{" + std::to_string(aw - ew) + "'d0, " + n + "_off}";
    };
    auto winEvent = [&](const std::string& n, int64_t shift, const dse::Window& win) {
      for (int c = 0; c < 2; ++c) {
        const std::string e = n + "_c" + std::to_string(c);
        os << "  wire signed " << range(ew) << " " << e << "_te = " << ctxTau[c] << "_e + "
           << slit(shift, ew) << ";\n"
           << "  wire " << e << " = " << ctxGate[c] << " && (" << e << "_te >= " << slit(win.lo, ew)
           << ") && (" << e << "_te <= " << slit(win.hi, ew) << ");\n"
           << "  wire " << range(ew) << " " << e << "_off = " << e << "_te - " << slit(t.teMin, ew)
           << ";\n";
        unused.add(e + "_off");
      }
      usedTauE = true;
      return "(" + n + "_c0 || " + n + "_c1)";
    };
    auto winAddr = [&](const std::string& n) {
      return "(" + n + "_c1 ? (" + offBits(n + "_c1") + " + " + ctxBase[1] + ") : (" +
             offBits(n + "_c0") + " + " + ctxBase[0] + "))";
    };
    auto tauEvent = [&](const std::string& n, int64_t at) {
      for (int c = 0; c < 2; ++c)
        os << "  wire " << n << "_c" << c << " = " << ctxGate[c] << " && (" << ctxTau[c]
           << " == " << slit(at, tw) << ");\n";
      return "(" + n + "_c0 || " + n + "_c1)";
    };
    auto tauAddr = [&](const std::string& n) {
      return "(" + n + "_c1 ? " + ctxBase[1] + " : " + ctxBase[0] + ")";
    };
    // The seed of a recurring sum: zero on its first visit, in the context of the event `n`.
    auto seedOf = [&](const std::string& n, const std::string& rdata) {
      return "((" + n + "_c1 ? " + firstP + " : " + first + ") ? " +
             foldIdentity(pl.fold, t.wireBits) + " : " + resize(rdata, w, t.wireBits, unused) + ")";
    };

    for (size_t p = 0; p < t.ports.size(); ++p) {
      std::string rd = "1'b0", raddr = id + "_base", wr = "1'b0", waddr = id + "_base", wdata;
      std::string bank = id + "_bank" + std::to_string(p);
      std::string rdata = id + "_rdata" + std::to_string(p);
      os << "  wire " << range(w) << " " << rdata << ";\n";
      const dse::Window& win = t.window[p];
      const std::string pn = id + "_p" + std::to_string(p);
      if (overlap && win.empty()) {
        // A bank no PE uses in a full tile: never read or written by the core.
        if (!t.output) {
          os << "  wire " << range(w) << " " << id << "_port" << p << " = " << rdata << ";\n";
          toArray.push_back(id + "_port" + std::to_string(p));
        } else {
          std::string out = id + "_out" + std::to_string(p);
          os << "  wire signed " << range(nw) << " " << out << ";\n";
          if (t.held || t.systolic)
            os << "  wire signed " << range(nw) << " " << id << "_seed" << p << " = "
               << foldIdentity(pl.fold, nw) << ";\n";
          toArray.push_back(out);
          wdata = resize(out, nw, w, unused);
          if (t.recurs) unused.add(rdata); // no partial sum to read back
          if (t.held) inits.push_back("1'b0");
        }
      } else if (overlap && !t.output) {
        os << "  wire " << range(w) << " " << id << "_port" << p << ";\n";
        if (t.held) {
          rd = tauEvent(pn + "_rd", win.lo - 2);
          raddr = tauAddr(pn + "_rd");
          const std::string load = tauEvent(pn + "_ld", win.lo - 1);
          os << "  rubick_hold #(.W(" << w << ")) " << id << "_hold" << p << " (.clk(clk), .load("
             << load << "), .d(" << rdata << "), .q(" << id << "_port" << p << "));\n";
        } else {
          rd = winEvent(pn + "_rd", 2 - t.hop0[p], win);
          raddr = winAddr(pn + "_rd");
          os << "  rubick_pipe #(.W(" << w << ")) " << id << "_pipe" << p << " (.clk(clk), .d("
             << rdata << "), .q(" << id << "_port" << p << "));\n";
        }
        toArray.push_back(id + "_port" + std::to_string(p));
      } else if (overlap) {
        std::string out = id + "_out" + std::to_string(p);
        os << "  wire signed " << range(nw) << " " << out << ";\n";
        toArray.push_back(out);
        std::string seed = id + "_seed" + std::to_string(p);
        wdata = resize(out, nw, w, unused);
        if (t.held) {
          if (t.recurs) {
            rd = tauEvent(pn + "_rd", win.lo - 2);
            raddr = tauAddr(pn + "_rd");
          }
          inits.push_back(tauEvent(pn + "_init", win.lo - 1));
          os << "  wire signed " << range(nw) << " " << seed << " = "
             << (t.recurs ? seedOf(pn + "_init", rdata) : foldIdentity(pl.fold, nw)) << ";\n";
          wr = tauEvent(pn + "_wr", win.hi + 2 + d);
          waddr = tauAddr(pn + "_wr");
        } else if (t.systolic) {
          const int64_t chain = static_cast<int64_t>(t.chainOfPort[p].size());
          std::string seedValue = foldIdentity(pl.fold, nw);
          if (t.recurs) {
            rd = winEvent(pn + "_rd", -(t.hop0[p] + d), win);
            raddr = winAddr(pn + "_rd");
            winEvent(pn + "_sd", -(t.hop0[p] + d + 1), win);
            unused.add(pn + "_sd_c0"); // only which context it is matters
            seedValue = seedOf(pn + "_sd", rdata);
          }
          os << "  wire signed " << range(nw) << " " << seed << " = " << seedValue << ";\n";
          wr = winEvent(pn + "_wr", -(t.hop0[p] + chain + 1 + d), win);
          waddr = winAddr(pn + "_wr");
        } else if (t.recurs) { // multicast, read-modify-write
          rd = winEvent(pn + "_rd", -d, win);
          raddr = winAddr(pn + "_rd");
          winEvent(pn + "_sd", -(1 + d), win);
          unused.add(pn + "_sd_c0"); // only which context it is matters
          std::string acc = id + "_rmw" + std::to_string(p);
          os << "  reg signed " << range(nw) << " " << acc << ";\n"
             << "  always @(posedge clk) " << acc
             << " <= " << foldCombine(pl.fold, out, seedOf(pn + "_sd", rdata)) << ";\n";
          wr = winEvent(pn + "_wr", -(2 + d), win);
          waddr = winAddr(pn + "_wr");
          wdata = resize(acc, nw, w, unused);
        } else { // multicast
          wr = winEvent(pn + "_wr", -(1 + d), win);
          waddr = winAddr(pn + "_wr");
        }
      } else if (!t.output) {
        if (t.held) {
          rd = "busy && " + tauIs + slit(-2, tw) + ")";
          os << "  wire " << range(w) << " " << id << "_port" << p << ";\n"
             << "  rubick_hold #(.W(" << w << ")) " << id << "_hold" << p
             << " (.clk(clk), .load(busy && " << tauIs << slit(-1, tw) << ")), .d(" << rdata
             << "), .q(" << id << "_port" << p << "));\n";
        } else {
          std::string n = timeAt(2 - t.hop0[p]);
          rd = n + "_in";
          raddr = addrOf(n);
          os << "  wire " << range(w) << " " << id << "_port" << p << ";\n"
             << "  rubick_pipe #(.W(" << w << ")) " << id << "_pipe" << p << " (.clk(clk), .d("
             << rdata << "), .q(" << id << "_port" << p << "));\n";
        }
        toArray.push_back(id + "_port" + std::to_string(p));
      } else {
        std::string out = id + "_out" + std::to_string(p);
        os << "  wire signed " << range(nw) << " " << out << ";\n";
        toArray.push_back(out);
        std::string seed = id + "_seed" + std::to_string(p);
        std::string oldValue = t.recurs ? "(" + first + " ? " + foldIdentity(pl.fold, nw) + " : " +
                                              resize(rdata, w, nw, unused) + ")"
                                        : foldIdentity(pl.fold, nw);
        if (t.held) {
          if (t.recurs) rd = "busy && " + tauIs + slit(-2, tw) + ")";
          os << "  wire signed " << range(nw) << " " << seed << " = " << oldValue << ";\n";
          wr = "busy && " + tauIs + slit(sch.t1Extent + 1 + d, tw) + ")";
          wdata = resize(out, nw, w, unused);
        } else if (t.systolic) {
          int64_t chain = static_cast<int64_t>(t.chainOfPort[p].size());
          if (t.recurs) {
            std::string n = timeAt(-(t.hop0[p] + d));
            rd = n + "_in";
            raddr = addrOf(n);
          }
          os << "  wire signed " << range(nw) << " " << seed << " = " << oldValue << ";\n";
          std::string n = timeAt(-(t.hop0[p] + chain - 1 + 2 + d));
          wr = n + "_in";
          waddr = addrOf(n);
          wdata = resize(out, nw, w, unused);
        } else if (t.recurs) { // multicast, read-modify-write
          std::string nr = timeAt(-d);
          rd = nr + "_in";
          raddr = addrOf(nr);
          std::string acc = id + "_rmw" + std::to_string(p);
          os << "  reg signed " << range(nw) << " " << acc << ";\n"
             << "  always @(posedge clk) " << acc << " <= " << foldCombine(pl.fold, out, oldValue)
             << ";\n";
          std::string nw2 = timeAt(-(2 + d));
          wr = nw2 + "_in";
          waddr = addrOf(nw2);
          wdata = resize(acc, nw, w, unused);
        } else { // multicast
          std::string n = timeAt(-(1 + d));
          wr = n + "_in";
          waddr = addrOf(n);
          wdata = resize(out, nw, w, unused);
        }
      }
      if (isStreamed(ti) && t.output) {
        // No bank: each write goes to the write port, in bank order.
        writeValid.push_back(wr);
        writeData.push_back(wdata);
        os << "  assign " << rdata << " = " << ulit(0, w) << "; // no bank to read\n";
        unused.add(rdata);
        continue;
      }
      if (isShared(ti)) {
        // The bank is outside, shared by every unit: its read enable and address go out.
        sharedRd.push_back(rd);
        sharedAddr.push_back(t.addressBits == sharedAw
                                 ? raddr
                                 : "{" + ulit(0, sharedAw - t.addressBits) + ", " + raddr + "}");
        sharedData.push_back(rdata);
        sharedBits.push_back(w);
        continue;
      }
      if (isStreamed(ti)) {
        // No bank: the stream port gives the word of each read, in the cycle after it.
        streamNeeds.push_back(rd);
        streamData.push_back(rdata);
        continue;
      }
      if (memory) {
        if (t.output && !t.recurs) unused.add(rdata); // only the DMA reads it
        // The previous context's part of a read or write (chained runs only; overlap then).
        const std::string rdPrev = rd == "1'b0" ? rd : pn + "_rd_c1";
        const std::string wrPrev = wr == "1'b0" ? wr : pn + "_wr_c1";
        bankPair(os, {id, bank, p, w, t.depth, aw, chain},
                 {rd, raddr, wr, waddr, wdata, rdata, rdPrev, wrPrev}, !t.output || (*reload)[ti],
                 t.output);
        continue;
      }
      hostWrites = true;
      std::string hostW = "host_we && (host_wtensor == " + ulit(ti, ts) +
                          ") && (host_wbank == " + ulit(p, bs) + ")";
      std::string hostR = "host_re && (host_rtensor == " + ulit(ti, ts) +
                          ") && (host_rbank == " + ulit(p, bs) + ")";
      std::string hostWaddr =
          aw == ha ? "host_waddr" : "host_waddr[" + std::to_string(aw - 1) + ":0]";
      std::string hostRaddr =
          aw == ha ? "host_raddr" : "host_raddr[" + std::to_string(aw - 1) + ":0]";
      std::string hostWdata =
          w == hd ? "host_wdata" : "host_wdata[" + std::to_string(w - 1) + ":0]";
      if (lanes > 1)
        laneSelect(os, bank, static_cast<int64_t>(ti), static_cast<int64_t>(p), lanes,
                   {ts, bs, ha, hd, aw, w}, hostW, hostR, hostWaddr, hostRaddr, hostWdata);
      os << "  rubick_bank #(.WIDTH(" << w << "), .DEPTH(" << t.depth << "), .AW(" << aw << ")) "
         << bank << " (\n"
         << "    .clk(clk),\n"
         << "    .rd_en(busy ? (" << rd << ") : (" << hostR << ")),\n"
         << "    .rd_addr(busy ? " << raddr << " : " << hostRaddr << "),\n"
         << "    .rd_data(" << rdata << "),\n"
         << "    .wr_en(busy ? (" << wr << ") : (" << hostW << ")),\n"
         << "    .wr_addr(busy ? " << waddr << " : " << hostWaddr << "),\n"
         << "    .wr_data(" << (t.output ? "busy ? " + wdata + " : " : "") << hostWdata << "));\n";
      readSources.push_back({rdata, w});
      readIds.push_back({static_cast<int>(ti), static_cast<int>(p)});
    }
    // Ports packed for the array, bank 0 in the low bits.
    std::vector<std::string> high(toArray.rbegin(), toArray.rend());
    std::string packed = concat(high);
    if (!t.output) {
      arrayPorts.push_back("." + id + "_in(" + packed + ")");
    } else {
      if (t.held || t.systolic) {
        std::vector<std::string> seeds;
        for (size_t p = t.ports.size(); p-- > 0;)
          seeds.push_back(id + "_seed" + std::to_string(p));
        arrayPorts.push_back("." + id + "_seed(" + concat(seeds) + ")");
      }
      if (overlap && t.held) {
        std::vector<std::string> high(inits.rbegin(), inits.rend());
        arrayPorts.push_back("." + id + "_init(" + concat(high) + ")");
      }
      arrayPorts.push_back("." + id + "_out(" + packed + ")");
    }
  }
  if (streamed) {
    os << "\n  // Streamed inputs: each read enable asks the stream port for the next word.\n";
    std::vector<std::string> high(streamNeeds.rbegin(), streamNeeds.rend());
    os << "  assign stream_need = " << concat(high) << ";\n";
    for (size_t k = 0; k < streamData.size(); ++k)
      os << "  assign " << streamData[k] << " = stream_rdata[" << (k + 1) * streamBits - 1 << ":"
         << k * streamBits << "];\n";
    if (writePorts) {
      os << "  // Streamed outputs: each write enable hands the write port a word.\n";
      std::vector<std::string> v(writeValid.rbegin(), writeValid.rend());
      std::vector<std::string> d(writeData.rbegin(), writeData.rend());
      os << "  assign wstream_valid = " << concat(v) << ";\n"
         << "  assign wstream_data = " << concat(d) << ";\n";
    }
    if (sharedPorts) {
      os << "  // Shared inputs: their banks are outside, read by every unit at once.\n";
      std::vector<std::string> rd(sharedRd.rbegin(), sharedRd.rend());
      std::vector<std::string> ad(sharedAddr.rbegin(), sharedAddr.rend());
      os << "  assign shared_rd = " << concat(rd) << ";\n"
         << "  assign shared_raddr = " << concat(ad) << ";\n";
      for (size_t k = 0; k < sharedData.size(); ++k) {
        const int64_t lo = static_cast<int64_t>(k) * sharedW;
        os << "  assign " << sharedData[k] << " = shared_rdata[" << lo + sharedBits[k] - 1 << ":"
           << lo << "];\n";
        if (sharedBits[k] < sharedW)
          unused.add("shared_rdata[" + std::to_string(lo + sharedW - 1) + ":" +
                     std::to_string(lo + sharedBits[k]) + "]");
      }
    }
    for (size_t ti = 0; ti < pl.tensors.size(); ++ti)
      if (isStreamed(ti)) { // the stream is in order: no addresses
        unused.add(pl.tensors[ti].id + "_base");
        if (overlap) unused.add(pl.tensors[ti].id + "_base_p");
      }
  }
  if (!usedTauE) unused.add("tau_e");
  if (overlap) unused.add("tau_prev_e"); // held-only designs decode tau_prev directly
  if (!memory) {
    unused.add("host_waddr");
    unused.add("host_raddr");
    unused.add("host_wdata");
    // A PIM core whose inputs all stream and whose output goes to the banks: nothing to write.
    if (!hostWrites) {
      unused.add("host_we");
      unused.add("host_wtensor");
      unused.add("host_wbank");
    }
  }
  unused.add("step");

  // The array.
  os << "\n  " << pl.name << "_array array (\n    .clk(clk),\n    .tau(tau)";
  if (overlap) os << ",\n    .tau_prev(tau_prev),\n    .prev_on(prev_on)";
  for (const std::string& l : limPorts)
    os << ",\n    " << l;
  for (const std::string& a : arrayPorts)
    os << ",\n    " << a;
  os << ");\n";

  if (lanes > 1)
    laneReads(os, readSources, readIds, lanes, ts, bs, hd);
  else if (!memory)
    hostReads(os, readSources, readIds, ts, bs, hd);
  os << unused.declaration() << "endmodule\n\n`default_nettype wire\n";
  return os.str();
}

} // namespace

std::string topModule(const Plan& pl, int64_t lanes) {
  return coreText(pl, lanes, nullptr);
}

std::string streamCoreModule(const Plan& pl, const std::vector<char>& streamed) {
  if (streamed.size() != pl.tensors.size())
    throw std::logic_error("streamCoreModule: stream flags for " + std::to_string(streamed.size()) +
                           " of " + std::to_string(pl.tensors.size()) + " tensors");
  return coreText(pl, 1, nullptr, &streamed);
}

std::string coreModule(const Plan& core, const std::vector<char>& reload) {
  if (reload.size() != core.tensors.size())
    throw std::logic_error("coreModule: reload flags for " + std::to_string(reload.size()) +
                           " of " + std::to_string(core.tensors.size()) + " tensors");
  return coreText(core, 1, &reload);
}

} // namespace rubick::emit
