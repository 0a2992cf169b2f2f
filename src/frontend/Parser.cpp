// SPDX-License-Identifier: Apache-2.0
#include "rubick/frontend/Parser.h"

#include "rubick/frontend/Lexer.h"
#include "rubick/frontend/SizeDirective.h"

namespace rubick::tc {
namespace {

std::string quoted(const Token& t) {
  switch (t.kind) {
  case Tok::End:
    return "end of file";
  case Tok::Ident:
  case Tok::IntLit:
  case Tok::FloatLit:
    return "'" + t.text + "'";
  default:
    return describe(t.kind);
  }
}

std::optional<AssignOp> assignOp(Tok kind) {
  switch (kind) {
  case Tok::Assign:
    return AssignOp::Assign;
  case Tok::PlusEq:
    return AssignOp::PlusEq;
  case Tok::PlusEqBang:
    return AssignOp::PlusEqBang;
  case Tok::StarEq:
    return AssignOp::StarEq;
  case Tok::StarEqBang:
    return AssignOp::StarEqBang;
  case Tok::MaxEq:
    return AssignOp::MaxEq;
  case Tok::MaxEqBang:
    return AssignOp::MaxEqBang;
  case Tok::MinEq:
    return AssignOp::MinEq;
  case Tok::MinEqBang:
    return AssignOp::MinEqBang;
  default:
    return std::nullopt;
  }
}

class Parser {
public:
  Parser(const std::shared_ptr<const SourceFile>& file, std::vector<Token> toks)
      : file_(file), toks_(std::move(toks)) {}

  Module parseModule() {
    Module m;
    if (at(Tok::End)) throw Error(file_->name(), "the file defines no function (expected 'def')");
    while (!at(Tok::End))
      m.defs.push_back(parseDef());
    return m;
  }

private:
  const Token& cur() const { return toks_[pos_]; }
  const Token& peekTok(size_t ahead = 1) const {
    return toks_[std::min(pos_ + ahead, toks_.size() - 1)];
  }
  bool at(Tok k) const { return cur().kind == k; }
  bool atWord(std::string_view w) const { return at(Tok::Ident) && cur().text == w; }
  Token take() {
    Token t = cur();
    if (t.kind != Tok::End) ++pos_;
    return t;
  }

  [[noreturn]] void fail(const Token& at, const std::string& msg) {
    Diagnostic d;
    d.loc = at.loc;
    d.length = at.text.empty() ? 1 : static_cast<uint32_t>(at.text.size());
    d.message = msg;
    throw Error(file_, std::move(d));
  }
  [[noreturn]] void expected(const std::string& what, const std::string& context = "") {
    fail(cur(),
         "expected " + what + (context.empty() ? "" : " " + context) + ", found " + quoted(cur()));
  }
  Token expect(Tok k, const std::string& context = "") {
    if (!at(k)) expected(describe(k), context);
    return take();
  }
  // `def`, `where` and `in` structure the program; as names they would make it ambiguous.
  static bool isKeyword(const std::string& w) { return w == "def" || w == "where" || w == "in"; }
  void rejectKeyword(const std::string& what) {
    if (at(Tok::Ident) && isKeyword(cur().text))
      fail(cur(), "expected " + what + ", found keyword '" + cur().text + "'");
  }
  Ident expectIdent(const std::string& what, const std::string& context = "") {
    if (!at(Tok::Ident)) expected(what, context);
    rejectKeyword(what);
    Token t = take();
    return Ident{t.text, t.loc};
  }

