// SPDX-License-Identifier: Apache-2.0
// rubick never replaces or deletes what it did not write (rubick/support/OwnedOutput.h): output
// directories, work directories and single files, each with and without --force.

#include "rubick/support/Diagnostic.h"
#include "rubick/support/OwnedOutput.h"

#include "temp_dir.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

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

void writeText(const fs::path& p, const std::string& text) {
  fs::create_directories(p.parent_path());
  std::ofstream(p, std::ios::binary) << text;
}

// The message of the rubick::Error `f` throws ("" when none).
template <class F>
std::string errorOf(F f) {
  try {
    f();
  } catch (const Error& e) {
    return e.diag().message;
  }
  return "";
}

// Everything in `dir`, relative, sorted.
std::vector<std::string> listing(const fs::path& dir) {
  std::vector<std::string> out;
  for (const auto& e : fs::recursive_directory_iterator(dir))
    out.push_back(e.path().lexically_relative(dir).generic_string());
  std::sort(out.begin(), out.end());
  return out;
}

const std::vector<OutputEntry> kFiles = {{"a.txt", "alpha\n"}, {"sub/b.txt", "beta\n"}};

TEST(OwnedOutput, WritesFilesAndManifest) {
  TempDir t;
  writeOutputDirectory(t / "out", kFiles, Overwrite::OwnOnly);
  EXPECT_EQ(listing(t.path() / "out"),
            (std::vector<std::string>{".rubick-output", "a.txt", "sub", "sub/b.txt"}));
  EXPECT_EQ(readText(t.path() / "out/sub/b.txt"), "beta\n");
  // The manifest lists each file after its hash.
  const std::string m = readText(t.path() / "out/.rubick-output");
  EXPECT_NE(m.find(" a.txt\n"), std::string::npos);
  EXPECT_NE(m.find(" sub/b.txt\n"), std::string::npos);
  EXPECT_EQ(listing(t.path()), (std::vector<std::string>{"out", "out/.rubick-output", "out/a.txt",
                                                         "out/sub", "out/sub/b.txt"}));
}

TEST(OwnedOutput, ReplacesItsOwnDirectory) {
  TempDir t;
  writeOutputDirectory(t / "out", kFiles, Overwrite::OwnOnly);
  writeOutputDirectory(t / "out/", {{"c.txt", "gamma\n"}}, Overwrite::OwnOnly);
  EXPECT_EQ(listing(t.path() / "out"), (std::vector<std::string>{".rubick-output", "c.txt"}));
  EXPECT_EQ(listing(t.path()).size(), 3u); // out, its manifest, c.txt: no temporary left
}

TEST(OwnedOutput, CreatesMissingParents) {
  TempDir t;
  writeOutputDirectory(t / "new/deeper/out", kFiles, Overwrite::OwnOnly);
  EXPECT_EQ(readText(t.path() / "new/deeper/out/a.txt"), "alpha\n");
}

TEST(OwnedOutput, RemovesTheParentsItCreatedWhenAWriteFails) {
  TempDir t;
  // A file name that the temporary directory cannot hold fails the write half-way.
  const std::vector<OutputEntry> bad = {{"a.txt", "alpha\n"}, {std::string(300, 'x'), "long\n"}};
  EXPECT_NE(errorOf([&] { writeOutputDirectory(t / "new/deeper/out", bad, Overwrite::OwnOnly); }),
            "");
  EXPECT_TRUE(listing(t.path()).empty());
}

TEST(OwnedOutput, UsesAnEmptyDirectory) {
  TempDir t;
  fs::create_directory(t.path() / "out");
  writeOutputDirectory(t / "out", kFiles, Overwrite::OwnOnly);
  EXPECT_EQ(readText(t.path() / "out/a.txt"), "alpha\n");
}

TEST(OwnedOutput, RefusesAForeignDirectory) {
  TempDir t;
  writeText(t.path() / "out/gemm.tc", "user's program\n");
  const std::string why =
      errorOf([&] { writeOutputDirectory(t / "out", kFiles, Overwrite::OwnOnly); });
  EXPECT_NE(why.find("refusing to replace this directory"), std::string::npos) << why;
  EXPECT_NE(why.find("--force"), std::string::npos) << why;
  EXPECT_EQ(listing(t.path()), (std::vector<std::string>{"out", "out/gemm.tc"}));
  EXPECT_EQ(readText(t.path() / "out/gemm.tc"), "user's program\n");
}

