// SPDX-License-Identifier: Apache-2.0
// Unit test of rtl_templates/rubick_axil_fan.v (tb_rubick_axil_fan.v).
//  Part 1, three fans with every pin driven by the test (a: 3 ports, 12-bit addresses; b: 1 port,
//  1-bit addresses; c: 64 ports, 32-bit addresses), checked in every cycle against a C++ model of
//  the header's rules written out independently (it keeps every port's response and RDATA, not
//  the template's running OR / AND / maximum): every VALID and READY on both sides, the copied
//  addresses and write data, and, while valid, BRESP, RRESP and RDATA; the flags from cycle to
//  cycle. With the clock low the READYs are then moved at random (no VALID may move), and then
//  every input (no output the header says comes from registers may move).
//   1. Random pins: every input random in every cycle (the ports' RDATAs mostly agree, so that
//      both the worst-response and the disagreement rules are hit), aresetn low now and then.
//   2. Protocol: a legal host (AW and W with random skew, held until taken, the next write's AW
//      and W often offered while the previous response is pending, random BREADY / RREADY) and
//      legal ports with their own random READY probabilities and response delays, random
//      responses and, now and then, one port's RDATA different. A scoreboard checks the end to
//      end claims: every port takes every write's AW and W and every AR exactly once, in order,
//      with the host's address, data and strobes, and never the next before the host has
//      accepted the previous response (one at a time); the host's handshakes only once every
//      port has taken the request; every B is the worst of the ports' BRESPs, every R port 0's
//      RDATA with SLVERR if any port's differs, else the worst RRESP, and neither comes before
//      every port has answered. In the phase with ports always ready and answering in the cycle
//      after their handshake, BVALID must rise exactly 2 cycles after the later of the host's AW
//      and W handshakes and RVALID 2 cycles after its AR handshake (the header's timing). Resets
//      come in the middle of transactions.
//  Part 2, the system: a fan of 5 ports in front of 5 real rubick_axil_regs, driven as a host
//  would, against a model of each unit's register map (the one of test_rubick_axil_regs.cpp):
//  BASE registers written through the fan and read back through it and through every unit's own
//  port (the top's direct port), base_addr of every unit; START pulses every idle unit's start in
//  the same cycle, 2 cycles after the later of AW and W; the fan's RVALID 2 cycles after AR and
//  BVALID 3 cycles after the later of AW and W; back to back with the host always ready, a write
//  every 4 cycles and a read every 3. Faults: one unit written alone (also unit 0),
//  done_in / error_in / busy_in on one unit only: a read of a register that differs answers
//  SLVERR with unit 0's data; writing the register through the fan heals it. Then random
//  operations (fan and direct, per-unit events) with the same checks.
#include "Vtb_rubick_axil_fan.h"
#include "rtl_test.h"

#include <array>
#include <functional>
#include <string>
#include <vector>

