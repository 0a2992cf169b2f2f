// SPDX-License-Identifier: Apache-2.0
#include "rubick/arch/DmaTiming.h"

#include <algorithm>

namespace rubick::arch {

namespace {

uint64_t alignDown(uint64_t a, int64_t b) {
  return a / static_cast<uint64_t>(b) * static_cast<uint64_t>(b);
}
uint64_t alignUp(uint64_t a, int64_t b) {
  return alignDown(a + static_cast<uint64_t>(b) - 1, b);
}

// The bursts of `cmds` in order, each with its beats, pushed by rubick_axi_rd/wr: the first
// command is sampled at edge 1, a burst is pushed (AR/AW presented the next cycle and taken
// then, the memory having no limit of its own) one cycle after the previous one and not before
// the burst `outstanding` places back has left (`leave`, filled in by the caller as it goes), a
// command of no beat costs one command cycle. With `room` (the row-lane reader's descriptor
// FIFO, rubick_dma_rd_rows.v) a command is issued only while fewer than `room` commands are
// taken and not yet done with (`popped`: the cycle a command's last beat, or its turn without
// one, is taken; filled in by the caller).
struct Bursts {
  std::vector<int64_t> beats;     // per burst
  std::vector<uint64_t> addr;     // per burst
  std::vector<size_t> cmd;        // per burst: its command
  std::vector<int64_t> push;      // per burst, filled by pushAt
  std::vector<int64_t> leave;     // per burst: the cycle that frees its slot (the caller's)
  std::vector<char> zero;         // per command: no beat
  std::vector<int64_t> lastBurst; // per command with beats: its last burst
  std::vector<int64_t> sampled;   // per command: the edge the AXI engine takes it
  std::vector<int64_t> popped;    // per command, with `room`: the caller's
  int64_t outstanding = 1, room = 0;
  size_t nextCmd = 0; // the first command not yet sampled

