// SPDX-License-Identifier: Apache-2.0
// rubick_axi_mem.h: an AXI4 slave memory for Verilator testbenches. Header-only, standard C++17
// and built-in types only, so that it compiles into rubick's tests and, written next to the
// simulation runtime's harness, into `rubick verify` (embedded like the rest of sim_templates/).
//
// Use, once per clock cycle of the design under test (DUT):
//   1. drive the DUT's slave-side inputs (ARREADY, RVALID, RDATA, ...) from mem.pins();
//   2. settle the DUT with the clock low, and copy its master-side outputs into an
//      AxiMasterPins (mem.masterPins() gives one with the data vectors sized);
//   3. raise the clock (the DUT's edge), then call mem.tick(masterPins) (the model's edge).
// A transfer happens on a channel when VALID and READY are both high in that cycle, exactly as
// in AXI. The model's outputs are registers: they change only in tick(), never in response to
// the DUT's outputs of the same cycle.
//
// What it models:
//   - bandwidth: bytesPerCycle bytes per cycle per direction (or shared by reads and writes
//     with sharedBandwidth), as a token bucket: an R beat is presented, or WREADY raised, only
//     when dataBytes of credit are available, so with bytesPerCycle < dataBytes the beats come
//     spaced (e.g. every second cycle at half the width). At most one beat per cycle per
//     channel. A stall on R (RREADY low) does not slow the memory down.
//   - latency: the first R beat of a burst can be valid `latency` cycles after the cycle of its
//     AR handshake (1 = the next cycle); BVALID comes no earlier than `latency` cycles after the
//     AW handshake and at least one cycle after the last W beat.
//   - outstanding limit: ARREADY is low while maxOutstanding read bursts are in flight (AR
//     taken, last R beat not yet), AWREADY while maxOutstanding write bursts are (AW taken, B
//     not yet accepted). WREADY is high only for W beats of bursts whose AW was taken (a slave
//     may wait for AW; the master must not wait for WREADY before WVALID).
//   - DRAM timing (dram = true): addresses map to (row, bank, column) with consecutive rows of
//     rowBytes going to consecutive banks; each bank keeps one open row (open-page policy).
//     Every run of beats of a burst in one row is one access, reaching the DRAM `latency`
//     cycles after the address handshake: a row hit adds CL cycles, a closed bank tRCD + CL
//     (activate), another row open tRP + tRCD + CL (precharge, no earlier than tRAS after that
//     row's activate; then activate); an activate waits until the bank's previous activate has
//     finished. No refresh, tWR, tFAW or bus turnaround: a first-order model of row locality.
//   - responses in order (one queue for reads, one for writes), RID/BID = the request's ID.
// Checks (each recorded in violations(), so that a test fails on it; the transfer still
// happens): ARBURST/AWBURST other than INCR, ARLEN/AWLEN above 255, ARSIZE/AWSIZE other than
// log2(dataBytes) (full-width beats only), an address not aligned to dataBytes, a burst that
// crosses a 4 KiB boundary, a burst beyond the memory size (answered DECERR, nothing written),
// a written byte outside the regions given to allowWrites() (not written, answered SLVERR),
// WLAST not on the burst's last beat, and VALID dropped or the payload changed before READY on
// AR, AW or W.
// Counters (stats()): bytes read and written, bursts, row hits and misses (conflicts are the
// misses that closed another row), busy cycles (cycles with a burst in flight, from the cycle
// after its address handshake to the cycle of its last R beat or B handshake), and the most
// bursts in flight.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <deque>
#include <string>
#include <unordered_map>
#include <vector>

