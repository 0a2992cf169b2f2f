// SPDX-License-Identifier: Apache-2.0
#include "MemorySequencer.h"

#include "rubick/arch/BufferSequence.h"

#include <algorithm>
#include <sstream>

namespace rubick::emit::detail {

namespace {

std::string fields32(const std::vector<int64_t>& v) {
  std::string s = "{";
  for (size_t i = v.size(); i-- > 0;)
    s += "32'd" + std::to_string(v[i]) + (i ? ", " : "}");
  return s;
}

std::string fields64(const std::vector<uint64_t>& v) {
  std::string s = "{";
  for (size_t i = v.size(); i-- > 0;)
    s += "64'd" + std::to_string(v[i]) + (i ? ", " : "}");
  return s;
}

std::string bits(const std::vector<char>& v) {
  std::string s = std::to_string(v.size()) + "'b";
  for (size_t i = v.size(); i-- > 0;)
    s += v[i] ? '1' : '0';
  return s;
}

std::string part(const std::string& bus, size_t index, int64_t fieldWidth, int64_t used) {
  const int64_t lo = static_cast<int64_t>(index) * fieldWidth;
  return bus + "[" + std::to_string(lo + used - 1) + ":" + std::to_string(lo) + "]";
}

} // namespace

std::string operandId(size_t k) {
  return "op" + std::to_string(k);
}

std::string sequencerInstance(const arch::MemoryPlan& m, const MemoryTopOptions& o,
                              Unused& unused) {
  // The parameters come from the library, which times the same sequencer (MemoryTiming).
  const arch::SequencerConfig c = arch::sequencerConfig(m);
  const std::vector<int64_t>& ext = c.ext;
  const size_t nl = ext.size(), nt = c.tensors.size();
  std::vector<char> out(nt), late(nt), acc(nt, 0), dep(nt * nl, 0), red(nt * nl, 0);
  std::vector<int64_t> rowLoop, colLoop, rows, cols, trows, tcols, ebytes;
  // The tiles' steps, pitch and address moves (0: the template's defaults).
  std::vector<int64_t> rstep, cstep, pitch;
  std::vector<uint64_t> astep(nt * nl, 0);
  int64_t dimMax = 1;
  for (size_t t = 0; t < nt; ++t) {
    const arch::SequencedTensor& x = c.tensors[t];
    out[t] = x.out;
    late[t] = x.late;
    // `+=`: the output's start values are loaded (sequencerConfig: acc = startValues).
    if (t < m.tensors.size()) acc[t] = m.tensors[t].startValues;
    for (size_t i = 0; i < nl; ++i) {
      dep[t * nl + i] = x.dep[i];
      red[t * nl + i] = x.red[i];
    }
    rowLoop.push_back(x.rowLoop < 0 ? static_cast<int64_t>(nl) : x.rowLoop);
    colLoop.push_back(x.colLoop < 0 ? static_cast<int64_t>(nl) : x.colLoop);
    rows.push_back(x.rows);
    cols.push_back(x.cols);
    trows.push_back(x.trows);
    tcols.push_back(x.tcols);
    ebytes.push_back(x.ebytes);
    rstep.push_back(x.rstep);
    cstep.push_back(x.cstep);
    pitch.push_back(x.pitch);
    for (size_t i = 0; i < nl; ++i)
      astep[t * nl + i] = x.addrStep(i);
    dimMax = std::max({dimMax, x.rows, x.cols});
  }
  const int64_t dimW = arch::bitsFor(dimMax + 1), aw = o.addrBits;
  // The geometry parameters only when some tensor leaves their defaults (designs of row-major
  // tiles keep today's instance).
  auto nonzero = [](const auto& v) {
    return std::any_of(v.begin(), v.end(), [](auto x) { return x != 0; });
  };
  std::string geometry;
  if (nonzero(rstep)) geometry += ",\n    .RSTEP(" + fields32(rstep) + ")";
  if (nonzero(cstep)) geometry += ",\n    .CSTEP(" + fields32(cstep) + ")";
  if (nonzero(pitch)) geometry += ",\n    .PITCH(" + fields32(pitch) + ")";
  if (nonzero(astep)) geometry += ",\n    .ASTEP(" + fields64(astep) + ")";
  std::ostringstream os;
  os << "\n  // Sequencer: buffer tiles per loop of the order (outermost first):";
  for (size_t i = 0; i < m.tiling.order.size(); ++i)
    os << " " << ext[i];
  os << (m.tiling.order.empty() ? " one tile" : "") << ".\n"
     << "  wire " << range(static_cast<int64_t>(nt)) << " half, acc_zero, ld_start, ld_done, "
     << "st_start, st_done;\n"
     << "  wire " << range(static_cast<int64_t>(nt) * aw) << " seq_base, ld_addr, st_addr;\n"
     << "  wire " << range(static_cast<int64_t>(nt) * dimW)
     << " ld_rows, ld_cols, st_rows, st_cols;\n"
     << "  wire " << range(static_cast<int64_t>(nt) * 32) << " st_row0, st_col0;\n"
     << "  assign seq_base = {";
  for (size_t t = nt; t-- > 0;)
    os << (c.tensors[t].offset ? "(" + part("base_addr", t, 64, aw) + " + " + std::to_string(aw) +
                                     "'d" + std::to_string(c.tensors[t].offset) + ")"
                               : part("base_addr", t, 64, aw))
       << (t ? ", " : "};\n");
  os << "  rubick_buf_seq #(.NL(" << nl << "), .NT(" << nt << "), .ADDR_W(" << aw << "), .DIM_W("
     << dimW << "), .EXT(" << fields32(ext) << "),\n"
     << "    .OUT(" << bits(out) << "), .DEP(" << bits(dep) << "), .RED(" << bits(red) << "),\n"
     << "    .ROW_LOOP(" << fields32(rowLoop) << "), .COL_LOOP(" << fields32(colLoop) << "),\n"
     << "    .ROWS(" << fields32(rows) << "), .COLS(" << fields32(cols) << "),\n"
     << "    .TROWS(" << fields32(trows) << "), .TCOLS(" << fields32(tcols) << "), .EBYTES("
     << fields32(ebytes) << ")" << (c.chain ? ", .CHAIN(1)" : "")
     << (std::find(late.begin(), late.end(), 1) != late.end() ? ", .LATE(" + bits(late) + ")" : "")
     << (std::find(acc.begin(), acc.end(), 1) != acc.end() ? ", .ACC(" + bits(acc) + ")" : "")
     << geometry << ") seq (\n"
     << "    .clk(aclk), .rst(!aresetn), .start(start), .busy(seq_busy), .done(seq_done), "
        ".base(seq_base),\n"
     << "    .core_start(core_start), .core_done(core_done), .core_next(core_next), .half(half), "
        ".acc_zero(acc_zero),\n"
     << "    .ld_start(ld_start), .ld_done(ld_done), .ld_addr(ld_addr), .ld_rows(ld_rows), "
        ".ld_cols(ld_cols),\n"
     << "    .st_start(st_start), .st_done(st_done), .st_addr(st_addr), .st_rows(st_rows), "
        ".st_cols(st_cols),\n"
     << "    .st_row0(st_row0), .st_col0(st_col0));\n";
  // Per tensor names for the engines and the core.
  std::vector<std::string> ldDone, stDone;
  for (size_t t = 0; t < nt; ++t) {
    // The statement's tensors, then the epilogue's operands (loaded once, no banks).
    const bool operand = t >= m.core.tensors.size();
    const std::string id = operand ? operandId(t - m.core.tensors.size()) : m.core.tensors[t].id;
    const bool output = !operand && m.core.tensors[t].output;
    const bool loads = !output || m.tensors[t].reload;
    if (operand) {
      os << "  wire " << id << "_ld_start = ld_start[" << t << "];\n"
         << "  wire " << id << "_ld_done;\n"
         << "  wire " << range(aw) << " " << id << "_ld_addr = " << part("ld_addr", t, aw, aw)
         << ";\n"
         << "  wire " << range(arch::bitsFor(rows[t] + 1)) << " " << id
         << "_ld_rows = " << part("ld_rows", t, dimW, arch::bitsFor(rows[t] + 1)) << ";\n"
         << "  wire " << range(arch::bitsFor(cols[t] + 1)) << " " << id
         << "_ld_cols = " << part("ld_cols", t, dimW, arch::bitsFor(cols[t] + 1)) << ";\n";
      // A full operand's banks have halves (its scatter and gather use them); a vector has none.
      if (m.operands[t - m.core.tensors.size()].operand.full())
        os << "  wire " << id << "_half = half[" << t << "];\n";
      else
        unused.add("half[" + std::to_string(t) + "]");
      ldDone.push_back(id + "_ld_done");
      stDone.push_back("1'b0");
      continue;
    }
    const arch::TensorPlan& tp = m.core.tensors[t];
    const int64_t rw = arch::bitsFor(rows[t] + 1), cw = arch::bitsFor(cols[t] + 1);
    os << "  wire " << id << "_half = half[" << t << "];\n";
    if (tp.bufferRecurs) os << "  wire " << id << "_acc_zero = acc_zero[" << t << "];\n";
    if (loads)
      os << "  wire " << id << "_ld_start = ld_start[" << t << "];\n"
         << "  wire " << id << "_ld_done;\n"
         << "  wire " << range(aw) << " " << id << "_ld_addr = " << part("ld_addr", t, aw, aw)
         << ";\n"
         << "  wire " << range(rw) << " " << id << "_ld_rows = " << part("ld_rows", t, dimW, rw)
         << ";\n"
         << "  wire " << range(cw) << " " << id << "_ld_cols = " << part("ld_cols", t, dimW, cw)
         << ";\n";
    if (tp.output)
      os << "  wire " << id << "_st_start = st_start[" << t << "];\n"
         << "  wire " << id << "_st_done;\n"
         << "  wire " << range(aw) << " " << id << "_st_addr = " << part("st_addr", t, aw, aw)
         << ";\n"
         << "  wire " << range(rw) << " " << id << "_st_rows = " << part("st_rows", t, dimW, rw)
         << ";\n"
         << "  wire " << range(cw) << " " << id << "_st_cols = " << part("st_cols", t, dimW, cw)
         << ";\n";
    ldDone.push_back(loads ? id + "_ld_done" : "1'b0");
    stDone.push_back(tp.output ? id + "_st_done" : "1'b0");
  }
  os << "  assign ld_done = {";
  for (size_t t = nt; t-- > 0;)
    os << ldDone[t] << (t ? ", " : "};\n");
  os << "  assign st_done = {";
  for (size_t t = nt; t-- > 0;)
    os << stDone[t] << (t ? ", " : "};\n");
  unused.add("ld_start");
  unused.add("st_start");
  unused.add("ld_addr");
  unused.add("st_addr");
  unused.add("ld_rows");
  unused.add("ld_cols");
  unused.add("st_rows");
  unused.add("st_cols");
  unused.add("acc_zero");
  unused.add("st_row0");
  unused.add("st_col0");
  return os.str();
}

} // namespace rubick::emit::detail
