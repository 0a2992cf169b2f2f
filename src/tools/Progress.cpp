// SPDX-License-Identifier: Apache-2.0
#include "Progress.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <unistd.h>
#include <utility>

namespace rubick::cli {

std::string rateText(double x) {
  char buf[32];
  const char* suffix = "";
  if (x >= 1e6) {
    x /= 1e6;
    suffix = "M";
  } else if (x >= 1e3) {
    x /= 1e3;
    suffix = "k";
  }
  std::snprintf(buf, sizeof buf, x >= 100 || !*suffix ? "%.0f%s" : "%.3g%s", x, suffix);
  return buf;
}

namespace {

std::string durationText(double s) {
  char buf[32];
  if (s < 60)
    std::snprintf(buf, sizeof buf, "%.0f s", s);
  else if (s < 3600)
    std::snprintf(buf, sizeof buf, "%d min %02d s", int(s) / 60, int(s) % 60);
  else
    std::snprintf(buf, sizeof buf, "%d h %02d min", int(s) / 3600, int(s) / 60 % 60);
  return buf;
}

} // namespace

std::string progressLine(const ProgressState& s) {
  const size_t width = 20;
  const size_t total = s.total ? s.total : 1;
  const size_t filled = width * s.done / total;
  std::string bar = "[" + std::string(filled, '=') + std::string(width - filled, ' ') + "]";
  char head[64];
  std::snprintf(head, sizeof head, " %3zu%% (%zu/%zu) ", 100 * s.done / total, s.done, s.total);
  std::string line = bar + head + std::to_string(s.designs) + " designs";
  if (s.seconds > 0) line += ", " + rateText(double(s.designs) / s.seconds) + "/s";
  // The time left, assuming the remaining work items take as long as the finished ones.
  if (s.done > 0 && s.done < s.total)
    line += ", " + durationText(s.seconds * double(s.total - s.done) / double(s.done)) + " left";
  return line;
}

std::string summaryLine(size_t candidates, size_t designs, double seconds) {
  char buf[160];
  std::snprintf(buf, sizeof buf, "%zu candidates, %zu designs in %.2f s", candidates, designs,
                seconds);
  std::string out = buf;
  if (seconds > 0) out += " (" + rateText(double(designs) / seconds) + " designs/s)";
  return out;
}

Progress::Progress(bool quiet)
    : Progress(
          !quiet && ::isatty(STDERR_FILENO),
          [] {
            return std::chrono::duration<double>(
                       std::chrono::steady_clock::now().time_since_epoch())
                .count();
          },
          [](const std::string& s) {
            std::fputs(s.c_str(), stderr);
            std::fflush(stderr);
          }) {}

Progress::Progress(bool terminal, Clock clock, Write write)
    : enabled_(terminal), clock_(std::move(clock)), write_(std::move(write)), start_(clock_()) {}

double Progress::elapsed() const {
  return clock_() - start_;
}

void Progress::update(size_t done, size_t total, size_t designs) {
  if (!enabled_ || total == 0) return;
  const double now = elapsed();
  if (now < kQuietStart) return;
  if (lastDraw_ >= 0 && now - lastDraw_ < kInterval) return;
  lastDraw_ = now;
  std::string line = progressLine({done, total, designs, now});
  // Pad over a longer previous line (the ETA text shrinks).
  const size_t w = line.size();
  if (w < width_) line += std::string(width_ - w, ' ');
  width_ = std::max(width_, w);
  write_("\r" + line);
}

void Progress::finish() {
  if (width_) write_("\r" + std::string(width_, ' ') + "\r");
  width_ = 0;
}

} // namespace rubick::cli