namespace rubick_sim {

struct AxiMemConfig {
  unsigned dataBytes = 8;       // bus width in bytes: a power of two, 1..128
  unsigned bytesPerCycle = 8;   // bandwidth, >= 1 (above dataBytes: one beat per cycle)
  bool sharedBandwidth = false; // reads and writes share bytesPerCycle (else each has it)
  unsigned latency = 10;        // cycles, >= 1 (0 is taken as 1)
  unsigned maxOutstanding = 8;  // bursts in flight per direction, >= 1
  uint64_t size = 1 << 20;      // bytes; addresses 0 .. size-1
  bool dram = false;            // DRAM timing on top of `latency`
  unsigned banks = 8;           // DRAM banks, >= 1
  unsigned rowBytes = 2048;     // DRAM row (page) size in bytes, >= 1
  unsigned tRCD = 14;           // activate to read/write, cycles
  unsigned tRP = 14;            // precharge, cycles
  unsigned tRAS = 0;            // activate to precharge, at least, cycles
  unsigned CL = 14;             // read/write command to data, cycles
  bool recordBursts = false;    // keep every accepted burst in bursts()
};

// The master's outputs (the DUT drives them), one cycle's values.
struct AxiMasterPins {
  bool arvalid = false;
  uint64_t araddr = 0;
  unsigned arlen = 0, arsize = 0, arburst = 1, arid = 0;
  bool rready = false;
  bool awvalid = false;
  uint64_t awaddr = 0;
  unsigned awlen = 0, awsize = 0, awburst = 1, awid = 0;
  bool wvalid = false, wlast = false;
  std::vector<uint8_t> wdata; // byte i = WDATA[8i+7:8i]
  std::vector<uint8_t> wstrb; // byte i: WSTRB[i] (0 or 1)
  bool bready = false;
};

// The slave's outputs (the model drives them), one cycle's values.
struct AxiSlavePins {
  bool arready = false;
  bool rvalid = false, rlast = false;
  std::vector<uint8_t> rdata; // byte i = RDATA[8i+7:8i]
  unsigned rresp = 0, rid = 0;
  bool awready = false, wready = false;
  bool bvalid = false;
  unsigned bresp = 0, bid = 0;
};

struct AxiMemStats {
  uint64_t bytesRead = 0, bytesWritten = 0;
  uint64_t readBursts = 0, writeBursts = 0;
  uint64_t rowHits = 0, rowMisses = 0, rowConflicts = 0;
  uint64_t busyCycles = 0;
  unsigned peakReads = 0, peakWrites = 0;
};

struct AxiBurstRecord {
  bool write = false;
  uint64_t cycle = 0; // of the address handshake
  uint64_t addr = 0;
  unsigned len = 0; // AxLEN (beats - 1)
  unsigned id = 0;
};

class AxiMem {
public:
  static constexpr unsigned kOkay = 0, kSlverr = 2, kDecerr = 3;

  explicit AxiMem(const AxiMemConfig& c) : cfg_(c) {
    if (cfg_.dataBytes < 1 || cfg_.dataBytes > 128 || (cfg_.dataBytes & (cfg_.dataBytes - 1))) {
      violation("config: dataBytes must be a power of two up to 128 (using 8)");
      cfg_.dataBytes = 8;
    }
    cfg_.latency = std::max(1u, cfg_.latency);
    cfg_.bytesPerCycle = std::max(1u, cfg_.bytesPerCycle);
    cfg_.maxOutstanding = std::max(1u, cfg_.maxOutstanding);
    cfg_.banks = std::max(1u, cfg_.banks);
    cfg_.rowBytes = std::max(1u, cfg_.rowBytes);
    while ((1u << sizeLog2_) < cfg_.dataBytes)
      ++sizeLog2_;
    reset();
  }

  const AxiMemConfig& config() const { return cfg_; }

  // Channels idle (in-flight bursts dropped, DRAM rows closed); memory, regions, counters and
  // violations are kept.
  void reset() {
    reads_.clear();
    writes_.clear();
    banks_.assign(cfg_.banks, Bank{});
    rdCredit_ = wrCredit_ = 0;
    havePrev_ = false;
    out_ = AxiSlavePins{};
    out_.rdata.assign(cfg_.dataBytes, 0);
    decide(false, false);
  }

