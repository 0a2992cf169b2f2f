// SPDX-License-Identifier: Apache-2.0
#pragma once
// A fresh directory under the test's temporary directory, removed with everything in it when
// the object goes (tests leave nothing behind).

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <stdexcept>
#include <string>

namespace rubick::test {

class TempDir {
public:
  explicit TempDir(const std::string& prefix = "rubick_test_") {
    std::string pattern =
        (std::filesystem::path(testing::TempDir()) / (prefix + "XXXXXX")).string();
    if (!::mkdtemp(pattern.data())) throw std::runtime_error("mkdtemp failed for " + pattern);
    path_ = pattern;
  }
  ~TempDir() {
    std::error_code ec;
    std::filesystem::remove_all(path_, ec);
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;

  const std::filesystem::path& path() const { return path_; }
  std::string operator/(const std::string& name) const { return (path_ / name).string(); }

private:
  std::filesystem::path path_;
};

} // namespace rubick::test
