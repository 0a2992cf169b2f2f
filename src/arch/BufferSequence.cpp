// SPDX-License-Identifier: Apache-2.0
#include "rubick/arch/BufferSequence.h"

#include "rubick/support/Unsupported.h"

#include <algorithm>

namespace rubick::arch {

bool SequencedTensor::loads() const {
  return !out || acc || std::find(red.begin(), red.end(), 1) != red.end();
}

SequencerConfig sequencerConfig(const MemoryPlan& m) {
  const std::vector<int>& order = m.tiling.order;
  const size_t nl = std::max<size_t>(1, order.size());
  SequencerConfig c;
  for (int l : order)
    c.ext.push_back(m.tileCount[static_cast<size_t>(l)]);
  if (c.ext.empty()) c.ext.push_back(1);
  if (m.core.chain) {
    // From the next pulse (tau = TAU_FIRST + I - 1 of the last array tile) to the run_done one
    // (the cycle after its TAU_LAST).
    c.chain = true;
    c.coreTail = m.core.schedule.tileCycles - m.core.schedule.interval + 1;
  }
  auto position = [&](int loop) {
    for (size_t i = 0; i < order.size(); ++i)
      if (order[i] == loop) return static_cast<int>(i);
    return -1;
  };
  // A tile's box (dse/TileBox.h); the defaults (0) where it is a plain matrix tile, so that
  // those designs name no step, pitch or address move.
  auto box = [&](SequencedTensor& s, const dse::TileBox& b, int64_t ebytes) {
    s.rowLoop = b.rowLoop < 0 ? -1 : position(b.rowLoop);
    s.colLoop = b.colLoop < 0 ? -1 : position(b.colLoop);
    s.rows = b.rows;
    s.trows = b.trows;
    s.cols = b.cols;
    s.tcols = b.tcols;
    s.rstep = b.rstep == b.rows ? 0 : b.rstep;
    s.cstep = b.cstep == b.cols ? 0 : b.cstep;
    s.pitch = b.pitch == b.tcols ? 0 : b.pitch;
    s.ebytes = ebytes;
    s.astep.clear();
    for (size_t i = 0; i < order.size(); ++i) {
      const int64_t moves = b.loopStep.empty() ? 0 : b.loopStep[static_cast<size_t>(order[i])];
      s.astep.push_back(static_cast<uint64_t>(moves * s.ebytes));
    }
    if (std::all_of(s.astep.begin(), s.astep.end(), [](uint64_t a) { return a == 0; }))
      s.astep.clear();
  };
  for (size_t t = 0; t < m.tensors.size(); ++t) {
    const TensorTransfer& x = m.tensors[t];
    const TensorPlan& tp = m.core.tensors[t];
    if (tp.elementBits % 8 != 0)
      throw Unsupported("emit", tp.name + " has " + std::to_string(tp.elementBits) +
                                    "-bit elements; the DMA moves tiles of whole bytes");
    SequencedTensor s;
    s.out = tp.output;
    s.acc = x.startValues;
    s.dep.assign(nl, 0);
    s.red.assign(nl, 0);
    for (size_t i = 0; i < order.size(); ++i) {
      s.dep[i] = x.indexedBy[i];
      s.red[i] = x.revisits[i];
    }
    box(s, x.box, (tp.output && m.epilogue ? m.epilogueBits : tp.elementBits) / 8);
    c.tensors.push_back(std::move(s));
  }
  // Epilogue operands. A vector: one tile, the whole vector, loaded before the first buffer tile
  // only. A full operand: the output's tiles, each loaded late (while the core computes it).
  for (const OperandTransfer& o : m.operands) {
    SequencedTensor s;
    if (o.operand.full()) {
      s = c.tensors.front(); // the output's steps and tiles, in its own layout
      s.out = false;
      s.acc = false; // an input (ACC on an input fails elaboration)
      s.red.assign(nl, 0);
      s.late = true;
      box(s, o.box, o.operand.bits / 8);
      s.offset = static_cast<uint64_t>(o.offsetBytes);
      // The valid rows and columns are the output's (the gather reads the output's groups).
      s.trows = c.tensors.front().trows;
      s.tcols = c.tensors.front().tcols;
      s.pitch = o.box.pitch == s.tcols ? 0 : o.box.pitch;
    } else {
      s.dep.assign(nl, 0);
      s.red.assign(nl, 0);
      s.cols = s.tcols = o.operand.extent;
      s.ebytes = o.operand.bits / 8;
    }
    c.tensors.push_back(std::move(s));
  }
  return c;
}

namespace {

// The steps' tile indices (an odometer over the order, the last position innermost).
class Steps {
public:
  explicit Steps(const SequencerConfig& c) : c_(c), nl_(c.ext.size()) {
    std::vector<int64_t> idx(nl_, 0);
    for (;;) {
      idx_.insert(idx_.end(), idx.begin(), idx.end());
      size_t i = nl_;
      for (; i-- > 0;) {
        if (++idx[i] < c.ext[i]) break;
        idx[i] = 0;
      }
      if (i == static_cast<size_t>(-1)) break;
    }
    n_ = static_cast<int64_t>(idx_.size() / nl_);
  }
  int64_t size() const { return n_; }
  int64_t at(int64_t s, int pos) const {
    return idx_[static_cast<size_t>(s) * nl_ + static_cast<size_t>(pos)];
  }
  bool sameTile(size_t t, int64_t a, int64_t b) const {
    for (size_t i = 0; i < nl_; ++i)
      if (c_.tensors[t].dep[i] && at(a, int(i)) != at(b, int(i))) return false;
    return true;
  }
  bool runStart(size_t t, int64_t s) const { return s == 0 || s == n_ || !sameTile(t, s, s - 1); }
  bool runEnd(size_t t, int64_t s) const { return s == n_ - 1 || !sameTile(t, s, s + 1); }
  bool firstVisit(size_t t, int64_t s) const {
    for (size_t i = 0; i < nl_; ++i)
      if (c_.tensors[t].red[i] && at(s, int(i)) != 0) return false;
    return true;
  }
  // acc: the first visit loads the start values too, and the core never starts from zero.
  bool load(size_t t, int64_t s) const {
    const SequencedTensor& x = c_.tensors[t];
    return runStart(t, s) && (!x.out || x.acc || !firstVisit(t, s));
  }
  bool accZero(size_t t, int64_t s) const {
    const SequencedTensor& x = c_.tensors[t];
    return x.out && !x.acc && runStart(t, s) && firstVisit(t, s);
  }
  bool store(size_t t, int64_t s) const { return c_.tensors[t].out && runEnd(t, s); }

private:
  const SequencerConfig& c_;
  size_t nl_;
  int64_t n_ = 0;
  std::vector<int64_t> idx_;
};

} // namespace

std::vector<SeqWork> sequencerWork(const SequencerConfig& c, const std::vector<uint64_t>& bases) {
  const Steps st(c);
  const int64_t n = st.size();
  const size_t nt = c.tensors.size();
  auto event = [&](SeqKind kind, size_t t, int64_t step) {
    SeqEvent ev;
    ev.kind = kind;
    ev.tensor = static_cast<int>(t);
    ev.step = step;
    const SequencedTensor& x = c.tensors[t];
    const int64_t r = x.rowLoop < 0 ? 0 : st.at(step, x.rowLoop);
    const int64_t col = x.colLoop < 0 ? 0 : st.at(step, x.colLoop);
    ev.addr =
        bases[t] + x.offset +
        static_cast<uint64_t>((r * x.rowStep() * x.rowPitch() + col * x.colStep()) * x.ebytes);
    for (size_t i = 0; i < x.astep.size() && i < c.ext.size(); ++i)
      ev.addr += static_cast<uint64_t>(st.at(step, static_cast<int>(i))) * x.astep[i];
    ev.rows = std::min(x.rows, x.trows - r * x.rowStep());
    ev.cols = std::min(x.cols, x.tcols - col * x.colStep());
    return ev;
  };
  std::vector<SeqWork> out;
  uint64_t half = nt >= 64 ? ~uint64_t(0) : (uint64_t(1) << nt) - 1;
  std::vector<int> stored(nt);
  for (int64_t k = -1; k <= n; ++k) {
    SeqWork w;
    w.step = k;
    if (k >= 0)
      for (size_t t = 0; t < nt; ++t)
        if (st.runStart(t, k)) half ^= uint64_t(1) << t;
    w.half = half;
    if (k >= 0 && k < n)
      for (size_t t = 0; t < nt; ++t)
        if (st.accZero(t, k)) w.accZero |= uint64_t(1) << t;
    w.core = k >= 0 && k < n;
    std::fill(stored.begin(), stored.end(), -1);
    if (k - 1 >= 0)
      for (size_t t = 0; t < nt; ++t)
        if (st.store(t, k - 1)) {
          stored[t] = static_cast<int>(w.stores.size());
          w.stores.push_back(event(SeqKind::store, t, k - 1));
        }
    // The loads of step k + 1, and a late tensor's of step k (the step being computed).
    for (size_t t = 0; t < nt; ++t) {
      const int64_t s = c.tensors[t].late ? k : k + 1;
      if (s >= 0 && s < n && st.load(t, s)) {
        w.loads.push_back(event(SeqKind::load, t, s));
        w.after.push_back(stored[t]);
      }
    }
    out.push_back(std::move(w));
  }
  return out;
}

SeqTimeline sequencerTimeline(const SequencerConfig& c, const std::vector<uint64_t>& bases,
                              const SeqDelay& delay) {
  SeqTimeline e;
  int64_t p = 1;
  // Chained runs: the cycle after the core_done of the latest run started (0: none).
  int64_t drained = 0;
  for (SeqWork& w : sequencerWork(c, bases)) {
    int64_t last = p;
    const int64_t from = std::max(p, drained);
    auto issue = [&](SeqEvent ev, int64_t start) {
      ev.start = start;
      ev.done = start + std::max<int64_t>(1, delay(ev));
      last = std::max(last, ev.done);
      e.events.push_back(ev);
      return ev.done;
    };
    if (w.core) {
      SeqEvent core;
      core.step = w.step;
      const int64_t next = issue(core, p);
      if (c.chain) drained = next + c.coreTail + 1;
    }
    std::vector<int64_t> stored;
    int64_t next = from;
    for (const SeqEvent& ev : w.stores)
      stored.push_back(next = issue(ev, next) + 1);
    next = from;
    for (size_t i = 0; i < w.loads.size(); ++i) {
      const int64_t s = w.after[i] >= 0 ? std::max(next, stored[size_t(w.after[i])]) : next;
      next = issue(w.loads[i], s) + 1;
    }
    e.phases.push_back({p, last, w.half, w.accZero});
    p = last + 1;
  }
  e.done = p;
  return e;
}

} // namespace rubick::arch