  // The model's outputs for the current cycle.
  const AxiSlavePins& pins() const { return out_; }
  // An AxiMasterPins with wdata and wstrb sized for the bus.
  AxiMasterPins masterPins() const {
    AxiMasterPins m;
    m.wdata.assign(cfg_.dataBytes, 0);
    m.wstrb.assign(cfg_.dataBytes, 0);
    return m;
  }
  // The current cycle's number: ticks since construction.
  uint64_t cycle() const { return cycle_; }

  // One rising edge: `m` holds the master's outputs in the cycle that ends.
  void tick(const AxiMasterPins& m) {
    const uint64_t c = cycle_;
    checkStable(m);
    const bool arHs = m.arvalid && out_.arready;
    const bool rHs = out_.rvalid && m.rready;
    const bool awHs = m.awvalid && out_.awready;
    const bool wHs = m.wvalid && out_.wready;
    const bool bHs = out_.bvalid && m.bready;
    if (rHs) readBeatDone();
    if (bHs) writes_.pop_front();
    if (wHs) writeBeat(m, c);
    if (arHs) acceptRead(m, c);
    if (awHs) acceptWrite(m, c);
    if (!reads_.empty() || !writes_.empty()) ++stats_.busyCycles;
    stats_.peakReads = std::max(stats_.peakReads, unsigned(reads_.size()));
    stats_.peakWrites = std::max(stats_.peakWrites, unsigned(writes_.size()));
    prev_ = m;
    prevOut_ = out_;
    havePrev_ = true;
    if (out_.wready && !wHs) (cfg_.sharedBandwidth ? rdCredit_ : wrCredit_) += cfg_.dataBytes;
    ++cycle_;
    decide(out_.rvalid && !rHs, out_.bvalid && !bHs);
  }

  // Backdoor access (no timing, no checks).
  void store(uint64_t addr, const uint8_t* data, size_t n) {
    for (size_t i = 0; i < n; ++i)
      setByte(addr + i, data[i]);
  }
  void load(uint64_t addr, uint8_t* data, size_t n) const {
    for (size_t i = 0; i < n; ++i)
      data[i] = byte(addr + i);
  }
  uint8_t byte(uint64_t addr) const {
    auto it = pages_.find(addr / kPage);
    return it == pages_.end() ? 0 : it->second[addr % kPage];
  }

  // Writes are allowed only inside the regions given here (all memory while none is given).
  void allowWrites(uint64_t base, uint64_t size) { writable_.push_back({base, size, 0}); }
  // Accesses to these bytes answer `resp` (reads still return the data; writes are dropped).
  void injectError(uint64_t base, uint64_t size, unsigned resp = kSlverr) {
    errors_.push_back({base, size, resp});
  }

  const std::vector<std::string>& violations() const { return violations_; }
  uint64_t violationCount() const { return violationCount_; }
  const AxiMemStats& stats() const { return stats_; }
  const std::vector<AxiBurstRecord>& bursts() const { return bursts_; }

private:
  static constexpr uint64_t kPage = 4096;
  static constexpr size_t kMaxMessages = 100;

  struct Region {
    uint64_t base, size;
    unsigned resp;
    bool contains(uint64_t a) const { return a >= base && a - base < size; }
  };
  // A run of beats [first, ...) that becomes ready at `ready`.
  struct Segment {
    unsigned first;
    uint64_t ready;
  };
  struct Burst {
    uint64_t addr = 0;
    unsigned beats = 0, id = 0, done = 0; // done: beats sent (read) or received (write)
    bool decerr = false;
    unsigned resp = kOkay; // write: worst response so far
    std::vector<Segment> segments;
    uint64_t bReady = 0; // write: earliest BVALID cycle
    uint64_t readyOf(unsigned beat) const {
      uint64_t r = 0;
      for (const Segment& s : segments)
        if (s.first <= beat) r = s.ready;
      return r;
    }
  };
  struct Bank {
    bool open = false;
    uint64_t row = 0;
    uint64_t activeAt = 0; // the open row is usable from this cycle
  };

