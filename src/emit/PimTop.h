#pragma once
// The Verilog of a processing-in-memory stream design above its unit core (private to
// src/emit): `<name>_unit` (the core on a gated clock, its stream port, its banks' reader) and
// `<name>_pim` (the units side by side, one host port, one command port per unit's banks).

#include "rubick/arch/Plan.h"

#include <cstdint>
#include <string>

namespace rubick::emit::detail {

/// What the unit and top writers need besides the plan: the units, their banks (timings in
/// unit cycles) and the stream.
struct PimShape {
  int64_t units = 1;
  int64_t banks = 1;    // per unit
  int64_t colBytes = 1; // a column, the bank's bytes a unit cycle
  int64_t rowCols = 1;  // columns a row
  int64_t rows = 1;     // rows a bank
  int64_t tRCD = 0, tRP = 0, tRAS = 0, tCL = 0;
  int64_t columns = 0;     // the stream's columns per unit
  int64_t streamPorts = 0; // core banks reading the stream
  int64_t wordBits = 8;    // bits of a streamed word
};

/// Widths of a unit's command port fields.
int64_t bankSelectBits(const PimShape& s);
int64_t rowBits(const PimShape& s);
int64_t columnBits(const PimShape& s);
int64_t unitBits(const PimShape& s);

std::string pimUnitModule(const arch::Plan& plan, const PimShape& s);
std::string pimTopModule(const arch::Plan& plan, const PimShape& s);

} // namespace rubick::emit::detail
