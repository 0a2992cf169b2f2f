// SPDX-License-Identifier: Apache-2.0
#include "rubick/frontend/SizeDirective.h"

#include "rubick/frontend/Sema.h"

#include <algorithm>
#include <cctype>
#include <limits>
#include <map>
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

/// An integer value `-?[0-9]+` starting at text[start]. When `ok` is false (no digits, or a
/// letter or '.' follows them), `end` is the end of the whole bad word, for the caret.
struct IntWord {
  size_t end = 0;
  bool ok = false, negative = false;
  std::string digits;
};

IntWord readInteger(std::string_view text, size_t start) {
  IntWord w;
  size_t i = start;
  w.negative = i < text.size() && text[i] == '-';
  if (w.negative) ++i;
  size_t dstart = i;
  while (i < text.size() && std::isdigit(static_cast<unsigned char>(text[i])))
    ++i;
  // A letter or a '.' right after the digits makes the whole word bad ("4k", "1.5").
  w.ok = i != dstart && !(i < text.size() && (isIdentChar(text[i]) || text[i] == '.'));
  if (!w.ok) {
    while (i < text.size() && text[i] != ',' && text[i] != ' ')
      ++i;
  }
  w.end = i;
  w.digits = std::string(text.substr(dstart, i - dstart));
  return w;
}

/// Digits after leading zeros: more than `maxDigits` means the value is out of any range here,
/// and keeps stoll from overflowing.
bool tooManyDigits(const std::string& digits, size_t maxDigits) {
  size_t firstNonZero = std::min(digits.find_first_not_of('0'), digits.size());
  return digits.size() - firstNonZero > maxDigits;
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
    IntWord w = readInteger(text, vstart);
    i = w.end;
    std::string spelled(text.substr(vstart, i - vstart));
    uint32_t vlen = static_cast<uint32_t>(i - vstart);
    if (!w.ok)
      fail(origin, file, at(vstart), vlen,
           "size '" + name + "' needs an integer value, found '" + spelled + "'");
    bool negative = w.negative;
    // More than 10 digits is beyond kMaxSize.
    bool huge = tooManyDigits(w.digits, 10);
    int64_t value = huge ? 0 : std::stoll(w.digits) * (negative ? -1 : 1);
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

namespace {

/// The settings of a `fixed` directive, `exp_frac=12`, starting at `loc` in `file`.
void parseFixedSettings(std::string_view text, const std::shared_ptr<const SourceFile>& file,
                        SourceLoc loc, std::optional<int>& expFrac, SourceLoc& expFracLoc) {
  const std::string& origin = file->name();
  size_t i = 0;
  auto at = [&](size_t p) { return SourceLoc{loc.line, loc.col + static_cast<uint32_t>(p)}; };
  auto skipSeparators = [&] {
    while (i < text.size() && (text[i] == ' ' || text[i] == '\t' || text[i] == ','))
      ++i;
  };
  skipSeparators();
  if (i >= text.size())
    fail(origin, file, at(i), 1, "expected a fixed-point setting, such as exp_frac=12");
  while (i < text.size()) {
    size_t start = i;
    if (!isIdentStart(text[i]))
      fail(origin, file, at(i), 1,
           "expected a fixed-point setting (such as exp_frac=12), found '" +
               std::string(1, text[i]) + "'");
    while (i < text.size() && isIdentChar(text[i]))
      ++i;
    std::string name(text.substr(start, i - start));
    uint32_t nlen = static_cast<uint32_t>(name.size());
    if (name != "exp_frac")
      fail(origin, file, at(start), nlen,
           "unknown fixed-point setting '" + name + "' (known: exp_frac)");
    while (i < text.size() && text[i] == ' ')
      ++i;
    if (i >= text.size() || text[i] != '=')
      fail(origin, file, at(start), nlen, "expected '=' and a value after 'exp_frac'");
    ++i;
    while (i < text.size() && text[i] == ' ')
      ++i;
    size_t vstart = i;
    IntWord w = readInteger(text, vstart);
    i = w.end;
    std::string spelled(text.substr(vstart, i - vstart));
    uint32_t vlen = static_cast<uint32_t>(i - vstart);
    if (!w.ok)
      fail(origin, file, at(vstart), vlen,
           "exp_frac needs an integer value, found '" + spelled + "'");
    bool huge = tooManyDigits(w.digits, 2);
    int value = huge ? 0 : std::stoi(w.digits);
    if (huge || (w.negative && value != 0) || value > kMaxExpFrac)
      fail(origin, file, at(vstart), vlen,
           "exp_frac=" + spelled + " is out of range (0.." + std::to_string(kMaxExpFrac) + ")");
    if (expFrac) {
      Diagnostic d;
      d.loc = at(start);
      d.length = nlen;
      d.message = "exp_frac is given twice";
      d.notes.push_back({expFracLoc, "first given here"});
      throw Error(file, std::move(d));
    }
    expFrac = value;
    expFracLoc = at(start);
    skipSeparators();
  }
}

} // namespace

Directives parseDirectives(const std::shared_ptr<const SourceFile>& file,
                           const std::vector<Comment>& comments) {
  Directives out;
  SourceLoc expFracLoc;
  std::map<std::string, SourceLoc> firstLoc;
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
    SourceLoc lloc{c.loc.line, c.loc.col + static_cast<uint32_t>(i)};
    if (word == "fixed") {
      parseFixedSettings(t.substr(i), file, lloc, out.expFrac, expFracLoc);
      continue;
    }
    if (word != "size")
      fail(file->name(), file, wloc, word.empty() ? 1 : static_cast<uint32_t>(word.size()),
           "unknown rubick directive '" + std::string(word) + "' (known: size, fixed)");
    for (SizeDefault& s : parseSizeList(t.substr(i), file->name(), file, lloc)) {
      // A map, not a scan of the sizes so far: a file may hold a million directives.
      auto [prev, fresh] = firstLoc.emplace(s.name, s.loc);
      if (!fresh) {
        Diagnostic d;
        d.loc = s.loc;
        d.length = static_cast<uint32_t>(s.name.size());
        d.message = "size '" + s.name + "' is given twice";
        d.notes.push_back({prev->second, "first given here"});
        throw Error(file, std::move(d));
      }
      out.sizes.push_back(std::move(s));
    }
  }
  return out;
}

} // namespace rubick::tc
