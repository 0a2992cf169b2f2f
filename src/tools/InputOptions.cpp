// SPDX-License-Identifier: Apache-2.0
#include "InputOptions.h"

#include "rubick/frontend/Sema.h"
#include "rubick/frontend/SizeDirective.h"

namespace rubick::cli {

void addInputOptions(CLI::App& cmd, InputOptions& opts) {
  cmd.add_option("FILE", opts.file, "Tensor Comprehensions program (.tc)")->required();
  cmd.add_option("-s,--size", opts.sizes,
                 "Bind sizes, e.g. --size M=64,N=64,K=32 (repeatable). Overrides the file's\n"
                 "'# rubick: size M=64, ...' defaults.")
      ->type_name("NAME=N,...")
      // One list per --size, so `--size M=8 prog.tc` leaves prog.tc to FILE.
      ->allow_extra_args(false);
  cmd.add_option("--def", opts.def, "Which function to use when the file defines several")
      ->type_name("NAME");
}

tc::Program loadInput(const InputOptions& opts) {
  tc::SemaOptions sema;
  sema.defName = opts.def;
  for (const std::string& list : opts.sizes)
    for (tc::SizeDefault& s : tc::parseSizeList(list, "--size", nullptr, {})) {
      for (const tc::SizeDefault& prev : sema.sizes)
        if (prev.name == s.name) throw Error("--size", "size '" + s.name + "' is given twice");
      sema.sizes.push_back(std::move(s));
    }
  return tc::loadProgram(opts.file, sema);
}

} // namespace rubick::cli
