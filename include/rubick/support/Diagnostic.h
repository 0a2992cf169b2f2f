// SPDX-License-Identifier: Apache-2.0
#pragma once
// User-facing errors. The library reports a user mistake by throwing rubick::Error; the CLI
// prints it as `file:line:col: error: message`, quotes the line and puts a caret under the column.

#include "rubick/support/SourceFile.h"

#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

namespace rubick {

struct DiagNote {
  SourceLoc loc;
  std::string message;
};

struct Diagnostic {
  /// Where the message points. Without a valid location the message is printed as
  /// `<origin>: error: message` (origin is e.g. the file name or "command line").
  SourceLoc loc;
  /// Length of the underlined token (at least 1 caret is drawn).
  uint32_t length = 1;
  std::string message;
  std::vector<DiagNote> notes;
};

/// A user mistake with its location. `file` is shared so errors stay cheap to copy. Messages,
/// notes and the origin are made safe to print when the error is built (support/Printable.h):
/// control bytes escaped, words longer than 64 characters cut.
class Error : public std::runtime_error {
public:
  Error(std::shared_ptr<const SourceFile> file, Diagnostic diag);
  /// An error about something that has no place in a file (a command-line value, a path).
  Error(std::string origin, std::string message);

  const Diagnostic& diag() const { return diag_; }
  const SourceFile* file() const { return file_.get(); }
  const std::string& origin() const { return origin_; }

private:
  struct Safe {};
  Error(std::shared_ptr<const SourceFile> file, Diagnostic safe, Safe);

  std::shared_ptr<const SourceFile> file_;
  std::string origin_;
  Diagnostic diag_;
};

/// Renders an error the way compilers do:
///   gemm.tc:2:5: error: unknown tensor 'X'
///       C(i,j) +=! X(i,k)
///                  ^
/// The quoted line has its control bytes escaped too, and the caret counts printed columns.
std::string formatError(const Error& e);

} // namespace rubick