namespace {

using rtl::Value;
using Vtb = Vtb_rubick_axil_fan;

const char* kTest = "test_rubick_axil_fan";
constexpr unsigned kOkay = 0, kSlverr = 2;

// ==== Part 1: fans with every pin driven by the test ====

// Every port of the template: name, input?, width kind, multiplied by N?
enum Kind { K1, KA, K32, K4, K2 };
// clang-format off
#define FAN_SIGNALS(X)        \
  X(s_axil_awaddr, 1, KA, 0)  \
  X(s_axil_awvalid, 1, K1, 0) \
  X(s_axil_awready, 0, K1, 0) \
  X(s_axil_wdata, 1, K32, 0)  \
  X(s_axil_wstrb, 1, K4, 0)   \
  X(s_axil_wvalid, 1, K1, 0)  \
  X(s_axil_wready, 0, K1, 0)  \
  X(s_axil_bresp, 0, K2, 0)   \
  X(s_axil_bvalid, 0, K1, 0)  \
  X(s_axil_bready, 1, K1, 0)  \
  X(s_axil_araddr, 1, KA, 0)  \
  X(s_axil_arvalid, 1, K1, 0) \
  X(s_axil_arready, 0, K1, 0) \
  X(s_axil_rdata, 0, K32, 0)  \
  X(s_axil_rresp, 0, K2, 0)   \
  X(s_axil_rvalid, 0, K1, 0)  \
  X(s_axil_rready, 1, K1, 0)  \
  X(m_axil_awaddr, 0, KA, 1)  \
  X(m_axil_awvalid, 0, K1, 1) \
  X(m_axil_awready, 1, K1, 1) \
  X(m_axil_wdata, 0, K32, 1)  \
  X(m_axil_wstrb, 0, K4, 1)   \
  X(m_axil_wvalid, 0, K1, 1)  \
  X(m_axil_wready, 1, K1, 1)  \
  X(m_axil_bresp, 1, K2, 1)   \
  X(m_axil_bvalid, 1, K1, 1)  \
  X(m_axil_bready, 0, K1, 1)  \
  X(m_axil_araddr, 0, KA, 1)  \
  X(m_axil_arvalid, 0, K1, 1) \
  X(m_axil_arready, 1, K1, 1) \
  X(m_axil_rdata, 1, K32, 1)  \
  X(m_axil_rresp, 1, K2, 1)   \
  X(m_axil_rvalid, 1, K1, 1)  \
  X(m_axil_rready, 0, K1, 1)
// clang-format on

enum Sig {
#define X(n, in, k, per) n,
  FAN_SIGNALS(X)
#undef X
      kSigs
};
struct SigInfo {
  const char* name;
  bool input;
  Kind kind;
  bool perPort;
};
const SigInfo kInfo[kSigs] = {
#define X(n, in, k, per) {#n, in != 0, k, per != 0},
    FAN_SIGNALS(X)
#undef X
};

struct Cfg {
  const char* name;
  int n, addrW;
  uint64_t all() const { return rtl::mask(n); }
  int unit(int s) const { // the width of one port's field
    switch (kInfo[s].kind) {
    case K1:
      return 1;
    case KA:
      return addrW;
    case K32:
      return 32;
    case K4:
      return 4;
    default:
      return 2;
    }
  }
  int width(int s) const { return kInfo[s].perPort ? unit(s) * n : unit(s); }
};

using rtl::bit;
using rtl::fld;
using rtl::getV;
using rtl::putV;
using rtl::setFld;

using Pins = std::array<Value, kSigs>;

// The fan's state as the header describes it, with every port's answer kept.
struct State {
  uint64_t awSent = 0, wSent = 0, arSent = 0;
  bool awHeld = false, wHeld = false, arHeld = false;
  uint64_t bGot = 0, rGot = 0;
  bool bValid = false, rValid = false;
  std::vector<unsigned> bResp, rResp;
  std::vector<uint32_t> rData;
};
State fresh(const Cfg& c) {
  State s;
  s.bResp.assign(size_t(c.n), 0);
  s.rResp.assign(size_t(c.n), 0);
  s.rData.assign(size_t(c.n), 0);
  return s;
}

// The response the host gets: the worst BRESP; port 0's RDATA, SLVERR if any port's differs,
// else the worst RRESP.
unsigned worstOf(const std::vector<unsigned>& r) {
  unsigned w = 0;
  for (unsigned x : r)
    w = std::max(w, x);
  return w;
}
unsigned readResp(const std::vector<uint32_t>& data, const std::vector<unsigned>& resp) {
  for (uint32_t d : data)
    if (d != data[0]) return kSlverr;
  return worstOf(resp);
}

// Every output from the inputs of the cycle and the state. The responses and RDATA only while
// valid (*bCheck / *rCheck tell).
void model(const Cfg& c, const Pins& in, const State& st, Pins& out) {
  const uint64_t all = c.all();
  auto u = [&](int s) { return fld(in[size_t(s)], 0, std::min(64, c.width(s))); };
  for (int s = 0; s < kSigs; ++s)
    if (!kInfo[s].input) out[size_t(s)] = Value(c.width(s));
  auto request = [&](int sValid, int sReady, int mValid, int mReady, uint64_t sent, bool held) {
    out[size_t(mValid)] = Value(c.n, u(sValid) && !held ? ~sent & all : 0);
    out[size_t(sReady)] = Value(1, !held && ((sent | u(mReady)) & all) == all);
  };
  request(s_axil_awvalid, s_axil_awready, m_axil_awvalid, m_axil_awready, st.awSent, st.awHeld);
  request(s_axil_wvalid, s_axil_wready, m_axil_wvalid, m_axil_wready, st.wSent, st.wHeld);
  request(s_axil_arvalid, s_axil_arready, m_axil_arvalid, m_axil_arready, st.arSent, st.arHeld);
  for (int k = 0; k < c.n; ++k) {
    setFld(out[m_axil_awaddr], k * c.addrW, c.addrW, u(s_axil_awaddr));
    setFld(out[m_axil_araddr], k * c.addrW, c.addrW, u(s_axil_araddr));
    setFld(out[m_axil_wdata], k * 32, 32, u(s_axil_wdata));
    setFld(out[m_axil_wstrb], k * 4, 4, u(s_axil_wstrb));
  }
  out[m_axil_bready] = Value(c.n, ~st.bGot & all);
  out[m_axil_rready] = Value(c.n, ~st.rGot & all);
  out[s_axil_bvalid] = Value(1, st.bValid);
  out[s_axil_rvalid] = Value(1, st.rValid);
  if (st.bValid) out[s_axil_bresp] = Value(2, worstOf(st.bResp));
  if (st.rValid) {
    out[s_axil_rdata] = Value(32, st.rData[0]);
    out[s_axil_rresp] = Value(2, readResp(st.rData, st.rResp));
  }
}

// The state after the edge ending the cycle.
State next(const Cfg& c, const Pins& in, const Pins& out, bool reset, State st) {
  if (reset) return fresh(c);
  const uint64_t all = c.all();
  auto u = [&](const Pins& p, int s) { return fld(p[size_t(s)], 0, std::min(64, c.width(s))); };
  const bool awHs = u(in, s_axil_awvalid) && u(out, s_axil_awready);
  const bool wHs = u(in, s_axil_wvalid) && u(out, s_axil_wready);
  const bool arHs = u(in, s_axil_arvalid) && u(out, s_axil_arready);
  const bool bHs = st.bValid && u(in, s_axil_bready);
  const bool rHs = st.rValid && u(in, s_axil_rready);
  st.awSent = awHs ? 0 : st.awSent | (u(out, m_axil_awvalid) & u(in, m_axil_awready));
  st.wSent = wHs ? 0 : st.wSent | (u(out, m_axil_wvalid) & u(in, m_axil_wready));
  st.arSent = arHs ? 0 : st.arSent | (u(out, m_axil_arvalid) & u(in, m_axil_arready));
  st.awHeld = awHs || (st.awHeld && !bHs);
  st.wHeld = wHs || (st.wHeld && !bHs);
  st.arHeld = arHs || (st.arHeld && !rHs);
  if (bHs) {
    st.bGot = 0;
    st.bValid = false;
  } else {
    for (int k = 0; k < c.n; ++k)
      if (bit(in[m_axil_bvalid], k) && !((st.bGot >> k) & 1)) {
        st.bResp[size_t(k)] = unsigned(fld(in[m_axil_bresp], 2 * k, 2));
        st.bGot |= uint64_t{1} << k;
      }
    st.bValid = st.bGot == all;
  }
  if (rHs) {
    st.rGot = 0;
    st.rValid = false;
  } else {
    for (int k = 0; k < c.n; ++k)
      if (bit(in[m_axil_rvalid], k) && !((st.rGot >> k) & 1)) {
        st.rResp[size_t(k)] = unsigned(fld(in[m_axil_rresp], 2 * k, 2));
        st.rData[size_t(k)] = uint32_t(fld(in[m_axil_rdata], 32 * k, 32));
        st.rGot |= uint64_t{1} << k;
      }
    st.rValid = st.rGot == all;
  }
  return st;
}

using Io = rtl::PinTable<Vtb, kSigs>;
#define IO_ENTRY(P, n) RTL_PIN_ENTRY(io, Vtb, P, n)

Io ioA() {
  Io io;
#define X(n, in, k, per) IO_ENTRY(a, n)
  FAN_SIGNALS(X)
#undef X
  return io;
}
Io ioB() {
  Io io;
#define X(n, in, k, per) IO_ENTRY(b, n)
  FAN_SIGNALS(X)
#undef X
  return io;
}
Io ioC() {
  Io io;
#define X(n, in, k, per) IO_ENTRY(c, n)
  FAN_SIGNALS(X)
#undef X
  return io;
}

// ---- Protocol mode: a legal host and legal ports ----
struct WriteRec {
  uint64_t addr = 0;
  uint32_t data = 0;
  unsigned strb = 0;
  std::vector<unsigned> resp; // each port's BRESP
};
struct ReadRec {
  uint64_t addr = 0;
  std::vector<uint32_t> data; // each port's RDATA
  std::vector<unsigned> resp;
};
struct Host {
  std::vector<WriteRec> writes; // since the last reset; index = write number
  std::vector<ReadRec> reads;
  size_t awTaken = 0, wTaken = 0, bDone = 0, arTaken = 0, rDone = 0;
  bool awOn = false, wOn = false, arOn = false;
  long awCycle = -1, wCycle = -1, arCycle = -1, bFirst = -1, rFirst = -1; // current transaction
};
struct Port {
  double pAw = 1, pW = 1, pAr = 1, pB = 1, pR = 1; // READY probabilities, chance to answer
  bool now = false;                                // answer in the cycle after the handshake
  size_t aws = 0, ws = 0, ars = 0, bs = 0, rs = 0; // handshakes since the last reset
  bool bOn = false, rOn = false;
  long bReadyAt = -1, rReadyAt = -1; // the cycle from which the current answer may come
};

struct Stats {
  long cycles = 0, awHs = 0, wHs = 0, arHs = 0, bHs = 0, rHs = 0;
  long aheadCycles = 0; // cycles with a sent flag set
  long heldOffers = 0;  // cycles with a request VALID while its channel is held
  long disagreeR = 0;   // R beats given SLVERR for different RDATA
  long errorB = 0;      // B with a response other than OKAY
  long resets = 0;
};

struct Inst {
  Cfg c;
  Io io;
  Pins in{}, out{}, want{};
  State st{};
  bool known = false; // the state is known (after the first reset edge)
  long now = 0;       // cycles of this instance (the ports' and the host's clock)
  Host host{};
  std::vector<Port> ports{};
  Stats stats{};

  void init() {
    for (int s = 0; s < kSigs; ++s)
      in[size_t(s)] = out[size_t(s)] = want[size_t(s)] = Value(c.width(s));
    st = fresh(c);
    ports.assign(size_t(c.n), Port{});
  }
  void drive(Vtb& m) const {
    for (int s = 0; s < kSigs; ++s)
      if (kInfo[s].input) io.set[size_t(s)](m, in[size_t(s)]);
  }
  void sample(Vtb& m) {
    for (int s = 0; s < kSigs; ++s)
      if (!kInfo[s].input) out[size_t(s)] = io.get[size_t(s)](m, c.width(s));
  }
  uint64_t u(const Pins& p, int s) const { return fld(p[size_t(s)], 0, std::min(64, c.width(s))); }
  std::string who() const { return std::string(c.name) + ": "; }

