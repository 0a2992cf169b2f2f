// SPDX-License-Identifier: Apache-2.0
#include "rubick/arch/DramTiming.h"

#include "TimingParts.h"

#include <limits>

namespace rubick::arch {

namespace {

struct BurstRecord {
  int64_t at = 0; // the address handshake's cycle
  uint64_t addr = 0;
  int64_t beats = 0;
  friend bool operator==(const BurstRecord&, const BurstRecord&) = default;
};

// One channel's bursts on the DRAM, the other channel's recorded bursts applied in between in
// the memory's order (by handshake cycle; in one cycle the read before the write).
class ChannelReplay final : public BurstMemory {
public:
  ChannelReplay(const DramBanks& start, const BusTiming& bus, bool write,
                const std::vector<BurstRecord>& other)
      : banks_(start), latency_(bus.latency), busBytes_(bus.busBytes), write_(write),
        other_(&other) {
    banks_.hits = banks_.misses = banks_.conflicts = 0;
  }
  // The absolute cycle of the engine's cycle 0 (its start pulse) for the next transfer.
  void origin(int64_t o) { origin_ = o; }
  const std::vector<BeatsReady>& burst(bool, int64_t at, uint64_t addr, int64_t beats) override {
    const int64_t abs = origin_ + at;
    catchUp(abs);
    banks_.access(abs + latency_, addr, beats, busBytes_, true, runs_);
    for (BeatsReady& r : runs_)
      r.cycle -= origin_;
    records.push_back({abs, addr, beats});
    return runs_;
  }
  // The other channel's bursts after this one's last; `other` is not needed any more.
  void finish() {
    catchUp(std::numeric_limits<int64_t>::max());
    other_ = nullptr;
  }
  const DramBanks& banks() const { return banks_; }

  std::vector<BurstRecord> records; // this channel's bursts
  std::vector<int64_t> done;        // per transfer, its done pulse

private:
  void catchUp(int64_t abs) {
    const std::vector<BurstRecord>& other = *other_;
    while (next_ < other.size() && (other[next_].at < abs || (write_ && other[next_].at == abs))) {
      const BurstRecord& b = other[next_++];
      banks_.access(b.at + latency_, b.addr, b.beats, busBytes_, false, scratch_);
    }
  }

  DramBanks banks_;
  int64_t latency_, busBytes_;
  bool write_;
  const std::vector<BurstRecord>* other_;
  size_t next_ = 0;
  int64_t origin_ = 0;
  std::vector<BeatsReady> runs_, scratch_;
};

class PhaseTimer {
public:
  PhaseTimer(const SequencerConfig& c, const std::vector<DmaEngine>& engines, const BusTiming& bus,
             const OnChip& onChip)
      : c_(c), engines_(engines), bus_(bus), chip_(timing::onChipBus(bus, onChip)),
        onChip_(onChip) {}

  // The stores from cycle p, one after the other, against the loads `other`.
  ChannelReplay stores(const SeqWork& w, int64_t p, const DramBanks& start,
                       const std::vector<BurstRecord>& other) const {
    ChannelReplay ch(start, bus_, true, other);
    int64_t next = p;
    for (const SeqEvent& ev : w.stores)
      next = run(ch, ev, next) + 1;
    ch.finish();
    return ch;
  }

  // The loads from cycle p, a reload after its tensor's store (`stored`), against the stores.
  ChannelReplay loads(const SeqWork& w, int64_t p, const DramBanks& start,
                      const ChannelReplay& stored) const {
    ChannelReplay ch(start, bus_, false, stored.records);
    int64_t next = p;
    for (size_t i = 0; i < w.loads.size(); ++i) {
      const int64_t s =
          w.after[i] >= 0 ? std::max(next, stored.done[size_t(w.after[i])] + 1) : next;
      next = run(ch, w.loads[i], s) + 1;
    }
    ch.finish();
    return ch;
  }

private:
  int64_t run(ChannelReplay& ch, const SeqEvent& ev, int64_t start) const {
    const size_t t = static_cast<size_t>(ev.tensor);
    if (onChip_.has(t)) { // the DRAM never sees it
      const int64_t d = timing::transferCycles(c_, engines_[t], ev, chip_);
      ch.done.push_back(start + std::max<int64_t>(1, d));
      return ch.done.back();
    }
    BusTiming bus = bus_;
    bus.memory = &ch;
    // Measured on whole tops: a load's bursts come a cycle later, relative to those of a store
    // started in the same cycle, than the reader's own timing from its start puts them; its
    // done, a cycle after the reader's (MemoryTiming.h), is the same either way.
    ch.origin(ev.kind == SeqKind::load ? start + 1 : start);
    const int64_t d = timing::transferCycles(c_, engines_[static_cast<size_t>(ev.tensor)], ev, bus);
    ch.done.push_back(start + std::max<int64_t>(1, d));
    return ch.done.back();
  }

