#pragma once
// Small helpers for writing Verilog text (private to src/emit).

#include <cstdint>
#include <string>
#include <vector>

namespace rubick::emit::detail {

/// A signed sized literal: "12'sd5", "-12'sd5".
std::string slit(int64_t v, int64_t width);
/// An unsigned sized literal: "8'd5".
std::string ulit(int64_t v, int64_t width);
/// A range "[w-1:0]", empty for w == 1 when `scalarOk`.
std::string range(int64_t w);

/// "{a, b, c}", or just "a" for one item: Yosys 0.23 asserts on a one-element concatenation
/// of a signed wire in a port connection.
std::string concat(const std::vector<std::string>& items);

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
