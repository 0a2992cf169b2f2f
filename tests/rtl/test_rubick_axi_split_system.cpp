// SPDX-License-Identifier: Apache-2.0
// System test of rtl_templates/rubick_axi_split.v behind rubick's engines
// (tb_rubick_axi_split_system.v): rubick_axi_rd and rubick_axi_wr at DATA_W = 4096 behind a split
// of 4 ways of 1024 bits, each way on its own AXI memory model of sim_templates/rubick_axi_mem.h
// (dataBytes 128, the same latency, each with a quarter of the wide bandwidth, in DRAM mode with
// a quarter of the row size), next to the narrow twin: the same engines at DATA_W = 1024 on ONE
// memory model of the same settings, given the same commands at the addresses divided by 4.
// rubick_axi_mem.h models buses of up to 128 bytes, so the wide system cannot be compared with
// one 512-byte memory; instead the test checks the lock-step claim directly:
//   (i)   data: every beat the wide reader returns equals a shadow of the wide address space
//         written by the test, and after every phase each way's memory holds the shadow's bytes
//         by the header's mapping (wide byte b in way (b / 128) mod 4 at (b / 512) * 128 +
//         b mod 128); the ways' bursts are the wide engine's documented split with the
//         addresses divided by 4; no memory reports an AXI violation (ARSIZE / AWSIZE = 7 on
//         the ways, alignment, 4 KiB, WLAST, VALID held until READY, writes only inside the
//         commands' regions) and the engines report no error.
//   (ii)  lock-step: in every cycle the ways' AR, R, AW, W and B handshakes are all or none,
//         and their AR / AW / W VALIDs are equal (no way is ever ahead: the sent flags are never
//         used).
//   (iii) twin: in the twin phases, every cycle, the wide engines' command READYs, out_valid,
//         out_last, in_ready, done, busy, error and their AXI VALIDs, READYs, lengths, RLAST,
//         RRESP, WLAST, BRESP equal the narrow engines', and the wide addresses divided by 4 the
//         narrow ones: the wide system is cycle for cycle the narrow one's twin. Each narrow
//         read beat equals the wide beat's first 128 bytes and the narrow memory ends equal to
//         way 0's. The twin holds for commands whose split no wide 4 KiB boundary changes: a
//         wide engine's 4 KiB page holds 8 beats of 512 bytes, the narrow one's 32 of 128, so the
//         narrow engines have MAX_BURST 8 and the twin phases use commands (drawn as in the
//         engines' own tests) whose bursts are the same in both; the free phases run any
//         commands through the wide system with checks (i) and (ii).
//   Hand-derived cycle counts on short cases (full bandwidth, one beat per cycle per way): a
//   read of n wide beats taken in cycle c has its last beat out in cycle c + latency + n + 2 (AR
//   register and AR in cycle c + 2, R beats from c + 2 + latency, out_* a cycle later); a write
//   of 8 beats has done in cycle c + max(latency + 2, 12) + 1 (W beats in cycles c + 4 .. c + 11,
//   B no earlier than latency after the AW of cycle c + 2 and a cycle after the last W), and one
//   of 128 beats at latency 20 in c + 128 + 5 (W beats back to back, B the cycle after the last).
#include "Vtb_rubick_axi_split_system.h"
#include "axi_test.h"

#include <array>
#include <deque>
#include <functional>
#include <memory>

