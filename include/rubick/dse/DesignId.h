#pragma once
// Design and pipeline identifiers: 16 hex digits of a 64-bit hash of everything that changes
// the emitted hardware, so that two designs with different RTL never share an ID (and so never
// share module names). Within one run IDs are checked to be unique: a collision is an error.

#include "rubick/dataflow/Dataflow.h"
#include "rubick/dataflow/StatementView.h"

#include <cstdint>
#include <functional>
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

/// Test hook: keep only the low `bits` bits of every hash (1..64; 64 restores the default), so
/// that a test can force collisions. Not for use while IDs are being computed on other threads.
void setIdBitsForTesting(int bits);

/// Throws rubick::Error when two of the `n` IDs are equal, naming both with `describe(i)`.
/// `kind` is "design" or "attention pipeline".
void requireUniqueIds(size_t n, const std::function<const std::string&(size_t)>& id,
                      const std::function<std::string(size_t)>& describe, const std::string& kind);

} // namespace rubick::dse