  Def parseDef() {
    if (!atWord("def")) expected("'def'");
    take();
    Def d;
    d.name = expectIdent("a function name", "after 'def'");
    expect(Tok::LParen, "after the function name");
    if (!at(Tok::RParen)) {
      do {
        d.inputs.push_back(parseTensorDecl(/*isOutput=*/false));
      } while (at(Tok::Comma) && (take(), true));
    }
    expect(Tok::RParen, "to close the parameter list");
    expect(Tok::Arrow, "after the parameter list");
    expect(Tok::LParen, "to open the output list");
    if (!at(Tok::RParen)) {
      do {
        d.outputs.push_back(parseTensorDecl(/*isOutput=*/true));
      } while (at(Tok::Comma) && (take(), true));
    }
    expect(Tok::RParen, "to close the output list");
    expect(Tok::LBrace, "to open the function body");
    while (!at(Tok::RBrace)) {
      if (at(Tok::End) || atWord("def"))
        expected("'}'", "to close the body of '" + d.name.name + "'");
      if (atWord("where"))
        fail(cur(), d.stmts.empty() || d.stmts.back().where.empty()
                        ? "'where' must follow a statement"
                        : "a statement has at most one 'where'; separate its ranges with ','");
      d.stmts.push_back(parseStmt());
    }
    take();
    return d;
  }

  TensorDecl parseTensorDecl(bool isOutput) {
    TensorDecl t;
    if (!at(Tok::Ident)) expected(isOutput ? "an output name" : "a parameter type (such as int8)");
    bool hasType = parseScalarType(cur().text).has_value();
    // A word followed by a name or a shape sits where a type belongs; otherwise it is a bare
    // name: fine for an output, which may leave its type and shape to inference, but a parameter
    // needs both.
    bool bareName = peekTok().kind != Tok::Ident && peekTok().kind != Tok::LParen;
    if (!hasType && bareName && !isOutput)
      fail(cur(), "parameter '" + cur().text + "' needs a type and shape, such as int8(M,K) " +
                      cur().text);
    if (!hasType && !bareName) {
      fail(cur(), "unknown type '" + cur().text +
                      "' (supported: int8, int16, int32, int64, float16/half, float32/float, "
                      "float64/double)");
    }
    if (hasType) {
      t.typeLoc = cur().loc;
      t.type = parseScalarType(take().text);
      if (at(Tok::LParen)) {
        take();
        std::vector<DimDecl> dims;
        if (!at(Tok::RParen)) {
          do {
            dims.push_back(parseDimDecl());
          } while (at(Tok::Comma) && (take(), true));
        }
        expect(Tok::RParen, "to close the shape");
        t.shape = std::move(dims);
      } else if (!isOutput) {
        t.shape = std::vector<DimDecl>{}; // `int32 s`: a scalar
      }
    }
    t.name = expectIdent(isOutput ? "an output name" : "a parameter name");
    return t;
  }

  DimDecl parseDimDecl() {
    DimDecl d;
    d.loc = cur().loc;
    if (at(Tok::Ident)) {
      rejectKeyword("a size name");
      d.symbol = take().text;
    } else if (at(Tok::IntLit)) {
      d.value = take().intValue;
    } else {
      expected("a size name or integer", "in the shape");
    }
    return d;
  }

  Stmt parseStmt() {
    Stmt s;
    s.lhs = expectIdent("a statement (tensor name)");
    if (at(Tok::LParen)) {
      take();
      if (!at(Tok::RParen)) {
        do {
          if (!at(Tok::Ident))
            expected("an index name", "(left-hand side indices must be plain index names)");
          rejectKeyword("an index name");
          Token t = take();
          s.lhsIndices.push_back(Ident{t.text, t.loc});
        } while (at(Tok::Comma) && (take(), true));
      }
      if (!at(Tok::RParen))
        expected("')' or ','", "in the left-hand side (indices there must be plain index names)");
      take();
    }
    auto op = assignOp(cur().kind);
    if (!op) expected("an assignment operator (=, +=, +=!, *=, *=!, max=, max=!, min=, min=!)");
    s.opLoc = cur().loc;
    s.op = *op;
    take();
    s.rhs = parseExpr(0);
    if (atWord("where")) {
      take();
      do {
        RangeDecl r;
        r.index = expectIdent("an index name", "in 'where'");
        if (!atWord("in")) expected("'in'", "after the index name");
        take();
        r.lo = parseExpr(0);
        expect(Tok::Colon, "between the bounds of the range (lo:hi)");
        r.hi = parseExpr(0);
        s.where.push_back(std::move(r));
      } while (at(Tok::Comma) && (take(), true));
    }
    return s;
  }

