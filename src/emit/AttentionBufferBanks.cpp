// SPDX-License-Identifier: Apache-2.0
// The memory core's buffers as separate memories: a buffer written by every DMA port (or every
// normalise lane) and read by every pipeline lane is one array with many ports, which synthesis
// can only build from flip-flops. Split by the index bits that tell the accesses apart, each
// memory has one write port (one writer, or writers that never meet in a cycle) and a
// registered read per reader, so that it maps to a RAM.

#include "AttentionTopWriter.h"

#include "VerilogText.h"

#include <stdexcept>

namespace rubick::emit::detail {
namespace {

std::string bitRange(const std::string& v, int64_t hi, int64_t lo) {
  return v + "[" + std::to_string(hi) + ":" + std::to_string(lo) + "]";
}

} // namespace

int64_t BufferSplit::idOf(int64_t index) const {
  const int64_t bank = index & ((int64_t(1) << bankBits) - 1);
  const int64_t part = (index >> partAt) & ((int64_t(1) << partBits) - 1);
  return (part << bankBits) | bank;
}

std::string BufferSplit::select(const std::string& ix) const {
  std::vector<std::string> f;
  if (partBits) f.push_back(bitRange(ix, partAt + partBits - 1, partAt));
  if (bankBits) f.push_back(bitRange(ix, bankBits - 1, 0));
  if (f.size() == 1) return f[0];
  return "{" + f[0] + ", " + f[1] + "}";
}

std::string BufferSplit::word(const std::string& ix) const {
  // The index without the select bits: above the part, between part and bank.
  std::vector<std::string> f;
  const int64_t top = partBits ? partAt + partBits : bankBits;
  f.push_back(bitRange(ix, indexBits - 1, top));
  if (partBits && partAt > bankBits) f.push_back(bitRange(ix, partAt - 1, bankBits));
  if (f.size() == 1) return f[0];
  return "{" + f[0] + ", " + f[1] + "}";
}

std::string BufferSplit::memory(int64_t id) const {
  return this->id + "_buf" + std::to_string(id);
}

BufferSplit TopWriter::split(const BufferPort& b) const {
  BufferSplit s;
  s.id = b.id;
  s.bits = b.bits;
  s.indexBits = bufferIndexBits(b);
  s.bankBits = s.indexBits - 1 - b.addressBits;
  // O is written by the normalise lanes, lane n the rows n mod N: with N and Dv powers of two
  // (log2 onb and odb, as for the split O store) and a bank within a row, the row's low bits
  // tell the lanes apart.
  if (&b == &p.oBuf && N >= 2 && onb > 0 && odb >= 0 && p.l % N == 0 && s.bankBits <= odb &&
      odb + onb <= s.indexBits - 1) {
    s.partAt = odb;
    s.partBits = onb;
  }
  if (s.bankBits + s.partBits >= s.indexBits)
    throw std::logic_error("attention: a buffer split into single words");
  return s;
}

void TopWriter::declareSplit(const BufferSplit& s) {
  const int64_t depth = int64_t(1) << (s.indexBits - s.bankBits - s.partBits);
  for (int64_t k = 0; k < s.memories(); ++k)
    os << "  reg " << range(s.bits) << " " << s.memory(k) << " [0:" << depth - 1 << "];\n";
}

void TopWriter::splitRead(const BufferSplit& s, const std::string& en, const std::string& ix,
                          const std::set<int64_t>& ids, const std::string& r,
                          const std::string& out) {
  if (ids.empty()) throw std::logic_error("attention: a buffer read that reaches no memory");
  const int64_t sb = s.bankBits + s.partBits;
  for (int64_t k : ids)
    os << "  reg " << range(s.bits) << " " << r << "_m" << k << ";\n";
  if (ids.size() > 1) os << "  reg " << range(sb) << " " << r << "_sel;\n";
  os << "  always @(posedge clk) begin\n"
     << "    if (" << en << ") begin\n";
  for (int64_t k : ids)
    os << "      " << r << "_m" << k << " <= " << s.memory(k) << "[" << s.word(ix) << "];\n";
  if (ids.size() > 1) os << "      " << r << "_sel <= " << s.select(ix) << ";\n";
  os << "    end\n"
     << "  end\n";
  // The select of the last memory is implied.
  std::string mux = r + "_m" + std::to_string(*ids.rbegin());
  for (auto k = std::next(ids.rbegin()); k != ids.rend(); ++k)
    mux =
        "(" + r + "_sel == " + ulit(*k, sb) + ") ? " + r + "_m" + std::to_string(*k) + " : " + mux;
  os << "  " << out << " = " << mux << ";\n";
  if (ids.size() == 1 && sb) unused.push_back(s.select(ix));
}

void TopWriter::splitWrites(const BufferSplit& s, const std::vector<BufferWriter>& ws,
                            bool exclusive) {
  const int64_t sb = s.bankBits + s.partBits, wb = s.indexBits - sb;
  auto hits = [&](const BufferWriter& w, int64_t k) {
    return w.ids.size() > 1 ? w.en + " && (" + s.select(w.ix) + " == " + ulit(k, sb) + ")" : w.en;
  };
  std::string body;
  for (int64_t k = 0; k < s.memories(); ++k) {
    std::vector<const BufferWriter*> at;
    for (const BufferWriter& w : ws)
      if (w.ids.count(k)) at.push_back(&w);
    if (at.empty()) continue;
    const std::string mem = s.memory(k);
    if (at.size() == 1 || !exclusive) {
      for (const BufferWriter* w : at)
        body +=
            "    if (" + hits(*w, k) + ") " + mem + "[" + s.word(w->ix) + "] <= " + w->data + ";\n";
      continue;
    }
    // One write port: the writer that hits the memory this cycle (at most one does).
    const std::string hit = mem + "_hit", wa = mem + "_wa", wd = mem + "_wd";
    std::string a = s.word(at.back()->ix), d = at.back()->data;
    os << "  wire " << range(int64_t(at.size())) << " " << hit << " = {";
    for (size_t i = at.size(); i-- > 0;)
      os << hits(*at[i], k) << (i ? ", " : "};\n");
    for (size_t i = at.size() - 1; i-- > 0;) {
      a = hit + "[" + std::to_string(i) + "] ? " + s.word(at[i]->ix) + " : " + a;
      d = hit + "[" + std::to_string(i) + "] ? " + at[i]->data + " : " + d;
    }
    os << "  wire " << range(wb) << " " << wa << " = " << a << ";\n"
       << "  wire " << range(s.bits) << " " << wd << " = " << d << ";\n";
    body += "    if (|" + hit + ") " + mem + "[" + wa + "] <= " + wd + ";\n";
  }
  for (const BufferWriter& w : ws)
    if (w.ids.size() == 1 && sb) unused.push_back(s.select(w.ix));
  os << "  always @(posedge clk) begin\n" << body << "  end\n";
}

} // namespace rubick::emit::detail