  void check(long cycle) {
    if (!known) return;
    model(c, in, st, want);
    for (int s = 0; s < kSigs; ++s) {
      if (kInfo[s].input) continue;
      if (s == s_axil_bresp && !st.bValid) continue;
      if ((s == s_axil_rresp || s == s_axil_rdata) && !st.rValid) continue;
      if (out[size_t(s)] != want[size_t(s)])
        rtl::fail(
            kTest, cycle,
            who() + rtl::mismatch(kInfo[s].name, out[size_t(s)].hex(), want[size_t(s)].hex()) +
                " (sent aw " + std::to_string(st.awSent) + " w " + std::to_string(st.wSent) +
                " ar " + std::to_string(st.arSent) + ", held aw " + std::to_string(st.awHeld) +
                " w " + std::to_string(st.wHeld) + " ar " + std::to_string(st.arHeld) + ", got b " +
                std::to_string(st.bGot) + " r " + std::to_string(st.rGot) + ")");
    }
  }

  void edge(bool reset) {
    ++stats.cycles;
    ++now;
    if (known) {
      if (u(in, s_axil_awvalid) && u(out, s_axil_awready)) ++stats.awHs;
      if (u(in, s_axil_wvalid) && u(out, s_axil_wready)) ++stats.wHs;
      if (u(in, s_axil_arvalid) && u(out, s_axil_arready)) ++stats.arHs;
      if (st.bValid && u(in, s_axil_bready)) {
        ++stats.bHs;
        if (worstOf(st.bResp) != kOkay) ++stats.errorB;
      }
      if (st.rValid && u(in, s_axil_rready)) {
        ++stats.rHs;
        for (uint32_t d : st.rData)
          if (d != st.rData[0]) {
            ++stats.disagreeR;
            break;
          }
      }
      if (st.awSent || st.wSent || st.arSent) ++stats.aheadCycles;
      if ((u(in, s_axil_awvalid) && st.awHeld) || (u(in, s_axil_wvalid) && st.wHeld) ||
          (u(in, s_axil_arvalid) && st.arHeld))
        ++stats.heldOffers;
    }
    st = next(c, in, out, reset, st);
    known = known || reset;
  }
};

// Mode 1: every input random.
void randomPins(Inst& x, rtl::Rng& rng) {
  const Cfg& c = x.c;
  for (int s = 0; s < kSigs; ++s)
    if (kInfo[s].input) x.in[size_t(s)] = rng.value(c.width(s));
  auto somePorts = [&](double pAll, double pEach) {
    if (rng.chance(pAll)) return Value(c.n, c.all());
    Value v(c.n);
    for (int k = 0; k < c.n; ++k)
      setFld(v, k, 1, rng.chance(pEach));
    return v;
  };
  for (int s : {s_axil_awvalid, s_axil_wvalid, s_axil_arvalid, s_axil_bready, s_axil_rready})
    x.in[size_t(s)] = Value(1, rng.chance(0.7));
  for (int s : {m_axil_awready, m_axil_wready, m_axil_arready})
    x.in[size_t(s)] = somePorts(0.3, 0.6);
  for (int s : {m_axil_bvalid, m_axil_rvalid})
    x.in[size_t(s)] = somePorts(0.3, 0.5);
  // Mostly agreeing RDATA, mostly OKAY, so that every rule shows.
  if (rng.chance(0.85)) {
    const uint64_t d = rng.bits(32);
    for (int k = 0; k < c.n; ++k)
      setFld(x.in[m_axil_rdata], 32 * k, 32, d);
  }
  for (int s : {m_axil_rresp, m_axil_bresp})
    if (rng.chance(0.5)) x.in[size_t(s)] = Value(2 * c.n);
}

// Mode 2, start of a cycle: what the host and the ports present. Junk on the payloads of
// channels not valid.
void protocolPins(Inst& x, rtl::Rng& rng, bool inReset) {
  const Cfg& c = x.c;
  Host& h = x.host;
  for (int s = 0; s < kSigs; ++s)
    if (kInfo[s].input) x.in[size_t(s)] = rng.value(c.width(s));
  auto resp = [&] { return rng.chance(0.8) ? kOkay : unsigned(rng.bits(2)); };
  // The host: the next write's AW and W may be offered while the previous response is pending
  // (at most one write ahead); one read at a time is the fan's business too: the next AR is
  // offered as soon as the previous one was taken.
  while (h.writes.size() < h.bDone + 2) {
    WriteRec w;
    w.addr = rng.bits(c.addrW);
    w.data = uint32_t(rng.bits(32));
    w.strb = unsigned(rng.bits(4));
    for (int k = 0; k < c.n; ++k)
      w.resp.push_back(resp());
    h.writes.push_back(w);
  }
  while (h.reads.size() < h.rDone + 2) {
    ReadRec r;
    r.addr = rng.bits(c.addrW);
    const uint32_t d = uint32_t(rng.bits(32));
    r.data.assign(size_t(c.n), d);
    if (rng.chance(0.15)) { // one port differs (often in a single bit)
      const int k = rng.range(0, c.n - 1);
      r.data[size_t(k)] ^=
          rng.chance(0.5) ? uint32_t{1} << rng.range(0, 31) : uint32_t(rng.bits(32)) | 1;
    }
    for (int k = 0; k < c.n; ++k)
      r.resp.push_back(resp());
    h.reads.push_back(r);
  }
  if (!inReset) {
    if (!h.awOn && h.awTaken < h.bDone + 2) h.awOn = rng.chance(0.5);
    if (!h.wOn && h.wTaken < h.bDone + 2) h.wOn = rng.chance(0.5);
    if (!h.arOn && h.arTaken < h.rDone + 2) h.arOn = rng.chance(0.5);
  }
  x.in[s_axil_awvalid] = Value(1, h.awOn);
  if (h.awOn) x.in[s_axil_awaddr] = Value(c.addrW, h.writes[h.awTaken].addr);
  x.in[s_axil_wvalid] = Value(1, h.wOn);
  if (h.wOn) {
    x.in[s_axil_wdata] = Value(32, h.writes[h.wTaken].data);
    x.in[s_axil_wstrb] = Value(4, h.writes[h.wTaken].strb);
  }
  x.in[s_axil_arvalid] = Value(1, h.arOn);
  if (h.arOn) x.in[s_axil_araddr] = Value(c.addrW, h.reads[h.arTaken].addr);
  x.in[s_axil_bready] = Value(1, rng.chance(0.7));
  x.in[s_axil_rready] = Value(1, rng.chance(0.7));
  // The ports: a B once AW and W are in (from the cycle after), an R once the AR is in.
  for (int k = 0; k < c.n; ++k) {
    Port& p = x.ports[size_t(k)];
    setFld(x.in[m_axil_awready], k, 1, rng.chance(p.pAw));
    setFld(x.in[m_axil_wready], k, 1, rng.chance(p.pW));
    setFld(x.in[m_axil_arready], k, 1, rng.chance(p.pAr));
    if (!inReset && !p.bOn && p.aws > p.bs && p.ws > p.bs && x.now >= p.bReadyAt &&
        rng.chance(p.pB))
      p.bOn = true;
    setFld(x.in[m_axil_bvalid], k, 1, p.bOn);
    if (p.bOn) setFld(x.in[m_axil_bresp], 2 * k, 2, h.writes[p.bs].resp[size_t(k)]);
    if (!inReset && !p.rOn && p.ars > p.rs && x.now >= p.rReadyAt && rng.chance(p.pR)) p.rOn = true;
    setFld(x.in[m_axil_rvalid], k, 1, p.rOn);
    if (p.rOn) {
      setFld(x.in[m_axil_rdata], 32 * k, 32, h.reads[p.rs].data[size_t(k)]);
      setFld(x.in[m_axil_rresp], 2 * k, 2, h.reads[p.rs].resp[size_t(k)]);
    }
  }
}

// Mode 2: the cycle's handshakes against the scoreboard (outputs already checked against the
// model), then the sides' state after the edge. `timed`: ports always ready and answering in
// the cycle after their handshake: the header's exact timing.
void protocolCheck(Inst& x, long cycle, bool timed) {
  const Cfg& c = x.c;
  Host& h = x.host;
  const std::string who = x.who();
  const long now = x.now;
  auto u = [&](const Pins& p, int s) { return x.u(p, s); };

  // Requests: every port takes each one once, in order, and not before the previous response.
  struct Ch {
    const char* name;
    int mValid, mReady, sValid, sReady;
  };
  const Ch chans[] = {{"AW", m_axil_awvalid, m_axil_awready, s_axil_awvalid, s_axil_awready},
                      {"W", m_axil_wvalid, m_axil_wready, s_axil_wvalid, s_axil_wready},
                      {"AR", m_axil_arvalid, m_axil_arready, s_axil_arvalid, s_axil_arready}};
  for (int ch = 0; ch < 3; ++ch) {
    const Ch& q = chans[ch];
    const size_t taken = ch == 0 ? h.awTaken : ch == 1 ? h.wTaken : h.arTaken;
    const size_t done = ch == 2 ? h.rDone : h.bDone;
    for (int k = 0; k < c.n; ++k) {
      Port& p = x.ports[size_t(k)];
      size_t& n = ch == 0 ? p.aws : ch == 1 ? p.ws : p.ars;
      if (!(bit(x.out[size_t(q.mValid)], k) && bit(x.in[size_t(q.mReady)], k))) continue;
      const std::string at = who + q.name + " of port " + std::to_string(k) + ": ";
      if (!u(x.in, q.sValid)) rtl::fail(kTest, cycle, at + "a handshake with no host request");
      if (n != taken)
        rtl::fail(kTest, cycle, at + rtl::mismatch("requests taken before", long(n), long(taken)));
      if (n != done)
        rtl::fail(kTest, cycle,
                  at + "request " + std::to_string(n) + " taken with " + std::to_string(done) +
                      " responses accepted (one at a time)");
      if (ch == 0 && fld(x.out[m_axil_awaddr], k * c.addrW, c.addrW) != h.writes[n].addr)
        rtl::fail(kTest, cycle, at + "address not the host's");
      if (ch == 1 && (fld(x.out[m_axil_wdata], 32 * k, 32) != h.writes[n].data ||
                      fld(x.out[m_axil_wstrb], 4 * k, 4) != h.writes[n].strb))
        rtl::fail(kTest, cycle, at + "data or strobes not the host's");
      if (ch == 2 && fld(x.out[m_axil_araddr], k * c.addrW, c.addrW) != h.reads[n].addr)
        rtl::fail(kTest, cycle, at + "address not the host's");
      ++n;
      if (ch < 2)
        p.bReadyAt = now + 1;
      else
        p.rReadyAt = now + 1;
    }
    if (u(x.in, q.sValid) && u(x.out, q.sReady)) {
      for (int k = 0; k < c.n; ++k) {
        const Port& p = x.ports[size_t(k)];
        const size_t n = ch == 0 ? p.aws : ch == 1 ? p.ws : p.ars;
        if (n != taken + 1)
          rtl::fail(kTest, cycle,
                    who + q.name + " taken by the fan before port " + std::to_string(k) +
                        " took it");
      }
      if (ch == 0) {
        ++h.awTaken;
        h.awOn = false;
        h.awCycle = now;
      } else if (ch == 1) {
        ++h.wTaken;
        h.wOn = false;
        h.wCycle = now;
      } else {
        ++h.arTaken;
        h.arOn = false;
        h.arCycle = now;
      }
    }
  }

  // B: the worst of the ports' responses, only once every port has answered (in an earlier
  // cycle); R: port 0's RDATA, SLVERR if any differs, else the worst.
  if (u(x.out, s_axil_bvalid)) {
    for (const Port& p : x.ports)
      if (p.bs != h.bDone + 1 || p.bOn)
        rtl::fail(kTest, cycle, who + "BVALID before every port answered");
    const WriteRec& w = h.writes[h.bDone];
    if (u(x.out, s_axil_bresp) != worstOf(w.resp))
      rtl::fail(kTest, cycle,
                who + rtl::mismatch("BRESP", long(u(x.out, s_axil_bresp)), long(worstOf(w.resp))));
    if (h.bFirst < 0) {
      h.bFirst = now;
      if (timed && now != std::max(h.awCycle, h.wCycle) + 2)
        rtl::fail(kTest, cycle,
                  who + rtl::mismatch("BVALID cycle after AW in " + std::to_string(h.awCycle) +
                                          ", W in " + std::to_string(h.wCycle),
                                      now, std::max(h.awCycle, h.wCycle) + 2));
    }
    if (u(x.in, s_axil_bready)) {
      ++h.bDone;
      h.bFirst = -1;
    }
  }
  if (u(x.out, s_axil_rvalid)) {
    for (const Port& p : x.ports)
      if (p.rs != h.rDone + 1 || p.rOn)
        rtl::fail(kTest, cycle, who + "RVALID before every port answered");
    const ReadRec& r = h.reads[h.rDone];
    if (u(x.out, s_axil_rdata) != r.data[0] || u(x.out, s_axil_rresp) != readResp(r.data, r.resp))
      rtl::fail(kTest, cycle,
                who + rtl::mismatch("RDATA, RRESP",
                                    std::to_string(u(x.out, s_axil_rdata)) + ", " +
                                        std::to_string(u(x.out, s_axil_rresp)),
                                    std::to_string(r.data[0]) + ", " +
                                        std::to_string(readResp(r.data, r.resp))));
    if (h.rFirst < 0) {
      h.rFirst = now;
      if (timed && now != h.arCycle + 2)
        rtl::fail(kTest, cycle,
                  who + rtl::mismatch("RVALID cycle after AR in " + std::to_string(h.arCycle), now,
                                      h.arCycle + 2));
    }
    if (u(x.in, s_axil_rready)) {
      ++h.rDone;
      h.rFirst = -1;
    }
  }
  // The ports' responses taken in this cycle.
  for (int k = 0; k < c.n; ++k) {
    Port& p = x.ports[size_t(k)];
    if (bit(x.in[m_axil_bvalid], k) && bit(x.out[m_axil_bready], k)) {
      p.bOn = false;
      ++p.bs;
    }
    if (bit(x.in[m_axil_rvalid], k) && bit(x.out[m_axil_rready], k)) {
      p.rOn = false;
      ++p.rs;
    }
  }
}

// Both sides drop everything at a reset edge.
void protocolReset(Inst& x) {
  x.host = Host{};
  for (Port& p : x.ports) {
    Port fresh;
    fresh.pAw = p.pAw;
    fresh.pW = p.pW;
    fresh.pAr = p.pAr;
    fresh.pB = p.pB;
    fresh.pR = p.pR;
    p = fresh;
  }
}

struct Bench {
  Vtb& m;
  std::vector<Inst>& insts;
  rtl::Rng& rng;
  long cycle = 0;

