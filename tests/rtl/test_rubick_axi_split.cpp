// SPDX-License-Identifier: Apache-2.0
// Unit test of rtl_templates/rubick_axi_split.v: three splits side by side (tb_rubick_axi_split.v:
// 2 ways of 32 bits, 4 ways of 1024 bits, 32 ways of 64 bits), checked in every cycle against a
// C++ model of the header's rules, written out independently: every output (VALIDs, READYs,
// the ways' addresses = the wide beat's index times the port's bytes, lengths, sizes, bursts,
// IDs, cache and prot fields, data and strobes, the merged RLAST, RID, RRESP, BID and BRESP) and
// the sent flags from cycle to cycle. The ways' READYs and the wide side's RREADY / BREADY are
// then changed at random with the clock low: no master-side VALID and no slave-side VALID may
// move (no combinational path from a READY to a VALID).
//  1. Random pins: every input random in every cycle (the ways' RID and RLAST agree most of the
//     time, so that both the worst-response and the disagreement rules are hit), aresetn low now
//     and then, wherever the sent flags are.
//  2. Protocol: a legal wide master (addresses often unaligned, requests held until READY, W
//     beats before or after their AW) and, per way, a legal slave with its own random READY
//     probabilities and R / B delays, and random RRESP / BRESP. Besides the cycle model, a
//     scoreboard checks the end to end claims: every way takes every wide AR, AW and W beat
//     exactly once, in order, with its address mapped and its data / strobe slice; no wide
//     handshake before every way has taken it; every wide R burst has len + 1 beats, RLAST on the
//     last, the request's RID, RDATA the ways' beats side by side and RRESP the worst; one B per
//     wide AW, in order, with its BID and the worst BRESP. Resets come in the middle of
//     transactions (the sides drop everything at the reset edge, and keep their VALIDs low in
//     the reset cycles after it); the test also requires that ways took addresses and W beats
//     before others (the sent flags were used) and that the wide handshakes happened.
#include "Vtb_rubick_axi_split.h"
#include "rtl_test.h"

#include <array>
#include <deque>
#include <functional>
#include <string>
#include <vector>