  // `depth` counts the levels of the tree being built (a parenthesis, a unary minus, an argument
  // list, each operator of a chain such as a + b + c). Bounding it bounds the recursion of every
  // later pass over the tree, so a hostile input cannot overflow the stack.
  void enter(int depth) {
    if (depth > kMaxExprDepth)
      fail(cur(), "expression is too long or too deeply nested (more than " +
                      std::to_string(kMaxExprDepth) + " levels); split it into several statements");
  }

  Expr binary(Expr::Kind k, SourceLoc loc, Expr lhs, Expr rhs) {
    Expr e;
    e.kind = k;
    e.loc = loc;
    e.args.push_back(std::move(lhs));
    e.args.push_back(std::move(rhs));
    return e;
  }

  Expr parseExpr(int depth) {
    Expr lhs = parseTerm(depth);
    for (int chain = 1; at(Tok::Plus) || at(Tok::Minus); ++chain) {
      enter(depth + chain);
      Token op = take();
      Expr rhs = parseTerm(depth + chain);
      lhs = binary(op.kind == Tok::Plus ? Expr::Kind::Add : Expr::Kind::Sub, op.loc, std::move(lhs),
                   std::move(rhs));
    }
    return lhs;
  }

  Expr parseTerm(int depth) {
    Expr lhs = parseUnary(depth);
    for (int chain = 1; at(Tok::Star) || at(Tok::Slash); ++chain) {
      enter(depth + chain);
      Token op = take();
      Expr rhs = parseUnary(depth + chain);
      lhs = binary(op.kind == Tok::Star ? Expr::Kind::Mul : Expr::Kind::Div, op.loc, std::move(lhs),
                   std::move(rhs));
    }
    return lhs;
  }

  Expr parseUnary(int depth) {
    if (at(Tok::Minus)) {
      enter(depth + 1);
      Token op = take();
      Expr e;
      e.kind = Expr::Kind::Neg;
      e.loc = op.loc;
      e.args.push_back(parseUnary(depth + 1));
      return e;
    }
    return parsePrimary(depth);
  }

  Expr parsePrimary(int depth) {
    Expr e;
    e.loc = cur().loc;
    if (at(Tok::IntLit)) {
      Token t = take();
      e.kind = Expr::Kind::IntLit;
      e.intValue = t.intValue;
      e.text = t.text;
      return e;
    }
    if (at(Tok::FloatLit)) {
      Token t = take();
      e.kind = Expr::Kind::FloatLit;
      e.floatValue = t.floatValue;
      e.text = t.text;
      return e;
    }
    if (at(Tok::LParen)) {
      enter(depth + 1);
      take();
      Expr inner = parseExpr(depth + 1);
      expect(Tok::RParen, "to close '('");
      return inner;
    }
    if (at(Tok::Ident)) {
      rejectKeyword("an expression");
      Token t = take();
      e.name = t.text;
      if (!at(Tok::LParen)) {
        e.kind = Expr::Kind::Name;
        return e;
      }
      enter(depth + 1);
      take();
      e.kind = Expr::Kind::Access;
      if (!at(Tok::RParen)) {
        do {
          e.args.push_back(parseExpr(depth + 1));
        } while (at(Tok::Comma) && (take(), true));
      }
      expect(Tok::RParen, "to close the argument list of '" + e.name + "'");
      return e;
    }
    expected("an expression");
  }

  std::shared_ptr<const SourceFile> file_;
  std::vector<Token> toks_;
  size_t pos_ = 0;
};

} // namespace

Module parse(const std::shared_ptr<const SourceFile>& file) {
  LexResult lexed = lex(file);
  Module m = Parser(file, std::move(lexed.tokens)).parseModule();
  Directives dir = parseDirectives(file, lexed.comments);
  m.sizeDefaults = std::move(dir.sizes);
  m.expFrac = dir.expFrac;
  return m;
}

} // namespace rubick::tc
