#include "rubick/frontend/SizeDirective.h"

#include "rubick/frontend/Sema.h"

#include <algorithm>
#include <cctype>
#include <limits>
#include <set>

namespace rubick::tc {
namespace {

[[noreturn]] void fail(const std::string& origin, const std::shared_ptr<const SourceFile>& file,
                       SourceLoc loc, uint32_t len, std::string msg) {
  if (!file) throw Error(origin, std::move(msg));
  Diagnostic d;
  d.loc = loc;
  d.length = len == 0 ? 1 : len;
  d.message = std::move(msg);
  throw Error(file, std::move(d));
}

bool isIdentStart(char c) {
  return std::isalpha(static_cast<unsigned char>(c)) || c == '_';
}
bool isIdentChar(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '_';
}

} // namespace

std::vector<SizeDefault> parseSizeList(std::string_view text, const std::string& origin,
                                       const std::shared_ptr<const SourceFile>& file,
                                       SourceLoc loc) {
  std::vector<SizeDefault> out;
  std::set<std::string> seen;
  size_t i = 0;
  auto at = [&](size_t p) { return SourceLoc{loc.line, loc.col + static_cast<uint32_t>(p)}; };
  auto skipSeparators = [&] {
    while (i < text.size() && (text[i] == ' ' || text[i] == '\t' || text[i] == ','))
      ++i;
  };
  skipSeparators();
  if (i >= text.size()) fail(origin, file, at(i), 1, "expected at least one size, such as M=64");
  while (i < text.size()) {
    size_t start = i;
    if (!isIdentStart(text[i]))
      fail(origin, file, at(i), 1,
           "expected a size name (such as M=64), found '" + std::string(1, text[i]) + "'");
    while (i < text.size() && isIdentChar(text[i]))
      ++i;
    std::string name(text.substr(start, i - start));
    while (i < text.size() && text[i] == ' ')
      ++i;
    if (i >= text.size() || text[i] != '=')
      fail(origin, file, at(start), static_cast<uint32_t>(name.size()),
           "expected '=' and a value after size '" + name + "'");
    ++i;
    while (i < text.size() && text[i] == ' ')
      ++i;
    size_t vstart = i;
    bool negative = i < text.size() && text[i] == '-';
    if (negative) ++i;
    size_t dstart = i;
    while (i < text.size() && std::isdigit(static_cast<unsigned char>(text[i])))
      ++i;
    if (i == dstart || (i < text.size() && isIdentChar(text[i]))) {
      size_t end = i;
      while (end < text.size() && text[end] != ',' && text[end] != ' ')
        ++end;
      fail(origin, file, at(vstart), static_cast<uint32_t>(end - vstart),
           "size '" + name + "' needs an integer value, found '" +
               std::string(text.substr(vstart, end - vstart)) + "'");
    }
    std::string digits(text.substr(dstart, i - dstart));
    std::string spelled(text.substr(vstart, i - vstart));
    uint32_t vlen = static_cast<uint32_t>(i - vstart);
    // Leading zeros aside, more than 10 digits is beyond kMaxSize; stoll must not overflow.
    size_t firstNonZero = std::min(digits.find_first_not_of('0'), digits.size());
    bool huge = digits.size() - firstNonZero > 10;
    int64_t value = huge ? 0 : std::stoll(digits) * (negative ? -1 : 1);
    if (!negative && (huge || value > kMaxSize))
      fail(origin, file, at(vstart), vlen,
           "size " + name + "=" + spelled + " is too large (limit " + std::to_string(kMaxSize) +
               ")");
    if (value <= 0)
      fail(origin, file, at(vstart), vlen, "size " + name + "=" + spelled + " must be positive");
    if (!seen.insert(name).second)
      fail(origin, file, at(start), static_cast<uint32_t>(name.size()),
           "size '" + name + "' is given twice");
    out.push_back(SizeDefault{name, value, at(start)});
    skipSeparators();
  }
  return out;
}

std::vector<SizeDefault> parseSizeDirectives(const std::shared_ptr<const SourceFile>& file,
                                             const std::vector<Comment>& comments) {
  std::vector<SizeDefault> out;
  for (const Comment& c : comments) {
    std::string_view t = c.text;
    size_t i = 0;
    while (i < t.size() && (t[i] == ' ' || t[i] == '\t'))
      ++i;
    if (t.substr(i, 7) != "rubick:") continue;
    i += 7;
    while (i < t.size() && (t[i] == ' ' || t[i] == '\t'))
      ++i;
    size_t wstart = i;
    while (i < t.size() && isIdentChar(t[i]))
      ++i;
    std::string_view word = t.substr(wstart, i - wstart);
    SourceLoc wloc{c.loc.line, c.loc.col + static_cast<uint32_t>(wstart)};
    if (word != "size")
      fail(file->name(), file, wloc, word.empty() ? 1 : static_cast<uint32_t>(word.size()),
           "unknown rubick directive '" + std::string(word) + "' (known: size)");
    SourceLoc lloc{c.loc.line, c.loc.col + static_cast<uint32_t>(i)};
    for (SizeDefault& s : parseSizeList(t.substr(i), file->name(), file, lloc)) {
      for (const SizeDefault& prev : out) {
        if (prev.name == s.name) {
          Diagnostic d;
          d.loc = s.loc;
          d.length = static_cast<uint32_t>(s.name.size());
          d.message = "size '" + s.name + "' is given twice";
          d.notes.push_back({prev.loc, "first given here"});
          throw Error(file, std::move(d));
        }
      }
      out.push_back(std::move(s));
    }
  }
  return out;
}

} // namespace rubick::tc