  void violation(const std::string& what) {
    ++violationCount_;
    if (violations_.size() < kMaxMessages)
      violations_.push_back("cycle " + std::to_string(cycle_) + ": " + what);
  }
  static std::string hex(uint64_t v) {
    char buf[24];
    std::snprintf(buf, sizeof buf, "0x%llx", static_cast<unsigned long long>(v));
    return buf;
  }

  void setByte(uint64_t addr, uint8_t v) {
    std::vector<uint8_t>& p = pages_[addr / kPage];
    if (p.empty()) p.assign(kPage, 0);
    p[addr % kPage] = v;
  }
  unsigned errorAt(uint64_t a) const {
    for (const Region& r : errors_)
      if (r.contains(a)) return r.resp;
    return kOkay;
  }
  bool writableAt(uint64_t a) const {
    if (writable_.empty()) return true;
    for (const Region& r : writable_)
      if (r.contains(a)) return true;
    return false;
  }

  // AXI's rule: once VALID is high it stays high, with the same payload, until READY.
  void checkStable(const AxiMasterPins& m) {
    if (!havePrev_) return;
    const AxiMasterPins& p = prev_;
    if (p.arvalid && !prevOut_.arready &&
        (!m.arvalid || m.araddr != p.araddr || m.arlen != p.arlen || m.arsize != p.arsize ||
         m.arburst != p.arburst || m.arid != p.arid))
      violation("AR: ARVALID dropped or the address changed before ARREADY");
    if (p.awvalid && !prevOut_.awready &&
        (!m.awvalid || m.awaddr != p.awaddr || m.awlen != p.awlen || m.awsize != p.awsize ||
         m.awburst != p.awburst || m.awid != p.awid))
      violation("AW: AWVALID dropped or the address changed before AWREADY");
    if (p.wvalid && !prevOut_.wready &&
        (!m.wvalid || m.wdata != p.wdata || m.wstrb != p.wstrb || m.wlast != p.wlast))
      violation("W: WVALID dropped or the data changed before WREADY");
  }

  // The checks common to AR and AW; fills the burst's address, length and range.
  Burst checkAddress(const char* ch, uint64_t addr, unsigned len, unsigned size, unsigned burst,
                     unsigned id) {
    Burst b;
    b.addr = addr;
    b.id = id;
    const std::string at = std::string(ch) + " " + hex(addr) + " len " + std::to_string(len);
    if (burst != 1)
      violation(at + ": burst type " + std::to_string(burst) + " (only INCR = 1 is supported)");
    if (len > 255) violation(at + ": length above 255 (AXI4 allows 256 beats)");
    if (size != sizeLog2_)
      violation(at + ": size " + std::to_string(size) + ", the bus needs " +
                std::to_string(sizeLog2_) + " (full-width beats)");
    if (addr % cfg_.dataBytes != 0)
      violation(at + ": not aligned to " + std::to_string(cfg_.dataBytes) + " bytes");
    b.beats = (len & 0xff) + 1;
    const uint64_t bytes = uint64_t(b.beats) * cfg_.dataBytes;
    if (addr % 4096 + bytes > 4096) violation(at + ": crosses a 4 KiB boundary");
    if (addr >= cfg_.size || bytes > cfg_.size - addr) {
      violation(at + ": beyond the memory (" + hex(cfg_.size) + " bytes)");
      b.decerr = true;
    }
    return b;
  }

  uint64_t beatAddr(const Burst& b, unsigned k) const {
    return (b.addr & ~uint64_t(cfg_.dataBytes - 1)) + uint64_t(k) * cfg_.dataBytes;
  }

