// SPDX-License-Identifier: Apache-2.0
#include "rubick/frontend/Lexer.h"

#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <limits>

namespace rubick::tc {

const char* describe(Tok kind) {
  switch (kind) {
  case Tok::End:
    return "end of file";
  case Tok::Ident:
    return "identifier";
  case Tok::IntLit:
    return "integer";
  case Tok::FloatLit:
    return "number";
  case Tok::LParen:
    return "'('";
  case Tok::RParen:
    return "')'";
  case Tok::LBrace:
    return "'{'";
  case Tok::RBrace:
    return "'}'";
  case Tok::Comma:
    return "','";
  case Tok::Colon:
    return "':'";
  case Tok::Arrow:
    return "'->'";
  case Tok::Plus:
    return "'+'";
  case Tok::Minus:
    return "'-'";
  case Tok::Star:
    return "'*'";
  case Tok::Slash:
    return "'/'";
  case Tok::Assign:
    return "'='";
  case Tok::PlusEq:
    return "'+='";
  case Tok::PlusEqBang:
    return "'+=!'";
  case Tok::StarEq:
    return "'*='";
  case Tok::StarEqBang:
    return "'*=!'";
  case Tok::MaxEq:
    return "'max='";
  case Tok::MaxEqBang:
    return "'max=!'";
  case Tok::MinEq:
    return "'min='";
  case Tok::MinEqBang:
    return "'min=!'";
  }
  return "token";
}

namespace {

class Lexer {
public:
  explicit Lexer(const std::shared_ptr<const SourceFile>& file) : file_(file), src_(file->text()) {}

  LexResult run() {
    LexResult out;
    while (true) {
      skipSpaceAndComments(out.comments);
      if (pos_ >= src_.size()) break;
      out.tokens.push_back(next());
    }
    Token end;
    end.kind = Tok::End;
    end.loc = here();
    out.tokens.push_back(end);
    return out;
  }

private:
  SourceLoc here() const { return {line_, col_}; }
  char peek(size_t ahead = 0) const {
    return pos_ + ahead < src_.size() ? src_[pos_ + ahead] : '\0';
  }
  void advance(size_t n = 1) {
    for (size_t i = 0; i < n && pos_ < src_.size(); ++i) {
      if (src_[pos_] == '\n') {
        ++line_;
        col_ = 1;
      } else {
        ++col_;
      }
      ++pos_;
    }
  }

  [[noreturn]] void fail(SourceLoc loc, std::string msg, uint32_t len = 1) {
    Diagnostic d;
    d.loc = loc;
    d.length = len;
    d.message = std::move(msg);
    throw Error(file_, std::move(d));
  }

  void skipSpaceAndComments(std::vector<Comment>& comments) {
    while (pos_ < src_.size()) {
      char c = peek();
      if (c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v') {
        advance();
      } else if (c == '#' || (c == '/' && peek(1) == '/')) {
        advance(c == '#' ? 1 : 2);
        Comment cm;
        cm.loc = here();
        while (pos_ < src_.size() && peek() != '\n') {
          cm.text += peek();
          advance();
        }
        comments.push_back(std::move(cm));
      } else {
        break;
      }
    }
  }

  Token make(Tok kind, SourceLoc loc, size_t len) {
    Token t;
    t.kind = kind;
    t.loc = loc;
    t.text = std::string(src_.substr(pos_, len));
    advance(len);
    return t;
  }

  Token next() {
    SourceLoc loc = here();
    char c = peek();
    if (std::isalpha(static_cast<unsigned char>(c)) || c == '_') return identOrReduction(loc);
    if (std::isdigit(static_cast<unsigned char>(c)) ||
        (c == '.' && std::isdigit(static_cast<unsigned char>(peek(1)))))
      return number(loc);
    switch (c) {
    case '(':
      return make(Tok::LParen, loc, 1);
    case ')':
      return make(Tok::RParen, loc, 1);
    case '{':
      return make(Tok::LBrace, loc, 1);
    case '}':
      return make(Tok::RBrace, loc, 1);
    case ',':
      return make(Tok::Comma, loc, 1);
    case ':':
      return make(Tok::Colon, loc, 1);
    case '/':
      if (peek(1) == '*') fail(loc, "block comments '/*' are not supported; use '#' or '//'", 2);
      return make(Tok::Slash, loc, 1);
    case '=':
      if (peek(1) == '=') unsupportedComparison(loc, 2);
      return make(Tok::Assign, loc, 1);
    case '<':
    case '>':
      unsupportedComparison(loc, peek(1) == '=' ? 2 : 1);
    case '!':
      if (peek(1) == '=') unsupportedComparison(loc, 2);
      fail(loc, "'!' must directly follow a reduction operator, as in '+=!'");
    case '?':
      fail(loc, "conditional expressions ('?:') are not supported");
    case '[':
    case ']':
      fail(loc, "index tensors with parentheses, as in A(i, j), not brackets");
    case '-':
      return make(peek(1) == '>' ? Tok::Arrow : Tok::Minus, loc, peek(1) == '>' ? 2 : 1);
    case '+':
      if (peek(1) == '=')
        return peek(2) == '!' ? make(Tok::PlusEqBang, loc, 3) : make(Tok::PlusEq, loc, 2);
      return make(Tok::Plus, loc, 1);
    case '*':
      if (peek(1) == '=')
        return peek(2) == '!' ? make(Tok::StarEqBang, loc, 3) : make(Tok::StarEq, loc, 2);
      return make(Tok::Star, loc, 1);
    default:
      break;
    }
    if (static_cast<unsigned char>(c) >= 0x80)
      fail(loc, "unexpected non-ASCII character in source");
    if (std::isprint(static_cast<unsigned char>(c)))
      fail(loc, std::string("unexpected character '") + c + "'");
    fail(loc, "unexpected control character (code " +
                  std::to_string(static_cast<unsigned char>(c)) + ")");
  }

