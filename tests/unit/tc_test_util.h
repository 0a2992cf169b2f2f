// SPDX-License-Identifier: Apache-2.0
#pragma once
// Helpers shared by the front-end unit tests: build programs from text, capture errors.

#include "rubick/frontend/Parser.h"
#include "rubick/frontend/Sema.h"
#include "rubick/support/Diagnostic.h"

#include <functional>
#include <memory>
#include <ostream>
#include <string>

namespace rubick {
/// Lets GoogleTest print locations as "line:col".
inline void PrintTo(const SourceLoc& l, std::ostream* os) {
  *os << l.line << ":" << l.col;
}
} // namespace rubick

namespace rubick::test {

inline std::shared_ptr<const SourceFile> source(std::string text, std::string name = "t.tc") {
  return std::make_shared<const SourceFile>(std::move(name), std::move(text));
}

inline tc::Module parseText(const std::string& text) {
  return tc::parse(source(text));
}

inline tc::Program analyzeText(const std::string& text, const tc::SemaOptions& opts = {}) {
  auto file = source(text);
  return tc::analyze(tc::parse(file), file, opts);
}

/// The message of the rubick::Error that `f` throws, or "<no error>".
inline std::string errorOf(const std::function<void()>& f) {
  try {
    f();
  } catch (const Error& e) {
    return e.diag().message;
  }
  return "<no error>";
}

/// The error of analysing `text`, as `line:col: message` (or `origin: message` without a place).
inline std::string semaError(const std::string& text, const tc::SemaOptions& opts = {}) {
  try {
    analyzeText(text, opts);
  } catch (const Error& e) {
    const Diagnostic& d = e.diag();
    if (!d.loc.valid()) return e.origin() + ": " + d.message;
    return std::to_string(d.loc.line) + ":" + std::to_string(d.loc.col) + ": " + d.message;
  }
  return "<no error>";
}

inline std::string readExample(const std::string& name) {
  return readSourceFile(std::string(RUBICK_SOURCE_DIR) + "/examples/" + name).text();
}

} // namespace rubick::test
