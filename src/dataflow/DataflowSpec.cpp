// SPDX-License-Identifier: Apache-2.0
#include "rubick/dataflow/DataflowSpec.h"

#include "rubick/support/Diagnostic.h"

#include <cctype>
#include <map>

namespace rubick::dataflow {
namespace {

struct Term {
  int loop = -1;      // -1: constant
  int64_t factor = 0; // 0: whole loop
  int64_t coef = 1;
};

class SpecParser {
public:
  SpecParser(const std::string& text, const StatementView& v, const std::string& origin)
      : t_(text), v_(v), origin_(origin) {
    // Drop `#` comments so a spec can live in a commented file.
    std::string clean;
    bool comment = false;
    for (char c : t_) {
      if (c == '#') comment = true;
      if (c == '\n') comment = false;
      clean += comment ? ' ' : c;
    }
    t_ = clean;
  }

  [[noreturn]] void fail(const std::string& msg, size_t at) {
    throw Error(origin_, "column " + std::to_string(at + 1) + ": " + msg);
  }
  [[noreturn]] void fail(const std::string& msg) { fail(msg, pos_); }

  void skip() {
    while (pos_ < t_.size() && std::isspace(static_cast<unsigned char>(t_[pos_])))
      ++pos_;
  }
  bool accept(char c) {
    skip();
    if (pos_ < t_.size() && t_[pos_] == c) {
      ++pos_;
      return true;
    }
    return false;
  }
  void expect(char c, const char* what) {
    if (!accept(c)) fail(std::string("expected '") + c + "' " + what);
  }
  bool acceptWord(const std::string& w) {
    skip();
    if (t_.compare(pos_, w.size(), w) == 0 &&
        (pos_ + w.size() >= t_.size() ||
         !std::isalnum(static_cast<unsigned char>(t_[pos_ + w.size()])))) {
      pos_ += w.size();
      return true;
    }
    return false;
  }
  int64_t number() {
    skip();
    size_t start = pos_;
    while (pos_ < t_.size() && std::isdigit(static_cast<unsigned char>(t_[pos_])))
      ++pos_;
    if (start == pos_) fail("expected a number");
    if (pos_ - start > 9) fail("number too large", start);
    return std::stoll(t_.substr(start, pos_ - start));
  }
  int loop() {
    skip();
    size_t start = pos_;
    while (pos_ < t_.size() &&
           (std::isalnum(static_cast<unsigned char>(t_[pos_])) || t_[pos_] == '_'))
      ++pos_;
    std::string name = t_.substr(start, pos_ - start);
    if (name.empty()) fail("expected a loop name");
    size_t l = v_.loopIndex(name);
    if (l == v_.loops.size()) {
      std::string known;
      for (const std::string& n : v_.loops)
        known += (known.empty() ? "" : ", ") + n;
      fail("'" + name + "' is not a loop of " + v_.statement + " (loops: " + known + ")", start);
    }
    return static_cast<int>(l);
  }

  // affine := ['-'] term {('+'|'-') term};  term := [NUM '*'] loop ['mod' NUM] | NUM
  std::vector<Term> affine() {
    std::vector<Term> out;
    int64_t sign = accept('-') ? -1 : 1;
    while (true) {
      skip();
      Term t;
      t.coef = sign;
      if (pos_ < t_.size() && std::isdigit(static_cast<unsigned char>(t_[pos_]))) {
        int64_t n = number();
        if (accept('*')) {
          t.coef *= n;
        } else {
          t.coef *= n; // a constant
          out.push_back(t);
          goto next;
        }
      }
      t.loop = loop();
      if (acceptWord("mod")) {
        size_t at = pos_;
        t.factor = number();
        if (t.factor < 1) fail("'mod' needs a positive number", at);
      }
      out.push_back(t);
    next:
      if (accept('+'))
        sign = 1;
      else if (accept('-'))
        sign = -1;
      else
        break;
    }
    return out;
  }

  Dataflow run(int64_t p, int64_t q) {
    if (!acceptWord("PE")) fail("a dataflow starts with PE(x, y)");
    expect('(', "after PE");
    std::vector<std::vector<Term>> rows;
    rows.push_back(affine());
    expect(',', "between x and y");
    rows.push_back(affine());
    expect(')', "after PE(x, y");
    expect('|', "between PE(...) and T(...)");
    if (!acceptWord("T")) fail("expected T(t1, ...) after '|'");
    expect('(', "after T");
    rows.push_back(affine());
    Dataflow d;
    d.p = p;
    d.q = q;
    std::vector<std::pair<OuterDim, size_t>> outer;
    while (accept(',')) {
      skip();
      size_t at = pos_;
      bool floorForm = acceptWord("floor");
      if (floorForm) expect('(', "after floor");
      OuterDim o;
      o.loop = loop();
      if (accept('/')) o.factor = number();
      if (floorForm) expect(')', "to close floor(");
      if (o.factor < 1) fail("division by a positive number is needed", at);
      outer.push_back({o, at});
    }
    expect(')', "to close T(...)");
    skip();
    if (pos_ != t_.size()) fail("unexpected text after the dataflow");

    // Inner coordinates: every (loop, factor) atom of x, y, t1, in loop order.
    std::map<int, std::pair<int64_t, size_t>> factorOf; // loop -> (factor, where)
    for (const auto& row : rows)
      for (const Term& t : row) {
        if (t.loop < 0) continue;
        int64_t e = v_.extent[t.loop];
        int64_t f = t.factor == 0 || t.factor >= e ? e : t.factor;
        auto it = factorOf.find(t.loop);
        if (it != factorOf.end() && it->second.first != f)
          fail("loop '" + v_.loops[t.loop] + "' appears with two different tile factors", 0);
        factorOf[t.loop] = {f, 0};
      }
    for (const auto& [l, fw] : factorOf) {
      if (fw.first < 2)
        fail("loop '" + v_.loops[l] + "' takes a single value and cannot be in space or t1", 0);
      d.inner.push_back({l, fw.first});
    }
    d.s.assign(3, IntVec(d.inner.size(), 0));
    IntVec constants(3, 0);
    for (int r = 0; r < 3; ++r)
      for (const Term& t : rows[r]) {
        if (t.loop < 0) {
          constants[r] += t.coef;
          continue;
        }
        for (size_t c = 0; c < d.inner.size(); ++c)
          if (d.inner[c].loop == t.loop) d.s[r][c] += t.coef;
      }
    for (auto& [o, at] : outer) {
      (void)at;
      d.outer.push_back(o);
    }
    std::string bad = checkWellFormed(d, v_);
    if (!bad.empty()) throw Error(origin_, bad);
    IntVec off = d.offset();
    static const char* axis[] = {"x", "y", "t1"};
    for (int r = 0; r < 3; ++r)
      if (constants[r] != off[r])
        throw Error(origin_, std::string(axis[r]) + " must start at 0; write the dataflow as " +
                                 toSpec(d, v_));
    IntVec ext = d.extent();
    if (!d.fitsArray())
      throw Error(origin_, "the dataflow needs " + std::to_string(ext[0]) + "x" +
                               std::to_string(ext[1]) + " PEs but the array is " +
                               std::to_string(p) + "x" + std::to_string(q));
    return d;
  }

private:
  std::string t_;
  const StatementView& v_;
  std::string origin_;
  size_t pos_ = 0;
};

} // namespace

Dataflow parseDataflowSpec(const std::string& text, const StatementView& v, int64_t p, int64_t q,
                           const std::string& origin) {
  return SpecParser(text, v, origin).run(p, q);
}

} // namespace rubick::dataflow