  [[noreturn]] void unsupportedComparison(SourceLoc loc, uint32_t len) {
    fail(loc, "comparison '" + std::string(src_.substr(pos_, len)) + "' is not supported", len);
  }

  Token identOrReduction(SourceLoc loc) {
    size_t len = 0;
    while (pos_ + len < src_.size() &&
           (std::isalnum(static_cast<unsigned char>(src_[pos_ + len])) || src_[pos_ + len] == '_'))
      ++len;
    std::string_view word = src_.substr(pos_, len);
    // `max=` and `min=` are reduction operators; `max(` is an ordinary call.
    char after = pos_ + len < src_.size() ? src_[pos_ + len] : '\0';
    char after2 = pos_ + len + 1 < src_.size() ? src_[pos_ + len + 1] : '\0';
    if ((word == "max" || word == "min") && after == '=' && after2 != '=') {
      bool bang = pos_ + len + 1 < src_.size() && src_[pos_ + len + 1] == '!';
      Tok kind = word == "max" ? (bang ? Tok::MaxEqBang : Tok::MaxEq)
                               : (bang ? Tok::MinEqBang : Tok::MinEq);
      return make(kind, loc, len + (bang ? 2 : 1));
    }
    return make(Tok::Ident, loc, len);
  }

  Token number(SourceLoc loc) {
    size_t len = 0;
    bool isFloat = false;
    auto digitAt = [&](size_t i) {
      return pos_ + i < src_.size() && std::isdigit(static_cast<unsigned char>(src_[pos_ + i]));
    };
    while (digitAt(len))
      ++len;
    if (pos_ + len < src_.size() && src_[pos_ + len] == '.') {
      isFloat = true;
      ++len;
      while (digitAt(len))
        ++len;
    }
    if (pos_ + len < src_.size() && (src_[pos_ + len] == 'e' || src_[pos_ + len] == 'E')) {
      size_t e = len + 1;
      if (pos_ + e < src_.size() && (src_[pos_ + e] == '+' || src_[pos_ + e] == '-')) ++e;
      if (digitAt(e)) {
        isFloat = true;
        len = e;
        while (digitAt(len))
          ++len;
      }
    }
    if (pos_ + len < src_.size() && (src_[pos_ + len] == 'f' || src_[pos_ + len] == 'F')) {
      isFloat = true;
      ++len;
    }
    if (pos_ + len < src_.size() &&
        (std::isalpha(static_cast<unsigned char>(src_[pos_ + len])) || src_[pos_ + len] == '_'))
      fail(loc, "invalid number '" + std::string(src_.substr(pos_, len + 1)) + "'",
           static_cast<uint32_t>(len + 1));
    std::string text(src_.substr(pos_, len));
    Token t;
    t.loc = loc;
    t.text = text;
    if (isFloat) {
      t.kind = Tok::FloatLit;
      t.floatValue = std::strtod(text.c_str(), nullptr);
      // 1e999 would silently become infinity (and print back as a different program).
      if (std::isinf(t.floatValue))
        fail(loc, "number '" + text + "' is too large for a float", static_cast<uint32_t>(len));
    } else {
      t.kind = Tok::IntLit;
      errno = 0;
      unsigned long long v = std::strtoull(text.c_str(), nullptr, 10);
      if (errno == ERANGE ||
          v > static_cast<unsigned long long>(std::numeric_limits<int64_t>::max()))
        fail(loc, "integer literal '" + text + "' is too large", static_cast<uint32_t>(len));
      t.intValue = static_cast<int64_t>(v);
    }
    advance(len);
    return t;
  }

  std::shared_ptr<const SourceFile> file_;
  std::string_view src_;
  size_t pos_ = 0;
  uint32_t line_ = 1;
  uint32_t col_ = 1;
};

} // namespace

LexResult lex(const std::shared_ptr<const SourceFile>& file) {
  return Lexer(file).run();
}

} // namespace rubick::tc
