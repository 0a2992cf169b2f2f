// SPDX-License-Identifier: Apache-2.0
// libFuzzer target: the whole front end on arbitrary bytes.
//
// A rubick::Error is the expected answer to bad input. Anything else is a bug and aborts: another
// exception, an "internal error" diagnostic, a crash, a sanitizer report, a printed program that
// does not parse back to the same tree, or a diagnostic that cannot be rendered or that would
// print a control byte. The same bytes are also tried with CRLF line endings and a byte order mark
// (which must give the same tree or the same error) and as a --size list.

#include "rubick/frontend/AstEqual.h"
#include "rubick/frontend/Parser.h"
#include "rubick/frontend/Printer.h"
#include "rubick/frontend/Sema.h"
#include "rubick/frontend/SizeDirective.h"
#include "rubick/poly/PolyProgram.h"
#include "rubick/support/Diagnostic.h"

#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>

namespace {

[[noreturn]] void bug(const std::string& what, const std::string& detail) {
  std::fprintf(stderr, "fuzz_frontend: %s\n%s\n", what.c_str(), detail.c_str());
  std::abort();
}

// Renders the error (which must not crash) and rejects internal errors, which are bugs. Only the
// start of the message is checked: the rest may quote the input, which can say anything.
void expectUserError(const rubick::Error& e) {
  std::string text = rubick::formatError(e);
  if (e.diag().message.rfind("internal error", 0) == 0) bug("internal error reported", text);
  // Only newlines and the tabs of a quoted line may reach the terminal (support/Printable.h).
  for (char c : text)
    if ((static_cast<unsigned char>(c) < 0x20 && c != '\n' && c != '\t') || c == 0x7f)
      bug("unescaped control byte in a message", text);
}

// The outcome of parsing, to compare two spellings of the same program: the tree's printed form
// or the error's location and message.
std::string parseOutcome(const std::string& name, const std::string& text) {
  try {
    return "ok\n" + rubick::tc::print(
                        rubick::tc::parse(std::make_shared<const rubick::SourceFile>(name, text)));
  } catch (const rubick::Error& e) {
    expectUserError(e);
    const rubick::Diagnostic& d = e.diag();
    return std::to_string(d.loc.line) + ":" + std::to_string(d.loc.col) + ": " + d.message;
  }
}

// Windows line endings and a byte order mark change nothing (SourceFile normalises them).
void sameWithCrlf(const std::string& text) {
  std::string crlf = "\xEF\xBB\xBF";
  for (char c : text)
    crlf += c == '\n' ? std::string("\r\n") : std::string(1, c);
  std::string want = parseOutcome("fuzz.tc", text);
  std::string got = parseOutcome("fuzz.tc", crlf);
  if (got != want) bug("CRLF and a BOM change the outcome", want + "\n---\n" + got);
}

// The input's first line as a --size value.
void sizeList(const std::string& text) {
  try {
    (void)rubick::tc::parseSizeList(text.substr(0, text.find('\n')), "--size", nullptr, {});
  } catch (const rubick::Error& e) {
    expectUserError(e);
  }
}

void roundTrip(const rubick::tc::Module& m) {
  std::string printed = rubick::tc::print(m);
  auto again = std::make_shared<const rubick::SourceFile>("printed.tc", printed);
  rubick::tc::Module m2;
  try {
    m2 = rubick::tc::parse(again);
  } catch (const rubick::Error& e) {
    bug("printed program does not parse", printed + "\n" + rubick::formatError(e));
  }
  std::string why;
  if (!rubick::tc::sameTree(m, m2, &why)) bug("round trip changed the tree: " + why, printed);
  if (rubick::tc::print(m2) != printed) bug("printing is not idempotent", printed);
}

// Promises sema makes about a program it accepts, checked on the isl model: every loop and
// tensor is non-empty (lower() itself checks that accesses stay inside their tensors).
void checkModel(const rubick::poly::PolyProgram& p) {
  for (const rubick::tc::Tensor& t : p.program.tensors)
    for (int64_t d : t.shape)
      if (d < 1 || d > rubick::tc::kMaxSize) bug("tensor with a bad dimension", t.name);
  for (const rubick::poly::PolyStatement& s : p.statements) {
    if (s.domain.is_empty()) bug("empty iteration domain", p.program.statements[s.statement].text);
    for (const rubick::tc::Loop& l : p.program.statements[s.statement].loops)
      if (l.lo < -rubick::tc::kMaxSize || l.hi > rubick::tc::kMaxSize)
        bug("loop range beyond the size limit", l.name);
  }
}

void analyzeAndLower(const rubick::tc::Module& m,
                     const std::shared_ptr<const rubick::SourceFile>& file,
                     const rubick::tc::SemaOptions& opts) {
  try {
    rubick::tc::Program prog = rubick::tc::analyze(m, file, opts);
    // A small budget keeps every input fast; exceeding it is a (user-facing) quota error.
    rubick::poly::IslContext ctx(2'000'000);
    rubick::poly::PolyProgram p = rubick::poly::lower(ctx, std::move(prog));
    checkModel(p);
    (void)rubick::poly::printPoly(p);
  } catch (const rubick::Error& e) {
    expectUserError(e);
  }
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string text(reinterpret_cast<const char*>(data), size);
  auto file = std::make_shared<const rubick::SourceFile>("fuzz.tc", text);
  // Inputs with a CR already mix line endings; the LF-only ones are compared with their CRLF form.
  if (text.find('\r') == std::string::npos && text.rfind("\xEF\xBB\xBF", 0) != 0)
    sameWithCrlf(text);
  sizeList(text);
  rubick::tc::Module m;
  try {
    m = rubick::tc::parse(file);
  } catch (const rubick::Error& e) {
    expectUserError(e);
    return 0;
  }
  roundTrip(m);
  rubick::tc::SemaOptions opts;
  analyzeAndLower(m, file, opts);
  // With several defs, check each one too (the unnamed run above only reports the ambiguity).
  if (m.defs.size() > 1)
    for (size_t i = 0; i < m.defs.size() && i < 4; ++i) {
      opts.defName = m.defs[i].name.name;
      analyzeAndLower(m, file, opts);
    }
  // The file's sizes again as --size values, changed, to exercise the override path.
  if (!m.sizeDefaults.empty()) {
    opts.defName = m.defs.front().name.name;
    for (const rubick::tc::SizeDefault& d : m.sizeDefaults)
      opts.sizes.push_back({d.name, d.value % 5 + 1, {}});
    analyzeAndLower(m, file, opts);
  }
  return 0;
}