  // One cycle: inputs, the checks with the clock low, READYs then every input moved at random
  // (no VALID, then no output from registers, may follow), the edge.
  void step(bool reset, bool protocol, bool inReset, bool timed) {
    m.aresetn = !reset;
    for (Inst& x : insts) {
      if (protocol)
        protocolPins(x, rng, inReset);
      else
        randomPins(x, rng);
      x.drive(m);
    }
    m.aclk = 0;
    m.eval();
    for (Inst& x : insts) {
      x.sample(m);
      x.check(cycle);
    }
    const int readies[] = {m_axil_awready, m_axil_wready, m_axil_arready, s_axil_bready,
                           s_axil_rready};
    const int valids[] = {m_axil_awvalid, m_axil_wvalid, m_axil_arvalid, s_axil_bvalid,
                          s_axil_rvalid};
    const int registered[] = {m_axil_bready, m_axil_rready, s_axil_bvalid, s_axil_bresp,
                              s_axil_rvalid, s_axil_rresp,  s_axil_rdata};
    for (Inst& x : insts)
      for (int s : readies)
        x.io.set[size_t(s)](m, rng.value(x.c.width(s)));
    m.eval();
    for (Inst& x : insts) {
      for (int s : valids)
        if (x.known && x.io.get[size_t(s)](m, x.c.width(s)) != x.out[size_t(s)])
          rtl::fail(kTest, cycle, x.who() + kInfo[s].name + " moved with a READY");
      for (int s = 0; s < kSigs; ++s)
        if (kInfo[s].input) x.io.set[size_t(s)](m, rng.value(x.c.width(s)));
    }
    m.eval();
    for (Inst& x : insts) {
      for (int s : registered)
        if (x.known && x.io.get[size_t(s)](m, x.c.width(s)) != x.out[size_t(s)])
          rtl::fail(kTest, cycle, x.who() + kInfo[s].name + " moved with an input");
      x.drive(m);
    }
    m.eval();
    if (protocol)
      for (Inst& x : insts)
        if (x.known) protocolCheck(x, cycle, timed);
    m.aclk = 1;
    m.eval();
    for (Inst& x : insts) {
      x.edge(reset);
      if (reset) {
        ++x.stats.resets;
        if (protocol) protocolReset(x);
      }
    }
    ++cycle;
  }
};

void partOne(Vtb& m, rtl::Rng& rng, long* cycles) {
  std::vector<Inst> insts;
  insts.push_back({{"a (3 ports)", 3, 12}, ioA()});
  insts.push_back({{"b (1 port)", 1, 1}, ioB()});
  insts.push_back({{"c (64 ports)", 64, 32}, ioC()});
  for (Inst& x : insts)
    x.init();
  Bench bench{m, insts, rng};

  // Reset first (the flags start random: no check before the first edge).
  for (int i = 0; i < 2; ++i)
    bench.step(true, true, i > 0, false);

  // 1. Random pins, aresetn low now and then.
  for (int i = 0; i < 6000; ++i)
    bench.step(rng.chance(0.02), false, false, false);
  for (Inst& x : insts) {
    const Stats& s = x.stats;
    std::printf("%s: random pins, %s: handshakes AW %ld W %ld AR %ld B %ld R %ld, %ld cycles with "
                "a port ahead, %ld requests held off, %ld R with different RDATA, %ld B not OKAY, "
                "%ld resets\n",
                kTest, x.c.name, s.awHs, s.wHs, s.arHs, s.bHs, s.rHs, s.aheadCycles, s.heldOffers,
                s.disagreeR, s.errorB, s.resets);
    if (s.awHs < 100 || s.wHs < 100 || s.arHs < 100 || s.bHs < 100 || s.rHs < 100 ||
        (x.c.n > 1 && (s.aheadCycles < 100 || s.disagreeR < 10)) || s.heldOffers < 100 ||
        s.errorB < 20 || s.resets < 10)
      rtl::fail(kTest, bench.cycle, x.who() + "random pins: too few events");
  }
  bench.step(true, false, false, false); // a clean start for the protocol phases
  for (Inst& x : insts) {
    protocolReset(x);
    x.stats = Stats{};
  }

  // 2. Protocol: ports with their own READY probabilities and delays, resets mid-transaction.
  struct Phase {
    const char* name;
    double lo, hi; // range of the ports' probabilities
    bool timed;
  };
  const Phase phases[] = {{"ports always ready, answering at once", 1.0, 1.0, true},
                          {"ports at random", 0.3, 1.0, false},
                          {"slow ports", 0.05, 0.5, false}};
  for (const Phase& p : phases) {
    for (Inst& x : insts)
      for (Port& y : x.ports) {
        auto pr = [&] { return p.lo + (p.hi - p.lo) * double(rng.range(0, 1000)) / 1000.0; };
        y.pAw = pr();
        y.pW = pr();
        y.pAr = pr();
        y.pB = pr();
        y.pR = pr();
      }
    int resetLeft = 0;
    const bool resets = !p.timed;
    for (int i = 0; i < 8000; ++i) {
      if (resets && resetLeft == 0 && rng.chance(1.0 / 700)) resetLeft = rng.range(1, 3);
      const bool reset = resetLeft > 0;
      // The first reset cycle is a normal one (the sides see aresetn at the edge); after it,
      // the VALIDs stay low.
      const bool inReset = reset && m.aresetn == 0;
      bench.step(reset, true, inReset, p.timed);
      if (resetLeft > 0) --resetLeft;
    }
    for (Inst& x : insts) {
      const Stats& s = x.stats;
      std::printf("%s: %s, %s: %ld cycles, handshakes AW %ld W %ld AR %ld B %ld R %ld, %ld cycles "
                  "with a port ahead, %ld requests held off, %ld R with different RDATA, %ld "
                  "resets\n",
                  kTest, p.name, x.c.name, s.cycles, s.awHs, s.wHs, s.arHs, s.bHs, s.rHs,
                  s.aheadCycles, s.heldOffers, s.disagreeR, s.resets);
      if (s.bHs < 50 || s.rHs < 50 || s.heldOffers < 50)
        rtl::fail(kTest, bench.cycle, x.who() + p.name + ": too few transactions");
      if (x.c.n > 1 && s.disagreeR == 0)
        rtl::fail(kTest, bench.cycle, x.who() + p.name + ": no read with different RDATA");
      if (!p.timed && x.c.n > 1 && s.aheadCycles == 0)
        rtl::fail(kTest, bench.cycle, x.who() + p.name + ": no port ever ahead of the others");
      if (p.timed && s.aheadCycles)
        rtl::fail(kTest, bench.cycle, x.who() + p.name + ": a port ahead with every port ready");
      if (resets && s.resets == 0) rtl::fail(kTest, bench.cycle, x.who() + p.name + ": no reset");
      x.stats = Stats{};
    }
  }
  // Leave the pin fans quiet for part 2.
  for (Inst& x : insts) {
    for (int s = 0; s < kSigs; ++s)
      if (kInfo[s].input) x.in[size_t(s)] = Value(x.c.width(s));
    x.drive(m);
  }
  *cycles = bench.cycle;
}

// ==== Part 2: the fan in front of real rubick_axil_regs ====

constexpr int kUnits = 5, kNBase = 3, kAddrW = 8;

// A unit's register map as software sees it (rubick_axil_regs' header; as in
// test_rubick_axil_regs.cpp).
struct RegModel {
  bool ie = false, done = false, error = false;
  unsigned isr = 0;
  uint64_t cycles = 0;
  uint32_t cyclesHi = 0;
  std::vector<uint64_t> base = std::vector<uint64_t>(kNBase, 0);

