// SPDX-License-Identifier: Apache-2.0
// The attention top's connections: the GEMM arrays' W-lane host ports, driven by the passes
// while each array is idle, and the vector unit's instance.

#include "AttentionTopWriter.h"

#include "VerilogText.h"

namespace rubick::emit::detail {

void TopWriter::gemmPorts() {
  // The GEMM arrays' host ports: W lanes each (one lane: the single design's port).
  auto port = [&](const std::string& g, const HostPort& h) {
    os << "  reg " << range(W) << " " << g << "_we, " << g << "_re;\n"
       << "  reg " << range(W * h.tensorBits) << " " << g << "_wtensor, " << g << "_rtensor;\n"
       << "  reg " << range(W * h.bankBits) << " " << g << "_wbank, " << g << "_rbank;\n"
       << "  reg " << range(W * h.addressBits) << " " << g << "_waddr, " << g << "_raddr;\n"
       << "  reg " << range(W * h.dataBits) << " " << g << "_wdata;\n"
       << "  wire " << range(W * h.dataBits) << " " << g << "_rdata;\n"
       << "  wire " << g << "_busy, " << g << "_done;\n"
       << "  always @(*) begin\n"
       << "    " << g << "_we = " << ulit(0, W) << ";\n"
       << "    " << g << "_wtensor = " << ulit(0, W * h.tensorBits) << ";\n"
       << "    " << g << "_wbank = " << ulit(0, W * h.bankBits) << ";\n"
       << "    " << g << "_waddr = " << ulit(0, W * h.addressBits) << ";\n"
       << "    " << g << "_wdata = " << ulit(0, W * h.dataBits) << ";\n"
       << "    " << g << "_re = " << ulit(0, W) << ";\n"
       << "    " << g << "_rtensor = " << ulit(0, W * h.tensorBits) << ";\n"
       << "    " << g << "_rbank = " << ulit(0, W * h.bankBits) << ";\n"
       << "    " << g << "_raddr = " << ulit(0, W * h.addressBits) << ";\n";
  };
  auto write = [&](const std::string& g, const HostPort& h, int64_t l, const std::string& when,
                   int sel, const std::string& bank, const std::string& addr,
                   const std::string& data) {
    os << "    if (" << when << ") begin\n"
       << "      " << g << "_we[" << l << "] = 1'b1;\n"
       << "      " << slice(g + "_wtensor", l, h.tensorBits, h.tensorBits) << " = "
       << ulit(sel, h.tensorBits) << ";\n"
       << "      " << slice(g + "_wbank", l, h.bankBits, h.bankBits) << " = " << bank << ";\n"
       << "      " << slice(g + "_waddr", l, h.addressBits, h.addressBits) << " = " << addr << ";\n"
       << "      " << slice(g + "_wdata", l, h.dataBits, h.dataBits) << " = " << data << ";\n"
       << "    end\n";
  };
  auto read = [&](const std::string& g, const HostPort& h, int64_t l, const std::string& when,
                  int sel, const std::string& bank, const std::string& addr) {
    os << "    if (" << when << ") begin\n"
       << "      " << g << "_re[" << l << "] = 1'b1;\n"
       << "      " << slice(g + "_rtensor", l, h.tensorBits, h.tensorBits) << " = "
       << ulit(sel, h.tensorBits) << ";\n"
       << "      " << slice(g + "_rbank", l, h.bankBits, h.bankBits) << " = " << bank << ";\n"
       << "      " << slice(g + "_raddr", l, h.addressBits, h.addressBits) << " = " << addr << ";\n"
       << "    end\n";
  };
  auto instance = [&](const std::string& g) {
    os << "  end\n"
       << "  wire " << g << "_start = busy && (phase == PH_" << (g == "g1" ? "G1" : "G2")
       << ") && (cnt == " << ulit(0, cw) << ");\n"
       << "  " << p.name << "_" << g << "_top " << g << " (\n"
       << "    .clk(clk), .rst(rst), .start(" << g << "_start), .busy(" << g << "_busy), .done("
       << g << "_done),\n"
       << "    .host_we(" << g << "_we), .host_wtensor(" << g << "_wtensor), .host_wbank(" << g
       << "_wbank),\n"
       << "    .host_waddr(" << g << "_waddr), .host_wdata(" << g << "_wdata),\n"
       << "    .host_re(" << g << "_re), .host_rtensor(" << g << "_rtensor), .host_rbank(" << g
       << "_rbank),\n"
       << "    .host_raddr(" << g << "_raddr), .host_rdata(" << g << "_rdata));\n\n";
  };
  os << "  // GEMM 1: Q and K written, scores read, through its host port while it is idle.\n";
  port("g1", h1);
  for (int64_t l = 0; l < W; ++l) {
    const std::string x = std::to_string(l);
    write("g1", h1, l, "q_go1_" + x, p.g1Query, "q_bank1_" + x, "q_addr1_" + x,
          zext("q_data1_" + x, p.qBits, h1.dataBits));
    write("g1", h1, l, "k_go1_" + x, p.g1Key, "k_bank1_" + x, "k_addr1_" + x,
          "k_keep1_" + x + " ? " + zext("k_data1_" + x, p.kBits, h1.dataBits) + " : " +
              ulit(0, h1.dataBits));
    read("g1", h1, l, "s_go && s_v" + x, p.g1Score, "s_bank" + x, "s_addr" + x);
    read("g1", h1, l, "e_go && e_v" + x, p.g1Score, "e_sbank" + x, "e_saddr" + x);
  }
  instance("g1");
  os << "  // GEMM 2: V and E written, U read.\n";
  os << "  wire " << range(16 * W) << " exp_e;\n";
  port("g2", h2);
  for (int64_t l = 0; l < W; ++l) {
    const std::string x = std::to_string(l);
    write("g2", h2, l, "v_go1_" + x, p.g2Value, "v_bank1_" + x, "v_addr1_" + x,
          "v_keep1_" + x + " ? " + zext("v_data1_" + x, p.vBits, h2.dataBits) + " : " +
              ulit(0, h2.dataBits));
    write("g2", h2, l, "e_v2_" + x, p.g2Exp, "e_ebank2_" + x, "e_eaddr2_" + x,
          zext(slice("exp_e", l, 16, 16), 16, h2.dataBits));
    read("g2", h2, l, "u_go && u_v" + x, p.g2Result, "u_bank" + x, "u_addr" + x);
  }
  instance("g2");
}

void TopWriter::vectorUnit() {
  // Vector unit.
  const int64_t sb = p.vec.scoreBits, ub = p.vec.resultBits;
  if (h1.dataBits > sb) unused.push_back("g1_rdata");
  if (h2.dataBits > ub) unused.push_back("g2_rdata");
  auto packedN = [&](const std::string& n) { // {n(N-1), ..., n0}
    std::string s = "{";
    for (int64_t l = N; l-- > 0;)
      s += n + std::to_string(l) + (l ? ", " : "}");
    return s;
  };
  auto scores = packed([&](int64_t l) { return slice("g1_rdata", l, h1.dataBits, sb); });
  os << "  // Vector unit: the row state and its arithmetic, " << W << " lane(s).\n"
     << "  " << p.name << "_vector vec (\n"
     << "    .clk(clk), .rst(rst), .first_block(blk == " << ulit(0, bw) << "),\n"
     << "    .max_valid(s_go1), .max_use(" << packed([&](int64_t l) { return ls("s_use1_", l); })
     << "), .max_i(s_i1),\n"
     << "    .max_row_start(s_start1), .max_row_end(s_end1), .max_score(" << scores << "),\n"
     << "    .exp_valid(e_go1), .exp_i(e_i1), .exp_score(" << scores << "),\n"
     << "    .exp_masked(" << packed([&](int64_t l) { return "!" + ls("e_keep1_", l); })
     << "), .exp_count(" << packed([&](int64_t l) { return ls("e_count1_", l); }) << "),\n"
     << "    .exp_row_start(e_rstart1), .exp_row_end(e_rend1), .exp_e(exp_e),\n"
     << "    .acc_valid(" << packed([&](int64_t l) { return ls("u_go1_", l); }) << "), .acc_k("
     << packed([&](int64_t l) { return ls("u_k1_", l); }) << "),\n"
     << "    .acc_i(" << packed([&](int64_t l) { return ls("u_i1_", l); }) << "), .acc_u("
     << packed([&](int64_t l) { return slice("g2_rdata", l, h2.dataBits, ub); }) << "),\n"
     << "    .norm_start(n_start), .norm_i(" << packedN("n_i") << "), .norm_ready(n_ready),\n"
     << "    .norm_valid(" << packedN("n_v") << "), .norm_k(" << packedN("n_pkv") << "),\n"
     << "    .o_valid(o_valid), .o_value(o_value));\n\n";
}

} // namespace rubick::emit::detail
