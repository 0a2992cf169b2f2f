#include "VerilogText.h"

namespace rubick::emit::detail {

std::string slit(int64_t v, int64_t width) {
  uint64_t mag = v < 0 ? uint64_t(0) - uint64_t(v) : uint64_t(v);
  return std::string(v < 0 ? "-" : "") + std::to_string(width) + "'sd" + std::to_string(mag);
}

std::string ulit(int64_t v, int64_t width) {
  return std::to_string(width) + "'d" + std::to_string(v);
}

std::string range(int64_t w) { return "[" + std::to_string(w - 1) + ":0]"; }

std::string concat(const std::vector<std::string>& items) {
  if (items.size() == 1) return items[0];
  std::string s = "{";
  for (size_t i = 0; i < items.size(); ++i)
    s += (i ? ", " : "") + items[i];
  return s + "}";
}

std::string Unused::declaration() const {
  if (items_.empty()) return "";
  std::string s = "  // Bits that are deliberately unused (named *unused* for the linter).\n";
  s += "  wire unused_ok = &{1'b0";
  for (const std::string& i : items_)
    s += ", " + i;
  return s + "};\n";
}

} // namespace rubick::emit::detail
