// SPDX-License-Identifier: Apache-2.0
#pragma once
// The progress bar of long searches on stderr. On a terminal it appears once the work has taken
// more than a second and is redrawn a few times a second at most (one redraw per work item was
// a megabyte of terminal output for a 7 s search), with designs/s and the time left. Anywhere
// else (a pipe, a log file) it prints nothing: the command's one summary line says enough.
//
// The clock and the output are injected so that the throttling and the text are unit-tested
// without waiting.

#include <cstddef>
#include <functional>
#include <string>

namespace rubick::cli {

struct ProgressState {
  size_t done = 0, total = 0; // work items
  size_t designs = 0;         // found so far
  double seconds = 0;         // since the start
};

/// The bar's text, without the leading carriage return:
/// "[=====               ]  25% (40/160) 12345 designs, 3.1k/s, 12 s left".
std::string progressLine(const ProgressState& s);

/// A rate with 3 significant digits and k or M: "950", "3.1k", "12.3M".
std::string rateText(double perSecond);

/// The summary the command prints once at the end: "N candidates, M designs in T s (R/s)".
std::string summaryLine(size_t candidates, size_t designs, double seconds);

class Progress {
public:
  using Clock = std::function<double()>; // seconds since an arbitrary origin
  using Write = std::function<void(const std::string&)>;

  /// The real one: the steady clock and stderr, drawn only when stderr is a terminal.
  explicit Progress(bool quiet);
  /// For tests: `terminal` says whether to draw at all.
  Progress(bool terminal, Clock clock, Write write);

  void update(size_t done, size_t total, size_t designs);
  /// Clears the bar if it was drawn.
  void finish();
  /// Seconds since construction.
  double elapsed() const;

  static constexpr double kQuietStart = 1.0; // no bar for work shorter than this
  static constexpr double kInterval = 0.25;  // at most 4 redraws a second

private:
  bool enabled_;
  Clock clock_;
  Write write_;
  double start_;
  double lastDraw_ = -1;
  size_t width_ = 0; // of the last line drawn, to clear it
};

} // namespace rubick::cli
