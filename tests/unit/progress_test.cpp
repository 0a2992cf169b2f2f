// SPDX-License-Identifier: Apache-2.0
// The explore progress bar (src/tools/Progress.h) with a fake clock: how often it redraws, that
// it stays silent off a terminal, and its text (bar, designs/s, time left).

#include "Progress.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace rubick::cli {
namespace {

struct Fake {
  double now = 100; // any origin
  std::vector<std::string> written;
  Progress make(bool terminal) {
    return Progress(
        terminal, [this] { return now; }, [this](const std::string& s) { written.push_back(s); });
  }
};

TEST(Progress, RedrawsAFewTimesASecondOnly) {
  Fake f;
  Progress p = f.make(true);
  // 10 s of work with an update every millisecond: 10,000 updates.
  for (int i = 0; i < 10000; ++i) {
    f.now = 100 + i * 0.001;
    p.update(i, 10000, 3 * i);
  }
  // Nothing in the first second, then at most one redraw per 0.25 s over the other 9 s.
  EXPECT_GE(f.written.size(), 30u);
  EXPECT_LE(f.written.size(), 37u);
  for (const std::string& s : f.written)
    EXPECT_EQ(s.front(), '\r');
  p.finish();
  ASSERT_EQ(f.written.size() > 0, true);
  EXPECT_EQ(f.written.back().find_first_not_of(" \r"), std::string::npos); // cleared
}

TEST(Progress, QuickWorkDrawsNothing) {
  Fake f;
  Progress p = f.make(true);
  for (int i = 0; i <= 100; ++i) {
    f.now = 100 + i * 0.009; // 0.9 s in all
    p.update(i, 100, i);
  }
  p.finish();
  EXPECT_TRUE(f.written.empty());
}

TEST(Progress, SilentWhenNotATerminal) {
  Fake f;
  Progress p = f.make(false);
  for (int i = 0; i < 1000; ++i) {
    f.now = 100 + i * 0.1;
    p.update(i, 1000, i);
  }
  p.finish();
  EXPECT_TRUE(f.written.empty());
}

TEST(Progress, LineShowsRateAndTimeLeft) {
  // 40 of 160 items in 10 s: 30 s left; 12345 designs in 10 s: 1234.5/s -> "1.23k".
  EXPECT_EQ(progressLine({40, 160, 12345, 10.0}),
            "[=====               ]  25% (40/160) 12345 designs, 1.23k/s, 30 s left");
  // Done: no time left shown.
  EXPECT_EQ(progressLine({160, 160, 500, 2.0}),
            "[====================] 100% (160/160) 500 designs, 250/s");
  // 1 of 100 in 75 s: 99 x 75 s = 2 h 03 min 45 s.
  EXPECT_NE(progressLine({1, 100, 7, 75.0}).find("2 h 03 min left"), std::string::npos);
  EXPECT_NE(progressLine({10, 100, 7, 10.0}).find("1 min 30 s left"), std::string::npos);
}

TEST(Progress, RateAndSummaryText) {
  EXPECT_EQ(rateText(950), "950");
  EXPECT_EQ(rateText(3100), "3.1k");
  EXPECT_EQ(rateText(456789), "457k");
  EXPECT_EQ(rateText(12.34e6), "12.3M");
  EXPECT_EQ(summaryLine(10, 8, 2.0), "10 candidates, 8 designs in 2.00 s (4 designs/s)");
}

TEST(Progress, ShorterLineOverwritesTheLongerOne) {
  Fake f;
  Progress p = f.make(true);
  f.now = 102;
  p.update(1, 100, 5); // long: has "left"
  f.now = 103;
  p.update(100, 100, 9); // done: shorter
  ASSERT_EQ(f.written.size(), 2u);
  EXPECT_EQ(f.written[1].size(), f.written[0].size());
}

} // namespace
} // namespace rubick::cli