TEST(OwnedOutput, RefusesAFileAddedToItsDirectory) {
  TempDir t;
  writeOutputDirectory(t / "out", kFiles, Overwrite::OwnOnly);
  writeText(t.path() / "out/sub/notes.md", "mine\n");
  const std::string why =
      errorOf([&] { writeOutputDirectory(t / "out", kFiles, Overwrite::OwnOnly); });
  EXPECT_NE(why.find("sub/notes.md"), std::string::npos) << why;
  EXPECT_EQ(readText(t.path() / "out/sub/notes.md"), "mine\n");
}

TEST(OwnedOutput, RefusesAnEditedFile) {
  TempDir t;
  writeOutputDirectory(t / "out", kFiles, Overwrite::OwnOnly);
  writeText(t.path() / "out/a.txt", "alpha, edited by hand\n");
  const std::string why =
      errorOf([&] { writeOutputDirectory(t / "out", kFiles, Overwrite::OwnOnly); });
  EXPECT_NE(why.find("a.txt has changed"), std::string::npos) << why;
  EXPECT_EQ(readText(t.path() / "out/a.txt"), "alpha, edited by hand\n");
}

TEST(OwnedOutput, RefusesAForgedManifest) {
  TempDir t;
  writeText(t.path() / "out/.rubick-output", "not a manifest\n");
  EXPECT_NE(errorOf([&] { checkOutputDirectory(t / "out", Overwrite::OwnOnly); }), "");
}

TEST(OwnedOutput, RefusesAFileWhereTheDirectoryGoes) {
  TempDir t;
  writeText(t.path() / "out", "a regular file\n");
  const std::string why =
      errorOf([&] { writeOutputDirectory(t / "out", kFiles, Overwrite::OwnOnly); });
  EXPECT_NE(why.find("refusing to replace this file"), std::string::npos) << why;
  EXPECT_EQ(readText(t.path() / "out"), "a regular file\n");
  EXPECT_EQ(listing(t.path()), (std::vector<std::string>{"out"}));
}

TEST(OwnedOutput, ForceReplacesAForeignDirectory) {
  TempDir t;
  writeText(t.path() / "out/gemm.tc", "user's program\n");
  writeOutputDirectory(t / "out", kFiles, Overwrite::Force);
  EXPECT_FALSE(fs::exists(t.path() / "out/gemm.tc"));
  EXPECT_EQ(readText(t.path() / "out/a.txt"), "alpha\n");
}

TEST(OwnedOutput, NeverReplacesTheCurrentDirectory) {
  TempDir t;
  const fs::path before = fs::current_path();
  fs::current_path(t.path());
  const std::string why = errorOf([&] { checkOutputDirectory(".", Overwrite::Force); });
  const std::string parent = errorOf([&] { checkOutputDirectory("..", Overwrite::Force); });
  fs::current_path(before);
  EXPECT_NE(why.find("current directory"), std::string::npos) << why;
  EXPECT_NE(parent.find("current directory"), std::string::npos) << parent;
}

TEST(OwnedOutput, ClaimsNewEmptyOrMarkedWorkDirectories) {
  TempDir t;
  claimWorkDirectory(t / "new/work", Overwrite::OwnOnly); // created, with its parent
  EXPECT_TRUE(fs::exists(t.path() / "new/work/.rubick-work"));
  fs::create_directory(t.path() / "empty");
  claimWorkDirectory(t / "empty", Overwrite::OwnOnly);
  EXPECT_TRUE(fs::exists(t.path() / "empty/.rubick-work"));
  writeText(t.path() / "new/work/design/x", "built\n");
  claimWorkDirectory(t / "new/work", Overwrite::OwnOnly); // marked: rubick's, however full
}

TEST(OwnedOutput, RefusesAForeignWorkDirectoryUnlessForced) {
  TempDir t;
  writeText(t.path() / "home/thesis.tex", "years of work\n");
  const std::string why = errorOf([&] { claimWorkDirectory(t / "home", Overwrite::OwnOnly); });
  EXPECT_NE(why.find("refusing to use this directory"), std::string::npos) << why;
  EXPECT_EQ(listing(t.path() / "home"), (std::vector<std::string>{"thesis.tex"}));
  claimWorkDirectory(t / "home", Overwrite::Force);
  EXPECT_TRUE(fs::exists(t.path() / "home/.rubick-work"));
  EXPECT_EQ(readText(t.path() / "home/thesis.tex"), "years of work\n");
  writeText(t.path() / "file", "x");
  EXPECT_NE(errorOf([&] { claimWorkDirectory(t / "file", Overwrite::Force); }), "");
}

