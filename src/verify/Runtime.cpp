// SPDX-License-Identifier: Apache-2.0
#include "Runtime.h"

#include "Files.h"

#include "rubick/emit/Templates.h"
#include "rubick/support/Diagnostic.h"
#include "rubick/support/Hash.h"
#include "rubick/support/Process.h"

#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <fcntl.h>
#include <filesystem>
#include <sstream>
#include <sys/file.h>
#include <unistd.h>

namespace rubick::verify {

namespace fs = std::filesystem;

std::vector<std::string> verilatorCommand(bool trace, const std::string& mdir) {
  std::vector<std::string> args = {"verilator", "--cc",    "--exe", "--prefix", "Vdut", "--Mdir",
                                   mdir,        "-CFLAGS", "-O1",   "-o",       "sim"};
  if (trace) args.insert(args.begin() + 1, "--trace-fst");
  return args;
}

const char* toString(BuildMode m) {
  return m == BuildMode::Quick ? "quick" : "optimised";
}

std::vector<std::string> modeVerilatorArgs(BuildMode m) {
  if (m == BuildMode::Quick) return {"-fno-inline"};
  return {};
}

std::vector<std::string> modeMakeVariables(BuildMode m) {
  // OPT_*: last on g++'s line, so they override -CFLAGS -O1. One translation unit
  // (Vdut__ALL.cpp) instead of one per class: unoptimised, parsing Verilator's headers again
  // for each of a large design's ~100 files costs far more than compiling them.
  if (m == BuildMode::Quick) return {"OPT_FAST=-O0", "OPT_SLOW=-O0", "VM_PARALLEL_BUILDS=0"};
  return {};
}

std::vector<std::string> makeCommand(const std::string& mdir, unsigned jobs) {
  return {"make", "-C", mdir, "-f", "Vdut.mk", "-j", std::to_string(jobs)};
}

std::vector<std::string> globalClasses(const std::string& classesMk) {
  std::vector<std::string> out;
  std::istringstream in(classesMk);
  std::string line;
  bool inList = false; // inside a list continued with backslashes
  while (std::getline(in, line)) {
    const bool more = !line.empty() && line.back() == '\\';
    if (!inList) {
      inList =
          more && (line.rfind("VM_GLOBAL_FAST", 0) == 0 || line.rfind("VM_GLOBAL_SLOW", 0) == 0);
      continue;
    }
    std::istringstream words(more ? line.substr(0, line.size() - 1) : line);
    for (std::string w; words >> w;)
      out.push_back(w);
    inList = more;
  }
  return out;
}

std::vector<std::string> Prebuilt::makeVariables(const std::vector<std::string>& designGlobals,
                                                 BuildMode mode, Harness h) const {
  std::vector<std::string> vars;
  // Quoted because make hands these to the shell. g++ uses the .gch only when the flags match
  // those it was built with (else it reads the header itself), so this is never wrong.
  if (mode == BuildMode::Quick && !pch.empty())
    vars.push_back("USER_CPPFLAGS=-include '" + pch + "'");
  const std::string& core = h == Harness::Memory ? memHarness
                            : h == Harness::Pim  ? pimHarness
                                                 : harness;
  std::string link = "'" + core + "'";
  if (designGlobals != globals) {
    vars.push_back("USER_LDLIBS=" + link);
    return vars;
  }
  for (const std::string& o : objects)
    link += " '" + o + "'";
  for (const char* v : {"VM_GLOBAL_FAST=", "VM_GLOBAL_SLOW="})
    vars.push_back(v);
  vars.push_back("USER_LDLIBS=" + link);
  return vars;
}

namespace {

std::string commandOutput(const std::vector<std::string>& args, const fs::path& scratch) {
  std::error_code ec;
  fs::remove(scratch, ec);
  try {
    runProcess(args, "", scratch.string());
  } catch (...) {
    fs::remove(scratch, ec);
    throw;
  }
  std::string text = readFile(scratch);
  fs::remove(scratch, ec);
  return text;
}

// Removes a directory when leaving the scope, unless released: a build that fails or is
// interrupted leaves no half-built directory behind.
class RemoveOnExit {
public:
  explicit RemoveOnExit(fs::path dir) : dir_(std::move(dir)) {}
  ~RemoveOnExit() {
    std::error_code ec;
    if (!dir_.empty()) fs::remove_all(dir_, ec);
  }
  void release() { dir_.clear(); }
  RemoveOnExit(const RemoveOnExit&) = delete;
  RemoveOnExit& operator=(const RemoveOnExit&) = delete;

private:
  fs::path dir_;
};

// This host's name, for build directories in a runtime directory that hosts share (a
// network file system): a process ID means something on its own host only.
std::string hostName() {
  char name[256] = {};
  if (::gethostname(name, sizeof name - 1) != 0 || !name[0]) return "host";
  std::string h = name;
  for (char& c : h)
    if (c == '/' || c == '.') c = '_';
  return h;
}

// KEY.tmp-HOST-PID: where this process builds `key` before renaming it into place.
std::string buildDirName(const std::string& key) {
  return key + ".tmp-" + hostName() + "-" + std::to_string(::getpid());
}

// Build directories of `key` left by processes of this host that died (SIGKILL, power loss)
// before their cleanup ran. Called under the flavour's lock, so no live process is building
// into one; a process that is still alive (the lock did not hold: a file system without
// locks) and other hosts' directories are left alone.
void removeStaleBuilds(const fs::path& root, const std::string& key) {
  std::error_code ec;
  const std::string prefix = key + ".tmp-" + hostName() + "-";
  std::vector<fs::path> stale;
  for (fs::directory_iterator it(root, ec), end; it != end && !ec; it.increment(ec)) {
    const std::string name = it->path().filename().string();
    if (name.rfind(prefix, 0) != 0) continue;
    const std::string pid = name.substr(prefix.size());
    if (pid.empty() || pid.find_first_not_of("0123456789") != std::string::npos) continue;
    if (::kill(static_cast<pid_t>(std::stoll(pid)), 0) == 0 || errno == EPERM) continue; // alive
    stale.push_back(it->path());
  }
  for (const fs::path& p : stale)
    fs::remove_all(p, ec);
}

// Includes verilated.h; precompiled next to itself (.gch) for quick design builds.
const char* const kPchHeader = "rubick_verilated_pch.h";

// The objects of a finished flavour directory, or nothing when any is missing.
std::optional<Prebuilt> load(const fs::path& dir, const std::string& key) {
  Prebuilt p;
  p.key = key;
  const fs::path obj = dir / "obj";
  p.globals = globalClasses(readFile(obj / "Vdut_classes.mk"));
  p.harness = (obj / "harness.o").string();
  p.memHarness = (obj / "mem_harness.o").string();
  p.pimHarness = (obj / "pim_harness.o").string();
  for (const std::string& g : p.globals)
    p.objects.push_back((obj / (g + ".o")).string());
  p.pch = (dir / kPchHeader).string();
  if (p.globals.empty() || !fs::exists(p.harness) || !fs::exists(p.memHarness) ||
      !fs::exists(p.pimHarness) || !fs::exists(p.pch + ".gch"))
    return std::nullopt;
  for (const std::string& o : p.objects)
    if (!fs::exists(o)) return std::nullopt;
  return p;
}

// An exclusive lock on a file while alive, so that concurrent rubick processes sharing a root
// build a flavour once: the others wait, then find it built. Without the lock (a file system
// that refuses it) they would each build, which is slower but still correct.
class FileLock {
public:
  explicit FileLock(const fs::path& path)
      : fd_(::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644)) {
    while (fd_ >= 0 && ::flock(fd_, LOCK_EX) != 0 && errno == EINTR) {
    }
  }
  ~FileLock() {
    if (fd_ >= 0) ::close(fd_);
  }
  FileLock(const FileLock&) = delete;
  FileLock& operator=(const FileLock&) = delete;

private:
  int fd_;
};

} // namespace

