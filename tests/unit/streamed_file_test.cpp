// SPDX-License-Identifier: Apache-2.0
// A file streamed to disk and still written atomically (rubick/support/StreamedFile.h): the
// bytes reach the target only at commit(); before that, and after any failure or interruption,
// only the temporary exists, and it goes with the object. Write errors never throw from
// write() and surface at commit().

#include "rubick/support/Diagnostic.h"
#include "rubick/support/Interrupt.h"
#include "rubick/support/OwnedOutput.h"
#include "rubick/support/StreamedFile.h"

#include "temp_dir.h"

#include <gtest/gtest.h>

#include <csignal>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <sys/resource.h>

namespace rubick {
namespace {

namespace fs = std::filesystem;
using test::TempDir;

std::string readText(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// Pieces of every size around the buffer's: tiny ones, one larger than the buffer by itself,
// and ones that straddle a flush.
std::vector<std::string> pieces() {
  std::vector<std::string> out;
  for (int i = 0; i < 3000; ++i)
    out.push_back("row " + std::to_string(i) + ",abc\n");
  out.push_back(std::string(StreamedFile::kBufferBytes + 12345, 'x'));
  for (int i = 0; i < 40; ++i)
    out.push_back(std::string(StreamedFile::kBufferBytes / 7, char('a' + i % 26)));
  out.push_back("end\n");
  return out;
}

TEST(StreamedFile, CommitPutsExactlyTheBytesInPlace) {
  TempDir t;
  const std::string target = t / "out.csv";
  std::string want;
  {
    StreamedFile f(target);
    EXPECT_TRUE(fs::exists(f.temporaryPath()));
    EXPECT_EQ(fs::path(f.temporaryPath()).parent_path(), fs::path(target).parent_path());
    for (const std::string& p : pieces()) {
      f.write(p);
      want += p;
    }
    EXPECT_EQ(f.size(), want.size());
    EXPECT_FALSE(fs::exists(target)); // nothing visible before the commit
    f.commit();
    EXPECT_FALSE(fs::exists(f.temporaryPath()));
  }
  EXPECT_EQ(readText(target), want);
  EXPECT_EQ(std::distance(fs::directory_iterator(t.path()), fs::directory_iterator()), 1);
}

TEST(StreamedFile, WithoutCommitNothingIsLeftAndTheOldFileStays) {
  TempDir t;
  const std::string target = t / "out.csv";
  std::ofstream(target) << "old\n";
  std::string tmp;
  {
    StreamedFile f(target);
    tmp = f.temporaryPath();
    for (const std::string& p : pieces())
      f.write(p);
    f.flush();
    EXPECT_GT(fs::file_size(tmp), StreamedFile::kBufferBytes);
  } // as when an exception unwinds
  EXPECT_FALSE(fs::exists(tmp));
  EXPECT_EQ(readText(target), "old\n");
}

TEST(StreamedFile, PatchesFlushedBytesInPlace) {
  TempDir t;
  const std::string target = t / "p.txt";
  StreamedFile f(target);
  f.write("id,pareto\nab,0\ncd,0\n");
  EXPECT_THROW(f.writeAt(13, "1"), std::logic_error); // still in the buffer
  f.flush();
  char buf[4] = {};
  ASSERT_EQ(f.readAt(10, buf, 4), 4u);
  EXPECT_EQ(std::string(buf, 4), "ab,0");
  EXPECT_EQ(f.readAt(18, buf, 4), 2u); // "0\n": short at the end
  f.writeAt(18, "1");
  f.write("ef,0\n");
  f.commit();
  EXPECT_EQ(readText(target), "id,pareto\nab,0\ncd,1\nef,0\n");
}

TEST(StreamedFile, ACreationFailureNamesThePath) {
  TempDir t;
  const std::string target = t / "missing/out.csv";
  try {
    StreamedFile f(target);
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_EQ(e.origin(), target);
    EXPECT_NE(e.diag().message.find(std::strerror(ENOENT)), std::string::npos) << e.diag().message;
  }
}

// A disk filling up, made deterministic with the file-size limit (EFBIG instead of ENOSPC).
TEST(StreamedFile, AWriteErrorIsRecordedAndReportedAtCommit) {
  TempDir t;
  const std::string target = t / "big.csv";
  struct rlimit old = {};
  ASSERT_EQ(::getrlimit(RLIMIT_FSIZE, &old), 0);
  if (old.rlim_max != RLIM_INFINITY && old.rlim_max < (rlim_t(1) << 20))
    GTEST_SKIP() << "file size limit already below 1 MiB";
  auto oldHandler = std::signal(SIGXFSZ, SIG_IGN); // the write fails instead of killing us
  struct rlimit small = old;
  small.rlim_cur = rlim_t(1) << 20;
  ASSERT_EQ(::setrlimit(RLIMIT_FSIZE, &small), 0);
  std::string tmp, message, origin;
  {
    StreamedFile f(target);
    tmp = f.temporaryPath();
    for (const std::string& p : pieces())
      f.write(p); // never throws
    try {
      f.check();
    } catch (const Error& e) {
      message = e.diag().message;
    }
    EXPECT_THROW(f.commit(), Error);
  }
  ::setrlimit(RLIMIT_FSIZE, &old);
  std::signal(SIGXFSZ, oldHandler);
  EXPECT_EQ(message, std::string("cannot write file: ") + std::strerror(EFBIG));
  EXPECT_FALSE(fs::exists(tmp));
  EXPECT_FALSE(fs::exists(target));
}

TEST(StreamedFile, AnInterruptionBeforeTheCommitLeavesNothing) {
  TempDir t;
  const std::string target = t / "i.csv";
  std::string tmp;
  {
    StreamedFile f(target);
    EXPECT_TRUE(interruptsPolled()); // a signal now unwinds instead of killing the process
    tmp = f.temporaryPath();
    f.write("id,pareto\n");
    requestInterrupt(SIGINT);
    EXPECT_THROW(f.commit(), Interrupted);
    resetInterrupt();
  }
  EXPECT_FALSE(interruptsPolled());
  EXPECT_FALSE(fs::exists(tmp));
  EXPECT_FALSE(fs::exists(target));
}

TEST(StreamedFile, CommitOutputFileKeepsAForeignFile) {
  // The target may appear while the file is streamed: it is checked again at the commit.
  TempDir t;
  const std::string target = t / "late.csv";
  StreamedFile f(target);
  f.write("id,pareto\n");
  std::ofstream(target) << "mine\n";
  EXPECT_THROW(commitOutputFile(f, "id,pareto", Overwrite::OwnOnly), Error);
  EXPECT_EQ(readText(target), "mine\n");
  commitOutputFile(f, "id,pareto", Overwrite::Force);
  EXPECT_EQ(readText(target), "id,pareto\n");
}

} // namespace
} // namespace rubick
