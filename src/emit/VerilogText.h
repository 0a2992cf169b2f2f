#pragma once
// Small helpers for writing Verilog text (private to src/emit).

#include "rubick/dataflow/StatementView.h"

#include <cstdint>
#include <string>
#include <vector>

namespace rubick::emit::detail {

/// A signed sized literal: "12'sd5", "-12'sd5".
std::string slit(int64_t v, int64_t width);
/// An unsigned sized literal: "8'd5".
std::string ulit(int64_t v, int64_t width);
/// The low `width` bits of `v` (two's complement) as a hex literal: "8'h80".
std::string hexBits(int64_t v, int64_t width);
/// A range "[w-1:0]", empty for w == 1 when `scalarOk`.
std::string range(int64_t w);

/// "{a, b, c}", or just "a" for one item: Yosys 0.23 asserts on a one-element concatenation
/// of a signed wire in a port connection.
std::string concat(const std::vector<std::string>& items);

/// The identity of `fold` at `width` bits (signed): 0, the minimum or the maximum.
std::string foldIdentity(dataflow::Fold fold, int64_t width);
/// Signed `a` and `b` meeting under `fold`: their sum, the larger or the smaller.
std::string foldCombine(dataflow::Fold fold, const std::string& a, const std::string& b);
/// The OP parameter of rubick_accum, rubick_psum and rubick_add_tree for `fold` (", .OP(1)"),
/// empty for sums (the templates' default).
std::string foldParam(dataflow::Fold fold);
/// What a PE whose iteration is invalid contributes, as `pw` bits (rubick_mul's INVALID): 0 for
/// sums; for a maximum (minimum) at most (at least) any value once brought to the output's
/// `ow` bits: the output's minimum (maximum) when pw >= ow, else pw bits' own.
int64_t foldInvalid(dataflow::Fold fold, int64_t pw, int64_t ow);

/// Collects bits that are intentionally unused, and prints them as one `unused_ok` wire, which
/// Verilator's default --unused-regexp exempts from UNUSED warnings.
class Unused {
public:
  void add(const std::string& expr) { items_.push_back(expr); }
  std::string declaration() const;

private:
  std::vector<std::string> items_;
};

} // namespace rubick::emit::detail