  static uint32_t merge(uint32_t old, uint32_t data, unsigned strb) {
    uint32_t mask = 0;
    for (int b = 0; b < 4; ++b)
      if ((strb >> b) & 1) mask |= 0xffu << (8 * b);
    return (old & ~mask) | (data & mask);
  }
  unsigned write(uint32_t addr, uint32_t data, unsigned strb, bool busy, bool* start) {
    const uint32_t w = addr >> 2;
    const bool byte0 = strb & 1;
    *start = false;
    if (w == 0) {
      if (byte0) {
        ie = (data >> 1) & 1;
        if ((data & 1) && !busy) {
          *start = true;
          done = error = false;
          cycles = 0;
        }
      }
      return kOkay;
    }
    if (w == 1) {
      if (byte0 && (data & 1)) done = false;
      if (byte0 && (data & 4)) error = false;
      return kOkay;
    }
    if (w == 2) {
      if (byte0) isr &= ~data & 3;
      return kOkay;
    }
    if (w >= 8 && w < 8 + 2u * kNBase) {
      uint64_t& b = base[(w - 8) / 2];
      if ((w - 8) % 2 == 0)
        b = (b & 0xffffffff00000000ull) | merge(uint32_t(b), data, strb);
      else
        b = (b & 0xffffffffull) | (uint64_t(merge(uint32_t(b >> 32), data, strb)) << 32);
      return kOkay;
    }
    return kSlverr;
  }
  unsigned read(uint32_t addr, bool busy, uint32_t* data) {
    const uint32_t w = addr >> 2;
    *data = 0;
    switch (w) {
    case 0:
      *data = ie << 1;
      return kOkay;
    case 1:
      *data = (error << 2) | (busy << 1) | done;
      return kOkay;
    case 2:
      *data = isr;
      return kOkay;
    case 4:
      cyclesHi = uint32_t(cycles >> 32);
      *data = uint32_t(cycles);
      return kOkay;
    case 5:
      *data = cyclesHi;
      return kOkay;
    default:
      if (w >= 8 && w < 8 + 2u * kNBase) {
        const uint64_t b = base[(w - 8) / 2];
        *data = (w - 8) % 2 ? uint32_t(b >> 32) : uint32_t(b);
        return kOkay;
      }
      return kSlverr;
    }
  }
};

// An AXI4-Lite slave port of the top: the host side of the fan, or the direct port.
struct Lite {
  std::function<void(Vtb&, bool, uint32_t)> setAw, setAr;
  std::function<void(Vtb&, bool, uint32_t, unsigned)> setW;
  std::function<void(Vtb&, bool)> setBready, setRready;
  std::function<bool(Vtb&)> awready, wready, bvalid, arready, rvalid;
  std::function<unsigned(Vtb&)> bresp, rresp;
  std::function<uint32_t(Vtb&)> rdata;
};
#define LITE_PORT(P)                                                                               \
  Lite {                                                                                           \
    [](Vtb& m, bool v, uint32_t a) {                                                               \
      m.P##_awvalid = v;                                                                           \
      m.P##_awaddr = a;                                                                            \
    },                                                                                             \
        [](Vtb& m, bool v, uint32_t a) {                                                           \
          m.P##_arvalid = v;                                                                       \
          m.P##_araddr = a;                                                                        \
        },                                                                                         \
        [](Vtb& m, bool v, uint32_t d, unsigned s) {                                               \
          m.P##_wvalid = v;                                                                        \
          m.P##_wdata = d;                                                                         \
          m.P##_wstrb = s;                                                                         \
        },                                                                                         \
        [](Vtb& m, bool r) { m.P##_bready = r; }, [](Vtb& m, bool r) { m.P##_rready = r; },        \
        [](Vtb& m) -> bool { return m.P##_awready; }, [](Vtb& m) -> bool { return m.P##_wready; }, \
        [](Vtb& m) -> bool { return m.P##_bvalid; }, [](Vtb& m) -> bool { return m.P##_arready; }, \
        [](Vtb& m) -> bool { return m.P##_rvalid; },                                               \
        [](Vtb& m) -> unsigned { return m.P##_bresp; },                                            \
        [](Vtb& m) -> unsigned { return m.P##_rresp; },                                            \
        [](Vtb& m) -> uint32_t { return m.P##_rdata; },                                            \
  }

struct Op {
  bool write = false, read = false;
  uint32_t waddr = 0, wdata = 0, raddr = 0;
  unsigned strb = 0xf;
};

struct Sys {
  Vtb& m;
  rtl::Rng& rng;
  long cycle = 0;
  Lite fan = LITE_PORT(h_s_axil), direct = LITE_PORT(d_axil);
  std::vector<RegModel> units = std::vector<RegModel>(kUnits);
  bool busy[kUnits] = {};
  // Counts.
  long fanWrites = 0, fanReads = 0, directOps = 0, disagree = 0, slverr = 0, lockstep = 0;

  void fail(const std::string& what) { rtl::fail(kTest, cycle, "system: " + what); }

  void setUnits(unsigned done, unsigned error) {
    unsigned b = 0;
    for (int k = 0; k < kUnits; ++k)
      b |= unsigned(busy[k]) << k;
    m.h_busy_in = b;
    m.h_done_in = done;
    m.h_error_in = error;
  }

  // One cycle with the inputs as set: beforeEdge sees the settled outputs before the edge.
  void step(const std::function<void()>& beforeEdge = {}) {
    m.aclk = 0;
    m.eval();
    if (beforeEdge) beforeEdge();
    for (int k = 0; k < kUnits; ++k)
      if (busy[k]) ++units[size_t(k)].cycles; // CYCLES counts every edge with busy_in high
    m.aclk = 1;
    m.eval();
    ++cycle;
  }

  void quiet() {
    for (Lite* p : {&fan, &direct}) {
      p->setAw(m, false, 0);
      p->setW(m, false, 0, 0);
      p->setAr(m, false, 0);
      p->setBready(m, false);
      p->setRready(m, false);
    }
    m.d_en = 0;
    m.d_unit = 0;
    setUnits(0, 0);
  }

  void checkOutputs() {
    m.eval();
    for (int k = 0; k < kUnits; ++k) {
      const RegModel& u = units[size_t(k)];
      const bool irq = u.ie && u.isr;
      if (bool((m.h_irq >> k) & 1) != irq)
        fail(rtl::mismatch("irq of unit " + std::to_string(k), (m.h_irq >> k) & 1, irq));
      for (int i = 0; i < kNBase; ++i) {
        const uint64_t got = rtl::getBits(m.h_base_addr, 64 * (k * kNBase + i), 64);
        if (got != u.base[size_t(i)])
          fail(rtl::mismatch("base_addr " + std::to_string(i) + " of unit " + std::to_string(k),
                             std::to_string(got), std::to_string(u.base[size_t(i)])));
      }
    }
  }

  // A write and/or a read through the fan (unit < 0: every unit) or the direct port (unit k
  // alone), with random skew and ready delays, checked against the units' models and the
  // timing of the header (fan: RVALID 2 cycles after AR, BVALID 3 after the later of AW and W;
  // direct: rubick_axil_regs' 1 and 2). Returns the data read.
  uint32_t transact(const Op& op, int unit = -1) {
    Lite& p = unit < 0 ? fan : direct;
    std::vector<int> us;
    for (int k = 0; k < kUnits; ++k)
      if (unit < 0 || k == unit) us.push_back(k);
    m.d_en = unit >= 0;
    m.d_unit = unit >= 0 ? unsigned(unit) : 0;
    const int rLat = unit < 0 ? 2 : 1, bLat = unit < 0 ? 3 : 2;
    const int awAt = rng.range(0, 3), wAt = rng.range(0, 3), arAt = rng.range(0, 3);
    bool awDone = !op.write, wDone = !op.write, bDone = !op.write, arDone = !op.read,
         rDone = !op.read;
    long awCycle = -1, wCycle = -1, arCycle = -1, bFirst = -1, rFirst = -1;
    std::vector<long> startAt(kUnits, -1);
    std::vector<int> starts(kUnits, 0);
    std::vector<bool> wantStart(kUnits, false);
    unsigned wantB = 0, wantR = 0;
    uint32_t wantData = 0;
    for (int t = 0; !(awDone && wDone && bDone && arDone && rDone); ++t) {
      if (t > 40) fail("transaction did not finish");
      p.setAw(m, !awDone && t >= awAt, op.waddr | uint32_t(rng.bits(2)));
      p.setW(m, !wDone && t >= wAt, op.wdata, op.strb);
      p.setAr(m, !arDone && t >= arAt, op.raddr | uint32_t(rng.bits(2)));
      const bool bready = rng.chance(0.6), rready = rng.chance(0.6);
      p.setBready(m, bready);
      p.setRready(m, rready);
      step([&] {
        for (int k = 0; k < kUnits; ++k)
          if ((m.h_start >> k) & 1) {
            ++starts[size_t(k)];
            startAt[size_t(k)] = cycle;
          }
        if (!awDone && t >= awAt && p.awready(m)) {
          awDone = true;
          awCycle = cycle;
        }
        if (!wDone && t >= wAt && p.wready(m)) {
          wDone = true;
          wCycle = cycle;
        }
        if (!arDone && t >= arAt && p.arready(m)) {
          arDone = true;
          arCycle = cycle;
          // The values at the AR edge: port 0's data, SLVERR if any unit's differs.
          std::vector<uint32_t> data;
          std::vector<unsigned> resp;
          for (int k : us) {
            uint32_t d = 0;
            resp.push_back(units[size_t(k)].read(op.raddr, busy[k], &d));
            data.push_back(d);
          }
          wantData = data[0];
          wantR = readResp(data, resp);
          if (unit < 0 && readResp(data, std::vector<unsigned>(data.size(), 0)) != kOkay)
            ++disagree;
        }
        if (!rDone && p.rvalid(m)) {
          if (rFirst < 0) rFirst = cycle;
          if (p.rdata(m) != wantData || p.rresp(m) != wantR)
            fail(std::string(unit < 0 ? "fan" : "direct") + " read " + std::to_string(op.raddr) +
                 ": " +
                 rtl::mismatch("data, resp",
                               std::to_string(p.rdata(m)) + ", " + std::to_string(p.rresp(m)),
                               std::to_string(wantData) + ", " + std::to_string(wantR)));
          if (rready) rDone = true;
        }
        if (!bDone && p.bvalid(m)) {
          if (bFirst < 0) {
            bFirst = cycle;
            wantB = 0;
            for (int k : us) {
              bool s = false;
              wantB =
                  std::max(wantB, units[size_t(k)].write(op.waddr, op.wdata, op.strb, busy[k], &s));
              wantStart[size_t(k)] = s;
            }
          }
          if (p.bresp(m) != wantB)
            fail("write " + std::to_string(op.waddr) + ": " +
                 rtl::mismatch("bresp", p.bresp(m), wantB));
          if (bready) bDone = true;
        }
      });
    }
    if (op.read && rFirst != arCycle + rLat)
      fail(rtl::mismatch("RVALID cycle after the AR handshake in " + std::to_string(arCycle),
                         rFirst, arCycle + rLat));
    const long later = std::max(awCycle, wCycle);
    if (op.write && bFirst != later + bLat)
      fail(rtl::mismatch("BVALID cycle after AW in " + std::to_string(awCycle) + ", W in " +
                             std::to_string(wCycle),
                         bFirst, later + bLat));
    // Every unit that starts does so 2 cycles after the later of AW and W: the same cycle for
    // all of them behind the fan.
    int started = 0;
    for (int k = 0; k < kUnits; ++k) {
      const bool want = wantStart[size_t(k)];
      if (starts[size_t(k)] != (want ? 1 : 0) || (want && startAt[size_t(k)] != later + 2))
        fail("start of unit " + std::to_string(k) + ": " + std::to_string(starts[size_t(k)]) +
             " cycle(s), at " + std::to_string(startAt[size_t(k)]) + ", expected " +
             (want ? "1 at " + std::to_string(later + 2) : std::string("none")));
      started += want;
    }
    if (unit < 0 && started == kUnits) ++lockstep;
    if (unit < 0) {
      fanWrites += op.write;
      fanReads += op.read;
    } else {
      ++directOps;
    }
    slverr += (op.write && wantB == kSlverr) + (op.read && wantR == kSlverr);
    quiet();
    checkOutputs();
    return wantData;
  }

  uint32_t read(uint32_t addr, int unit = -1, unsigned* resp = nullptr) {
    Op op;
    op.read = true;
    op.raddr = addr;
    const long before = slverr;
    const uint32_t d = transact(op, unit);
    if (resp) *resp = slverr > before ? kSlverr : kOkay;
    return d;
  }
  void write(uint32_t addr, uint32_t data, int unit = -1, unsigned strb = 0xf) {
    Op op;
    op.write = true;
    op.waddr = addr;
    op.wdata = data;
    op.strb = strb;
    transact(op, unit);
  }

  // Idle cycles, with done_in / error_in pulses (per unit) at the end.
  void idle(int n, unsigned done, unsigned error) {
    for (int i = 0; i < n; ++i) {
      const bool last = i + 1 == n;
      quiet();
      setUnits(last ? done : 0, last ? error : 0);
      step([&] {
        if (m.h_start) fail("start outside a START write");
      });
    }
    for (int k = 0; k < kUnits; ++k) {
      RegModel& u = units[size_t(k)];
      if ((done >> k) & 1) u.done = true, u.isr |= 1;
      if ((error >> k) & 1) u.error = true, u.isr |= 2;
    }
    quiet();
    checkOutputs();
  }

  // Back to back through the fan with the host always ready (VALIDs up as soon as the previous
  // request was taken, BREADY and RREADY high), n writes of the BASE registers, then n reads
  // of them: the header's claim behind rubick_axil_regs, a write every 4 cycles and a read
  // every 3, with the data and OKAY (the units must agree).
  void backToBack(int n) {
    quiet();
    std::vector<long> awAt, wAt, arAt;
    std::vector<uint32_t> data;
    for (int i = 0; i < n; ++i)
      data.push_back(uint32_t(rng.bits(32)));
    auto addr = [](int i) { return 0x20 + 4 * uint32_t(i % (2 * kNBase)); };
    int bs = 0;
    for (int t = 0; bs < n; ++t) {
      if (t > 10 * n) fail("back-to-back writes did not finish");
      const int aw = int(awAt.size()), w = int(wAt.size());
      fan.setAw(m, aw < n, aw < n ? addr(aw) : 0);
      fan.setW(m, w < n, w < n ? data[size_t(w)] : 0, 0xf);
      fan.setBready(m, true);
      step([&] {
        if (aw < n && fan.awready(m)) awAt.push_back(cycle);
        if (w < n && fan.wready(m)) wAt.push_back(cycle);
        if (fan.bvalid(m)) {
          if (fan.bresp(m) != kOkay) fail("back-to-back write: not OKAY");
          for (RegModel& u : units) {
            bool st = false;
            u.write(addr(bs), data[size_t(bs)], 0xf, false, &st);
          }
          ++bs;
        }
      });
    }
    quiet();
    int rs = 0;
    for (int t = 0; rs < n; ++t) {
      if (t > 10 * n) fail("back-to-back reads did not finish");
      const int ar = int(arAt.size());
      fan.setAr(m, ar < n, ar < n ? addr(ar) : 0);
      fan.setRready(m, true);
      step([&] {
        if (ar < n && fan.arready(m)) arAt.push_back(cycle);
        if (fan.rvalid(m)) {
          uint32_t want = 0;
          units[0].read(addr(rs), false, &want);
          if (fan.rdata(m) != want || fan.rresp(m) != kOkay)
            fail("back-to-back read: " +
                 rtl::mismatch("data, resp",
                               std::to_string(fan.rdata(m)) + ", " + std::to_string(fan.rresp(m)),
                               std::to_string(want) + ", 0"));
          ++rs;
        }
      });
    }
    quiet();
    for (int i = 1; i < n; ++i) {
      if (awAt[size_t(i)] - awAt[size_t(i - 1)] != 4 || wAt[size_t(i)] != awAt[size_t(i)])
        fail("back-to-back writes: AW in " + std::to_string(awAt[size_t(i - 1)]) + " and " +
             std::to_string(awAt[size_t(i)]) + ", W in " + std::to_string(wAt[size_t(i)]) +
             ", expected 4 cycles apart, AW and W together");
      if (arAt[size_t(i)] - arAt[size_t(i - 1)] != 3)
        fail("back-to-back reads: AR in " + std::to_string(arAt[size_t(i - 1)]) + " and " +
             std::to_string(arAt[size_t(i)]) + ", expected 3 cycles apart");
    }
    checkOutputs();
  }

  // Every register of every unit through its own port.
  void sweep() {
    for (int k = 0; k < kUnits; ++k)
      for (uint32_t a : {0x0u, 0x4u, 0x8u, 0x14u, 0x20u, 0x24u, 0x28u, 0x2cu, 0x30u, 0x34u})
        read(a, k);
  }

  uint32_t randomAddr() {
    switch (rng.range(0, 5)) {
    case 0:
      return uint32_t(rng.bits(kAddrW)) & ~3u; // anywhere, mapped or not
    case 1:
      return 0x10 + 4 * rng.range(0, 1); // CYCLES
    case 2:
      return 4 * rng.range(0, 2); // CTRL, STATUS, ISR
    default:
      return 0x20 + 4 * rng.range(0, 2 * kNBase - 1); // base registers
    }
  }
  unsigned someUnits(double pAll) {
    if (rng.chance(pAll)) return (1u << kUnits) - 1;
    return 1u << rng.range(0, kUnits - 1);
  }
};

void partTwo(Vtb& m, rtl::Rng& rng, long firstCycle) {
  Sys s{m, rng, firstCycle};
  // Reset (the units too).
  s.quiet();
  m.aresetn = 0;
  for (int i = 0; i < 3; ++i)
    s.step();
  m.aresetn = 1;
  s.checkOutputs();

  // BASE registers through the fan, read back through it and through every unit's own port.
  const uint32_t vals[2 * kNBase] = {0x89abcdefu, 0x01234567u, 0xdeadbeefu,
                                     0x0badf00du, 0x13579bdfu, 0x2468ace0u};
  for (int i = 0; i < 2 * kNBase; ++i)
    s.write(0x20 + 4 * uint32_t(i), vals[i]);
  for (int i = 0; i < 2 * kNBase; ++i) {
    unsigned resp = 0;
    const uint32_t got = s.read(0x20 + 4 * uint32_t(i), -1, &resp);
    if (got != vals[i] || resp != kOkay)
      s.fail("BASE read back through the fan: " +
             rtl::mismatch("data, resp", std::to_string(got) + ", " + std::to_string(resp),
                           std::to_string(vals[i]) + ", 0"));
    for (int k = 0; k < kUnits; ++k)
      if (s.read(0x20 + 4 * uint32_t(i), k) != vals[i])
        s.fail("BASE in unit " + std::to_string(k) + " not written");
  }
  // A unit written alone: the fan answers SLVERR with unit 0's data; the fan heals it.
  for (int odd : {3, 0}) {
    s.write(0x28, 0x55aa55aau ^ uint32_t(odd), odd);
    unsigned resp = 0;
    const uint32_t got = s.read(0x28, -1, &resp);
    const uint32_t want = odd == 0 ? (0x55aa55aau ^ 0u) : vals[2];
    if (resp != kSlverr || got != want)
      s.fail("one unit different (unit " + std::to_string(odd) + "): " +
             rtl::mismatch("data, resp", std::to_string(got) + ", " + std::to_string(resp),
                           std::to_string(want) + ", 2"));
    if (s.read(0x20) != vals[0]) s.fail("another register disturbed");
    s.write(0x28, vals[2]);
    if (s.read(0x28, -1, &resp) != vals[2] || resp != kOkay) s.fail("not healed by a fan write");
  }
  // error_in on one unit only: STATUS and ISR differ until cleared through the fan.
  s.idle(2, 0, 1u << 2);
  unsigned resp = 0;
  s.read(0x4, -1, &resp);
  if (resp != kSlverr) s.fail("STATUS of one unit in error: not SLVERR");
  s.write(0x4, 4);
  s.write(0x8, 3);
  s.read(0x4, -1, &resp);
  if (resp != kOkay) s.fail("STATUS after clearing: not OKAY");
  // START: every unit starts in the same cycle (transact checks it).
  const long lock = s.lockstep;
  s.write(0x0, 3);
  if (s.lockstep != lock + 1) s.fail("START did not start every unit");

  s.backToBack(12);
  s.sweep();

  // Random operations.
  for (int i = 0; i < 2500; ++i) {
    Op op;
    const int kind = s.rng.range(0, 15);
    if (kind <= 3) { // a fan write
      op.write = true;
      op.waddr = s.randomAddr();
      op.wdata = uint32_t(s.rng.bits(32));
      op.strb = s.rng.chance(0.5) ? 0xf : unsigned(s.rng.bits(4));
      s.transact(op);
    } else if (kind <= 6) { // a fan read
      op.read = true;
      op.raddr = s.randomAddr();
      s.transact(op);
    } else if (kind == 7) { // both at once: a write that cannot change what is read
      op.write = op.read = true;
      op.wdata = uint32_t(s.rng.bits(32));
      do
        op.waddr = s.randomAddr();
      while ((op.waddr >> 2) <= 2);
      do
        op.raddr = s.randomAddr();
      while ((op.raddr >> 2) == (op.waddr >> 2));
      s.transact(op);
    } else if (kind == 8) { // START (and IE) through the fan, some units maybe busy
      s.write(0x0, 1 | uint32_t(s.rng.bits(1) << 1), -1, 1);
    } else if (kind == 9) { // W1C of STATUS or ISR through the fan
      s.write(s.rng.chance(0.5) ? 4 : 8, uint32_t(s.rng.bits(3)), -1, 1);
    } else if (kind == 10) { // a unit written alone (a fault)
      op.write = true;
      op.waddr = s.randomAddr();
      op.wdata = uint32_t(s.rng.bits(32));
      s.transact(op, s.rng.range(0, kUnits - 1));
    } else if (kind == 11) { // a unit read alone
      op.read = true;
      op.raddr = s.randomAddr();
      s.transact(op, s.rng.range(0, kUnits - 1));
    } else if (kind == 12) { // a run: every unit (or one) busy for a while, then done
      const unsigned who = s.someUnits(0.7);
      for (int k = 0; k < kUnits; ++k)
        s.busy[k] = (who >> k) & 1;
      s.idle(s.rng.range(1, 30), 0, 0);
      if (s.rng.chance(0.8))
        for (bool& b : s.busy)
          b = false;
      s.idle(1, s.rng.chance(0.8) ? who : 0, s.rng.chance(0.2) ? s.someUnits(0.5) : 0);
    } else if (kind == 13 && s.rng.chance(0.1)) {
      s.sweep();
    } else {
      s.idle(s.rng.range(1, 3), s.rng.chance(0.3) ? s.someUnits(0.5) : 0,
             s.rng.chance(0.2) ? s.someUnits(0.5) : 0);
    }
  }
  s.sweep();
  std::printf("%s: system: %ld fan writes, %ld fan reads (%ld with units disagreeing), %ld direct "
              "operations, %ld SLVERR, %ld STARTs of every unit at once, %ld cycles\n",
              kTest, s.fanWrites, s.fanReads, s.disagree, s.directOps, s.slverr, s.lockstep,
              s.cycle - firstCycle);
  if (s.fanWrites < 500 || s.fanReads < 500 || s.disagree < 50 || s.directOps < 300 ||
      s.slverr < 200 || s.lockstep < 10)
    s.fail("random operations missed a case");
}

} // namespace

int main(int argc, char** argv) {
  auto ctx = rtl::makeContext(argc, argv);
  Vtb m(ctx.get());
  rtl::Rng rng(4242);
  // The system's inputs quiet during part 1 (inputs start random).
  m.h_s_axil_awvalid = m.h_s_axil_wvalid = m.h_s_axil_arvalid = 0;
  m.h_s_axil_bready = m.h_s_axil_rready = 0;
  m.d_en = 0;
  m.d_axil_awvalid = m.d_axil_wvalid = m.d_axil_arvalid = 0;
  m.h_busy_in = m.h_done_in = m.h_error_in = 0;
  long cycles = 0;
  partOne(m, rng, &cycles);
  partTwo(m, rng, cycles);
  std::printf("%s: OK\n", kTest);
  return 0;
}