  Bursts(const std::vector<DmaCommand>& cmds, const BusTiming& bus, int64_t room = 0)
      : outstanding(bus.outstanding), room(room) {
    for (const DmaCommand& c : cmds) {
      zero.push_back(c.beats == 0);
      for (const DmaCommand& b : burstsOf({c}, bus.busBytes, bus.burstBeats)) {
        beats.push_back(b.beats);
        addr.push_back(b.addr);
        cmd.push_back(zero.size() - 1);
      }
      lastBurst.push_back(static_cast<int64_t>(beats.size()) - 1);
    }
    push.assign(beats.size(), 0);
    leave.assign(beats.size(), 0);
    sampled.assign(cmds.size(), 0);
    popped.assign(cmds.size(), 0);
  }
  size_t size() const { return beats.size(); }
  // The cycle burst j is pushed; the slots of the bursts before j - outstanding + 1 must be
  // known, and with `room` the pops of the commands before j's.
  int64_t pushAt(size_t j) {
    int64_t t = 0;
    if (j == 0 || cmd[j - 1] != cmd[j]) {
      while (nextCmd <= cmd[j])
        sample(nextCmd++);
      t = sampled[cmd[j]] + 1;
    } else {
      t = push[j - 1] + 1;
    }
    if (j >= static_cast<size_t>(outstanding))
      t = std::max(t, leave[j - static_cast<size_t>(outstanding)]);
    return push[j] = t;
  }

private:
  // Command k is taken as the previous one issues its last burst (the cycle after a command of
  // no beat), the first at edge 1. The reader presents it the cycle after it issues it (c_next),
  // which is no earlier than the cycle the previous one is taken and, with `room`, once fewer
  // than `room` commands are taken and not popped.
  void sample(size_t k) {
    int64_t s = k == 0        ? 1
                : zero[k - 1] ? sampled[k - 1] + 1
                              : push[static_cast<size_t>(lastBurst[k - 1])];
    const size_t r = static_cast<size_t>(room);
    if (room > 0 && k > r) {
      const int64_t prev = sampled[k - 1];
      const int64_t issue = popped[k - r - 1] < prev ? prev : popped[k - r] + 1;
      s = std::max(s, issue + 1);
    }
    sampled[k] = s;
  }
};

// rubick_axi_rd and the memory: beat(x) is the cycle of the next R handshake when the engine
// cannot take it before cycle x (its two-entry output buffer is full). The memory presents a
// beat the latency after its burst's AR, the spacing after the previous one and not before the
// previous one was taken. A BurstMemory may hold a burst's beats back further, run by run.
class ReadEngine {
public:
  ReadEngine(const std::vector<DmaCommand>& cmds, const BusTiming& bus, int64_t room = 0)
      : bus_(bus), b_(cmds, bus, room) {}
  // Command `k` (of the reader's, zero-length ones included) was done with in cycle `c`.
  void popped(size_t k, int64_t c) { b_.popped[k] = c; }
  int64_t beat(int64_t x) {
    if (q_ == 0) {
      const int64_t at = b_.pushAt(j_) + 1;
      if (bus_.memory) {
        runs_ = &bus_.memory->burst(false, at, b_.addr[j_], b_.beats[j_]);
        run_ = 0;
        ready_ = (*runs_)[0].cycle;
      } else {
        ready_ = at + bus_.latency;
      }
    }
    if (bus_.memory)
      while (run_ + 1 < runs_->size() && (*runs_)[run_ + 1].first <= q_)
        ready_ = (*runs_)[++run_].cycle;
    const int64_t shown = first_ ? ready_ : std::max({ready_, shown_ + bus_.beatSpacing, r_ + 1});
    first_ = false;
    shown_ = shown;
    r_ = std::max(shown, x);
    if (++q_ == b_.beats[j_]) {
      b_.leave[j_++] = r_; // a slot is free in the cycle of the burst's last beat
      q_ = 0;
    }
    return r_;
  }

private:
  const BusTiming& bus_;
  Bursts b_;
  size_t j_ = 0;
  int64_t q_ = 0, ready_ = 0, shown_ = 0, r_ = 0;
  bool first_ = true;
  const std::vector<BeatsReady>* runs_ = nullptr; // the current burst's, from bus_.memory
  size_t run_ = 0;
};

// The R handshakes of every beat when the engine always takes them.
std::vector<int64_t> readBeats(const std::vector<DmaCommand>& cmds, const BusTiming& bus) {
  ReadEngine eng(cmds, bus);
  int64_t n = 0;
  for (const DmaCommand& c : cmds)
    n += c.beats;
  std::vector<int64_t> at;
  for (int64_t k = 0; k < n; ++k)
    at.push_back(eng.beat(0));
  return at;
}

int64_t columnReadDone(const DmaEngine& e, const TileGeometry& g,
                       const std::vector<DmaCommand>& cmds, const std::vector<int64_t>& beat,
                       int64_t busBytes) {
  const int64_t G = e.groupRows() * e.groupCols();
  const bool merged = g.pitch == static_cast<uint64_t>(g.cols * e.elemBytes);
  std::vector<int64_t> rowFirst; // stream index (from 1) of each row command's first beat
  int64_t k = 1;
  for (const DmaCommand& c : cmds) {
    rowFirst.push_back(k);
    k += c.beats;
  }
  // Beat n (from 1) reaches the groups 5 cycles after its R handshake; groups go one a cycle.
  auto arrive = [&](int64_t n) {
    return n == 0 ? beat[0] - 1 + 5 : beat[static_cast<size_t>(n - 1)] + 5;
  };
  int64_t n = 0, best = 0, i = 0;
  for (int64_t gr = 0; gr < e.groupRows(); ++gr)
    for (int64_t gc = 0; gc < e.groupCols(); ++gc, ++i) {
      const int64_t lastCol = std::min(gc * e.lanes + e.lanes, g.cols) - 1;
      if (gr < g.rows && lastCol >= gc * e.lanes) {
        const uint64_t a = g.base + static_cast<uint64_t>(gr) * g.pitch +
                           static_cast<uint64_t>(lastCol * e.elemBytes);
        const uint64_t at = alignDown(a, busBytes);
        const int64_t last =
            merged ? static_cast<int64_t>((at - alignDown(g.base, busBytes)) /
                                          static_cast<uint64_t>(busBytes)) +
                         1
                   : rowFirst[static_cast<size_t>(gr)] +
                         static_cast<int64_t>((at - cmds[static_cast<size_t>(gr)].addr) /
                                              static_cast<uint64_t>(busBytes));
        n = std::max(n, last);
      }
      best = std::max(best, arrive(n) + G - 1 - i);
    }
  return best;
}

int64_t rowReadDone(const DmaEngine& e, const TileGeometry& g, const std::vector<DmaCommand>& cmds,
                    const BusTiming& bus) {
  // Blocks in order; the beats of block n wait for the half of block n - 2. Beat k is taken
  // from the AXI engine in cycle c(k) (it enters the block buffer the cycle after): not before
  // the cycle after its R handshake, one a cycle, not before the block's half is free; the AXI
  // engine's two-entry buffer holds R up until beat k - 2 has been taken.
  const int64_t W = e.blockBeats * (bus.busBytes / e.elemBytes), L0 = e.lanes;
  const int64_t chunksPerRow = (e.cols + W - 1) / W;
  // The descriptor FIFO of rubick_dma_rd_rows (DESC_DEPTH = MAX_OUTSTANDING + 4 in
  // rubick_dma_rd) lets a command be issued while fewer than DESC_DEPTH - 1 are waiting.
  ReadEngine eng(cmds, bus, bus.outstanding + 3);
  std::vector<int64_t> lastFire;                               // per block with data
  int64_t fire = 0, c = -2, c1 = -(int64_t(1) << 40), c2 = c1; // c(k - 1), c(k - 2)
  size_t cmd = 0;
  for (int64_t gr = 0; gr < e.groupRows(); ++gr)
    for (int64_t ch = 0; ch < chunksPerRow; ++ch) {
      const int64_t c0 = ch * W;
      const bool data = c0 < g.cols && gr * L0 < g.rows;
      int64_t ready = 0;
      if (data) {
        const size_t n = lastFire.size();
        const int64_t freeAt = n < 2 ? 0 : lastFire[n - 2] + 1;
        for (int64_t r = gr * L0; r < std::min((gr + 1) * L0, g.rows); ++r, ++cmd) {
          if (cmds[cmd].beats == 0) c = std::max(c + 1, freeAt - 1); // a turn without a beat
          for (int64_t b = 0; b < cmds[cmd].beats; ++b) {
            const int64_t rk = eng.beat(c2 + 1);
            c = std::max({rk + 1, c + 1, freeAt - 1});
            c2 = c1;
            c1 = c;
          }
          eng.popped(cmd, c);
        }
        ready = c + 2;
      }
      const int64_t groups = std::min(W, e.cols - c0);
      for (int64_t j = 0; j < groups; ++j)
        fire = std::max(fire + 1, ready);
      if (data) lastFire.push_back(fire);
    }
  return fire + 2;
}

// Beats of a written row completed by each of its `groups` groups of `perGroup` columns: beat q of
// the row holds its elements [q * epb - off, (q + 1) * epb - off) and is completed by the group of
// the last of them.
std::vector<int64_t> beatsCompleted(const TileGeometry& g, int64_t r, int64_t groups,
                                    int64_t perGroup, int64_t elemBytes, int64_t busBytes) {
  std::vector<int64_t> k(static_cast<size_t>(groups), 0);
  const int64_t off =
      static_cast<int64_t>((g.base + static_cast<uint64_t>(r) * g.pitch) %
                           static_cast<uint64_t>(busBytes) / static_cast<uint64_t>(elemBytes));
  const int64_t epb = busBytes / elemBytes;
  const int64_t beats = (off + g.cols + epb - 1) / epb;
  for (int64_t q = 0; q < beats; ++q) {
    const int64_t last = std::min((q + 1) * epb - off, g.cols) - 1;
    ++k[static_cast<size_t>(last / perGroup)];
  }
  return k;
}

} // namespace

DmaEngine dmaEngine(const DmaMap& d, int64_t elementBits) {
  DmaEngine e;
  e.elemBytes = elementBits / 8;
  e.lanes = d.lanes;
  e.rowLanes = d.rowLanes;
  e.rows = d.rows;
  e.cols = d.cols;
  return e;
}

std::vector<DmaCommand> readCommands(const DmaEngine& e, const TileGeometry& g, int64_t B) {
  std::vector<DmaCommand> out;
  const int64_t E = e.elemBytes;
  if (g.rows == 0 || g.cols == 0) return out;
  auto add = [&](uint64_t from, uint64_t to) {
    if (to > from || e.rowLanes)
      out.push_back({from, static_cast<int64_t>((to - from) / static_cast<uint64_t>(B))});
  };
  if (!e.rowLanes) {
    const bool merged = g.pitch == static_cast<uint64_t>(g.cols * E);
    uint64_t prev = 0;
    for (int64_t r = 0; r < g.rows; ++r) {
      const uint64_t row = g.base + static_cast<uint64_t>(r) * g.pitch;
      const uint64_t from = merged && r > 0 ? prev : alignDown(row, B);
      prev = alignUp(row + static_cast<uint64_t>(g.cols * E), B);
      add(from, prev);
    }
    return out;
  }
  const int64_t L = e.lanes, epb = B / E, W = e.blockBeats * epb;
  for (int64_t r0 = 0; r0 < g.rows; r0 += L)
    for (int64_t c0 = 0; c0 < g.cols; c0 += W)
      for (int64_t r = r0; r < std::min(r0 + L, g.rows); ++r) {
        const uint64_t row = g.base + static_cast<uint64_t>(r) * g.pitch;
        // A block after the first of an unaligned row starts past the beat it shares with the
        // block before (read there); it may then have no beat at all.
        const uint64_t shared = c0 > 0 && row % static_cast<uint64_t>(B) != 0 ? B : 0;
        add(alignDown(row, B) + static_cast<uint64_t>(c0 / epb * B) + shared,
            alignUp(row + static_cast<uint64_t>(std::min(c0 + W, g.cols) * E), B));
      }
  return out;
}

std::vector<DmaCommand> writeCommands(const DmaEngine& e, const TileGeometry& g, int64_t B) {
  std::vector<DmaCommand> out;
  if (g.cols == 0) return out;
  for (int64_t r = 0; r < g.rows; ++r) {
    const uint64_t a = g.base + static_cast<uint64_t>(r) * g.pitch;
    const uint64_t first = alignDown(a, B);
    const uint64_t end = a + static_cast<uint64_t>(g.cols * e.elemBytes);
    out.push_back(
        {first, static_cast<int64_t>((alignUp(end, B) - first) / static_cast<uint64_t>(B))});
  }
  return out;
}

std::vector<DmaCommand> burstsOf(const std::vector<DmaCommand>& cmds, int64_t B, int64_t burst) {
  std::vector<DmaCommand> out;
  for (const DmaCommand& c : cmds) {
    uint64_t a = c.addr;
    int64_t rem = c.beats;
    while (rem > 0) {
      const int64_t toPage = static_cast<int64_t>((4096 - a % 4096) / static_cast<uint64_t>(B));
      const int64_t n = std::min({rem, burst, toPage});
      out.push_back({a, n});
      a += static_cast<uint64_t>(n * B);
      rem -= n;
    }
  }
  return out;
}

std::vector<int64_t> splitBursts(const std::vector<DmaCommand>& cmds, int64_t B, int64_t burst) {
  std::vector<int64_t> out;
  for (const DmaCommand& c : burstsOf(cmds, B, burst))
    out.push_back(c.beats);
  return out;
}

int64_t dmaReadDone(const DmaEngine& e, const TileGeometry& g, const BusTiming& bus) {
  const int64_t G = e.groupRows() * e.groupCols();
  const std::vector<DmaCommand> cmds = readCommands(e, g, bus.busBytes);
  if (cmds.empty()) return G + 2;
  if (e.rowLanes) return rowReadDone(e, g, cmds, bus);
  const std::vector<int64_t> beat = readBeats(cmds, bus);
  if (beat.empty()) return G + 2;
  return columnReadDone(e, g, cmds, beat, bus.busBytes);
}

namespace {

// rubick_axi_wr behind the packer: take(x) is the cycle the engine takes the next beat, which
// the packer has from cycle x on (the packer waits meanwhile). A beat is taken one a cycle, once
// its burst is being filled (two cycles after the push that makes the burst, or right after the
// previous burst's last beat) and with a free place in the two-entry W buffer. Its W handshake
// comes the cycle after at the earliest and the memory's spacing after the previous one; the B
// responses come in order, the latency after the AW handshake and after the burst's last beat.
class WriteEngine {
public:
  WriteEngine(const std::vector<DmaCommand>& cmds, const BusTiming& bus)
      : bus_(bus), b_(cmds, bus), wpop_(b_.size()) {}

