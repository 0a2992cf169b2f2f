// SPDX-License-Identifier: Apache-2.0
// Stopping a search: an exception thrown on a worker thread (by onDesign, which runs inside a
// work item) or by the progress callback on the calling thread comes out of explore() as that
// exception (not std::terminate), as does a signal (rubick::Interrupted), whatever the thread
// count; and the next search runs normally.

#include "dataflow_test_util.h"

#include "rubick/dse/Explore.h"
#include "rubick/support/Interrupt.h"

#include <gtest/gtest.h>

#include <atomic>
#include <csignal>
#include <stdexcept>

namespace rubick::dse {
namespace {

ExploreOptions options(unsigned threads) {
  ExploreOptions o;
  o.constraints.arrays = {{4, 4}, {3, 5}, {6, 2}, {8, 8}};
  o.constraints.elementBits = {32, 8, 8};
  o.threads = threads;
  o.keepBest = 5;
  return o;
}

// The message of the std::runtime_error `f` throws ("" when none).
template <class F>
std::string runtimeErrorOf(F f) {
  try {
    f();
  } catch (const std::runtime_error& e) {
    return e.what();
  }
  return "";
}

TEST(ExploreStop, AnExceptionInAWorkItemComesOutOfExplore) {
  dataflow::StatementView v = dataflow::test::gemm(6, 5, 7);
  const size_t designs = explore(v, options(1)).stats.designs;
  ASSERT_GT(designs, 100u);
  for (unsigned threads : {1u, 3u}) {
    ExploreOptions o = options(threads);
    std::atomic<size_t> calls{0};
    o.onDesign = [&](const DesignPoint&) {
      if (++calls == 10) throw std::runtime_error("disk full");
    };
    EXPECT_EQ(runtimeErrorOf([&] { explore(v, o); }), "disk full") << threads;
    // No work item is started after the failure: far fewer designs than the whole search.
    EXPECT_LT(calls.load(), designs) << threads;
  }
  EXPECT_EQ(explore(v, options(3)).stats.designs, designs);
}

TEST(ExploreStop, AnExceptionInTheProgressCallbackComesOutOfExplore) {
  dataflow::StatementView v = dataflow::test::gemm(6, 5, 7);
  for (unsigned threads : {1u, 3u}) {
    ExploreOptions o = options(threads);
    size_t calls = 0;
    o.progress = [&](size_t, size_t, size_t) {
      if (++calls == 2) throw std::runtime_error("stop");
    };
    EXPECT_EQ(runtimeErrorOf([&] { explore(v, o); }), "stop") << threads;
    EXPECT_EQ(calls, 2u);
  }
}

TEST(ExploreStop, ASignalStopsTheSearch) {
  dataflow::StatementView v = dataflow::test::gemm(6, 5, 7);
  for (unsigned threads : {1u, 3u}) {
    ExploreOptions o = options(threads);
    EXPECT_FALSE(interruptsPolled());
    o.onDesign = [&](const DesignPoint& d) {
      // explore() holds an InterruptScope, so the CLI's handler would record the signal.
      EXPECT_TRUE(interruptsPolled());
      if (d.order == 0) requestInterrupt(SIGINT);
    };
    try {
      explore(v, o);
      ADD_FAILURE() << "not interrupted";
    } catch (const Interrupted& e) {
      EXPECT_EQ(e.signal(), SIGINT);
    }
    resetInterrupt();
    EXPECT_FALSE(interruptsPolled());
  }
  EXPECT_GT(explore(v, options(2)).stats.designs, 0u);
}

} // namespace
} // namespace rubick::dse
