// SPDX-License-Identifier: Apache-2.0
#pragma once
// Access entries: how a buffer port feeds (or drains) the PE array (theory §2.2).
//
// An entry is a map Omega from a PE space-time stamp (x, y | t1) to an entry stamp E[s0, s1, s2]:
// s0, s1 name the port, s2 is the time at which the port emits. Its null space is the tensor's
// reuse space; the 14 entries are the reuse spaces spanned by the basic direction vectors:
//
//   X-systolic        E[0, y, t1 - x]   (1,0|1)           one port per row y, data moves +x
//   Y-multicast       E[x, 0, t1]       (0,1|0)           one port per column, wire fans out
//   stationary        E[x, y, 0]        (0,0|1)           one value per PE for the whole t1
//   ...
//
// An oriented entry adds per-axis mirroring (x -> P-1-x): data may move towards -x, which is the
// same hardware with the ports on the other side of the array.

#include "rubick/linalg/Matrix.h"

#include <array>
#include <optional>
#include <string>
#include <vector>

namespace rubick::ir {

using Vec3 = std::array<int64_t, 3>; // (x, y, t1)

enum class EntryKind : uint8_t {
  XSystolic = 1,
  YSystolic,
  DiagSystolic,
  Stationary,
  XMulticast,
  YMulticast,
  DiagMulticast,
  XYMulticast,
  XSystolicYMulticast,
  YSystolicXMulticast,
  XMulticastStationary,
  YMulticastStationary,
  DiagMulticastStationary,
  XYMulticastStationary,
};
inline constexpr int kEntryCount = 14;

/// A step from a PE to another, (dx, dy); (0, 0) is no step.
struct PeStep {
  int64_t dx = 0, dy = 0;
  bool none() const { return dx == 0 && dy == 0; }
  friend bool operator==(const PeStep&, const PeStep&) = default;
};

/// One row of the entry table. `vectors` and `omega` are the theory's definition; the fields
/// after them are derived from them once, when the table is built, so the table cannot
/// contradict itself, and the schedule, cost model, port windows and plan read them instead of
/// switching on the kind. Directions are in the entry's own (unmirrored) frame.
struct EntryInfo {
  EntryKind kind = EntryKind::Stationary;
  int number = 0;            // 1..14 as in theory §2.2
  const char* name = "";     // "X-systolic"
  std::vector<Vec3> vectors; // canonical reuse basis
  std::array<Vec3, 3> omega; // linear forms over (x, y, t1) for E[s0, s1, s2]

  /// A value stays in its PE from one cycle to the next: (0,0|1) is a reuse vector.
  bool held = false;
  /// The unit step a value takes from PE to PE per cycle: the reuse vector (dx,dy|1) with a
  /// nonzero step; none for held and multicast-only entries.
  PeStep systolic;
  /// The directions one port value reaches in the same cycle: the reuse vectors (dx,dy|0).
  std::vector<PeStep> multicast;
  /// Some reuse vector moves along x and y at once.
  bool diagonal = false;
  /// Omega's slots that are not identically zero: port coordinates s0/s1, then the time s2.
  std::vector<int> slots;

  /// PE-to-PE links on a P x Q array: one per PE whose `systolic` neighbour lies inside.
  int64_t links(int64_t p, int64_t q) const;
  /// Distinct port positions (Omega's s0, s1 over the array).
  int64_t ports(int64_t p, int64_t q) const;
  /// PEs one port value reaches in one cycle: the longest run along `multicast`.
  int64_t fanout(int64_t p, int64_t q) const;
};

const EntryInfo& info(EntryKind k);
const std::vector<EntryInfo>& allEntries();
/// Accepts the name ("X-systolic", case-insensitive), or the number ("1".."14").
std::optional<EntryKind> parseEntryKind(const std::string& text);
/// The 11 entries without diagonal vectors (a common FPGA subset).
bool isDiagonal(EntryKind k);

/// Ports (distinct entry positions) and fan-out (PEs one port value reaches in one cycle) on a
/// P x Q array, as in theory §2.2. Stationary counts P*Q logical ports.
int64_t ports(EntryKind k, int64_t p, int64_t q);
int64_t fanout(EntryKind k, int64_t p, int64_t q);

struct OrientedEntry {
  EntryKind kind = EntryKind::Stationary;
  bool mirrorX = false; // the entry sees x' = P-1-x
  bool mirrorY = false;
  friend auto operator<=>(const OrientedEntry&, const OrientedEntry&) = default;
};
std::string toString(const OrientedEntry& e);

/// Which of the three slots s0, s1, s2 of E are not identically zero; the entry's coordinates
/// are those slots in order (port coordinates s0/s1, then the entry time s2).
const std::vector<int>& activeSlots(EntryKind k);

/// Linear part of Omega for the oriented entry: rows = active slots, columns = (x, y, t1).
Mat omegaLinear(const OrientedEntry& e);
/// Constant part of Omega (from mirroring) for a P x Q array, one value per active slot.
IntVec omegaConstant(const OrientedEntry& e, int64_t p, int64_t q);

/// Omega as text for a P x Q array with `outerCount` outer stamps, e.g.
/// "(x, y | t1, t2) -> E(0, y | t1 - x, t2)"; inactive slots print as 0, a mirrored entry with
/// its constant.
std::string omegaText(const OrientedEntry& e, int64_t p, int64_t q, size_t outerCount);

/// The oriented entries whose reuse space has dimension `dim` (each kind with every mirroring
/// that changes it).
std::vector<OrientedEntry> orientedEntries(int dim);

/// The entry seen through a mirrored array (x -> P-1-x when `fx`, y likewise), canonical flags.
/// Reversing time is mirroring both: (dx, dy | dt) -> (dx, dy | -dt) is the line (-dx, -dy | dt).
OrientedEntry mirrored(const OrientedEntry& e, bool fx, bool fy);

/// Reuse space (as an integer basis) of an oriented entry.
std::vector<IntVec> reuseBasis(const OrientedEntry& e);

/// Canonical classification (theory §2.1): which oriented entry has exactly this reuse space.
/// On failure `reason` says why (no reuse, or a space no entry realises in any orientation).
std::optional<OrientedEntry> classifyReuse(const std::vector<IntVec>& basis, std::string* reason);

} // namespace rubick::ir
