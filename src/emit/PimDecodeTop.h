// SPDX-License-Identifier: Apache-2.0
#pragma once
// The Verilog of an attention decode on PIM units (private to src/emit): `<name>_decode`, the
// scores' and the values' PIM tops sharing every unit's banks, and a sequencer with a one-lane
// vector unit doing the softmax between them (include/rubick/emit/PimDecode.h).

#include "PimTop.h"

#include "rubick/dataflow/StatementView.h"

#include <stdexcept>

#include <cstdint>
#include <string>
#include <vector>

namespace rubick::emit::detail {

/// The access of `tensor` in `v`, which the attention form guarantees (logic_error if not).
inline size_t decodeAccess(const dataflow::StatementView& v, int tensor) {
  const size_t a = v.accessIndex(tensor);
  if (a == v.accesses.size()) throw std::logic_error("pim decode: tensor not accessed");
  return a;
}

/// A word of a unit's on-chip bank, as a PIM top's host port names it.
struct UnitPlace {
  int64_t unit = 0, bank = 0, addr = 0;
};

/// One write of an exponential E(j) into the values' units: from score j's place, to every
/// unit (`all`) or one; `first`: the write that adds E(j) into the row sum.
struct ExpWrite {
  UnitPlace score, to;
  bool all = false, first = false;
};

/// One part of U(d) in a values unit (several when the key loop is spread over units).
struct ValuePart {
  UnitPlace at;
  int64_t d = 0;
};

/// A PIM top's host port widths and the tensor selects the decode uses.
struct SubTop {
  std::string module;
  int64_t tensorBits = 1, bankBits = 1, addressBits = 1, dataBits = 1, rowBits = 1;
  int64_t readSelect = 0;   // the on-chip output the sequencer reads (scores or U)
  int64_t writeSelect = -1; // the input the decode writes (Q from the host, E): -1 none
  int64_t readBits = 32;    // that output's element bits
};

struct DecodeTop {
  std::string name; // the module is <name>_decode
  int64_t units = 1, unitBits = 1;
  // The top's host port (tensor selects: O 0, Q 1, K 2, V 3) and command port widths.
  int64_t tensorBits = 2, bankBits = 1, addressBits = 1, dataBits = 8;
  int64_t bankSelectBits = 1, rowBits = 1, columnBits = 1, colBytes = 1;
  SubTop scores, values;
  // One block's (every block's are the same, in its own rows).
  std::vector<UnitPlace> scorePlaces; // per key j of the block
  std::vector<ExpWrite> expWrites;
  std::vector<ValuePart> valueParts;
  int64_t blocks = 1, d = 1;
  int64_t scoreRows = 0, valueRows = 0; // rows of each bank a block's K and V take
  int64_t tRP = 0;
  int expFrac = 12;
  int64_t outBits = 8, accBits = 48;
};

std::string decodeTopModule(const DecodeTop& t);

/// The decode top's ports (a PIM top's).
PimTopPorts decodePorts(const DecodeTop& t);

/// The decode's run, start to done, given one run of each design's units: the sequencer's
/// phases as decodeTopModule builds them (each one word a cycle), exactly.
struct DecodePhases {
  int64_t scores = 0, max = 0, exp = 0, values = 0, accumulate = 0, normalise = 0, total = 0;
};
/// Summed over the blocks: scores and values each from the sequencer's start of the units to
/// its seeing done; max the row maximum; exp alpha and the exponentials; accumulate the rescale
/// and the adding of U; normalise the reciprocal and O.
DecodePhases decodeCycles(const DecodeTop& t, int64_t scoreRun, int64_t valueRun);

} // namespace rubick::emit::detail
