// The generated top: controller, per tensor an address generator and its banks, port
// registers for inputs, write-back (with read-modify-write) for outputs, the host ports, and
// the array. Event times follow dse/Schedule.h: input address at tau = te + hop0 - 2, held
// values read at -2 and loaded at -1, outputs written at their lag after the port time.

#include "rubick/emit/Verilog.h"

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

struct LaneWidths {
  int64_t ts, bs, ha, hd, aw, w; // host port fields; the bank's address and data widths
};

// A bank's share of a W-lane host port: the lanes that address it this cycle (the schedule
// guarantees at most one, or several reading one address) and the address and data of the
// first of them. Replaces the one-lane strings the bank instance uses.
void laneSelect(std::ostream& os, const std::string& bank, int64_t ti, int64_t p, int64_t lanes,
                const LaneWidths& x, std::string& hostW, std::string& hostR, std::string& hostWaddr,
                std::string& hostRaddr, std::string& hostWdata) {
  auto field = [](const std::string& v, int64_t lane, int64_t per, int64_t use) {
    return v + "[" + std::to_string(lane * per + use - 1) + ":" + std::to_string(lane * per) + "]";
  };
  auto hit = [&](const std::string& dir, int64_t l) {
    return "host_" + dir + "e[" + std::to_string(l) + "] && (" +
           field("host_" + dir + "tensor", l, x.ts, x.ts) + " == " + ulit(ti, x.ts) + ") && (" +
           field("host_" + dir + "bank", l, x.bs, x.bs) + " == " + ulit(p, x.bs) + ")";
  };
  os << "  wire " << range(lanes) << " " << bank << "_hw = {";
  for (int64_t l = lanes; l-- > 0;)
    os << hit("w", l) << (l ? ", " : "};\n");
  os << "  wire " << range(lanes) << " " << bank << "_hr = {";
  for (int64_t l = lanes; l-- > 0;)
    os << hit("r", l) << (l ? ", " : "};\n");
  os << "  reg " << range(x.aw) << " " << bank << "_hwaddr, " << bank << "_hraddr;\n"
     << "  reg " << range(x.w) << " " << bank << "_hwdata;\n"
     << "  always @(*) begin\n"
     << "    " << bank << "_hwaddr = " << ulit(0, x.aw) << ";\n"
     << "    " << bank << "_hwdata = " << ulit(0, x.w) << ";\n"
     << "    " << bank << "_hraddr = " << ulit(0, x.aw) << ";\n";
  for (int64_t l = lanes; l-- > 0;) // the lowest lane wins
    os << "    if (" << bank << "_hw[" << l << "]) begin\n"
       << "      " << bank << "_hwaddr = " << field("host_waddr", l, x.ha, x.aw) << ";\n"
       << "      " << bank << "_hwdata = " << field("host_wdata", l, x.hd, x.w) << ";\n"
       << "    end\n"
       << "    if (" << bank << "_hr[" << l << "]) " << bank
       << "_hraddr = " << field("host_raddr", l, x.ha, x.aw) << ";\n";
  os << "  end\n";
  hostW = "|" + bank + "_hw";
  hostR = "|" + bank + "_hr";
  hostWaddr = bank + "_hwaddr";
  hostRaddr = bank + "_hraddr";
  hostWdata = bank + "_hwdata";
}

