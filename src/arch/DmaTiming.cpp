#include "rubick/arch/DmaTiming.h"

#include <algorithm>
#include <stdexcept>

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
// command of no beat costs one command cycle.
struct Bursts {
  std::vector<int64_t> beats;  // per burst
  std::vector<int64_t> push;   // per burst, filled by pushAt
  std::vector<int64_t> leave;  // per burst: the cycle that frees its slot (the caller's)
  std::vector<char> gapBefore; // per burst: a command of no beat just before it
  int64_t outstanding = 1;

  Bursts(const std::vector<DmaCommand>& cmds, const BusTiming& bus) : outstanding(bus.outstanding) {
    bool gap = false;
    for (const DmaCommand& c : cmds) {
      if (c.beats == 0) {
        gap = true;
        continue;
      }
      for (int64_t n : splitBursts({c}, bus.busBytes, bus.burstBeats)) {
        beats.push_back(n);
        gapBefore.push_back(gap);
        gap = false;
      }
    }
    push.assign(beats.size(), 0);
    leave.assign(beats.size(), 0);
  }
  size_t size() const { return beats.size(); }
  // The cycle burst j is pushed; the slots of the bursts before j - outstanding + 1 must be known.
  int64_t pushAt(size_t j) {
    int64_t t = j == 0 ? 2 : push[j - 1] + 1;
    if (gapBefore[j]) ++t;
    if (j >= static_cast<size_t>(outstanding))
      t = std::max(t, leave[j - static_cast<size_t>(outstanding)]);
    return push[j] = t;
  }
};

