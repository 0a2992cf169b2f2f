// SPDX-License-Identifier: Apache-2.0
// `emit --name`: only plain Verilog identifiers that are not keywords become module prefixes.

#include "rubick/emit/ModuleName.h"
#include "rubick/support/Diagnostic.h"

#include <gtest/gtest.h>

namespace rubick::emit {
namespace {

std::string errorOf(const std::string& name) {
  try {
    checkModulePrefix(name);
  } catch (const Error& e) {
    EXPECT_EQ(e.origin(), "--name");
    return e.diag().message;
  }
  return "";
}

TEST(ModuleName, AcceptsIdentifiers) {
  for (const char* ok : {"gemm", "_x", "a1", "My_Design_2", "moduleX", "G"})
    EXPECT_EQ(errorOf(ok), "") << ok;
  EXPECT_EQ(errorOf(std::string(128, 'a')), "");
}

TEST(ModuleName, RejectsPathsAndPunctuation) {
  EXPECT_NE(errorOf("../../x").find("does not start with a letter"), std::string::npos);
  EXPECT_NE(errorOf("a/b").find("contains '/'"), std::string::npos);
  EXPECT_NE(errorOf("x;y").find("contains ';'"), std::string::npos);
  EXPECT_NE(errorOf("a b").find("contains ' '"), std::string::npos);
  EXPECT_NE(errorOf("a$b").find("contains '$'"), std::string::npos);
  EXPECT_NE(errorOf("a-b").find("contains '-'"), std::string::npos);
}

TEST(ModuleName, RejectsLeadingDigitEmptyAndLong) {
  EXPECT_NE(errorOf("1abc").find("does not start with a letter"), std::string::npos);
  EXPECT_NE(errorOf("").find("empty"), std::string::npos);
  EXPECT_NE(errorOf(std::string(129, 'a')).find("129 characters"), std::string::npos);
}

TEST(ModuleName, RejectsKeywords) {
  // Verilog-2005, then SystemVerilog-only words, from IEEE 1800-2017 Annex B.
  for (const char* kw : {"module", "wire", "always", "endmodule", "logic", "interface", "int",
                         "uwire", "nettype", "accept_on", "xor"})
    EXPECT_NE(errorOf(kw).find("is a Verilog keyword"), std::string::npos) << kw;
  EXPECT_TRUE(isVerilogKeyword("reg"));
  EXPECT_FALSE(isVerilogKeyword("Module")); // keywords are case-sensitive
  EXPECT_FALSE(isVerilogKeyword("gemm"));
}

} // namespace
} // namespace rubick::emit