namespace {

using rtl::Value;
using Vtb = Vtb_rubick_axi_split;

const char* kTest = "test_rubick_axi_split";

// Every port of the template: name, input?, width kind, multiplied by WAYS?
enum Kind { K1, KA, K8, K3, K2, KI, K4, KD, KS };
// clang-format off
#define SPLIT_SIGNALS(X)     \
  X(s_axi_arvalid, 1, K1, 0) \
  X(s_axi_arready, 0, K1, 0) \
  X(s_axi_araddr, 1, KA, 0)  \
  X(s_axi_arlen, 1, K8, 0)   \
  X(s_axi_arsize, 1, K3, 0)  \
  X(s_axi_arburst, 1, K2, 0) \
  X(s_axi_arid, 1, KI, 0)    \
  X(s_axi_arcache, 1, K4, 0) \
  X(s_axi_arprot, 1, K3, 0)  \
  X(s_axi_rvalid, 0, K1, 0)  \
  X(s_axi_rready, 1, K1, 0)  \
  X(s_axi_rdata, 0, KD, 1)   \
  X(s_axi_rlast, 0, K1, 0)   \
  X(s_axi_rresp, 0, K2, 0)   \
  X(s_axi_rid, 0, KI, 0)     \
  X(s_axi_awvalid, 1, K1, 0) \
  X(s_axi_awready, 0, K1, 0) \
  X(s_axi_awaddr, 1, KA, 0)  \
  X(s_axi_awlen, 1, K8, 0)   \
  X(s_axi_awsize, 1, K3, 0)  \
  X(s_axi_awburst, 1, K2, 0) \
  X(s_axi_awid, 1, KI, 0)    \
  X(s_axi_awcache, 1, K4, 0) \
  X(s_axi_awprot, 1, K3, 0)  \
  X(s_axi_wvalid, 1, K1, 0)  \
  X(s_axi_wready, 0, K1, 0)  \
  X(s_axi_wdata, 1, KD, 1)   \
  X(s_axi_wstrb, 1, KS, 1)   \
  X(s_axi_wlast, 1, K1, 0)   \
  X(s_axi_bvalid, 0, K1, 0)  \
  X(s_axi_bready, 1, K1, 0)  \
  X(s_axi_bresp, 0, K2, 0)   \
  X(s_axi_bid, 0, KI, 0)     \
  X(m_axi_arvalid, 0, K1, 1) \
  X(m_axi_arready, 1, K1, 1) \
  X(m_axi_araddr, 0, KA, 1)  \
  X(m_axi_arlen, 0, K8, 1)   \
  X(m_axi_arsize, 0, K3, 1)  \
  X(m_axi_arburst, 0, K2, 1) \
  X(m_axi_arid, 0, KI, 1)    \
  X(m_axi_arcache, 0, K4, 1) \
  X(m_axi_arprot, 0, K3, 1)  \
  X(m_axi_rvalid, 1, K1, 1)  \
  X(m_axi_rready, 0, K1, 1)  \
  X(m_axi_rdata, 1, KD, 1)   \
  X(m_axi_rlast, 1, K1, 1)   \
  X(m_axi_rresp, 1, K2, 1)   \
  X(m_axi_rid, 1, KI, 1)     \
  X(m_axi_awvalid, 0, K1, 1) \
  X(m_axi_awready, 1, K1, 1) \
  X(m_axi_awaddr, 0, KA, 1)  \
  X(m_axi_awlen, 0, K8, 1)   \
  X(m_axi_awsize, 0, K3, 1)  \
  X(m_axi_awburst, 0, K2, 1) \
  X(m_axi_awid, 0, KI, 1)    \
  X(m_axi_awcache, 0, K4, 1) \
  X(m_axi_awprot, 0, K3, 1)  \
  X(m_axi_wvalid, 0, K1, 1)  \
  X(m_axi_wready, 1, K1, 1)  \
  X(m_axi_wdata, 0, KD, 1)   \
  X(m_axi_wstrb, 0, KS, 1)   \
  X(m_axi_wlast, 0, K1, 1)   \
  X(m_axi_bvalid, 1, K1, 1)  \
  X(m_axi_bready, 0, K1, 1)  \
  X(m_axi_bresp, 1, K2, 1)   \
  X(m_axi_bid, 1, KI, 1)
// clang-format on

enum Sig {
#define X(n, in, k, per) n,
  SPLIT_SIGNALS(X)
#undef X
      kSigs
};
struct SigInfo {
  const char* name;
  bool input;
  Kind kind;
  bool perWay;
};
const SigInfo kInfo[kSigs] = {
#define X(n, in, k, per) {#n, in != 0, k, per != 0},
    SPLIT_SIGNALS(X)
#undef X
};

// The AW signals follow the AR signals in the same order, kAw places later, on both sides.
constexpr int kAw = s_axi_awvalid - s_axi_arvalid;
static_assert(s_axi_awprot - s_axi_arprot == kAw && m_axi_awvalid - m_axi_arvalid == kAw &&
                  m_axi_awprot - m_axi_arprot == kAw,
              "AR and AW signals in the same order");

int log2i(uint64_t v) {
  int k = 0;
  while ((uint64_t{1} << k) < v)
    ++k;
  return k;
}

struct Cfg {
  const char* name;
  int ways, portW, addrW, idW;
  int portBytes() const { return portW / 8; }
  int lpb() const { return log2i(uint64_t(portBytes())); }
  int lwide() const { return lpb() + log2i(uint64_t(ways)); }
  uint64_t all() const { return rtl::mask(ways); }
  int width(int s) const {
    int w = 1;
    switch (kInfo[s].kind) {
    case K1:
      w = 1;
      break;
    case KA:
      w = addrW;
      break;
    case K8:
      w = 8;
      break;
    case K3:
      w = 3;
      break;
    case K2:
      w = 2;
      break;
    case KI:
      w = idW;
      break;
    case K4:
      w = 4;
      break;
    case KD:
      w = portW;
      break;
    case KS:
      w = portW / 8;
      break;
    }
    return kInfo[s].perWay ? w * ways : w;
  }
  // The header's mapping of wide byte b: its way and its address there.
  int wayOf(uint64_t b) const { return int((b / uint64_t(portBytes())) % uint64_t(ways)); }
  uint64_t wayAddr(uint64_t b) const {
    const uint64_t pb = uint64_t(portBytes());
    return (b / (pb * uint64_t(ways))) * pb + b % pb;
  }
};

using rtl::bit;
using rtl::fld;
using rtl::getV;
using rtl::putV;
using rtl::setFld;
// Bits [lo, lo + w) of a Value, any w, and setting them.
Value slice(const Value& v, int lo, int w) {
  Value r(w);
  for (int b = 0; b < w; b += 64)
    setFld(r, b, std::min(64, w - b), fld(v, lo + b, std::min(64, w - b)));
  return r;
}
void setSlice(Value& v, int lo, const Value& x) {
  for (int b = 0; b < x.width; b += 64)
    setFld(v, lo + b, std::min(64, x.width - b), fld(x, b, std::min(64, x.width - b)));
}

using Pins = std::array<Value, kSigs>;

// The sent flags of the AR, AW and W channels, one bit per way.
struct Sent {
  uint64_t ar = 0, aw = 0, w = 0;
};

// RRESP / BRESP: SLVERR when the ways disagree, else the worst.
unsigned merged(const Cfg& c, const Value& resp, const Value& ids, bool disagree) {
  unsigned worst = 0;
  for (int w = 0; w < c.ways; ++w) {
    worst = std::max(worst, unsigned(fld(resp, 2 * w, 2)));
    if (fld(ids, w * c.idW, c.idW) != fld(ids, 0, c.idW)) disagree = true;
  }
  return disagree ? 2 : worst;
}

// The header's rules: every output from the inputs of the cycle and the sent flags.
void model(const Cfg& c, const Pins& in, const Sent& st, Pins& out) {
  const int ways = c.ways;
  const uint64_t all = c.all();
  auto u = [&](int s) { return fld(in[size_t(s)], 0, std::min(64, c.width(s))); };
  for (int s = 0; s < kSigs; ++s)
    if (!kInfo[s].input) out[size_t(s)] = Value(c.width(s));
  for (int ch = 0; ch < 2; ++ch) {
    const int d = ch ? kAw : 0;
    const uint64_t sent = ch ? st.aw : st.ar;
    auto o = [&](int s) -> Value& { return out[size_t(s + d)]; };
    o(m_axi_arvalid) = Value(ways, u(s_axi_arvalid + d) ? ~sent & all : 0);
    o(s_axi_arready) = Value(1, ((sent | u(m_axi_arready + d)) & all) == all);
    const uint64_t a = (u(s_axi_araddr + d) >> c.lwide()) << c.lpb();
    for (int w = 0; w < ways; ++w) {
      setFld(o(m_axi_araddr), w * c.addrW, c.addrW, a);
      setFld(o(m_axi_arlen), w * 8, 8, u(s_axi_arlen + d));
      setFld(o(m_axi_arsize), w * 3, 3, uint64_t(c.lpb()));
      setFld(o(m_axi_arburst), w * 2, 2, u(s_axi_arburst + d));
      setFld(o(m_axi_arid), w * c.idW, c.idW, u(s_axi_arid + d));
      setFld(o(m_axi_arcache), w * 4, 4, u(s_axi_arcache + d));
      setFld(o(m_axi_arprot), w * 3, 3, u(s_axi_arprot + d));
    }
  }
  out[m_axi_wvalid] = Value(ways, u(s_axi_wvalid) ? ~st.w & all : 0);
  out[s_axi_wready] = Value(1, ((st.w | u(m_axi_wready)) & all) == all);
  out[m_axi_wdata] = in[s_axi_wdata];
  out[m_axi_wstrb] = in[s_axi_wstrb];
  out[m_axi_wlast] = Value(ways, u(s_axi_wlast) ? all : 0);

  const bool rAll = (u(m_axi_rvalid) & all) == all;
  out[s_axi_rvalid] = Value(1, rAll);
  out[m_axi_rready] = Value(ways, rAll && u(s_axi_rready) ? all : 0);
  out[s_axi_rdata] = in[m_axi_rdata];
  const uint64_t lasts = u(m_axi_rlast);
  out[s_axi_rlast] = Value(1, lasts & 1);
  out[s_axi_rid] = Value(c.idW, fld(in[m_axi_rid], 0, c.idW));
  out[s_axi_rresp] =
      Value(2, merged(c, in[m_axi_rresp], in[m_axi_rid], lasts != 0 && lasts != all));

  const bool bAll = (u(m_axi_bvalid) & all) == all;
  out[s_axi_bvalid] = Value(1, bAll);
  out[m_axi_bready] = Value(ways, bAll && u(s_axi_bready) ? all : 0);
  out[s_axi_bid] = Value(c.idW, fld(in[m_axi_bid], 0, c.idW));
  out[s_axi_bresp] = Value(2, merged(c, in[m_axi_bresp], in[m_axi_bid], false));
}

// The sent flags after the edge ending the cycle.
Sent nextSent(const Cfg& c, const Pins& in, const Pins& out, bool reset, const Sent& st) {
  if (reset) return {};
  auto u = [&](const Pins& p, int s) { return fld(p[size_t(s)], 0, std::min(64, c.width(s))); };
  auto step = [&](uint64_t sent, int sValid, int sReady, int mValid, int mReady) -> uint64_t {
    if (u(in, sValid) && u(out, sReady)) return 0;
    return sent | (u(out, mValid) & u(in, mReady));
  };
  Sent n;
  n.ar = step(st.ar, s_axi_arvalid, s_axi_arready, m_axi_arvalid, m_axi_arready);
  n.aw = step(st.aw, s_axi_awvalid, s_axi_awready, m_axi_awvalid, m_axi_awready);
  n.w = step(st.w, s_axi_wvalid, s_axi_wready, m_axi_wvalid, m_axi_wready);
  return n;
}

using Io = rtl::PinTable<Vtb, kSigs>;
#define IO_ENTRY(P, n) RTL_PIN_ENTRY(io, Vtb, P, n)

Io ioA() {
  Io io;
#define X(n, in, k, per) IO_ENTRY(a, n)
  SPLIT_SIGNALS(X)
#undef X
  return io;
}
Io ioB() {
  Io io;
#define X(n, in, k, per) IO_ENTRY(b, n)
  SPLIT_SIGNALS(X)
#undef X
  return io;
}
Io ioC() {
  Io io;
#define X(n, in, k, per) IO_ENTRY(c, n)
  SPLIT_SIGNALS(X)
#undef X
  return io;
}

// ---- Protocol mode: a legal wide master and legal way slaves ----
struct Req {
  uint64_t addr = 0;
  unsigned len = 0, size = 0, burst = 1, id = 0, cache = 0, prot = 0;
};
struct WBeat {
  Value data, strb;
  bool last = false;
};
struct Master {
  std::deque<Req> ar, aw; // to send; the front is presented while arOn / awOn
  std::deque<WBeat> w;    // W beats to send (may lead their AW)
  bool arOn = false, awOn = false, wOn = false;
  std::deque<Req> reading; // wide ARs taken, R beats to come
  unsigned rBeat = 0;      // of reading.front()
  std::deque<Req> writing; // wide AWs taken, B to come
  uint64_t ars = 0, aws = 0, ws = 0;
};
struct Way {
  double pAr = 1, pAw = 1, pW = 1, pR = 1, pB = 1; // READY probabilities, chance to answer
  std::deque<Req> reads;                           // accepted ARs, the front being answered
  unsigned rBeat = 0;
  bool rOn = false;
  Value rData;
  unsigned rResp = 0;
  std::deque<unsigned> awIds; // accepted AWs not answered: their IDs
  unsigned wDone = 0;         // bursts whose W beats are all in, not answered
  bool bOn = false;
  unsigned bResp = 0;
  uint64_t ars = 0, aws = 0, ws = 0;
};

struct Stats {
  long cycles = 0, arHs = 0, awHs = 0, wHs = 0, rHs = 0, bHs = 0;
  long arEarly = 0, awEarly = 0, wEarly = 0; // cycles with a sent flag set
  long disagree = 0, resets = 0, rBursts = 0;
};

struct Inst {
  Cfg c;
  Io io;
  Pins in{}, out{}, want{};
  Sent sent{};
  bool known = false; // the flags are known (after the first reset edge)
  Master master{};
  std::vector<Way> ways{};
  Stats stats{};