// The cycle of each R beat (its handshake: the reader never holds R up while it is timed).
std::vector<int64_t> readBeats(const std::vector<DmaCommand>& cmds, const BusTiming& bus) {
  Bursts b(cmds, bus);
  std::vector<int64_t> at;
  int64_t prev = -(int64_t(1) << 40);
  for (size_t j = 0; j < b.size(); ++j) {
    const int64_t ready = b.pushAt(j) + 1 + bus.latency;
    for (int64_t k = 0; k < b.beats[j]; ++k)
      at.push_back(prev = std::max(ready, prev + bus.beatSpacing));
    b.leave[j] = prev; // a slot is free in the cycle of the burst's last beat
  }
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
                    const std::vector<int64_t>& beat, int64_t busBytes) {
  // Blocks in order; the beats of block n wait for the half of block n - 2.
  const int64_t W = e.blockBeats * (busBytes / e.elemBytes), L0 = e.lanes;
  const int64_t chunksPerRow = (e.cols + W - 1) / W;
  std::vector<int64_t> lastFire; // per block with data
  int64_t fire = 0, a = -1;
  size_t cmd = 0, k = 0;
  for (int64_t gr = 0; gr < e.groupRows(); ++gr)
    for (int64_t c = 0; c < chunksPerRow; ++c) {
      const int64_t c0 = c * W;
      const bool data = c0 < g.cols && gr * L0 < g.rows;
      int64_t ready = 0;
      if (data) {
        const size_t n = lastFire.size();
        const int64_t freeAt = n < 2 ? 0 : lastFire[n - 2] + 1;
        for (int64_t r = gr * L0; r < std::min((gr + 1) * L0, g.rows); ++r, ++cmd) {
          if (cmds[cmd].beats == 0) a = std::max(a + 1, freeAt); // a turn without a beat
          for (int64_t b = 0; b < cmds[cmd].beats; ++b, ++k)
            a = std::max({beat[k] + 2, a + 1, freeAt});
        }
        ready = a + 1;
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

std::vector<int64_t> splitBursts(const std::vector<DmaCommand>& cmds, int64_t B, int64_t burst) {
  std::vector<int64_t> out;
  for (const DmaCommand& c : cmds) {
    uint64_t a = c.addr;
    int64_t rem = c.beats;
    while (rem > 0) {
      const int64_t toPage = static_cast<int64_t>((4096 - a % 4096) / static_cast<uint64_t>(B));
      const int64_t n = std::min({rem, burst, toPage});
      out.push_back(n);
      a += static_cast<uint64_t>(n * B);
      rem -= n;
    }
  }
  return out;
}

int64_t dmaReadDone(const DmaEngine& e, const TileGeometry& g, const BusTiming& bus) {
  const int64_t G = e.groupRows() * e.groupCols();
  const std::vector<DmaCommand> cmds = readCommands(e, g, bus.busBytes);
  if (cmds.empty()) return G + 2;
  const std::vector<int64_t> beat = readBeats(cmds, bus);
  if (beat.empty() && !e.rowLanes) return G + 2;
  return e.rowLanes ? rowReadDone(e, g, cmds, beat, bus.busBytes)
                    : columnReadDone(e, g, cmds, beat, bus.busBytes);
}

int64_t dmaWriteDone(const DmaEngine& e, const TileGeometry& g, const BusTiming& bus,
                     int64_t firstInput) {
  const int64_t B = bus.busBytes, E = e.elemBytes;
  const int64_t rowsEff = g.cols ? g.rows : 0;
  const int64_t gr = e.groupRows(), gc = e.groupCols();
  const int64_t lead = std::max<int64_t>(0, firstInput - 1); // cycles before the stream starts
  // The cycle the packer hands each beat to the engine, and E (the last group taken).
  std::vector<int64_t> packed;
  int64_t end = 0;
  if (!e.rowLanes) {
    int64_t t = rowsEff ? 3 : lead;
    for (int64_t r = 0; r < gr; ++r) {
      const std::vector<int64_t> k = r < rowsEff ? beatsCompleted(g, r, gc, e.lanes, E, B)
                                                 : std::vector<int64_t>(static_cast<size_t>(gc), 0);
      for (int64_t j = 0; j < gc; ++j) {
        for (int64_t q = 1; q <= k[static_cast<size_t>(j)]; ++q)
          packed.push_back(t + q);
        t += std::max<int64_t>(1, k[static_cast<size_t>(j)]);
      }
    }
    end = t;
  } else {
    // The turn gives the packer each row as groups of LANES columns.
    const int64_t written = (g.cols + e.lanes - 1) / e.lanes;
    std::vector<int64_t> in(static_cast<size_t>(gr)), out(static_cast<size_t>(gr), 0);
    int64_t prevIn = lead, prevOut = 0;
    for (int64_t b = 0; b < gr; ++b) {
      const bool stored = b * e.lanes < rowsEff;
      int64_t start = prevIn + 1;
      if (stored && b >= 2) start = std::max(start, out[static_cast<size_t>(b - 2)] + 1);
      in[static_cast<size_t>(b)] = prevIn = start + e.cols - 1;
      if (!stored) continue;
      int64_t t = std::max(prevOut + 1, in[static_cast<size_t>(b)] + 3) - 1;
      for (int64_t r = b * e.lanes; r < std::min(rowsEff, (b + 1) * e.lanes); ++r)
        for (int64_t k : beatsCompleted(g, r, written, e.lanes, E, B)) {
          for (int64_t q = 1; q <= k; ++q)
            packed.push_back(t + q);
          t += std::max<int64_t>(1, k);
        }
      out[static_cast<size_t>(b)] = prevOut = t;
    }
    end = prevIn;
  }
  if (packed.empty()) return end + 2;
  // W beats: not before the packer hands them, the memory's spacing, their burst's AW, and
  // the engine's two-entry skid buffer; B responses in order after the last beat and the AW.
  Bursts b(writeCommands(e, g, B), bus);
  std::vector<int64_t> w(packed.size());
  int64_t lastB = 0;
  size_t k = 0;
  for (size_t j = 0; j < b.size(); ++j) {
    const int64_t aw = b.pushAt(j) + 1;
    for (int64_t q = 0; q < b.beats[j]; ++q, ++k) {
      int64_t t = std::max(packed[k] + 1, aw + 1);
      if (k >= 1) t = std::max(t, w[k - 1] + bus.beatSpacing);
      if (k >= 2) t = std::max(t, w[k - 2] + 2);
      w[k] = t;
    }
    lastB = std::max({aw + bus.latency, w[k - 1] + 1, lastB + 1});
    b.leave[j] = lastB;
  }
  // The packer is held up as long as its last beat waits to enter the engine.
  const int64_t stall = std::max<int64_t>(0, w.back() - 1 - packed.back());
  return std::max(lastB + 3, end + stall + 2);
}

} // namespace rubick::arch
