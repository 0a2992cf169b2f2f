// SPDX-License-Identifier: Apache-2.0
#pragma once
// Design and pipeline identifiers: 16 hex digits of a 64-bit hash of everything that changes
// the emitted hardware, so that two designs with different RTL never share an ID (and so never
// share module names). Within one run IDs are checked to be unique: a collision is an error.

#include "rubick/dataflow/Dataflow.h"
#include "rubick/dataflow/StatementView.h"
#include "rubick/support/Diagnostic.h"

#include <array>
#include <cstdint>
#include <deque>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace rubick::dse {

/// Hex digits of every ID.
inline constexpr size_t kIdDigits = 16;

/// Stable identifier of a design: a hash of its statement (text, tensor types and shapes, loop
/// extents, accesses), the element widths the hardware stores (`elementBits`, per access, the
/// write first: the program's types or --dtype), the array shape and the dataflow.
/// `extra` describes whatever else shapes the hardware (the buffer tiling and memory system).
std::string designId(const dataflow::StatementView& v, const dataflow::Dataflow& d,
                     const std::vector<int64_t>& elementBits, const std::string& extra = "");

/// kIdDigits hex digits of a 64-bit hash of `text` (FNV-1a, then a final mix so that every
/// input byte moves every output bit): the form of every rubick ID.
std::string hashId(const std::string& text);

/// Whether `text` has the form of an ID (kIdDigits lower-case hex digits).
bool looksLikeId(const std::string& text);

/// The 64-bit value of an ID (looksLikeId) and back.
uint64_t idValue(const std::string& id);
std::string idText(uint64_t value);

/// Test hook: keep only the low `bits` bits of every hash (1..64; 64 restores the default), so
/// that a test can force collisions. Not for use while IDs are being computed on other threads.
void setIdBitsForTesting(int bits);

/// Throws rubick::Error when two of the `n` IDs are equal, naming both with `describe(i)`.
/// `kind` is "design" or "attention pipeline".
void requireUniqueIds(size_t n, const std::function<const std::string&(size_t)>& id,
                      const std::function<std::string(size_t)>& describe, const std::string& kind);

/// The error requireUniqueIds throws: two designs (`kind`), described by `a` and `b`, share `id`.
Error duplicateIdError(const std::string& kind, const std::string& id, const std::string& a,
                       const std::string& b);

/// Every ID of a run, 8 bytes each, for checking uniqueness over tens of millions of designs
/// (the --csv rows). The IDs are kept in 256 buckets by their top byte, each in blocks
/// (std::deque), so memory never doubles while growing and only one bucket is copied at a time
/// when sorted.
class IdSet {
public:
  void add(uint64_t id) { buckets_[id >> 56].push_back(id); }
  size_t size() const;
  /// The smallest ID added more than once, if any. Empties the set as it goes.
  std::optional<uint64_t> takeFirstDuplicate();

private:
  std::array<std::deque<uint64_t>, 256> buckets_;
};

} // namespace rubick::dse
