// SPDX-License-Identifier: Apache-2.0
#include "rubick/support/Printable.h"

#include <algorithm>
#include <cstdio>

namespace rubick {
namespace {

bool isCont(unsigned char c) {
  return (c & 0xC0) == 0x80;
}

// Length of the valid UTF-8 sequence of two or more bytes at s[i] (its code point in `cp`), or 0
// if there is none: a stray continuation byte, a truncated or overlong sequence, a surrogate or
// a value beyond U+10FFFF.
size_t utf8Sequence(std::string_view s, size_t i, uint32_t& cp) {
  auto at = [&](size_t k) { return static_cast<unsigned char>(s[i + k]); };
  unsigned char b = at(0);
  size_t n;
  unsigned char lo = 0x80, hi = 0xBF; // allowed range of the second byte
  if (b >= 0xC2 && b <= 0xDF) {
    n = 2;
    cp = b & 0x1F;
  } else if (b >= 0xE0 && b <= 0xEF) {
    n = 3;
    cp = b & 0x0F;
    if (b == 0xE0) lo = 0xA0; // overlong
    if (b == 0xED) hi = 0x9F; // surrogates
  } else if (b >= 0xF0 && b <= 0xF4) {
    n = 4;
    cp = b & 0x07;
    if (b == 0xF0) lo = 0x90; // overlong
    if (b == 0xF4) hi = 0x8F; // beyond U+10FFFF
  } else {
    return 0;
  }
  if (i + n > s.size() || at(1) < lo || at(1) > hi) return 0;
  for (size_t k = 1; k < n; ++k) {
    if (!isCont(at(k))) return 0;
    cp = (cp << 6) | (at(k) & 0x3F);
  }
  return n;
}

// Code points that are valid UTF-8 but still act on a terminal or reorder the text around them.
bool isHostileCodePoint(uint32_t cp) {
  return (cp >= 0x80 && cp <= 0x9F) || (cp >= 0x202A && cp <= 0x202E) ||
         (cp >= 0x2066 && cp <= 0x2069);
}

std::string hexByte(unsigned char c) {
  char buf[8];
  std::snprintf(buf, sizeof buf, "\\x%02x", c);
  return buf;
}

// The printed form of the character starting at s[i]; `len` is set to its length in bytes.
std::string printedChar(std::string_view s, size_t i, Layout layout, size_t& len) {
  unsigned char c = static_cast<unsigned char>(s[i]);
  len = 1;
  if (c >= 0x20 && c < 0x7F) return std::string(1, static_cast<char>(c));
  if (c < 0x80) {
    if (c == '\n') return layout == Layout::KeepNewlines ? "\n" : "\\n";
    if (c == '\t') return layout == Layout::KeepTabs ? "\t" : "\\t";
    if (c == '\r') return "\\r";
    if (c == 0) return "\\0";
    return hexByte(c);
  }
  uint32_t cp = 0;
  size_t n = utf8Sequence(s, i, cp);
  if (n == 0) return hexByte(c);
  len = n;
  if (isHostileCodePoint(cp)) {
    char buf[16];
    std::snprintf(buf, sizeof buf, "\\u{%x}", static_cast<unsigned>(cp));
    return buf;
  }
  return std::string(s.substr(i, n));
}

// Number of characters in `s` (a valid UTF-8 sequence counts once, any other byte once), and
// the byte offset where character number `upTo` starts (or s.size()).
size_t countChars(std::string_view s, size_t upTo, size_t& offsetOfUpTo) {
  size_t chars = 0;
  offsetOfUpTo = s.size();
  for (size_t i = 0; i < s.size(); ++chars) {
    if (chars == upTo) offsetOfUpTo = i;
    uint32_t cp = 0;
    size_t n = static_cast<unsigned char>(s[i]) >= 0x80 ? utf8Sequence(s, i, cp) : 0;
    i += n ? n : 1;
  }
  return chars;
}

bool isSpace(char c) {
  return c == ' ' || c == '\n' || c == '\t' || c == '\r' || c == '\v' || c == '\f';
}

std::string shortenWord(std::string_view w, size_t maxChars, size_t keepChars) {
  size_t cut = 0;
  size_t chars = countChars(w, keepChars, cut);
  if (chars <= maxChars) return std::string(w);
  // Up to 4 quotes or brackets before and quotes, brackets or punctuation after the word stay,
  // so `'name'` still reads as a quoted name.
  constexpr std::string_view kOpen = "'\"([{<`", kClose = "'\")]}>`,;:.";
  size_t lead = 0, trail = 0;
  while (lead < 4 && lead < w.size() && kOpen.find(w[lead]) != std::string_view::npos)
    ++lead;
  while (trail < 4 && lead + trail < w.size() &&
         kClose.find(w[w.size() - 1 - trail]) != std::string_view::npos)
    ++trail;
  std::string_view core = w.substr(lead, w.size() - lead - trail);
  size_t coreCut = 0;
  size_t coreChars = countChars(core, keepChars, coreCut);
  if (coreChars <= keepChars) // the length is in the punctuation: cut plainly
    return std::string(w.substr(0, cut)) + "... (" + std::to_string(chars) + " characters)";
  return std::string(w.substr(0, lead)) + std::string(core.substr(0, coreCut)) + "..." +
         std::string(w.substr(w.size() - trail)) + " (" + std::to_string(coreChars) +
         " characters)";
}

} // namespace

std::string printable(std::string_view text, Layout layout) {
  std::string out;
  out.reserve(text.size());
  for (size_t i = 0, len = 0; i < text.size(); i += len)
    out += printedChar(text, i, layout, len);
  return out;
}

PrintableLine printableLine(std::string_view line) {
  PrintableLine out;
  out.column.resize(line.size() + 1);
  size_t width = 0;
  for (size_t i = 0, len = 0; i < line.size(); i += len) {
    std::string p = printedChar(line, i, Layout::KeepTabs, len);
    for (size_t k = 0; k < len; ++k)
      out.column[i + k] = width;
    // An escape is as wide as its text; a UTF-8 character (several bytes) one column.
    width += len > 1 ? 1 : p.size();
    out.text += p;
  }
  out.column[line.size()] = width;
  return out;
}

std::string shortenLongWords(std::string_view text, size_t maxChars, size_t keepChars) {
  // Most messages have no long word: return them untouched without building a copy piecewise.
  size_t run = 0, longest = 0;
  for (char c : text) {
    run = isSpace(c) ? 0 : run + 1;
    longest = std::max(longest, run);
  }
  if (longest <= maxChars) return std::string(text);
  std::string out;
  size_t i = 0;
  while (i < text.size()) {
    if (isSpace(text[i])) {
      out += text[i++];
      continue;
    }
    size_t start = i;
    while (i < text.size() && !isSpace(text[i]))
      ++i;
    // A path is only useful whole (a log to open): paths are cut only past PATH_MAX.
    const std::string_view word = text.substr(start, i - start);
    const bool path = word.find('/') != std::string_view::npos;
    out += shortenWord(word, path ? std::max(maxChars, kMaxPathChars) : maxChars, keepChars);
  }
  return out;
}

std::string safeMessage(std::string_view text) {
  return printable(shortenLongWords(text), Layout::KeepNewlines);
}

} // namespace rubick