  void init() {
    for (int s = 0; s < kSigs; ++s)
      in[size_t(s)] = out[size_t(s)] = Value(c.width(s));
    ways.assign(size_t(c.ways), Way{});
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
    model(c, in, sent, want);
    for (int s = 0; s < kSigs; ++s)
      if (!kInfo[s].input && out[size_t(s)] != want[size_t(s)])
        rtl::fail(kTest, cycle,
                  who() +
                      rtl::mismatch(kInfo[s].name, out[size_t(s)].hex(), want[size_t(s)].hex()) +
                      " (sent flags ar " + std::to_string(sent.ar) + " aw " +
                      std::to_string(sent.aw) + " w " + std::to_string(sent.w) + ")");
  }

  // The edge: the sent flags, and counts of what happened in the cycle.
  void edge(bool reset) {
    ++stats.cycles;
    if (u(in, s_axi_arvalid) && u(out, s_axi_arready)) ++stats.arHs;
    if (u(in, s_axi_awvalid) && u(out, s_axi_awready)) ++stats.awHs;
    if (u(in, s_axi_wvalid) && u(out, s_axi_wready)) ++stats.wHs;
    if (u(out, s_axi_rvalid) && u(in, s_axi_rready)) ++stats.rHs;
    if (u(out, s_axi_bvalid) && u(in, s_axi_bready)) ++stats.bHs;
    if (sent.ar) ++stats.arEarly;
    if (sent.aw) ++stats.awEarly;
    if (sent.w) ++stats.wEarly;
    if (u(out, s_axi_rvalid) && u(out, s_axi_rresp) == 2) ++stats.disagree;
    sent = nextSent(c, in, out, reset, sent);
    known = known || reset;
  }
};

// Mode 1: every input random.
void randomPins(Inst& x, rtl::Rng& rng) {
  const Cfg& c = x.c;
  for (int s = 0; s < kSigs; ++s)
    if (kInfo[s].input) x.in[size_t(s)] = rng.value(c.width(s));
  auto someWays = [&](double pAll, double pEach) {
    if (rng.chance(pAll)) return Value(c.ways, c.all());
    Value v(c.ways);
    for (int w = 0; w < c.ways; ++w)
      setFld(v, w, 1, rng.chance(pEach));
    return v;
  };
  for (int s : {s_axi_arvalid, s_axi_awvalid, s_axi_wvalid, s_axi_rready, s_axi_bready})
    x.in[size_t(s)] = Value(1, rng.chance(0.7));
  for (int s : {m_axi_arready, m_axi_awready, m_axi_wready})
    x.in[size_t(s)] = someWays(0.25, 0.6);
  for (int s : {m_axi_rvalid, m_axi_bvalid})
    x.in[size_t(s)] = someWays(0.5, 0.8);
  // Mostly agreeing IDs and RLASTs, so that the worst-response rule shows too.
  for (int s : {m_axi_rid, m_axi_bid})
    if (rng.chance(0.8)) {
      const uint64_t id = rng.bits(c.idW);
      for (int w = 0; w < c.ways; ++w)
        setFld(x.in[size_t(s)], w * c.idW, c.idW, id);
    }
  if (rng.chance(0.8)) x.in[m_axi_rlast] = Value(c.ways, rng.chance(0.5) ? c.all() : 0);
}

// Mode 2, start of a cycle: what the master and the ways present. Junk on the payloads of
// channels not valid.
void protocolPins(Inst& x, rtl::Rng& rng, bool inReset) {
  const Cfg& c = x.c;
  Master& ms = x.master;
  for (int s = 0; s < kSigs; ++s)
    if (kInfo[s].input) x.in[size_t(s)] = rng.value(c.width(s));
  // The wide master: new requests now and then; AR / AW / W valid held until taken.
  auto newReq = [&] {
    Req r;
    const uint64_t wideBytes = uint64_t(c.portBytes()) * uint64_t(c.ways);
    r.addr = rng.bits(c.addrW);
    if (rng.chance(0.7)) r.addr &= ~(wideBytes - 1);
    r.len = rng.chance(0.6)   ? unsigned(rng.range(0, 3))
            : rng.chance(0.9) ? unsigned(rng.range(0, 15))
                              : unsigned(rng.range(0, 255));
    r.size = unsigned(rng.bits(3));
    r.burst = rng.chance(0.9) ? 1 : unsigned(rng.bits(2));
    r.id = unsigned(rng.bits(c.idW));
    r.cache = unsigned(rng.bits(4));
    r.prot = unsigned(rng.bits(3));
    return r;
  };
  if (!inReset) {
    if (ms.ar.size() < 2 && rng.chance(0.2)) ms.ar.push_back(newReq());
    if (ms.aw.size() < 2 && rng.chance(0.2)) {
      const Req r = newReq();
      ms.aw.push_back(r);
      for (unsigned k = 0; k <= r.len; ++k)
        ms.w.push_back({rng.value(c.portW * c.ways), rng.value(c.portW / 8 * c.ways), k == r.len});
    }
    if (!ms.arOn && !ms.ar.empty()) ms.arOn = rng.chance(0.5);
    if (!ms.awOn && !ms.aw.empty()) ms.awOn = rng.chance(0.5);
    if (!ms.wOn && !ms.w.empty()) ms.wOn = rng.chance(0.7);
  }
  for (int ch = 0; ch < 2; ++ch) {
    const int d = ch ? kAw : 0;
    const bool on = ch ? ms.awOn : ms.arOn;
    x.in[size_t(s_axi_arvalid + d)] = Value(1, on);
    if (!on) continue;
    const Req& r = ch ? ms.aw.front() : ms.ar.front();
    x.in[size_t(s_axi_araddr + d)] = Value(c.addrW, r.addr);
    x.in[size_t(s_axi_arlen + d)] = Value(8, r.len);
    x.in[size_t(s_axi_arsize + d)] = Value(3, r.size);
    x.in[size_t(s_axi_arburst + d)] = Value(2, r.burst);
    x.in[size_t(s_axi_arid + d)] = Value(c.idW, r.id);
    x.in[size_t(s_axi_arcache + d)] = Value(4, r.cache);
    x.in[size_t(s_axi_arprot + d)] = Value(3, r.prot);
  }
  x.in[s_axi_wvalid] = Value(1, ms.wOn);
  if (ms.wOn) {
    x.in[s_axi_wdata] = ms.w.front().data;
    x.in[s_axi_wstrb] = ms.w.front().strb;
    x.in[s_axi_wlast] = Value(1, ms.w.front().last);
  }
  x.in[s_axi_rready] = Value(1, rng.chance(0.75));
  x.in[s_axi_bready] = Value(1, rng.chance(0.75));
  // The ways.
  auto resp = [&] { return rng.chance(0.85) ? 0u : unsigned(rng.bits(2)); };
  for (int w = 0; w < c.ways; ++w) {
    Way& y = x.ways[size_t(w)];
    setFld(x.in[m_axi_arready], w, 1, rng.chance(y.pAr));
    setFld(x.in[m_axi_awready], w, 1, rng.chance(y.pAw));
    setFld(x.in[m_axi_wready], w, 1, rng.chance(y.pW));
    if (!inReset && !y.rOn && !y.reads.empty() && rng.chance(y.pR)) {
      y.rOn = true;
      y.rData = rng.value(c.portW);
      y.rResp = resp();
    }
    setFld(x.in[m_axi_rvalid], w, 1, y.rOn);
    if (y.rOn) {
      setSlice(x.in[m_axi_rdata], w * c.portW, y.rData);
      setFld(x.in[m_axi_rlast], w, 1, y.rBeat == y.reads.front().len);
      setFld(x.in[m_axi_rid], w * c.idW, c.idW, y.reads.front().id);
      setFld(x.in[m_axi_rresp], 2 * w, 2, y.rResp);
    }
    if (!inReset && !y.bOn && !y.awIds.empty() && y.wDone > 0 && rng.chance(y.pB)) {
      y.bOn = true;
      y.bResp = resp();
    }
    setFld(x.in[m_axi_bvalid], w, 1, y.bOn);
    if (y.bOn) {
      setFld(x.in[m_axi_bid], w * c.idW, c.idW, y.awIds.front());
      setFld(x.in[m_axi_bresp], 2 * w, 2, y.bResp);
    }
  }
}

// Mode 2, the cycle's handshakes against the scoreboard (outputs already checked against the
// model), then the sides' state after the edge.
void protocolCheck(Inst& x, long cycle) {
  const Cfg& c = x.c;
  Master& ms = x.master;
  const std::string who = x.who();
  auto u = [&](const Pins& p, int s) { return x.u(p, s); };
  const uint64_t wideBytes = uint64_t(c.portBytes()) * uint64_t(c.ways);

  // Address channels: every way takes the presented request once, mapped.
  for (int ch = 0; ch < 2; ++ch) {
    const int d = ch ? kAw : 0;
    const char* nm = ch ? "AW" : "AR";
    const bool on = ch ? ms.awOn : ms.arOn;
    const uint64_t wide = ch ? ms.aws : ms.ars;
    for (int w = 0; w < c.ways; ++w) {
      Way& y = x.ways[size_t(w)];
      uint64_t& n = ch ? y.aws : y.ars;
      if (!(bit(x.out[size_t(m_axi_arvalid + d)], w) && bit(x.in[size_t(m_axi_arready + d)], w)))
        continue;
      const std::string at = who + nm + " of way " + std::to_string(w) + ": ";
      if (!on) rtl::fail(kTest, cycle, at + "a handshake with no wide request");
      if (n != wide)
        rtl::fail(kTest, cycle, at + rtl::mismatch("requests taken before", long(n), long(wide)));
      const Req& r = ch ? ms.aw.front() : ms.ar.front();
      const uint64_t base = r.addr / wideBytes * wideBytes + uint64_t(w) * uint64_t(c.portBytes());
      if (c.wayOf(base) != w) rtl::fail(kTest, cycle, at + "mapping broken");
      Req got;
      got.addr = fld(x.out[size_t(m_axi_araddr + d)], w * c.addrW, c.addrW);
      got.len = unsigned(fld(x.out[size_t(m_axi_arlen + d)], w * 8, 8));
      got.size = unsigned(fld(x.out[size_t(m_axi_arsize + d)], w * 3, 3));
      got.burst = unsigned(fld(x.out[size_t(m_axi_arburst + d)], w * 2, 2));
      got.id = unsigned(fld(x.out[size_t(m_axi_arid + d)], w * c.idW, c.idW));
      got.cache = unsigned(fld(x.out[size_t(m_axi_arcache + d)], w * 4, 4));
      got.prot = unsigned(fld(x.out[size_t(m_axi_arprot + d)], w * 3, 3));
      if (got.addr != c.wayAddr(base) || got.len != r.len || got.size != unsigned(c.lpb()) ||
          got.burst != r.burst || got.id != r.id || got.cache != r.cache || got.prot != r.prot)
        rtl::fail(kTest, cycle,
                  at + "addr " + std::to_string(got.addr) + " len " + std::to_string(got.len) +
                      " size " + std::to_string(got.size) + " burst " + std::to_string(got.burst) +
                      " id " + std::to_string(got.id) + ", expected addr " +
                      std::to_string(c.wayAddr(base)) + " len " + std::to_string(r.len) + " size " +
                      std::to_string(c.lpb()) + " burst " + std::to_string(r.burst) + " id " +
                      std::to_string(r.id));
      ++n;
      if (ch)
        y.awIds.push_back(got.id);
      else
        y.reads.push_back(got);
    }
    if (on && u(x.out, s_axi_arready + d)) {
      for (int w = 0; w < c.ways; ++w) {
        const uint64_t n = ch ? x.ways[size_t(w)].aws : x.ways[size_t(w)].ars;
        if (n != wide + 1)
          rtl::fail(kTest, cycle,
                    who + nm + " taken while way " + std::to_string(w) + " has " +
                        std::to_string(n) + " of " + std::to_string(wide + 1));
      }
      if (ch) {
        ms.writing.push_back(ms.aw.front());
        ms.aw.pop_front();
        ms.awOn = false;
        ++ms.aws;
      } else {
        ms.reading.push_back(ms.ar.front());
        ms.ar.pop_front();
        ms.arOn = false;
        ++ms.ars;
      }
    }
  }

  // W: every way takes every beat once, its slice.
  for (int w = 0; w < c.ways; ++w) {
    Way& y = x.ways[size_t(w)];
    if (!(bit(x.out[m_axi_wvalid], w) && bit(x.in[m_axi_wready], w))) continue;
    const std::string at = who + "W beat of way " + std::to_string(w) + ": ";
    if (!ms.wOn) rtl::fail(kTest, cycle, at + "a handshake with no wide beat");
    if (y.ws != ms.ws)
      rtl::fail(kTest, cycle, at + rtl::mismatch("beats taken before", long(y.ws), long(ms.ws)));
    const WBeat& b = ms.w.front();
    const Value data = slice(x.out[m_axi_wdata], w * c.portW, c.portW);
    const Value strb = slice(x.out[m_axi_wstrb], w * c.portBytes(), c.portBytes());
    if (data != slice(b.data, w * c.portW, c.portW) ||
        strb != slice(b.strb, w * c.portBytes(), c.portBytes()) ||
        bit(x.out[m_axi_wlast], w) != b.last)
      rtl::fail(kTest, cycle, at + "data, strobes or WLAST not the wide beat's");
    ++y.ws;
    if (b.last) ++y.wDone;
  }
  if (ms.wOn && u(x.out, s_axi_wready)) {
    for (int w = 0; w < c.ways; ++w)
      if (x.ways[size_t(w)].ws != ms.ws + 1)
        rtl::fail(kTest, cycle, who + "W beat taken before way " + std::to_string(w) + " took it");
    ms.w.pop_front();
    ms.wOn = false;
    ++ms.ws;
  }

  // R: the wide beat is the ways' beats side by side, all taken together.
  const bool rHs = u(x.out, s_axi_rvalid) && u(x.in, s_axi_rready);
  unsigned worst = 0;
  for (int w = 0; w < c.ways; ++w) {
    const Way& y = x.ways[size_t(w)];
    const bool hs = bit(x.in[m_axi_rvalid], w) && bit(x.out[m_axi_rready], w);
    if (hs != rHs)
      rtl::fail(kTest, cycle, who + "R beat of way " + std::to_string(w) + " taken alone");
    if (!hs) continue;
    worst = std::max(worst, y.rResp);
    if (slice(x.out[s_axi_rdata], w * c.portW, c.portW) != y.rData)
      rtl::fail(kTest, cycle, who + "RDATA of way " + std::to_string(w) + " not in its place");
  }
  if (rHs) {
    if (ms.reading.empty()) rtl::fail(kTest, cycle, who + "an R beat with no read");
    const Req& r = ms.reading.front();
    const bool last = ms.rBeat == r.len;
    if (u(x.out, s_axi_rlast) != last || u(x.out, s_axi_rid) != r.id ||
        u(x.out, s_axi_rresp) != worst)
      rtl::fail(kTest, cycle,
                who + "R beat " + std::to_string(ms.rBeat) + ": RLAST " +
                    std::to_string(u(x.out, s_axi_rlast)) + " RID " +
                    std::to_string(u(x.out, s_axi_rid)) + " RRESP " +
                    std::to_string(u(x.out, s_axi_rresp)) + ", expected " + std::to_string(last) +
                    ", " + std::to_string(r.id) + ", " + std::to_string(worst));
    if (last) {
      ms.reading.pop_front();
      ms.rBeat = 0;
      ++x.stats.rBursts;
    } else {
      ++ms.rBeat;
    }
    for (Way& y : x.ways) {
      y.rOn = false;
      if (y.rBeat == y.reads.front().len) {
        y.reads.pop_front();
        y.rBeat = 0;
      } else {
        ++y.rBeat;
      }
    }
  }

  // B: one per wide AW, all ways together.
  const bool bHs = u(x.out, s_axi_bvalid) && u(x.in, s_axi_bready);
  worst = 0;
  for (int w = 0; w < c.ways; ++w) {
    const bool hs = bit(x.in[m_axi_bvalid], w) && bit(x.out[m_axi_bready], w);
    if (hs != bHs) rtl::fail(kTest, cycle, who + "B of way " + std::to_string(w) + " taken alone");
    if (hs) worst = std::max(worst, x.ways[size_t(w)].bResp);
  }
  if (bHs) {
    if (ms.writing.empty()) rtl::fail(kTest, cycle, who + "a B with no write");
    if (u(x.out, s_axi_bid) != ms.writing.front().id || u(x.out, s_axi_bresp) != worst)
      rtl::fail(kTest, cycle,
                who + "B: BID " + std::to_string(u(x.out, s_axi_bid)) + " BRESP " +
                    std::to_string(u(x.out, s_axi_bresp)) + ", expected " +
                    std::to_string(ms.writing.front().id) + ", " + std::to_string(worst));
    ms.writing.pop_front();
    for (Way& y : x.ways) {
      y.bOn = false;
      y.awIds.pop_front();
      --y.wDone;
    }
  }
}

// Both sides drop everything at a reset edge.
void protocolReset(Inst& x) {
  x.master = Master{};
  for (Way& y : x.ways) {
    Way fresh;
    fresh.pAr = y.pAr;
    fresh.pAw = y.pAw;
    fresh.pW = y.pW;
    fresh.pR = y.pR;
    fresh.pB = y.pB;
    y = fresh;
  }
}

struct Bench {
  Vtb& m;
  std::vector<Inst>& insts;
  rtl::Rng& rng;
  long cycle = 0;

