#include "Progress.h"

#include <cstdio>
#include <unistd.h>

namespace rubick::cli {

Progress::Progress(bool quiet)
    : enabled_(!quiet && ::isatty(STDERR_FILENO)), start_(std::chrono::steady_clock::now()) {}

void Progress::update(size_t done, size_t total) {
  if (!enabled_ || total == 0) return;
  if (!drawn_ && std::chrono::steady_clock::now() - start_ < std::chrono::seconds(1)) return;
  drawn_ = true;
  const int width = 40;
  int filled = static_cast<int>(width * done / total);
  std::fprintf(stderr, "\r[%.*s%*s] %3zu%% (%zu/%zu)", filled,
               "========================================", width - filled, "", 100 * done / total,
               done, total);
  std::fflush(stderr);
}

void Progress::finish() {
  if (drawn_) std::fprintf(stderr, "\r%*s\r", 70, "");
}

} // namespace rubick::cli