TEST(OwnedOutput, RecognisesAnEarlierUnmarkedWorkDirectory) {
  TempDir t;
  // As verify filled them before the mark existed: designs and the runtime.
  writeText(t.path() / "work/047b034bce/design.json", "{}\n");
  writeText(t.path() / "work/047b034bce/obj_dir/sim", "");
  writeText(t.path() / "work/.runtime/3fc6bcc13a61c12b-plain/obj/harness.o", "");
  writeText(t.path() / "work/.runtime/3fc6bcc13a61c12b-plain.lock", "");
  claimWorkDirectory(t / "work", Overwrite::OwnOnly);
  claimWorkDirectory(t / "work/.runtime", Overwrite::OwnOnly);
  EXPECT_TRUE(fs::exists(t.path() / "work/.rubick-work"));
  EXPECT_TRUE(fs::exists(t.path() / "work/.runtime/.rubick-work"));
  // One file of the user's among them makes it foreign.
  writeText(t.path() / "old/047b034bce/design.json", "{}\n");
  writeText(t.path() / "old/notes.txt", "mine\n");
  EXPECT_NE(errorOf([&] { claimWorkDirectory(t / "old", Overwrite::OwnOnly); }), "");
  // A directory without design.json is not a design.
  writeText(t.path() / "src/lib/x.c", "int x;\n");
  EXPECT_NE(errorOf([&] { claimWorkDirectory(t / "src", Overwrite::OwnOnly); }), "");
}

TEST(OwnedOutput, SingleFiles) {
  TempDir t;
  const std::string sig = "id,pareto,";
  writeOutputFile(t / "a.csv", "id,pareto,p\n1,0,4\n", sig, Overwrite::OwnOnly); // new
  writeOutputFile(t / "a.csv", "id,pareto,p\n2,1,8\n", sig, Overwrite::OwnOnly); // rubick's
  EXPECT_EQ(readText(t.path() / "a.csv"), "id,pareto,p\n2,1,8\n");
  writeText(t.path() / "mine.csv", "name,score\n");
  EXPECT_NE(errorOf([&] {
              writeOutputFile(t / "mine.csv", "id,pareto\n", sig, Overwrite::OwnOnly);
            }).find("refusing to overwrite"),
            std::string::npos);
  EXPECT_EQ(readText(t.path() / "mine.csv"), "name,score\n");
  // Without a signature (dump's text) only a new file is written.
  writeOutputFile(t / "d.txt", "one\n", "", Overwrite::OwnOnly);
  EXPECT_NE(errorOf([&] { writeOutputFile(t / "d.txt", "two\n", "", Overwrite::OwnOnly); }), "");
  EXPECT_EQ(readText(t.path() / "d.txt"), "one\n");
  writeOutputFile(t / "d.txt", "two\n", "", Overwrite::Force);
  EXPECT_EQ(readText(t.path() / "d.txt"), "two\n");
  // Never through a directory, even with --force.
  fs::create_directory(t.path() / "dir");
  EXPECT_NE(errorOf([&] {
              writeOutputFile(t / "dir", "x", sig, Overwrite::Force);
            }).find("is a directory"),
            std::string::npos);
  EXPECT_TRUE(fs::is_empty(t.path() / "dir"));
  EXPECT_EQ(listing(t.path()), (std::vector<std::string>{"a.csv", "d.txt", "dir", "mine.csv"}));
}

} // namespace
} // namespace rubick

namespace rubick {
namespace {

// `rubick synth` adds its results to an emitted folder: the manifest then lists them, so the
// folder stays rubick's (emit may replace it); a changed or foreign folder is refused.
TEST(OwnedOutput, AddsFilesToItsOwnDirectoryOnly) {
  test::TempDir t;
  const fs::path out = t.path() / "out";
  writeOutputDirectory(out.string(), kFiles, Overwrite::OwnOnly);
  addToOutputDirectory(out.string(), {{"synth/r.json", "{}\n"}, {"a.txt", "alpha 2\n"}});
  EXPECT_EQ(readText(out / "synth/r.json"), "{}\n");
  EXPECT_EQ(readText(out / "a.txt"), "alpha 2\n");
  EXPECT_EQ(
      readText(out / kManifestName),
      manifestText({{"a.txt", "alpha 2\n"}, {"sub/b.txt", "beta\n"}, {"synth/r.json", "{}\n"}}));
  EXPECT_EQ(errorOf([&] { checkOutputDirectory(out.string(), Overwrite::OwnOnly); }), "");
  writeText(out / "sub/b.txt", "edited\n");
  EXPECT_NE(errorOf([&] {
              addToOutputDirectory(out.string(), {{"c.txt", "c"}});
            }).find("sub/b.txt has changed"),
            std::string::npos);
  EXPECT_FALSE(fs::exists(out / "c.txt"));
  writeText(t.path() / "mine/x.v", "x");
  EXPECT_NE(errorOf([&] {
              addToOutputDirectory((t.path() / "mine").string(), {{"c", "c"}});
            }).find("not an output directory of rubick"),
            std::string::npos);
}

} // namespace
} // namespace rubick
