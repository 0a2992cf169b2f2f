#pragma once
// A progress bar on stderr, shown only when stderr is a terminal and the work has already taken
// more than a second (so quick runs and pipes stay clean).

#include <chrono>
#include <cstddef>

namespace rubick::cli {

class Progress {
public:
  explicit Progress(bool quiet);
  void update(size_t done, size_t total);
  void finish();

private:
  bool enabled_;
  bool drawn_ = false;
  std::chrono::steady_clock::time_point start_;
};

} // namespace rubick::cli
