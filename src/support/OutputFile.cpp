// SPDX-License-Identifier: Apache-2.0
#include "rubick/support/OutputFile.h"

#include "rubick/support/Diagnostic.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <unistd.h>

namespace rubick {

void writeFileAtomically(const std::string& path, const std::string& content) {
  std::string tmp = path + ".tmp." + std::to_string(::getpid());
  {
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    if (!out) throw Error(path, std::string("cannot write file: ") + std::strerror(errno));
    out.write(content.data(), static_cast<std::streamsize>(content.size()));
    out.flush();
    if (!out) {
      int err = errno;
      std::remove(tmp.c_str());
      throw Error(path, std::string("cannot write file: ") + std::strerror(err));
    }
  }
  if (std::rename(tmp.c_str(), path.c_str()) != 0) {
    int err = errno;
    std::remove(tmp.c_str());
    throw Error(path, std::string("cannot write file: ") + std::strerror(err));
  }
}

} // namespace rubick