// W-lane host reads: each lane gets the bank it selected in the previous cycle.
void laneReads(std::ostream& os, const std::vector<std::pair<std::string, int64_t>>& sources,
               const std::vector<std::pair<int, int>>& ids, int64_t lanes, int64_t ts, int64_t bs,
               int64_t hd) {
  os << "\n  // Host reads, per lane: data of the bank it selected in the previous cycle.\n"
     << "  reg " << range(lanes * ts) << " rsel_tensor;\n"
     << "  reg " << range(lanes * bs) << " rsel_bank;\n"
     << "  always @(posedge clk) begin\n"
     << "    if (!busy) begin\n"
     << "      rsel_tensor <= host_rtensor;\n"
     << "      rsel_bank <= host_rbank;\n"
     << "    end\n"
     << "  end\n"
     << "  always @(*) begin\n"
     << "    host_rdata = " << ulit(0, lanes * hd) << ";\n";
  for (int64_t l = 0; l < lanes; ++l) {
    const std::string t =
        "rsel_tensor[" + std::to_string((l + 1) * ts - 1) + ":" + std::to_string(l * ts) + "]";
    const std::string b =
        "rsel_bank[" + std::to_string((l + 1) * bs - 1) + ":" + std::to_string(l * bs) + "]";
    const std::string out =
        "host_rdata[" + std::to_string((l + 1) * hd - 1) + ":" + std::to_string(l * hd) + "]";
    os << "    case ({" << t << ", " << b << "})\n";
    for (size_t i = 0; i < sources.size(); ++i) {
      const auto& [wire, w] = sources[i];
      os << "      {" << ulit(ids[i].first, ts) << ", " << ulit(ids[i].second, bs) << "}: " << out
         << " = " << (w == hd ? wire : "{" + std::to_string(hd - w) + "'d0, " + wire + "}")
         << ";\n";
    }
    os << "      default: " << out << " = " << ulit(0, hd) << ";\n"
       << "    endcase\n";
  }
  os << "  end\n\n";
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

std::string topModule(const Plan& pl, int64_t lanes) {
  std::ostringstream os;
  Unused unused;
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

  os << "// Generated by rubick " << RUBICK_VERSION << ". Do not edit.\n"
     << "// " << pl.statement << "\n"
     << "// dataflow " << pl.spec << " on " << pl.p << "x" << pl.q << " PEs\n"
     << "// " << sch.tiles << " tile(s) of " << sch.tileCycles << " cycles (tau " << sch.first
     << " .. " << sch.last << "): done " << sch.latency
     << " cycles after the edge that samples start.\n"
     << "// Host: write input banks and read output banks while busy is low (see README.md).\n"
     << "`default_nettype none\n\n"
     << "module " << pl.name << "_top (\n"
     << "  input  wire clk,\n"
     << "  input  wire rst,\n"
     << "  input  wire start,\n"
     << "  output wire busy,\n"
     << "  output wire done,\n"
     << "  input  wire " << (lanes > 1 ? range(lanes) + " " : "") << "host_we,\n"
     << "  input  wire " << range(lanes * ts) << " host_wtensor,\n"
     << "  input  wire " << range(lanes * bs) << " host_wbank,\n"
     << "  input  wire " << range(lanes * ha) << " host_waddr,\n"
     << "  input  wire " << range(lanes * hd) << " host_wdata,\n"
     << "  input  wire " << (lanes > 1 ? range(lanes) + " " : "") << "host_re,\n"
     << "  input  wire " << range(lanes * ts) << " host_rtensor,\n"
     << "  input  wire " << range(lanes * bs) << " host_rbank,\n"
     << "  input  wire " << range(lanes * ha) << " host_raddr,\n"
     << "  output reg  " << range(lanes * hd) << " host_rdata\n"
     << ");\n\n";

  // Controller.
  os << "  // Controller: tau runs " << sch.first << " .. " << sch.last
     << " in every tile; outer stamps (innermost first):";
  for (const arch::OuterDim& o : pl.outer)
    os << " " << o.name << " (" << o.extent << ")";
  os << "\n"
     << "  wire signed " << range(tw) << " tau;\n"
     << "  wire step;\n"
     << "  wire " << range(nd * ow) << " stamps;\n"
     << "  rubick_ctrl #(.TW(" << tw << "), .TAU_FIRST(" << slit(sch.first, tw) << "), .TAU_LAST("
     << slit(sch.last, tw) << "), .NDIM(" << nd << "), .EXTENTS(" << packed32(extents) << "), .OW("
     << ow << ")) ctrl (\n"
     << "    .clk(clk), .rst(rst), .start(start), .busy(busy), .done(done), .tau(tau), "
        ".step(step), .stamps(stamps));\n"
     << "  wire accept = start & ~busy;\n";
  unused.add("stamps");
  auto stamp = [&](size_t o) {
    return "stamps[" + std::to_string((o + 1) * ow - 1) + ":" + std::to_string(o * ow) + "]";
  };
  os << "  wire signed " << range(ew) << " tau_e = ";
  if (ew > tw)
    os << "{{" << (ew - tw) << "{tau[" << (tw - 1) << "]}}, tau};\n";
  else
    os << "tau;\n";
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
    os << "  wire " << range(aw) << " " << id << "_base;\n";
    std::vector<int64_t> strides = t.strides;
    if (strides.empty()) strides.push_back(0);
    os << "  rubick_agu #(.AW(" << aw << "), .NDIM(" << nd << "), .EXTENTS(" << packed32(extents)
       << "), .STRIDES(" << packed32(strides) << ")) " << id
       << "_agu (.clk(clk), .rst(rst), .start(accept), .step(step), .base(" << id << "_base));\n";
    std::string first = "1'b1";
    if (t.recurs) {
      first = id + "_first";
      os << "  wire " << first << " =";
      for (size_t k = 0; k < t.recurDims.size(); ++k)
        os << (k ? " &&" : "") << " (" << stamp(t.recurDims[k]) << " == " << ulit(0, ow) << ")";
      os << "; // first visit of its partial sums\n";
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
    std::vector<std::string> toArray;
    for (size_t p = 0; p < t.ports.size(); ++p) {
      std::string rd = "1'b0", raddr = id + "_base", wr = "1'b0", waddr = id + "_base", wdata;
      std::string bank = id + "_bank" + std::to_string(p);
      std::string rdata = id + "_rdata" + std::to_string(p);
      os << "  wire " << range(w) << " " << rdata << ";\n";
      if (!t.output) {
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
        std::string oldValue = t.recurs ? "(" + first + " ? " + slit(0, nw) + " : " +
                                              resize(rdata, w, nw, unused) + ")"
                                        : slit(0, nw);
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
             << "  always @(posedge clk) " << acc << " <= " << out << " + " << oldValue << ";\n";
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
      arrayPorts.push_back("." + id + "_out(" + packed + ")");
    }
  }
  if (!usedTauE) unused.add("tau_e");
  unused.add("host_waddr");
  unused.add("host_raddr");
  unused.add("host_wdata");
  unused.add("step");

  // The array.
  os << "\n  " << pl.name << "_array array (\n    .clk(clk),\n    .tau(tau)";
  for (const std::string& l : limPorts)
    os << ",\n    " << l;
  for (const std::string& a : arrayPorts)
    os << ",\n    " << a;
  os << ");\n";

  if (lanes > 1) {
    laneReads(os, readSources, readIds, lanes, ts, bs, hd);
    os << unused.declaration() << "endmodule\n\n`default_nettype wire\n";
    return os.str();
  }
  // Host reads: the bank's data arrives the cycle after the request.
  os << "\n  // Host reads: data of the bank selected in the previous cycle.\n"
     << "  reg " << range(ts) << " rsel_tensor;\n"
     << "  reg " << range(bs) << " rsel_bank;\n"
     << "  always @(posedge clk) begin\n"
     << "    if (host_re && !busy) begin\n"
     << "      rsel_tensor <= host_rtensor;\n"
     << "      rsel_bank <= host_rbank;\n"
     << "    end\n"
     << "  end\n"
     << "  always @(*) begin\n"
     << "    host_rdata = " << ulit(0, hd) << ";\n"
     << "    case ({rsel_tensor, rsel_bank})\n";
  for (size_t i = 0; i < readSources.size(); ++i) {
    const auto& [wire, w] = readSources[i];
    os << "      {" << ulit(readIds[i].first, ts) << ", " << ulit(readIds[i].second, bs)
       << "}: host_rdata = "
       << (w == hd ? wire : "{" + std::to_string(hd - w) + "'d0, " + wire + "}") << ";\n";
  }
  os << "      default: host_rdata = " << ulit(0, hd) << ";\n"
     << "    endcase\n"
     << "  end\n\n"
     << unused.declaration() << "endmodule\n\n`default_nettype wire\n";
  return os.str();
}

} // namespace rubick::emit
