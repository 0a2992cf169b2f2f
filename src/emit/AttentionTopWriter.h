// SPDX-License-Identifier: Apache-2.0
#pragma once
// The sections of the attention pipeline's top (src/emit/AttentionTop.cpp), private to
// src/emit. One writer holds the parameters, the widths every section shares and the signals
// deliberately left unused; each section of the module is one member: AttentionTop.cpp (the
// widths, the timing check, the ports, the end), AttentionControl.cpp (sequencer, stores, ROM
// tables), AttentionPasses.cpp (the passes that move data between the stores, the arrays and
// the vector unit), AttentionPorts.cpp (the arrays' host ports, the vector unit instance).

#include "AttentionTop.h"

#include <functional>
#include <ostream>
#include <set>
#include <string>
#include <vector>

namespace rubick::emit::detail {

/// `v` (w bits) zero-extended to `to` bits.
std::string zext(const std::string& v, int64_t w, int64_t to);

/// Bits of an index into the whole of buffer `b`: its half, word and bank.
int64_t bufferIndexBits(const BufferPort& b);

/// A memory core's buffer as separate memories <id>_buf<k> (src/emit/AttentionBufferBanks.cpp):
/// k is the index's select bits, {part, bank}: the bank (low bits, one per DMA port) and for O
/// the part (the row's low bits, one per normalise lane); the rest of the index is the word.
struct BufferSplit {
  std::string id;
  int64_t bits = 8;                 // word width
  int64_t indexBits = 1;            // the whole buffer's index: half, word, bank
  int64_t bankBits = 0;             // index[bankBits - 1 : 0]
  int64_t partAt = 0, partBits = 0; // index[partAt + partBits - 1 : partAt], above the bank
  int64_t memories() const { return int64_t(1) << (bankBits + partBits); }
  /// The memory that holds index `index`.
  int64_t idOf(int64_t index) const;
  /// The select bits and the word of the index held by the wire or register `ix`.
  std::string select(const std::string& ix) const;
  std::string word(const std::string& ix) const;
  std::string memory(int64_t id) const;
};

struct TopWriter {
  /// Computes the widths; throws std::logic_error when the tables do not give p.timing.
  TopWriter(const TopParams& p, const AttentionTables& t, std::ostream& os);

  const TopParams& p;
  const AttentionTables& t;
  std::ostream& os;
  const attn::PipelineTiming& tm;
  const HostPort& h1; // GEMM 1's host port
  const HostPort& h2; // GEMM 2's
  std::vector<std::string> unused;
  int64_t qItems = 0, kItems = 0, vItems = 0, sItems = 0, eItems = 0, uItems = 0; // ROM rows
  int64_t W = 1;                                                                  // vector lanes
  int64_t N = 1;             // normalise lanes: attn::normaliseLanes(W, L)
  int64_t period = 0;        // cycles between normalise groups
  std::vector<int64_t> lens; // phase lengths, in sequencer order
  // Widths: cnt; store addresses; host address and data; head and block counters; key index
  // in a block and keys left; row, element of O and word of a U_acc part; normalise counters.
  int64_t cw = 1, qa = 1, ka = 1, va = 1, oa = 1, ha = 1, hd = 1, hw = 1, bw = 1, jb = 1, jl = 1,
          rb = 1, eb = 1, kb = 1, pcw = 1, nrw = 1, nlw = 1, nkw = 1, npw = 1;
  // The O store in N parts, part n holding the rows n mod N (normalise lane n writes only it):
  // without a memory, for N and Dv powers of two and N dividing L, so that the host's address
  // splits into part and word by its bits: log2 N and log2 Dv (-1 when not a power of two; the
  // memory core's O buffer splits by them too), and the part's word width.
  bool splitO = false;
  int64_t onb = 0, odb = 0, opw = 1;

  void moduleHeader();
  void sequencer();
  void stores();
  // With a memory (AttentionMemoryCore.cpp), in place of the three above.
  void coreHeader();
  void coreSequencer();
  /// The sequencer's phase chain, at the end of a phase (`cnt` at its last value): Q, KV, G1,
  /// MAX, EXP, G2, ACC, then KV of the next block (`nextBlock`: statements besides `blk` and
  /// `kleft`) or NORM, and after NORM `afterNorm` (the default branch, its comment first).
  void phaseChain(const std::string& nextBlock, const std::string& afterNorm);
  void buffers();
  /// How buffer `b` is split (AttentionBufferBanks.cpp).
  BufferSplit split(const BufferPort& b) const;
  void declareSplit(const BufferSplit& s);
  /// A read of index `ix` when `en`, from the memories `ids` (those it can reach), each into a
  /// register <r>_m<k> with the select in <r>_sel; then `out` = the selected one (`out` is the
  /// start of a declaration or an assign).
  void splitRead(const BufferSplit& s, const std::string& en, const std::string& ix,
                 const std::set<int64_t>& ids, const std::string& r, const std::string& out);
  /// A write of `data` at index `ix` when `en`, to one of the memories `ids`.
  struct BufferWriter {
    std::string en, ix, data;
    std::set<int64_t> ids;
  };
  /// Every write to the memories of `s`, in one process. A memory that several writers reach
  /// gets, when `exclusive` (never two of them in one cycle), one write port fed by the one
  /// that hits it (wires <memory>_hit, _wa, _wd); otherwise one port per writer.
  void splitWrites(const BufferSplit& s, const std::vector<BufferWriter>& ws, bool exclusive);
  void roms();
  void copyPasses();
  void scorePasses();
  void accumulatePass();
  void normalisePass();
  void gemmPorts();
  void vectorUnit();
  void finish();

  // Shared by the sections.
  static std::string ls(const std::string& n, int64_t l) { return n + std::to_string(l); }
  /// Bits [l * per + w - 1 : l * per] of lane l of a packed vector of `per`-bit lanes.
  static std::string slice(const std::string& v, int64_t l, int64_t per, int64_t w);
  /// {x(W-1), ..., x(0)}
  std::string packed(const std::function<std::string(int64_t)>& x) const;
  /// `n`: the phase `ph` is issuing one of its `items` rows this cycle.
  void go(const std::string& n, const std::string& ph, int64_t items);
  /// The key `key` (block-relative) is below S.
  std::string keep(const std::string& key) const;
};

} // namespace rubick::emit::detail