Runtime::Runtime(const std::string& root, unsigned jobs)
    : root_(fs::absolute(root).string()), jobs_(jobs) {
  std::error_code ec;
  fs::create_directories(root_, ec);
  if (ec) throw Error(root_, "cannot create directory: " + ec.message());
  const fs::path scratch =
      fs::path(root_) / ("probe-" + hostName() + "-" + std::to_string(::getpid()) + ".log");
  // The tools' versions and the compiler's target (hosts sharing the directory over a network
  // may differ in either) name the build.
  key_ = "rubick simulation runtime 4\n" + commandOutput({"verilator", "--version"}, scratch) +
         commandOutput({"g++", "--version"}, scratch) +
         commandOutput({"g++", "-dumpmachine"}, scratch);
  for (const std::string& a : verilatorCommand(false, "obj"))
    key_ += a + " ";
  for (const char* t :
       {"rubick_harness", "rubick_mem_harness", "rubick_pim_harness", "rubick_axi_mem",
        "rubick_pim_bank", "rubick_sim_values", "rubick_sim_design"})
    key_ += "\n" + emit::simTemplates().at(t);
}

const Prebuilt& Runtime::get(bool trace) {
  if (root_.empty())
    throw Error("verify", "internal: the standalone-testbench mode builds nothing");
  std::lock_guard<std::mutex> lock(mu_[trace]);
  if (!built_[trace] && error_[trace].empty()) {
    try {
      built_[trace] = build(trace);
    } catch (const Error& e) {
      error_[trace] = e.diag().message;
    }
  }
  if (!built_[trace]) throw Error("verify", error_[trace]);
  return *built_[trace];
}