  // When the beats of a burst whose address handshake was in cycle c are ready: one segment
  // per DRAM row touched (one segment without DRAM timing).
  void schedule(Burst& b, uint64_t c) {
    const uint64_t arrive = c + cfg_.latency;
    if (!cfg_.dram) {
      b.segments.push_back({0, arrive});
      return;
    }
    uint64_t lastRow = ~uint64_t(0), prevReady = 0;
    for (unsigned k = 0; k < b.beats; ++k) {
      const uint64_t rowIndex = beatAddr(b, k) / cfg_.rowBytes;
      if (k > 0 && rowIndex == lastRow) continue;
      lastRow = rowIndex;
      Bank& bank = banks_[rowIndex % cfg_.banks];
      const uint64_t row = rowIndex / cfg_.banks;
      uint64_t ready;
      if (bank.open && bank.row == row) {
        ++stats_.rowHits;
        ready = std::max(arrive, bank.activeAt) + cfg_.CL;
      } else {
        ++stats_.rowMisses;
        uint64_t t = std::max(arrive, bank.activeAt);
        if (bank.open) {
          ++stats_.rowConflicts;
          // The precharge waits for tRAS from the open row's activate, tRCD before activeAt.
          t = std::max<uint64_t>(t, bank.activeAt + cfg_.tRAS - cfg_.tRCD) + cfg_.tRP;
        }
        bank.open = true;
        bank.row = row;
        bank.activeAt = t + cfg_.tRCD;
        ready = bank.activeAt + cfg_.CL;
      }
      prevReady = std::max(prevReady, ready);
      b.segments.push_back({k, prevReady});
    }
  }

  void record(bool write, uint64_t c, const Burst& b, unsigned len) {
    if (cfg_.recordBursts) bursts_.push_back({write, c, b.addr, len, b.id});
  }

  void acceptRead(const AxiMasterPins& m, uint64_t c) {
    Burst b = checkAddress("AR", m.araddr, m.arlen, m.arsize, m.arburst, m.arid);
    schedule(b, c);
    ++stats_.readBursts;
    record(false, c, b, m.arlen);
    reads_.push_back(std::move(b));
  }

  void acceptWrite(const AxiMasterPins& m, uint64_t c) {
    Burst b = checkAddress("AW", m.awaddr, m.awlen, m.awsize, m.awburst, m.awid);
    if (b.decerr) b.resp = kDecerr;
    schedule(b, c);
    b.bReady = b.segments.back().ready;
    ++stats_.writeBursts;
    record(true, c, b, m.awlen);
    writes_.push_back(std::move(b));
  }

  void readBeatDone() {
    Burst& b = reads_.front();
    stats_.bytesRead += cfg_.dataBytes;
    if (++b.done == b.beats) reads_.pop_front();
  }

  Burst* writeFilling() {
    for (Burst& b : writes_)
      if (b.done < b.beats) return &b;
    return nullptr;
  }

  void writeBeat(const AxiMasterPins& m, uint64_t c) {
    Burst* b = writeFilling();
    if (!b) return; // WREADY is only high while a burst is filling
    const unsigned k = b->done++;
    const bool last = b->done == b->beats;
    if (m.wlast != last)
      violation("W beat " + std::to_string(k) + " of AW " + hex(b->addr) +
                (last ? ": WLAST low on the last beat" : ": WLAST high before the last beat"));
    if (last) b->bReady = std::max(b->bReady, c + 1);
    if (b->decerr) return;
    const uint64_t base = beatAddr(*b, k);
    bool outside = false;
    for (unsigned i = 0; i < cfg_.dataBytes; ++i) {
      if (i >= m.wstrb.size() || !m.wstrb[i]) continue;
      const uint64_t a = base + i;
      if (unsigned e = errorAt(a)) {
        b->resp = std::max(b->resp, e);
        continue;
      }
      if (!writableAt(a)) {
        outside = true;
        continue;
      }
      setByte(a, i < m.wdata.size() ? m.wdata[i] : 0);
      ++stats_.bytesWritten;
    }
    if (outside) {
      violation("W beat " + std::to_string(k) + " of AW " + hex(b->addr) +
                ": writes outside the allowed regions (not written)");
      b->resp = std::max(b->resp, kSlverr);
    }
  }

