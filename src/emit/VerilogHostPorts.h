// SPDX-License-Identifier: Apache-2.0
#pragma once
// The host ports of a design without a memory system: the host writes input banks and reads
// output banks while the controller is idle (private to src/emit).

#include "rubick/arch/Plan.h"

#include <cstdint>
#include <ostream>
#include <string>
#include <utility>
#include <vector>

namespace rubick::emit::detail {

/// A design's host port widths (the widest tensor select, bank, address and word).
struct HostPort {
  int64_t tensorBits = 1, bankBits = 1, addressBits = 1, dataBits = 1;
};
HostPort hostPort(const arch::Plan& plan);

struct LaneWidths {
  int64_t ts, bs, ha, hd, aw, w; // host port fields; the bank's address and data widths
};

/// A bank's share of a W-lane host port: the lanes that address it this cycle (the schedule
/// guarantees at most one, or several reading one address) and the address and data of the
/// first of them. Replaces the one-lane strings the bank instance uses.
void laneSelect(std::ostream& os, const std::string& bank, int64_t ti, int64_t p, int64_t lanes,
                const LaneWidths& x, std::string& hostW, std::string& hostR, std::string& hostWaddr,
                std::string& hostRaddr, std::string& hostWdata);

/// W-lane host reads: each lane gets the bank it selected in the previous cycle.
void laneReads(std::ostream& os, const std::vector<std::pair<std::string, int64_t>>& sources,
               const std::vector<std::pair<int, int>>& ids, int64_t lanes, int64_t ts, int64_t bs,
               int64_t hd);

/// One-lane host reads: the bank's data arrives the cycle after the request. `sources` are the
/// banks' (rdata wire, width), `ids` their (tensor, bank).
void hostReads(std::ostream& os, const std::vector<std::pair<std::string, int64_t>>& sources,
               const std::vector<std::pair<int, int>>& ids, int64_t ts, int64_t bs, int64_t hd);

} // namespace rubick::emit::detail