Prebuilt Runtime::build(bool trace) const {
  const std::string flavour = trace ? "trace" : "plain";
  const std::string key = fnv1aHex(key_ + "\nflavour " + flavour) + "-" + flavour;
  const fs::path dir = fs::path(root_) / key;
  FileLock lock(fs::path(root_) / (key + ".lock"));
  if (std::optional<Prebuilt> p = load(dir, key)) return *p;
  fs::remove_all(dir); // incomplete: rebuild
  removeStaleBuilds(root_, key);

  // Built aside and renamed into place, so a directory under its final name is always whole,
  // even with several rubick processes sharing the work directory.
  const auto t0 = std::chrono::steady_clock::now();
  const fs::path tmp = fs::path(root_) / buildDirName(key);
  fs::remove_all(tmp);
  fs::create_directories(tmp);
  RemoveOnExit cleanup(tmp);
  writeFile(tmp / "stub.v", "module rubick_stub(input wire clk);\nendmodule\n");
  writeFile(tmp / "harness.cpp", emit::simTemplates().at("rubick_harness"));
  writeFile(tmp / "mem_harness.cpp", emit::simTemplates().at("rubick_mem_harness"));
  writeFile(tmp / "pim_harness.cpp", emit::simTemplates().at("rubick_pim_harness"));
  writeFile(tmp / "key.txt", key_ + "\nflavour " + flavour + "\n");
  const fs::path log = tmp / "build.log";
  // A failed build's log outlives the build directory.
  const fs::path keptLog = fs::path(root_) / (key + ".failed.log");
  auto run = [&](const std::vector<std::string>& args) {
    std::string why;
    if (runProcess(args, tmp.string(), log.string(), &why) != 0) {
      std::error_code ec;
      fs::copy_file(log, keptLog, fs::copy_options::overwrite_existing, ec);
      throw Error("verify", "building the simulation runtime failed" +
                                (why.empty() ? "" : ": " + why) + " (log: " + keptLog.string() +
                                ")\n" + tail(readFile(log), 15));
    }
  };
  std::vector<std::string> gen = verilatorCommand(trace, "obj");
  gen.insert(gen.end(), {"--top-module", "rubick_stub", "stub.v", "harness.cpp", "mem_harness.cpp",
                         "pim_harness.cpp"});
  run(gen);
  // In the make directory, which is on the compiler's include path (-I.).
  for (const char* h :
       {"rubick_axi_mem", "rubick_pim_bank", "rubick_sim_values", "rubick_sim_design"})
    writeFile(tmp / "obj" / (std::string(h) + ".h"), emit::simTemplates().at(h));
  std::vector<std::string> make = makeCommand("obj", jobs_);
  make.insert(make.end(), {"harness.o", "mem_harness.o", "pim_harness.o"});
  for (const std::string& g : globalClasses(readFile(tmp / "obj" / "Vdut_classes.mk")))
    make.push_back(g + ".o");
  run(make);
  // verilated.h precompiled by the stub's makefile with a quick design build's variables, so
  // with exactly the flags that design's compiles use.
  writeFile(tmp / kPchHeader, "#include <verilated.h>\n");
  writeFile(tmp / "obj" / "rubick_pch.mk",
            std::string("../") + kPchHeader + ".gch: ../" + kPchHeader +
                "\n\t$(CXX) $(CXXFLAGS) $(CPPFLAGS) $(OPT_FAST) -x c++-header -o $@ $<\n");
  std::vector<std::string> pch = makeCommand("obj", 1);
  pch.insert(pch.end(), {"-f", "rubick_pch.mk"});
  for (const std::string& var : modeMakeVariables(BuildMode::Quick))
    pch.push_back(var);
  pch.push_back(std::string("../") + kPchHeader + ".gch");
  run(pch);

  std::error_code ec;
  fs::rename(tmp, dir, ec);
  if (!ec) cleanup.release(); // else another process finished first; its copy is as good
  std::optional<Prebuilt> p = load(dir, key);
  if (!p) throw Error(dir.string(), "the simulation runtime is incomplete");
  p->seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return *p;
}

} // namespace rubick::verify