  // The outputs for the new cycle_. rHeld / bHeld: RVALID / BVALID were high without READY,
  // so that channel keeps its outputs.
  void decide(bool rHeld, bool bHeld) {
    const unsigned beat = cfg_.dataBytes;
    // The bucket holds at most one cycle's bandwidth plus a beat per user, less one byte: a
    // busy channel never loses credit, an idle one gains no more than one beat's head start.
    const uint64_t users = cfg_.sharedBandwidth ? 2 : 1;
    const uint64_t cap = cfg_.bytesPerCycle + users * beat - 1;
    rdCredit_ = std::min(rdCredit_ + cfg_.bytesPerCycle, cap);
    if (!cfg_.sharedBandwidth) wrCredit_ = std::min(wrCredit_ + cfg_.bytesPerCycle, cap);
    uint64_t& wCredit = cfg_.sharedBandwidth ? rdCredit_ : wrCredit_;

    out_.arready = reads_.size() < cfg_.maxOutstanding;
    out_.awready = writes_.size() < cfg_.maxOutstanding;

    auto serveR = [&] {
      if (rHeld) return;
      out_.rvalid = false;
      out_.rlast = false;
      if (reads_.empty()) return;
      const Burst& b = reads_.front();
      if (cycle_ < b.readyOf(b.done) || rdCredit_ < beat) return;
      rdCredit_ -= beat;
      presentRead(b);
    };
    // WREADY reserves a beat's credit; tick() gives it back if no beat came.
    auto serveW = [&] {
      out_.wready = writeFilling() != nullptr && wCredit >= beat;
      if (out_.wready) wCredit -= beat;
    };
    // With a shared budget, reads and writes take turns at the first claim.
    if (cfg_.sharedBandwidth && (cycle_ & 1)) {
      serveW();
      serveR();
    } else {
      serveR();
      serveW();
    }

    if (!bHeld) {
      out_.bvalid = false;
      if (!writes_.empty()) {
        const Burst& b = writes_.front();
        if (b.done == b.beats && cycle_ >= b.bReady) {
          out_.bvalid = true;
          out_.bresp = b.resp;
          out_.bid = b.id;
        }
      }
    }
  }

  void presentRead(const Burst& b) {
    const unsigned k = b.done;
    const uint64_t base = beatAddr(b, k);
    out_.rvalid = true;
    out_.rlast = k + 1 == b.beats;
    out_.rid = b.id;
    unsigned resp = kOkay;
    for (unsigned i = 0; i < cfg_.dataBytes; ++i) {
      out_.rdata[i] = b.decerr ? 0 : byte(base + i);
      if (!b.decerr) resp = std::max(resp, errorAt(base + i));
    }
    out_.rresp = b.decerr ? kDecerr : resp;
  }

  AxiMemConfig cfg_;
  unsigned sizeLog2_ = 0;
  uint64_t cycle_ = 0;
  AxiSlavePins out_, prevOut_;
  AxiMasterPins prev_;
  bool havePrev_ = false;
  std::deque<Burst> reads_, writes_;
  std::vector<Bank> banks_;
  uint64_t rdCredit_ = 0, wrCredit_ = 0;
  std::unordered_map<uint64_t, std::vector<uint8_t>> pages_;
  std::vector<Region> writable_, errors_;
  std::vector<std::string> violations_;
  uint64_t violationCount_ = 0;
  AxiMemStats stats_;
  std::vector<AxiBurstRecord> bursts_;
};

} // namespace rubick_sim
