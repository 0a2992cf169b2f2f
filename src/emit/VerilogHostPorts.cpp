// SPDX-License-Identifier: Apache-2.0
#include "VerilogHostPorts.h"

#include <algorithm>

#include "VerilogText.h"

namespace rubick::emit::detail {

HostPort hostPort(const arch::Plan& plan) {
  HostPort h;
  size_t ports = 1;
  for (const arch::TensorPlan& t : plan.tensors) {
    ports = std::max(ports, t.ports.size());
    h.addressBits = std::max(h.addressBits, t.addressBits);
    h.dataBits = std::max(h.dataBits, t.elementBits);
  }
  h.tensorBits = arch::bitsFor(static_cast<int64_t>(plan.tensors.size()));
  h.bankBits = arch::bitsFor(static_cast<int64_t>(ports));
  return h;
}

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

void hostReads(std::ostream& os, const std::vector<std::pair<std::string, int64_t>>& sources,
               const std::vector<std::pair<int, int>>& ids, int64_t ts, int64_t bs, int64_t hd) {
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
  for (size_t i = 0; i < sources.size(); ++i) {
    const auto& [wire, w] = sources[i];
    os << "      {" << ulit(ids[i].first, ts) << ", " << ulit(ids[i].second, bs)
       << "}: host_rdata = "
       << (w == hd ? wire : "{" + std::to_string(hd - w) + "'d0, " + wire + "}") << ";\n";
  }
  os << "      default: host_rdata = " << ulit(0, hd) << ";\n"
     << "    endcase\n"
     << "  end\n\n";
}

} // namespace rubick::emit::detail