namespace {

using rubick_sim::AxiMasterPins;
using rubick_sim::AxiMem;
using rubick_sim::AxiSlavePins;
using Vtb = Vtb_rubick_axi_split_system;

const char* kTest = "test_rubick_axi_split_system";
constexpr unsigned kWays = 4, kPortBytes = 128, kWideBytes = kWays * kPortBytes;
constexpr unsigned kId = 5, kWideMaxBurst = 256, kNarrowMaxBurst = 8;
constexpr uint64_t kMemBytes = 512 * 1024; // the wide address space; each way has a quarter
constexpr uint64_t kHalf = kMemBytes / 2;

// Bytes of wide ports, 32 bits at a time.
template <std::size_t N>
uint8_t byteOf(const VlWide<N>& p, size_t i) {
  return uint8_t(p.at(i / 4) >> (8 * (i % 4)));
}
template <std::size_t N>
void setByte(VlWide<N>& p, size_t i, uint8_t v) {
  uint32_t& w = p.at(i / 4);
  const int sh = int(8 * (i % 4));
  w = (w & ~(uint32_t{0xff} << sh)) | (uint32_t{v} << sh);
}
template <std::size_t N>
bool bitOf(const VlWide<N>& p, size_t i) {
  return (p.at(i / 32) >> (i % 32)) & 1;
}
template <std::size_t N>
void setBit(VlWide<N>& p, size_t i, bool v) {
  const uint32_t one = uint32_t{1} << (i % 32);
  p.at(i / 32) = v ? (p.at(i / 32) | one) : (p.at(i / 32) & ~one);
}

// The header's mapping: wide byte b lies in way wayOf(b) at wayAddr(b); and back.
unsigned wayOf(uint64_t b) {
  return unsigned((b / kPortBytes) % kWays);
}
uint64_t wayAddr(uint64_t b) {
  return (b / kWideBytes) * kPortBytes + b % kPortBytes;
}
uint64_t wideAddr(unsigned way, uint64_t x) {
  return (x / kPortBytes) * kWideBytes + way * kPortBytes + x % kPortBytes;
}

// One side's command and stream ports (prefix w_ or n_).
struct SideIo {
  std::function<void(Vtb&, bool, uint64_t, uint64_t)> setRdCmd, setWrCmd;
  std::function<void(Vtb&, bool)> setOutReady;
  std::function<void(Vtb&, bool, const std::vector<uint8_t>&, const std::vector<uint8_t>&)> setIn;
  std::function<bool(Vtb&)> rdCmdReady, wrCmdReady, outValid, outLast, inReady, done, error;
  std::function<bool(Vtb&)> busy;
  std::function<void(Vtb&, std::vector<uint8_t>&)> outData;
};

#define SIDE_IO(P)                                                                                 \
  SideIo {                                                                                         \
    [](Vtb& m, bool v, uint64_t a, uint64_t n) {                                                   \
      m.P##_rd_cmd_valid = v;                                                                      \
      m.P##_rd_cmd_addr = uint32_t(a);                                                             \
      m.P##_rd_cmd_len = uint16_t(n);                                                              \
    },                                                                                             \
        [](Vtb& m, bool v, uint64_t a, uint64_t n) {                                               \
          m.P##_wr_cmd_valid = v;                                                                  \
          m.P##_wr_cmd_addr = uint32_t(a);                                                         \
          m.P##_wr_cmd_len = uint16_t(n);                                                          \
        },                                                                                         \
        [](Vtb& m, bool r) { m.P##_out_ready = r; },                                               \
        [](Vtb& m, bool v, const std::vector<uint8_t>& d, const std::vector<uint8_t>& s) {         \
          m.P##_in_valid = v;                                                                      \
          for (size_t i = 0; i < d.size(); ++i) {                                                  \
            setByte(m.P##_in_data, i, d[i]);                                                       \
            setBit(m.P##_in_strb, i, s[i] != 0);                                                   \
          }                                                                                        \
        },                                                                                         \
        [](Vtb& m) -> bool { return m.P##_rd_cmd_ready; },                                         \
        [](Vtb& m) -> bool { return m.P##_wr_cmd_ready; },                                         \
        [](Vtb& m) -> bool { return m.P##_out_valid; },                                            \
        [](Vtb& m) -> bool { return m.P##_out_last; },                                             \
        [](Vtb& m) -> bool { return m.P##_in_ready; },                                             \
        [](Vtb& m) -> bool { return m.P##_wr_done; },                                              \
        [](Vtb& m) -> bool { return m.P##_rd_error || m.P##_wr_error; },                           \
        [](Vtb& m) -> bool { return m.P##_rd_busy || m.P##_wr_busy; },                             \
        [](Vtb& m, std::vector<uint8_t>& d) {                                                      \
          for (size_t i = 0; i < d.size(); ++i)                                                    \
            d[i] = byteOf(m.P##_out_data, i);                                                      \
        }                                                                                          \
  }

// What the twin comparison looks at, wide addresses divided by 4.
const char* const kObs[] = {
    "rd cmd_ready", "wr cmd_ready", "out_valid", "out_last", "in_ready", "done",   "busy",
    "error",        "ARVALID",      "ARREADY",   "ARADDR",   "ARLEN",    "RVALID", "RREADY",
    "RLAST",        "RRESP",        "AWVALID",   "AWREADY",  "AWADDR",   "AWLEN",  "WVALID",
    "WREADY",       "WLAST",        "BVALID",    "BREADY",   "BRESP"};
constexpr size_t kNumObs = sizeof kObs / sizeof kObs[0];
using Obs = std::array<uint64_t, kNumObs>;
// A payload is compared only while its VALID (this index) is high: the registers behind it have
// no reset.
const int kValidOf[kNumObs] = {-1, -1, -1, 2,  -1, -1, -1, -1, -1, -1, 8,  8,  -1,
                               -1, 12, 12, -1, -1, 16, 16, -1, -1, 20, -1, -1, 23};

Obs observeWide(Vtb& m) {
  return {m.w_rd_cmd_ready,
          m.w_wr_cmd_ready,
          m.w_out_valid,
          m.w_out_last,
          m.w_in_ready,
          m.w_wr_done,
          uint64_t(m.w_rd_busy || m.w_wr_busy),
          uint64_t(m.w_rd_error || m.w_wr_error),
          m.w_arvalid,
          m.w_arready,
          m.w_araddr / kWays,
          m.w_arlen,
          m.w_rvalid,
          m.w_rready,
          m.w_rlast,
          m.w_rresp,
          m.w_awvalid,
          m.w_awready,
          m.w_awaddr / kWays,
          m.w_awlen,
          m.w_wvalid,
          m.w_wready,
          m.w_wlast,
          m.w_bvalid,
          m.w_bready,
          m.w_bresp};
}
Obs observeNarrow(Vtb& m) {
  return {m.n_rd_cmd_ready,
          m.n_wr_cmd_ready,
          m.n_out_valid,
          m.n_out_last,
          m.n_in_ready,
          m.n_wr_done,
          uint64_t(m.n_rd_busy || m.n_wr_busy),
          uint64_t(m.n_rd_error || m.n_wr_error),
          m.n_m_axi_arvalid,
          m.n_m_axi_arready,
          m.n_m_axi_araddr,
          m.n_m_axi_arlen,
          m.n_m_axi_rvalid,
          m.n_m_axi_rready,
          m.n_m_axi_rlast,
          m.n_m_axi_rresp,
          m.n_m_axi_awvalid,
          m.n_m_axi_awready,
          m.n_m_axi_awaddr,
          m.n_m_axi_awlen,
          m.n_m_axi_wvalid,
          m.n_m_axi_wready,
          m.n_m_axi_wlast,
          m.n_m_axi_bvalid,
          m.n_m_axi_bready,
          m.n_m_axi_bresp};
}

// Way w's memory pins to and from the split's packed vectors.
void driveWay(Vtb& m, unsigned w, const AxiSlavePins& s) {
  rtl::setBits(m.m_axi_arready, int(w), 1, s.arready);
  rtl::setBits(m.m_axi_rvalid, int(w), 1, s.rvalid);
  rtl::setBits(m.m_axi_rlast, int(w), 1, s.rlast);
  rtl::setBits(m.m_axi_rresp, int(2 * w), 2, s.rresp);
  rtl::setBits(m.m_axi_rid, int(3 * w), 3, s.rid);
  for (unsigned i = 0; i < kPortBytes; ++i)
    setByte(m.m_axi_rdata, w * kPortBytes + i, s.rdata[i]);
  rtl::setBits(m.m_axi_awready, int(w), 1, s.awready);
  rtl::setBits(m.m_axi_wready, int(w), 1, s.wready);
  rtl::setBits(m.m_axi_bvalid, int(w), 1, s.bvalid);
  rtl::setBits(m.m_axi_bresp, int(2 * w), 2, s.bresp);
  rtl::setBits(m.m_axi_bid, int(3 * w), 3, s.bid);
}
void sampleWay(Vtb& m, unsigned w, AxiMasterPins& p) {
  p.arvalid = rtl::getBits(m.m_axi_arvalid, int(w), 1);
  p.araddr = rtl::getBits(m.m_axi_araddr, int(32 * w), 32);
  p.arlen = unsigned(rtl::getBits(m.m_axi_arlen, int(8 * w), 8));
  p.arsize = unsigned(rtl::getBits(m.m_axi_arsize, int(3 * w), 3));
  p.arburst = unsigned(rtl::getBits(m.m_axi_arburst, int(2 * w), 2));
  p.arid = unsigned(rtl::getBits(m.m_axi_arid, int(3 * w), 3));
  p.rready = rtl::getBits(m.m_axi_rready, int(w), 1);
  p.awvalid = rtl::getBits(m.m_axi_awvalid, int(w), 1);
  p.awaddr = rtl::getBits(m.m_axi_awaddr, int(32 * w), 32);
  p.awlen = unsigned(rtl::getBits(m.m_axi_awlen, int(8 * w), 8));
  p.awsize = unsigned(rtl::getBits(m.m_axi_awsize, int(3 * w), 3));
  p.awburst = unsigned(rtl::getBits(m.m_axi_awburst, int(2 * w), 2));
  p.awid = unsigned(rtl::getBits(m.m_axi_awid, int(3 * w), 3));
  p.wvalid = rtl::getBits(m.m_axi_wvalid, int(w), 1);
  p.wlast = rtl::getBits(m.m_axi_wlast, int(w), 1);
  for (unsigned i = 0; i < kPortBytes; ++i) {
    p.wdata[i] = byteOf(m.m_axi_wdata, w * kPortBytes + i);
    p.wstrb[i] = bitOf(m.m_axi_wstrb, w * kPortBytes + i);
  }
  p.bready = rtl::getBits(m.m_axi_bready, int(w), 1);
}
void driveNarrow(Vtb& m, const AxiSlavePins& s) {
  m.n_m_axi_arready = s.arready;
  m.n_m_axi_rvalid = s.rvalid;
  m.n_m_axi_rlast = s.rlast;
  m.n_m_axi_rresp = s.rresp;
  m.n_m_axi_rid = s.rid;
  for (unsigned i = 0; i < kPortBytes; ++i)
    setByte(m.n_m_axi_rdata, i, s.rdata[i]);
  m.n_m_axi_awready = s.awready;
  m.n_m_axi_wready = s.wready;
  m.n_m_axi_bvalid = s.bvalid;
  m.n_m_axi_bresp = s.bresp;
  m.n_m_axi_bid = s.bid;
}
void sampleNarrow(Vtb& m, AxiMasterPins& p) {
  p.arvalid = m.n_m_axi_arvalid;
  p.araddr = m.n_m_axi_araddr;
  p.arlen = m.n_m_axi_arlen;
  p.arsize = m.n_m_axi_arsize;
  p.arburst = m.n_m_axi_arburst;
  p.arid = m.n_m_axi_arid;
  p.rready = m.n_m_axi_rready;
  p.awvalid = m.n_m_axi_awvalid;
  p.awaddr = m.n_m_axi_awaddr;
  p.awlen = m.n_m_axi_awlen;
  p.awsize = m.n_m_axi_awsize;
  p.awburst = m.n_m_axi_awburst;
  p.awid = m.n_m_axi_awid;
  p.wvalid = m.n_m_axi_wvalid;
  p.wlast = m.n_m_axi_wlast;
  for (unsigned i = 0; i < kPortBytes; ++i) {
    p.wdata[i] = byteOf(m.n_m_axi_wdata, i);
    p.wstrb[i] = bitOf(m.n_m_axi_wstrb, i);
  }
  p.bready = m.n_m_axi_bready;
}

struct Beat {
  uint64_t addr;
  bool last;
};
struct WBeat {
  std::vector<uint8_t> data, strb;
};

// The engines of one side and their commands.
struct Side {
  const char* name;
  SideIo io;
  unsigned bytes;
  std::deque<axi::Cmd> rdTodo{}, wrTodo{};
  std::vector<axi::Cmd> rdTaken{}, wrTaken{};
  std::vector<long> rdAccepted{}, wrAccepted{};
  std::deque<Beat> expect{};             // read beats still to come out
  std::deque<WBeat> pending{};           // write data of accepted commands not yet taken
  std::deque<std::vector<WBeat>> feed{}; // narrow: the data of the wide commands, in order
  bool rdValid = false, wrValid = false, inValid = false, outReady = false;
  uint64_t beatsOut = 0, beatsIn = 0, dones = 0, nonEmptyWrites = 0;
  long lastBeat = -1, lastDone = -1;

  void clear() {
    rdTaken.clear();
    wrTaken.clear();
    rdAccepted.clear();
    wrAccepted.clear();
    expect.clear();
    pending.clear();
    feed.clear();
    beatsOut = beatsIn = dones = nonEmptyWrites = 0;
    lastBeat = lastDone = -1;
  }
  bool finished(Vtb& m) const {
    return rdTodo.empty() && wrTodo.empty() && !rdValid && !wrValid && expect.empty() &&
           pending.empty() && dones == nonEmptyWrites && !io.busy(m);
  }
};

struct SysPhase {
  const char* name;
  unsigned latency;
  unsigned wayBytesPerCycle; // each way's (and the narrow memory's) bandwidth
  unsigned outstanding;      // the memories' limit
  bool dram;
  double stream; // probability of out_ready / in_valid
  bool twin;
  int commands; // of each kind
};

rubick_sim::AxiMemConfig memConfig(const SysPhase& p) {
  rubick_sim::AxiMemConfig c;
  c.dataBytes = kPortBytes;
  c.bytesPerCycle = p.wayBytesPerCycle;
  c.latency = p.latency;
  c.maxOutstanding = p.outstanding;
  c.size = kMemBytes / kWays;
  c.dram = p.dram;
  c.banks = 4;
  c.rowBytes = 1024 / kWays; // a wide row of 1 KiB
  c.tRCD = 10;
  c.tRP = 10;
  c.CL = 10;
  c.recordBursts = true;
  return c;
}

// The narrow command of a wide one.
axi::Cmd narrowCmd(const axi::Cmd& c) {
  return {c.addr / kWays, c.len};
}

// The wide engine's bursts and the narrow engine's for the narrow command are the same.
bool sameSplit(const axi::Cmd& c) {
  const std::vector<axi::Burst> w = axi::split({c}, kWideBytes, kWideMaxBurst);
  const std::vector<axi::Burst> n = axi::split({narrowCmd(c)}, kPortBytes, kNarrowMaxBurst);
  if (w.size() != n.size()) return false;
  for (size_t i = 0; i < w.size(); ++i)
    if (w[i].addr / kWays != n[i].addr || w[i].len != n[i].len) return false;
  return true;
}

struct Bench {
  Vtb& m;
  rtl::Rng& rng;
  Side wide{"wide", SIDE_IO(w), kWideBytes};
  Side narrow{"narrow", SIDE_IO(n), kPortBytes};
  std::vector<std::unique_ptr<AxiMem>> ways{};
  std::unique_ptr<AxiMem> nmem{};
  std::vector<AxiMasterPins> wayPins{};
  AxiMasterPins npins{};
  std::vector<uint8_t> shadow = std::vector<uint8_t>(kMemBytes);
  bool twin = false;
  double stream = 1;
  long cycle = 0;
  long lockstep[5] = {0, 0, 0, 0, 0}; // AR, R, AW, W, B handshakes of all ways together

  void start(const SysPhase& p) {
    ways.clear();
    for (unsigned w = 0; w < kWays; ++w) {
      ways.push_back(std::make_unique<AxiMem>(memConfig(p)));
      std::vector<uint8_t> bytes(kMemBytes / kWays);
      for (uint64_t x = 0; x < bytes.size(); ++x)
        bytes[x] = shadow[wideAddr(w, x)];
      ways.back()->store(0, bytes.data(), bytes.size());
      if (w == 0) {
        nmem = std::make_unique<AxiMem>(memConfig(p));
        nmem->store(0, bytes.data(), bytes.size());
      }
    }
    wayPins.assign(kWays, ways[0]->masterPins());
    npins = nmem->masterPins();
    wide.clear();
    narrow.clear();
    twin = p.twin;
    stream = p.stream;
    // A reset between phases (the engines and the split; the memories are new).
    m.aresetn = 0;
    for (int i = 0; i < 2; ++i) {
      m.aclk = 0;
      m.eval();
      m.aclk = 1;
      m.eval();
      ++cycle;
    }
    m.aresetn = 1;
  }

  void present(Side& s, bool ready, bool valid) {
    if (!s.rdValid && !s.rdTodo.empty()) s.rdValid = true;
    if (!s.wrValid && !s.wrTodo.empty()) s.wrValid = true;
    const axi::Cmd r = s.rdTodo.empty() ? axi::Cmd{} : s.rdTodo.front();
    const axi::Cmd w = s.wrTodo.empty() ? axi::Cmd{} : s.wrTodo.front();
    s.io.setRdCmd(m, s.rdValid, r.addr, r.len);
    s.io.setWrCmd(m, s.wrValid, w.addr, w.len);
    s.outReady = ready;
    s.io.setOutReady(m, ready);
    if (!s.inValid) s.inValid = !s.pending.empty() && valid;
    const std::vector<uint8_t> none(s.bytes, 0);
    s.io.setIn(m, s.inValid, s.inValid ? s.pending.front().data : none,
               s.inValid ? s.pending.front().strb : none);
  }

  void step() {
    const bool ready = rng.chance(stream), valid = rng.chance(stream);
    present(wide, ready, valid);
    present(narrow, ready, valid);
    for (unsigned w = 0; w < kWays; ++w)
      driveWay(m, w, ways[w]->pins());
    driveNarrow(m, nmem->pins());
    m.aclk = 0;
    m.eval();
    for (unsigned w = 0; w < kWays; ++w)
      sampleWay(m, w, wayPins[w]);
    sampleNarrow(m, npins);
    checkLockstep();
    if (twin) checkTwin();
    handle(wide, true);
    handle(narrow, false);
    m.aclk = 1;
    m.eval();
    for (unsigned w = 0; w < kWays; ++w)
      ways[w]->tick(wayPins[w]);
    nmem->tick(npins);
    ++cycle;
  }

  // (ii) every way handshakes together, and no way's VALID differs.
  void checkLockstep() {
    unsigned hs[5] = {0, 0, 0, 0, 0}, valid[3] = {0, 0, 0};
    for (unsigned w = 0; w < kWays; ++w) {
      const AxiMasterPins& p = wayPins[w];
      const AxiSlavePins& s = ways[w]->pins();
      const bool h[5] = {p.arvalid && s.arready, s.rvalid && p.rready, p.awvalid && s.awready,
                         p.wvalid && s.wready, s.bvalid && p.bready};
      for (int c = 0; c < 5; ++c)
        hs[c] |= unsigned(h[c]) << w;
      valid[0] |= unsigned(p.arvalid) << w;
      valid[1] |= unsigned(p.awvalid) << w;
      valid[2] |= unsigned(p.wvalid) << w;
    }
    const char* ch[5] = {"AR", "R", "AW", "W", "B"};
    const unsigned all = (1u << kWays) - 1;
    for (int c = 0; c < 5; ++c) {
      if (hs[c] != 0 && hs[c] != all)
        rtl::fail(kTest, cycle,
                  std::string(ch[c]) + " handshakes of the ways not in lock-step: mask " +
                      std::to_string(hs[c]));
      if (hs[c] == all) ++lockstep[c];
    }
    for (int c = 0; c < 3; ++c)
      if (valid[c] != 0 && valid[c] != all)
        rtl::fail(kTest, cycle,
                  std::string(ch[c == 0 ? 0 : c + 1]) + "VALID of the ways differ: mask " +
                      std::to_string(valid[c]) + " (a way ahead of the others)");
  }

  // (iii) the wide system's engines behave as the narrow twin's.
  void checkTwin() {
    const Obs w = observeWide(m), n = observeNarrow(m);
    for (size_t i = 0; i < kNumObs; ++i)
      if (w[i] != n[i] && (kValidOf[i] < 0 || w[size_t(kValidOf[i])]))
        rtl::fail(kTest, cycle,
                  std::string("twin: wide ") + kObs[i] + " = " + std::to_string(w[i]) +
                      ", narrow " + std::to_string(n[i]));
  }

  void handle(Side& s, bool isWide) {
    if (s.rdValid && s.io.rdCmdReady(m)) {
      const axi::Cmd c = s.rdTodo.front();
      s.rdTodo.pop_front();
      s.rdValid = false;
      s.rdTaken.push_back(c);
      s.rdAccepted.push_back(cycle);
      for (uint64_t k = 0; k < c.len; ++k)
        s.expect.push_back({c.addr + k * s.bytes, k + 1 == c.len});
    }
    if (s.wrValid && s.io.wrCmdReady(m)) {
      const axi::Cmd c = s.wrTodo.front();
      s.wrTodo.pop_front();
      s.wrValid = false;
      s.wrTaken.push_back(c);
      s.wrAccepted.push_back(cycle);
      if (c.len) ++s.nonEmptyWrites;
      if (isWide) {
        // Writes allowed where the command writes, in every way; the data, and the narrow
        // twin's share of it (way 0's bytes).
        for (auto& mem : ways)
          if (c.len) mem->allowWrites(c.addr / kWays, c.len * kPortBytes);
        std::vector<WBeat> twinData;
        for (uint64_t k = 0; k < c.len; ++k) {
          WBeat b{std::vector<uint8_t>(kWideBytes), std::vector<uint8_t>(kWideBytes, 1)};
          for (auto& d : b.data)
            d = static_cast<uint8_t>(rng.bits(8));
          if (rng.chance(0.5))
            for (auto& st : b.strb)
              st = static_cast<uint8_t>(rng.chance(0.6));
          twinData.push_back({std::vector<uint8_t>(b.data.begin(), b.data.begin() + kPortBytes),
                              std::vector<uint8_t>(b.strb.begin(), b.strb.begin() + kPortBytes)});
          s.pending.push_back(std::move(b));
        }
        if (twin) narrow.feed.push_back(std::move(twinData));
      } else {
        if (c.len) nmem->allowWrites(c.addr, c.len * kPortBytes);
        if (s.feed.empty()) rtl::fail(kTest, cycle, "narrow write command without a wide one");
        for (WBeat& b : s.feed.front())
          s.pending.push_back(std::move(b));
        s.feed.pop_front();
      }
    }
    if (s.inValid && s.io.inReady(m)) {
      const WBeat& b = s.pending.front();
      if (isWide) {
        // The beat's address: the command's, counted from its first beat.
        const uint64_t a = writeAddr(s);
        for (unsigned i = 0; i < kWideBytes; ++i)
          if (b.strb[i]) shadow[a + i] = b.data[i];
      }
      s.pending.pop_front();
      s.inValid = false;
      ++s.beatsIn;
    }
    if (s.io.outValid(m) && s.outReady) {
      if (s.expect.empty()) rtl::fail(kTest, cycle, std::string(s.name) + ": a beat nobody asked");
      const Beat b = s.expect.front();
      s.expect.pop_front();
      std::vector<uint8_t> data(s.bytes);
      s.io.outData(m, data);
      for (unsigned i = 0; i < s.bytes; ++i) {
        // The narrow twin reads way 0's bytes: narrow address x is wide address 4x.
        const uint64_t a = isWide ? b.addr + i : wideAddr(0, b.addr + i);
        if (data[i] != shadow[a])
          rtl::fail(kTest, cycle,
                    std::string(s.name) + ": " +
                        rtl::mismatch("read byte at wide address " + std::to_string(a), data[i],
                                      shadow[a]));
      }
      if (s.io.outLast(m) != b.last)
        rtl::fail(kTest, cycle, std::string(s.name) + ": out_last wrong");
      ++s.beatsOut;
      s.lastBeat = cycle;
    }
    if (s.io.done(m)) {
      ++s.dones;
      s.lastDone = cycle;
    }
    if (s.io.error(m)) rtl::fail(kTest, cycle, std::string(s.name) + ": an error pulse");
  }

  // The wide address of the next write beat taken: the beatsIn-th beat of the commands.
  uint64_t writeAddr(const Side& s) const {
    uint64_t k = s.beatsIn;
    for (const axi::Cmd& c : s.wrTaken) {
      if (k < c.len) return c.addr + k * kWideBytes;
      k -= c.len;
    }
    rtl::fail(kTest, cycle, "a write beat beyond the commands");
  }

  void run(long limit, const std::string& what) {
    const long end = cycle + limit;
    while (!(wide.finished(m) && narrow.finished(m))) {
      if (cycle >= end) {
        std::string why;
        for (auto& mem : ways)
          if (mem->violationCount()) why += "\n" + axi::violations(*mem);
        rtl::fail(kTest, cycle, what + ": did not finish" + why);
      }
      step();
    }
    step(); // the cycle after busy falls
  }

  // (i) after a phase: the memories, the bursts, the protocol.
  void checkPhase(const std::string& what) {
    const std::vector<axi::Burst> rd = axi::split(wide.rdTaken, kWideBytes, kWideMaxBurst);
    const std::vector<axi::Burst> wr = axi::split(wide.wrTaken, kWideBytes, kWideMaxBurst);
    for (unsigned w = 0; w < kWays; ++w) {
      const AxiMem& mem = *ways[w];
      const std::string who = what + ", way " + std::to_string(w) + ": ";
      if (mem.violationCount()) rtl::fail(kTest, cycle, who + axi::violations(mem));
      std::vector<axi::Burst> gotRd, gotWr;
      for (const rubick_sim::AxiBurstRecord& b : mem.bursts()) {
        if (b.id != kId) rtl::fail(kTest, cycle, who + "a burst with ID " + std::to_string(b.id));
        (b.write ? gotWr : gotRd).push_back({b.addr, b.len});
      }
      for (int k = 0; k < 2; ++k) {
        const std::vector<axi::Burst>& want = k ? wr : rd;
        const std::vector<axi::Burst>& got = k ? gotWr : gotRd;
        if (got.size() != want.size())
          rtl::fail(kTest, cycle,
                    who + rtl::mismatch(k ? "write bursts" : "read bursts", long(got.size()),
                                        long(want.size())));
        for (size_t i = 0; i < want.size(); ++i)
          if (got[i].addr != want[i].addr / kWays || got[i].len != want[i].len)
            rtl::fail(kTest, cycle,
                      who + "burst " + std::to_string(i) + ": addr " + std::to_string(got[i].addr) +
                          " len " + std::to_string(got[i].len) + ", expected the wide burst at " +
                          std::to_string(want[i].addr) + " / 4, len " +
                          std::to_string(want[i].len));
      }
      for (uint64_t x = 0; x < kMemBytes / kWays; ++x) {
        if (wayOf(wideAddr(w, x)) != w || wayAddr(wideAddr(w, x)) != x)
          rtl::fail(kTest, cycle, "the test's inverse mapping is wrong");
        if (mem.byte(x) != shadow[wideAddr(w, x)])
          rtl::fail(kTest, cycle,
                    who + rtl::mismatch("byte " + std::to_string(x) + " (wide byte " +
                                            std::to_string(wideAddr(w, x)) + ")",
                                        mem.byte(x), shadow[wideAddr(w, x)]));
      }
    }
    if (twin) {
      if (nmem->violationCount())
        rtl::fail(kTest, cycle, what + ", narrow: " + axi::violations(*nmem));
      for (uint64_t x = 0; x < kMemBytes / kWays; ++x)
        if (nmem->byte(x) != ways[0]->byte(x))
          rtl::fail(kTest, cycle,
                    what + ": the narrow memory differs from way 0's at " + std::to_string(x));
      if (narrow.beatsOut != wide.beatsOut || narrow.beatsIn != wide.beatsIn)
        rtl::fail(kTest, cycle, what + ": the twins moved different numbers of beats");
    }
    if (wide.dones != wide.nonEmptyWrites)
      rtl::fail(kTest, cycle,
                what + rtl::mismatch(": done pulses", long(wide.dones), long(wide.nonEmptyWrites)));
  }
};

} // namespace

int main(int argc, char** argv) {
  auto ctx = rtl::makeContext(argc, argv);
  Vtb m(ctx.get());
  rtl::Rng rng(6161);
  Bench bench{m, rng};
  for (auto& b : bench.shadow)
    b = static_cast<uint8_t>(rng.bits(8));

  // Random phases: reads from one half of the wide space, writes to the other, swapping halves
  // each phase (so later phases read what earlier ones wrote through the ways).
  const SysPhase phases[] = {
      {"twin, full bandwidth, latency 8", 8, 128, 16, false, 0.8, true, 48},
      {"twin, quarter bandwidth, latency 40", 40, 32, 16, false, 0.7, true, 48},
      {"twin, memories take one burst at a time", 3, 128, 1, false, 0.9, true, 16},
      {"twin, heavy backpressure", 1, 128, 4, false, 0.3, true, 16},
      {"twin, DRAM timing (1 KiB wide rows)", 5, 64, 8, true, 0.8, true, 48},
      {"free commands, half bandwidth", 10, 64, 16, false, 0.8, false, 48},
      {"free commands, DRAM timing", 5, 128, 8, true, 0.7, false, 48},
  };
  int phaseNo = 0;
  long beats = 0;
  for (const SysPhase& p : phases) {
    bench.start(p);
    const uint64_t rdBase = (phaseNo % 2) ? 0 : kHalf, wrBase = (phaseNo % 2) ? kHalf : 0;
    ++phaseNo;
    for (int kind = 0; kind < 2; ++kind) {
      int n = 0;
      while (n < p.commands) {
        axi::Cmd c = axi::randomCmd(rng, kWideBytes, kHalf, 64);
        c.addr += kind ? wrBase : rdBase;
        if (p.twin && !sameSplit(c)) continue;
        ++n;
        (kind ? bench.wide.wrTodo : bench.wide.rdTodo).push_back(c);
        if (p.twin) (kind ? bench.narrow.wrTodo : bench.narrow.rdTodo).push_back(narrowCmd(c));
      }
    }
    const long before = bench.cycle;
    long lock[5];
    std::copy(bench.lockstep, bench.lockstep + 5, lock);
    bench.run(200000, p.name);
    bench.checkPhase(p.name);
    std::printf(
        "%s: %s: %ld cycles, %llu wide beats read and %llu written, handshakes of all 4 "
        "ways together: AR %ld R %ld AW %ld W %ld B %ld%s\n",
        kTest, p.name, bench.cycle - before, static_cast<unsigned long long>(bench.wide.beatsOut),
        static_cast<unsigned long long>(bench.wide.beatsIn), bench.lockstep[0] - lock[0],
        bench.lockstep[1] - lock[1], bench.lockstep[2] - lock[2], bench.lockstep[3] - lock[3],
        bench.lockstep[4] - lock[4], p.twin ? ", every cycle the narrow twin's" : "");
    if (bench.wide.beatsOut < 100 || bench.wide.beatsIn < 100)
      rtl::fail(kTest, bench.cycle, std::string(p.name) + ": too few beats");
    beats += long(bench.wide.beatsOut + bench.wide.beatsIn);
  }

  // Hand-derived cycle counts (full bandwidth: each way one 128-byte beat per cycle).
  struct Case {
    bool write;
    uint64_t beats;
    unsigned latency;
    long want; // cycles from the command handshake to the last beat out / done
  };
  const Case cases[] = {{false, 8, 8, 8 + 8 + 2},
                        {false, 128, 20, 20 + 128 + 2},
                        {true, 8, 8, std::max(8 + 2, 12) + 1},
                        {true, 8, 30, std::max(30 + 2, 12) + 1},
                        {true, 128, 20, 128 + 5}};
  for (const Case& k : cases) {
    const SysPhase p{"hand-derived", k.latency, 128, 16, false, 1.0, true, 0};
    bench.start(p);
    const axi::Cmd c{kHalf + 8 * 4096, k.beats};
    (k.write ? bench.wide.wrTodo : bench.wide.rdTodo).push_back(c);
    (k.write ? bench.narrow.wrTodo : bench.narrow.rdTodo).push_back(narrowCmd(c));
    bench.run(10000, "hand-derived");
    bench.checkPhase("hand-derived");
    const Side& s = bench.wide;
    const long got = k.write ? s.lastDone - s.wrAccepted[0] : s.lastBeat - s.rdAccepted[0];
    std::printf("%s: %s of %llu wide beats (%llu bytes) at latency %u, 512 B/cycle: %ld cycles "
                "from the command to the %s (hand-derived %ld)\n",
                kTest, k.write ? "write" : "read", static_cast<unsigned long long>(k.beats),
                static_cast<unsigned long long>(k.beats * kWideBytes), k.latency, got,
                k.write ? "done pulse" : "last beat", k.want);
    if (got != k.want)
      rtl::fail(kTest, bench.cycle, rtl::mismatch("cycles of a short case", got, k.want));
  }

  std::printf("%s: OK (%ld wide beats, %ld cycles)\n", kTest, beats, bench.cycle);
  return 0;
}