  const SequencerConfig& c_;
  const std::vector<DmaEngine>& engines_;
  const BusTiming& bus_;
  const BusTiming chip_;
  const OnChip& onChip_;
};

} // namespace

MemoryTiming dramTiming(const MemoryPlan& m, const AxiOptions& o, const dse::MemorySystem& mem,
                        const Dram& dram, const std::vector<uint64_t>& given) {
  DramBanks closed(dram);
  return dramTiming(m, o, mem, given, closed);
}

MemoryTiming dramTiming(const MemoryPlan& m, const AxiOptions& o, const dse::MemorySystem& mem,
                        const std::vector<uint64_t>& given, DramBanks& banks,
                        const OnChip& onChip) {
  const SequencerConfig c = sequencerConfig(m);
  MemoryTiming r;
  r.bases = timing::basesFor(m, given);
  const BusTiming bus = timing::busTiming(o, mem);
  const std::vector<DmaEngine> engines = timing::engines(m);
  r.coreCycles = timing::mostCoreCycles(m);
  const PhaseTimer timer(c, engines, bus, onChip);
  SeqTimeline tl;
  int64_t p = 1;
  // Chained runs: the cycle after the core_done of the latest run started (BufferSequence.h).
  int64_t drained = 0;
  for (const SeqWork& w : sequencerWork(c, r.bases)) {
    const std::vector<BurstRecord> none;
    const int64_t from = std::max(p, drained);
    ChannelReplay st = timer.stores(w, from, banks, none);
    ChannelReplay ld = timer.loads(w, from, banks, st);
    // With both channels busy, each is timed again against the other's latest bursts until
    // the stores come out as before (the loads, timed against them, then do too).
    bool storesLast = !w.stores.empty();
    if (!w.stores.empty() && !w.loads.empty())
      for (int i = 0;; ++i) {
        ChannelReplay again = timer.stores(w, from, banks, ld.records);
        const bool settled = again.records == st.records && again.done == st.done;
        st = std::move(again);
        if (settled) break;
        if (i + 1 == kMaxDramReplays) {
          ++r.unsettledPhases;
          ld = timer.loads(w, from, banks, st);
          storesLast = false;
          break;
        }
        ld = timer.loads(w, from, banks, st);
      }
    r.rowHits += st.banks().hits + ld.banks().hits;
    r.rowMisses += st.banks().misses + ld.banks().misses;
    r.rowConflicts += st.banks().conflicts + ld.banks().conflicts;
    banks = storesLast ? st.banks() : ld.banks();

    int64_t last = p;
    auto add = [&](SeqEvent ev, int64_t start, int64_t done) {
      ev.start = start;
      ev.done = done;
      last = std::max(last, done);
      tl.events.push_back(ev);
    };
    if (w.core) {
      SeqEvent core;
      core.step = w.step;
      const int64_t next = p + std::max<int64_t>(1, coreCycles(m, w.step));
      add(core, p, next);
      if (c.chain) drained = next + c.coreTail + 1;
    }
    int64_t next = from;
    for (size_t i = 0; i < w.stores.size(); ++i) {
      add(w.stores[i], next, st.done[i]);
      next = st.done[i] + 1;
    }
    next = from;
    for (size_t i = 0; i < w.loads.size(); ++i) {
      const int64_t s = w.after[i] >= 0 ? std::max(next, st.done[size_t(w.after[i])] + 1) : next;
      add(w.loads[i], s, ld.done[i]);
      next = ld.done[i] + 1;
    }
    tl.phases.push_back({p, last, w.half, w.accZero});
    p = last + 1;
  }
  tl.done = p;
  timing::summarize(tl, r);
  return r;
}

} // namespace rubick::arch
