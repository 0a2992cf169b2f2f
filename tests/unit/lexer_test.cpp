// SPDX-License-Identifier: Apache-2.0
// Lexer: every token kind, the max=/max( distinction, comments, numbers, bad characters.

#include "rubick/frontend/Lexer.h"

#include "tc_test_util.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <limits>

namespace rubick::tc {
namespace {

using test::errorOf;
using test::source;

std::vector<Tok> kinds(const std::string& text) {
  std::vector<Tok> out;
  for (const Token& t : lex(source(text)).tokens)
    out.push_back(t.kind);
  return out;
}

std::string lexError(const std::string& text) {
  return errorOf([&] { lex(source(text)); });
}

SourceLoc lexErrorLoc(const std::string& text) {
  try {
    lex(source(text));
  } catch (const Error& e) {
    return e.diag().loc;
  }
  return {};
}

TEST(Lexer, EveryPunctuationAndOperatorKind) {
  EXPECT_EQ(kinds("( ) { } , : -> + - * / = += +=! *= *=! max= max=! min= min=!"),
            (std::vector<Tok>{Tok::LParen, Tok::RParen,     Tok::LBrace, Tok::RBrace,
                              Tok::Comma,  Tok::Colon,      Tok::Arrow,  Tok::Plus,
                              Tok::Minus,  Tok::Star,       Tok::Slash,  Tok::Assign,
                              Tok::PlusEq, Tok::PlusEqBang, Tok::StarEq, Tok::StarEqBang,
                              Tok::MaxEq,  Tok::MaxEqBang,  Tok::MinEq,  Tok::MinEqBang,
                              Tok::End}));
}

TEST(Lexer, OperatorsNeedNoSpaces) {
  EXPECT_EQ(kinds("C(i)+=!A(i)*-B(i)->x"),
            (std::vector<Tok>{Tok::Ident, Tok::LParen, Tok::Ident, Tok::RParen, Tok::PlusEqBang,
                              Tok::Ident, Tok::LParen, Tok::Ident, Tok::RParen, Tok::Star,
                              Tok::Minus, Tok::Ident, Tok::LParen, Tok::Ident, Tok::RParen,
                              Tok::Arrow, Tok::Ident, Tok::End}));
}

TEST(Lexer, IdentifiersKeepTheirSpelling) {
  LexResult r = lex(source("def _x1 gemm_2 int8 where"));
  ASSERT_EQ(r.tokens.size(), 6u);
  const char* names[] = {"def", "_x1", "gemm_2", "int8", "where"};
  for (int i = 0; i < 5; ++i) {
    EXPECT_EQ(r.tokens[i].kind, Tok::Ident);
    EXPECT_EQ(r.tokens[i].text, names[i]);
  }
}

TEST(Lexer, MaxAndMinAreOperatorsOnlyBeforeEquals) {
  // `max(` is a call, `max=` / `max=!` reduction operators; a space breaks the operator.
  EXPECT_EQ(kinds("max(a, b)"), (std::vector<Tok>{Tok::Ident, Tok::LParen, Tok::Ident, Tok::Comma,
                                                  Tok::Ident, Tok::RParen, Tok::End}));
  EXPECT_EQ(kinds("max=!"), (std::vector<Tok>{Tok::MaxEqBang, Tok::End}));
  EXPECT_EQ(kinds("max="), (std::vector<Tok>{Tok::MaxEq, Tok::End}));
  EXPECT_EQ(kinds("min=! x"), (std::vector<Tok>{Tok::MinEqBang, Tok::Ident, Tok::End}));
  EXPECT_EQ(kinds("max ="), (std::vector<Tok>{Tok::Ident, Tok::Assign, Tok::End}));
  EXPECT_EQ(kinds("maximum=1"), (std::vector<Tok>{Tok::Ident, Tok::Assign, Tok::IntLit, Tok::End}));
  LexResult r = lex(source("y max=! x"));
  EXPECT_EQ(r.tokens[1].text, "max=!");
  EXPECT_EQ(r.tokens[1].loc, (SourceLoc{1, 3}));
  EXPECT_EQ(r.tokens[2].loc, (SourceLoc{1, 9}));
  EXPECT_EQ(lexError("a max== b"), "comparison '==' is not supported");
}

TEST(Lexer, CommentsAreSkippedButKept) {
  LexResult r = lex(source("# first\nx // second\n  #third"));
  ASSERT_EQ(r.tokens.size(), 2u);
  EXPECT_EQ(r.tokens[0].text, "x");
  EXPECT_EQ(r.tokens[0].loc, (SourceLoc{2, 1}));
  ASSERT_EQ(r.comments.size(), 3u);
  EXPECT_EQ(r.comments[0].text, " first");
  EXPECT_EQ(r.comments[0].loc, (SourceLoc{1, 2}));
  EXPECT_EQ(r.comments[1].text, " second");
  EXPECT_EQ(r.comments[1].loc, (SourceLoc{2, 5}));
  EXPECT_EQ(r.comments[2].text, "third");
  EXPECT_EQ(r.comments[2].loc, (SourceLoc{3, 4}));
}

TEST(Lexer, SlashAloneIsDivision) {
  EXPECT_EQ(kinds("a / b"), (std::vector<Tok>{Tok::Ident, Tok::Slash, Tok::Ident, Tok::End}));
  EXPECT_EQ(kinds("a // b"), (std::vector<Tok>{Tok::Ident, Tok::End}));
}

TEST(Lexer, IntegerLiterals) {
  LexResult r = lex(source("0 42 007 9223372036854775807"));
  ASSERT_EQ(r.tokens.size(), 5u);
  int64_t want[] = {0, 42, 7, std::numeric_limits<int64_t>::max()};
  for (int i = 0; i < 4; ++i) {
    EXPECT_EQ(r.tokens[i].kind, Tok::IntLit);
    EXPECT_EQ(r.tokens[i].intValue, want[i]);
  }
  EXPECT_EQ(r.tokens[2].text, "007");
  EXPECT_EQ(lexError("9223372036854775808"), "integer literal '9223372036854775808' is too large");
  EXPECT_EQ(lexError("123456789012345678901234567890"),
            "integer literal '123456789012345678901234567890' is too large");
}

TEST(Lexer, FloatLiteralsBeyondDoubleAreErrors) {
  // The largest double is about 1.8e308: 1e308 fits, 1e309 does not.
  EXPECT_EQ(lexError("1e308"), "<no error>");
  EXPECT_EQ(lexError("1e309"), "number '1e309' is too large for a float");
  EXPECT_EQ(lexError("x = 2.5e999f"), "number '2.5e999f' is too large for a float");
  EXPECT_EQ(lexErrorLoc("x = 2.5e999f"), (SourceLoc{1, 5}));
  EXPECT_EQ(lexError("1" + std::string(400, '0') + ".0"),
            "number '" + std::string("1") + std::string(47, '0') +
                "...' (403 characters) is too large for a float");
  // Tiny values round to zero, as in C.
  EXPECT_EQ(lexError("1e-999"), "<no error>");
}

TEST(Lexer, FloatLiterals) {
  struct Case {
    const char* text;
    double value;
  } cases[] = {{"1.5", 1.5},   {"1.", 1.0},   {".25", 0.25}, {"1e3", 1000.0},
               {"2E-2", 0.02}, {"2.5f", 2.5}, {"3f", 3.0},   {"1.5e+1F", 15.0}};
  for (const Case& c : cases) {
    LexResult r = lex(source(c.text));
    ASSERT_EQ(r.tokens.size(), 2u) << c.text;
    EXPECT_EQ(r.tokens[0].kind, Tok::FloatLit) << c.text;
    EXPECT_EQ(r.tokens[0].text, c.text);
    EXPECT_DOUBLE_EQ(r.tokens[0].floatValue, c.value) << c.text;
  }
}

TEST(Lexer, NumbersRunningIntoLettersAreErrors) {
  EXPECT_EQ(lexError("2i"), "invalid number '2i'");
  EXPECT_EQ(lexError("1e"), "invalid number '1e'");
  EXPECT_EQ(lexError("0x10"), "invalid number '0x'");
  EXPECT_EQ(lexError("1.5fx"), "invalid number '1.5fx'");
}

TEST(Lexer, BadCharacters) {
  EXPECT_EQ(lexError("a % b"), "unexpected character '%'");
  EXPECT_EQ(lexErrorLoc("a\n  % b"), (SourceLoc{2, 3}));
  EXPECT_EQ(lexError("a ; b"), "unexpected character ';'");
  EXPECT_EQ(lexError("a . b"), "unexpected character '.'");
  EXPECT_EQ(lexError("a \x01"), "unexpected control character (code 1)");
  EXPECT_EQ(lexError(std::string("a \0 b", 5)), "unexpected control character (code 0)");
  EXPECT_EQ(lexError("a \xc3\x97 b"), "unexpected non-ASCII character in source");
  EXPECT_EQ(lexError("a < b"), "comparison '<' is not supported");
  EXPECT_EQ(lexError("a >= b"), "comparison '>=' is not supported");
  EXPECT_EQ(lexError("a == b"), "comparison '==' is not supported");
  EXPECT_EQ(lexError("a != b"), "comparison '!=' is not supported");
  EXPECT_EQ(lexError("a ? b : c"), "conditional expressions ('?:') are not supported");
  EXPECT_EQ(lexError("+= !a"), "'!' must directly follow a reduction operator, as in '+=!'");
  EXPECT_EQ(lexError("A[i]"), "index tensors with parentheses, as in A(i, j), not brackets");
  EXPECT_EQ(lexError("a /* b */"), "block comments '/*' are not supported; use '#' or '//'");
}

TEST(Lexer, NonAsciiInCommentsIsFine) {
  LexResult r = lex(source("# caf\xc3\xa9\nx"));
  ASSERT_EQ(r.tokens.size(), 2u);
  EXPECT_EQ(r.comments[0].text, " caf\xc3\xa9");
}

TEST(Lexer, LocationsCountLinesAndColumns) {
  LexResult r = lex(source("def\n\tf(\r\n  A)"));
  ASSERT_EQ(r.tokens.size(), 6u);
  EXPECT_EQ(r.tokens[0].loc, (SourceLoc{1, 1}));
  EXPECT_EQ(r.tokens[1].loc, (SourceLoc{2, 2})); // a tab counts as one column
  EXPECT_EQ(r.tokens[2].loc, (SourceLoc{2, 3}));
  EXPECT_EQ(r.tokens[3].loc, (SourceLoc{3, 3}));
  EXPECT_EQ(r.tokens[4].loc, (SourceLoc{3, 4}));
  EXPECT_EQ(r.tokens[5].kind, Tok::End);
  EXPECT_EQ(r.tokens[5].loc, (SourceLoc{3, 5}));
}

TEST(Lexer, EmptyInputIsJustEnd) {
  LexResult r = lex(source(""));
  ASSERT_EQ(r.tokens.size(), 1u);
  EXPECT_EQ(r.tokens[0].kind, Tok::End);
  EXPECT_EQ(r.tokens[0].loc, (SourceLoc{1, 1}));
}

TEST(Lexer, DescribeNamesEveryKind) {
  EXPECT_STREQ(describe(Tok::Arrow), "'->'");
  EXPECT_STREQ(describe(Tok::MaxEqBang), "'max=!'");
  EXPECT_STREQ(describe(Tok::Ident), "identifier");
  EXPECT_STREQ(describe(Tok::End), "end of file");
}

} // namespace
} // namespace rubick::tc