  int64_t take(int64_t x) {
    if (q_ == 0) startBurst();
    int64_t t = std::max(x, wpop_[j_] + 1);
    if (k_ >= 1) t = std::max(t, h1_ + 1);
    if (k_ >= 2) t = std::max(t, w2_ + 1);
    const int64_t w = std::max(t + 1, k_ >= 1 ? w1_ + bus_.beatSpacing : int64_t(0));
    h1_ = t;
    w2_ = w1_;
    w1_ = w;
    ++k_;
    if (++q_ == b_.beats[j_]) {
      lastB_ = std::max({bReady_, w + 1, lastB_ + 1});
      b_.leave[j_++] = lastB_;
      q_ = 0;
    }
    return t;
  }
  int64_t lastB() const { return lastB_; }

private:
  void startBurst() {
    const size_t o = static_cast<size_t>(bus_.outstanding);
    push_ = b_.pushAt(j_);
    if (j_ >= o) push_ = b_.push[j_] = std::max(push_, wpop_[j_ - o]); // bursts not yet filled
    wpop_[j_] = std::max(push_ + 1, j_ == 0 ? int64_t(0) : h1_);
    bReady_ = bus_.memory
                  ? bus_.memory->burst(true, push_ + 1, b_.addr[j_], b_.beats[j_]).back().cycle
                  : push_ + 1 + bus_.latency;
  }

