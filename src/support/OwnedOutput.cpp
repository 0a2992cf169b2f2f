// SPDX-License-Identifier: Apache-2.0
#include "rubick/support/OwnedOutput.h"

#include "rubick/support/Diagnostic.h"
#include "rubick/support/Hash.h"
#include "rubick/support/Interrupt.h"
#include "rubick/support/OutputFile.h"
#include "rubick/support/StreamedFile.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <sstream>
#include <stdexcept>
#include <unistd.h>

namespace rubick {

namespace fs = std::filesystem;

namespace {

const char* const kManifestTitle =
    "rubick output directory: rubick replaces it only while it holds just these files, unchanged";

std::string readAll(const fs::path& p, size_t limit = std::string::npos) {
  std::ifstream in(p, std::ios::binary);
  if (limit == std::string::npos) {
    std::ostringstream ss;
    ss << in.rdbuf();
    return ss.str();
  }
  std::string s(limit, '\0');
  in.read(s.data(), static_cast<std::streamsize>(limit));
  s.resize(static_cast<size_t>(in.gcount()));
  return s;
}

// The path rubick works on: absolute, normalised, without a trailing separator, so that
// "out/" and "out" name the same directory and its parent is known.
fs::path normalised(const std::string& dir) {
  std::string s = fs::absolute(dir).lexically_normal().string();
  while (s.size() > 1 && s.back() == '/')
    s.pop_back();
  return s;
}

const char* const kHowToProceed =
    "choose another -o, move the files away, or pass --force to replace it anyway";

// Why rubick may not replace the directory `dir`, or "" when it may.
std::string foreignContent(const fs::path& dir) {
  const fs::path manifest = dir / kManifestName;
  std::error_code ec;
  if (fs::is_empty(dir, ec) && !ec) return "";
  if (!fs::is_regular_file(fs::symlink_status(manifest, ec)))
    return "it is not empty and rubick did not write it (no " + std::string(kManifestName) +
           " manifest)";
  std::map<std::string, std::string> listed; // path -> hash
  std::istringstream in(readAll(manifest));
  std::string line;
  std::getline(in, line);
  if (line != kManifestTitle) return std::string(kManifestName) + " is not rubick's manifest";
  while (std::getline(in, line))
    if (line.size() > 17 && line[16] == ' ') listed[line.substr(17)] = line.substr(0, 16);
  for (fs::recursive_directory_iterator it(dir, ec), end; it != end && !ec; it.increment(ec)) {
    const fs::file_status st = it->symlink_status(ec);
    if (fs::is_directory(st)) continue;
    const std::string rel = it->path().lexically_relative(dir).generic_string();
    if (rel == kManifestName) continue;
    auto found = listed.find(rel);
    if (!fs::is_regular_file(st) || found == listed.end())
      return "it holds " + rel + ", which rubick did not write there";
    if (fnv1aHex(readAll(it->path())) != found->second)
      return rel + " has changed since rubick wrote it";
  }
  if (ec) return "it cannot be read: " + ec.message();
  return "";
}

// A work directory an earlier rubick (before the mark existed) filled: nothing in it but
// verify's own entries, i.e. `.runtime`, design directories (each with its design.json) and, in
// a runtime directory, the flavours with their locks, logs and build directories.
bool earlierWorkDirectory(const fs::path& dir) {
  static const std::regex runtimeEntry(
      "[0-9a-f]{16}-(plain|trace)(\\.lock|\\.failed\\.log|\\.tmp-[0-9]+)?|probe-[0-9]+\\.log");
  std::error_code ec;
  for (fs::directory_iterator it(dir, ec), end; it != end && !ec; it.increment(ec)) {
    const std::string name = it->path().filename().string();
    const bool isDir = fs::is_directory(it->symlink_status(ec));
    if (name == ".runtime" && isDir) continue;
    if (isDir && fs::is_regular_file(it->path() / "design.json", ec)) continue;
    if (std::regex_match(name, runtimeEntry)) continue;
    return false;
  }
  return !ec;
}

} // namespace

std::string manifestText(const std::vector<OutputEntry>& files) {
  std::string text = std::string(kManifestTitle) + "\n";
  for (const OutputEntry& f : files)
    text += fnv1aHex(f.content) + " " + f.path + "\n";
  return text;
}

void checkOutputDirectory(const std::string& dir, Overwrite how) {
  const fs::path target = normalised(dir);
  const fs::path cwd = normalised(".");
  // Replacing the current directory (or one holding it) would pull it from under rubick.
  const std::string rel = cwd.lexically_relative(target).generic_string();
  if (!target.has_parent_path() || target == target.root_path() || rel == "." ||
      (!rel.empty() && rel.rfind("..", 0) != 0))
    throw Error(dir, "cannot be an output directory: it holds the current directory; name a "
                     "new or rubick-written directory with -o");
  std::error_code ec;
  const fs::file_status st = fs::symlink_status(target, ec);
  if (!fs::exists(st) || how == Overwrite::Force) return;
  if (!fs::is_directory(st))
    throw Error(dir, std::string("refusing to replace ") +
                         (fs::is_symlink(st) ? "this symbolic link" : "this file") +
                         " with an output directory; " + kHowToProceed);
  const std::string why = foreignContent(target);
  if (!why.empty())
    throw Error(dir, "refusing to replace this directory: " + why + "; " + kHowToProceed);
}

void writeOutputDirectory(const std::string& dir, const std::vector<OutputEntry>& files,
                          Overwrite how) {
  InterruptScope interruptible; // a signal removes the half-written temporary directory
  checkOutputDirectory(dir, how);
  const fs::path target = normalised(dir);
  const fs::path parent = target.parent_path();
  std::error_code ec;
  // Missing parents are created like `mkdir -p` (only new, empty directories), and removed
  // again when the write fails, so a failure leaves nothing behind.
  std::vector<fs::path> created;
  for (fs::path p = parent; !p.empty() && !fs::exists(fs::symlink_status(p, ec));
       p = p.parent_path()) {
    created.push_back(p);
    if (p == p.parent_path()) break;
  }
  auto removeCreated = [&] {
    for (const fs::path& p : created)
      fs::remove(p, ec); // only if still empty
  };
  if (!created.empty()) {
    fs::create_directories(parent, ec);
    if (ec) {
      removeCreated();
      throw Error(dir, "cannot create the parent directory: " + ec.message());
    }
  }
  if (!fs::is_directory(parent, ec))
    throw Error(dir, "cannot write: the parent is not a directory");
  const std::string pid = std::to_string(::getpid());
  const fs::path tmp = parent / (target.filename().string() + ".tmp." + pid);
  fs::remove_all(tmp, ec);
  try {
    std::vector<OutputEntry> all = files;
    all.push_back({kManifestName, manifestText(files)});
    for (const OutputEntry& f : all) {
      throwIfInterrupted();
      const fs::path p = tmp / f.path;
      fs::create_directories(p.parent_path());
      std::ofstream out(p, std::ios::binary);
      out << f.content;
      out.close();
      if (!out)
        throw Error(dir, std::string("cannot write ") + f.path + ": " + std::strerror(errno));
    }
    const fs::path old = parent / (target.filename().string() + ".old." + pid);
    const bool had = fs::exists(fs::symlink_status(target, ec));
    if (had) fs::rename(target, old);
    fs::rename(tmp, target);
    if (had) fs::remove_all(old, ec);
  } catch (const fs::filesystem_error& e) {
    fs::remove_all(tmp, ec);
    removeCreated();
    throw Error(dir, std::string("cannot write: ") + e.code().message());
  } catch (...) {
    fs::remove_all(tmp, ec);
    removeCreated();
    throw;
  }
}

void checkOwnOutputDirectory(const std::string& dir) {
  const fs::path target = normalised(dir);
  std::error_code ec;
  if (!fs::is_directory(fs::symlink_status(target, ec)) ||
      !fs::is_regular_file(fs::symlink_status(target / kManifestName, ec)))
    throw Error(dir, std::string("not an output directory of rubick (no ") + kManifestName +
                         "): give the folder `rubick emit -o` wrote");
  if (const std::string why = foreignContent(target); !why.empty())
    throw Error(dir, "refusing to add to this directory: " + why +
                         "; emit the design again (or move the other files away)");
}

void addToOutputDirectory(const std::string& dir, const std::vector<OutputEntry>& files) {
  checkOwnOutputDirectory(dir);
  const fs::path target = normalised(dir);
  std::error_code ec;
  // Everything the manifest lists, with the new files in place of any of the same path. The
  // files are written in place (each atomically), then the manifest: the folder may be the
  // current directory, which cannot be replaced whole.
  std::map<std::string, std::string> all;
  std::istringstream in(readAll(target / kManifestName));
  std::string line;
  std::getline(in, line);
  while (std::getline(in, line))
    if (line.size() > 17 && line[16] == ' ')
      all[line.substr(17)] = readAll(target / line.substr(17));
  for (const OutputEntry& f : files) {
    if (f.path.empty() || f.path.front() == '/' || f.path.find("..") != std::string::npos ||
        f.path == kManifestName)
      throw std::logic_error("addToOutputDirectory: a bad path '" + f.path + "'");
    const fs::path p = target / f.path;
    fs::create_directories(p.parent_path(), ec);
    if (ec) throw Error(dir, "cannot create " + p.parent_path().string() + ": " + ec.message());
    writeFileAtomically(p.string(), f.content);
    all[f.path] = f.content;
  }
  std::vector<OutputEntry> entries;
  for (auto& [path, content] : all)
    entries.push_back({path, std::move(content)});
  writeFileAtomically((target / kManifestName).string(), manifestText(entries));
}

void claimWorkDirectory(const std::string& dir, Overwrite how) {
  std::error_code ec;
  const fs::file_status st = fs::status(dir, ec);
  if (fs::exists(st) && !fs::is_directory(st))
    throw Error(dir, "cannot be a work directory: it is not a directory; remove it or choose "
                     "another --work");
  if (!fs::exists(st)) {
    fs::create_directories(dir, ec);
    if (ec) throw Error(dir, "cannot create the work directory: " + ec.message());
  }
  const fs::path mark = fs::path(dir) / kWorkMarkName;
  if (fs::exists(mark, ec)) return;
  // Concurrent rubick processes may claim one directory: each sees it empty or marked, as the
  // mark is the first thing written into it.
  if (!fs::is_empty(dir, ec) && how != Overwrite::Force && !earlierWorkDirectory(dir))
    throw Error(dir, std::string("refusing to use this directory for verify's work: it is not "
                                 "empty and is not a rubick work directory (no ") +
                         kWorkMarkName +
                         "); rubick builds, reuses and deletes files there, so choose another "
                         "--work (or --runtime-dir), or pass --force to use it anyway");
  std::ofstream out(mark, std::ios::binary);
  out << "rubick work directory: `rubick verify` builds, reuses and deletes files here\n";
  out.close();
  if (!out) throw Error(dir, std::string("cannot write ") + kWorkMarkName);
}

void checkOutputFile(const std::string& path, const std::string& signature, Overwrite how) {
  std::error_code ec;
  const fs::file_status st = fs::status(path, ec);
  if (fs::is_directory(st))
    throw Error(path, "is a directory; rubick writes a file here, never into a directory: give "
                      "a file name");
  if (!fs::exists(fs::symlink_status(path, ec)) || how == Overwrite::Force) return;
  const bool ours = !signature.empty() && fs::is_regular_file(st) &&
                    readAll(path, 4096).find(signature) != std::string::npos;
  if (!ours)
    throw Error(path, "refusing to overwrite this file: rubick cannot tell that it wrote it, and "
                      "it never overwrites what it did not write; choose another name, remove "
                      "it, or pass --force to overwrite it");
}

void writeOutputFile(const std::string& path, const std::string& content,
                     const std::string& signature, Overwrite how) {
  checkOutputFile(path, signature, how);
  writeFileAtomically(path, content);
}

void commitOutputFile(StreamedFile& file, const std::string& signature, Overwrite how) {
  checkOutputFile(file.path(), signature, how);
  file.commit();
}

} // namespace rubick