  // One cycle: inputs, the checks with the clock low, READYs moved at random (no VALID may
  // follow), the edge.
  void step(bool reset, bool protocol, bool inReset) {
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
    const int readies[] = {m_axi_arready, m_axi_awready, m_axi_wready, s_axi_rready, s_axi_bready};
    const int valids[] = {m_axi_arvalid, m_axi_awvalid, m_axi_wvalid, s_axi_rvalid, s_axi_bvalid};
    for (Inst& x : insts)
      for (int s : readies)
        x.io.set[size_t(s)](m, rng.value(x.c.width(s)));
    m.eval();
    for (Inst& x : insts) {
      for (int s : valids)
        if (x.known && x.io.get[size_t(s)](m, x.c.width(s)) != x.out[size_t(s)])
          rtl::fail(kTest, cycle, x.who() + kInfo[s].name + " moved with a READY");
      x.drive(m);
    }
    m.eval();
    if (protocol)
      for (Inst& x : insts)
        if (x.known) protocolCheck(x, cycle);
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

} // namespace

int main(int argc, char** argv) {
  auto ctx = rtl::makeContext(argc, argv);
  Vtb m(ctx.get());
  rtl::Rng rng(7311);
  std::vector<Inst> insts;
  insts.push_back({{"a (2 x 32)", 2, 32, 32, 2}, ioA()});
  insts.push_back({{"b (4 x 1024)", 4, 1024, 40, 3}, ioB()});
  insts.push_back({{"c (32 x 64)", 32, 64, 13, 1}, ioC()});
  for (Inst& x : insts)
    x.init();
  Bench bench{m, insts, rng};

  // Reset first (the flags start random: no check before the first edge).
  for (int i = 0; i < 2; ++i)
    bench.step(true, true, i > 0);

  // 1. Random pins, aresetn low now and then.
  for (int i = 0; i < 6000; ++i)
    bench.step(rng.chance(0.03), false, false);
  for (Inst& x : insts) {
    const Stats& s = x.stats;
    std::printf("%s: random pins, %s: handshakes AR %ld AW %ld W %ld R %ld B %ld, cycles with a "
                "way ahead: AR %ld AW %ld W %ld, %ld R beats with SLVERR, %ld resets\n",
                kTest, x.c.name, s.arHs, s.awHs, s.wHs, s.rHs, s.bHs, s.arEarly, s.awEarly,
                s.wEarly, s.disagree, s.resets);
    if (s.arHs < 100 || s.awHs < 100 || s.wHs < 100 || s.rHs < 100 || s.bHs < 100 ||
        s.arEarly < 100 || s.awEarly < 100 || s.wEarly < 100 || s.disagree < 10 || s.resets < 10)
      rtl::fail(kTest, bench.cycle, x.who() + "random pins: too few events");
  }
  bench.step(true, true, true); // a clean start for the protocol phases (no VALID)
  for (Inst& x : insts)
    x.stats = Stats{};

  // 2. Protocol: ways with their own READY probabilities and delays, resets mid-transaction.
  struct Phase {
    const char* name;
    double lo, hi; // range of the ways' probabilities
  };
  const Phase phases[] = {
      {"ways always ready", 1.0, 1.0}, {"ways at random", 0.3, 1.0}, {"slow ways", 0.05, 0.5}};
  long wideBeats = 0;
  for (const Phase& p : phases) {
    for (Inst& x : insts)
      for (Way& y : x.ways) {
        auto pr = [&] { return p.lo + (p.hi - p.lo) * double(rng.range(0, 1000)) / 1000.0; };
        y.pAr = pr();
        y.pAw = pr();
        y.pW = pr();
        y.pR = pr();
        y.pB = pr();
      }
    int resetLeft = 0;
    for (int i = 0; i < 8000; ++i) {
      if (resetLeft == 0 && rng.chance(1.0 / 700)) resetLeft = rng.range(1, 3);
      const bool reset = resetLeft > 0;
      // The first reset cycle is a normal one (the sides see aresetn at the edge); after it,
      // the VALIDs stay low.
      const bool inReset = reset && m.aresetn == 0;
      bench.step(reset, true, inReset);
      if (resetLeft > 0) --resetLeft;
    }
    for (Inst& x : insts) {
      const Stats& s = x.stats;
      std::printf("%s: %s, %s: %ld cycles, handshakes AR %ld AW %ld W %ld R %ld B %ld, %ld read "
                  "bursts, cycles with a way ahead: AR %ld AW %ld W %ld, %ld resets\n",
                  kTest, p.name, x.c.name, s.cycles, s.arHs, s.awHs, s.wHs, s.rHs, s.bHs, s.rBursts,
                  s.arEarly, s.awEarly, s.wEarly, s.resets);
      if (s.arHs < 20 || s.awHs < 20 || s.wHs < 200 || s.rHs < 200 || s.bHs < 10 || s.rBursts < 10)
        rtl::fail(kTest, bench.cycle, x.who() + p.name + ": too few handshakes");
      if (p.lo < 1 && (s.arEarly == 0 || s.awEarly == 0 || s.wEarly == 0))
        rtl::fail(kTest, bench.cycle, x.who() + p.name + ": no way ever ahead of the others");
      if (p.lo == 1 && (s.arEarly || s.awEarly || s.wEarly))
        rtl::fail(kTest, bench.cycle, x.who() + p.name + ": a way ahead with every way ready");
      if (s.resets == 0) rtl::fail(kTest, bench.cycle, x.who() + p.name + ": no reset");
      wideBeats += s.rHs + s.wHs;
      x.stats = Stats{};
    }
  }
  std::printf("%s: OK (%ld cycles, %ld wide R and W beats in the protocol phases)\n", kTest,
              bench.cycle, wideBeats);
  return 0;
}