  const BusTiming& bus_;
  Bursts b_;
  std::vector<int64_t> wpop_; // per burst: the cycle it starts being filled
  size_t j_ = 0;              // current burst
  int64_t q_ = 0, k_ = 0;     // beat in the burst, beats taken
  int64_t push_ = 0, h1_ = 0, w1_ = 0, w2_ = 0, lastB_ = 0;
  int64_t bReady_ = 0; // the current burst's earliest response
};

} // namespace

int64_t dmaWriteDone(const DmaEngine& e, const TileGeometry& g, const BusTiming& bus,
                     int64_t firstInput) {
  const int64_t B = bus.busBytes, E = e.elemBytes;
  const int64_t rowsEff = g.cols ? g.rows : 0;
  const int64_t gr = e.groupRows(), gc = e.groupCols();
  const int64_t lead = std::max<int64_t>(0, firstInput - 1); // cycles before the stream starts
  WriteEngine eng(writeCommands(e, g, B), bus);
  // The packer: a group completing k beats takes max(1, k) cycles, its beats in its last k;
  // it stops while a beat waits for the engine. Returns the cycle after the group.
  auto group = [&](int64_t t, int64_t k) {
    for (int64_t q = 1; q <= k; ++q)
      t = eng.take(t + 1);
    return t + (k == 0 ? 1 : 0);
  };
  int64_t end = 0; // E: the cycle the last group is taken
  if (!e.rowLanes) {
    int64_t t = rowsEff ? 3 : lead;
    for (int64_t r = 0; r < gr; ++r) {
      const std::vector<int64_t> k = r < rowsEff ? beatsCompleted(g, r, gc, e.lanes, E, B)
                                                 : std::vector<int64_t>(static_cast<size_t>(gc), 0);
      for (int64_t j = 0; j < gc; ++j)
        t = group(t, k[static_cast<size_t>(j)]);
    }
    end = t;
  } else {
    // Blocks of LANES rows through the turn's two slots: a stored block's input waits for the
    // slot of the block two before; its packing follows the previous block's and its own input.
    const int64_t written = (g.cols + e.lanes - 1) / e.lanes; // the turn's groups per row
    std::vector<int64_t> out(static_cast<size_t>(gr), 0);
    int64_t prevIn = lead, prevOut = 0;
    for (int64_t b = 0; b < gr; ++b) {
      const bool stored = b * e.lanes < rowsEff;
      int64_t start = prevIn + 1;
      if (stored && b >= 2) start = std::max(start, out[static_cast<size_t>(b - 2)] + 1);
      prevIn = start + e.cols - 1;
      if (!stored) continue;
      int64_t t = std::max(prevOut + 1, prevIn + 3) - 1;
      for (int64_t r = b * e.lanes; r < std::min(rowsEff, (b + 1) * e.lanes); ++r)
        for (int64_t k : beatsCompleted(g, r, written, e.lanes, E, B))
          t = group(t, k);
      out[static_cast<size_t>(b)] = prevOut = t;
    }
    end = prevIn;
  }
  if (eng.lastB() == 0) return end + 2; // nothing written
  return std::max(eng.lastB() + 3, end + 2);
}

} // namespace rubick::arch
