#include "VerilogText.h"

namespace rubick::emit::detail {

std::string slit(int64_t v, int64_t width) {
  uint64_t mag = v < 0 ? uint64_t(0) - uint64_t(v) : uint64_t(v);
  return std::string(v < 0 ? "-" : "") + std::to_string(width) + "'sd" + std::to_string(mag);
}

std::string ulit(int64_t v, int64_t width) {
  return std::to_string(width) + "'d" + std::to_string(v);
}

std::string hexBits(int64_t v, int64_t width) {
  uint64_t u = uint64_t(v);
  if (width < 64) u &= (uint64_t(1) << width) - 1;
  static const char* digits = "0123456789abcdef";
  std::string h;
  do {
    h.insert(h.begin(), digits[u & 15]);
    u >>= 4;
  } while (u);
  return std::to_string(width) + "'h" + h;
}

std::string range(int64_t w) {
  return "[" + std::to_string(w - 1) + ":0]";
}

std::string concat(const std::vector<std::string>& items) {
  if (items.size() == 1) return items[0];
  std::string s = "{";
  for (size_t i = 0; i < items.size(); ++i)
    s += (i ? ", " : "") + items[i];
  return s + "}";
}

namespace {

int64_t minOf(int64_t w) {
  return w >= 64 ? INT64_MIN : -(int64_t(1) << (w - 1));
}
int64_t maxOf(int64_t w) {
  return w >= 64 ? INT64_MAX : (int64_t(1) << (w - 1)) - 1;
}

} // namespace

std::string foldIdentity(dataflow::Fold fold, int64_t width) {
  switch (fold) {
  case dataflow::Fold::Max:
    return slit(minOf(width), width);
  case dataflow::Fold::Min:
    return slit(maxOf(width), width);
  default:
    return slit(0, width);
  }
}

std::string foldCombine(dataflow::Fold fold, const std::string& a, const std::string& b) {
  if (fold == dataflow::Fold::Sum) return a + " + " + b;
  const std::string sa = "$signed(" + a + ")", sb = "$signed(" + b + ")";
  return "(" + sa + (fold == dataflow::Fold::Max ? " > " : " < ") + sb + " ? " + sa + " : " + sb +
         ")";
}

std::string foldParam(dataflow::Fold fold) {
  return fold == dataflow::Fold::Max ? ", .OP(1)" : fold == dataflow::Fold::Min ? ", .OP(2)" : "";
}

int64_t foldInvalid(dataflow::Fold fold, int64_t pw, int64_t ow) {
  if (fold == dataflow::Fold::Sum) return 0;
  const int64_t w = pw >= ow ? ow : pw;
  return fold == dataflow::Fold::Max ? minOf(w) : maxOf(w);
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
