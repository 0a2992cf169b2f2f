// SPDX-License-Identifier: Apache-2.0
#pragma once
// The design-independent part of every simulation build, compiled once per work directory:
// Verilator's runtime library (verilated.o, verilated_threads.o, and verilated_fst_c.o with
// tracing) and rubick's testbench cores (sim_templates/rubick_harness.cpp,
// rubick_mem_harness.cpp and rubick_pim_harness.cpp, the users of nlohmann/json). Together they
// cost several seconds of g++ per build, against well under a second for a design's own model.
//
// Each flavour (with or without tracing) lives in ROOT/<hash>-<flavour>/ (ROOT: WORK/.runtime
// unless verify is given another), the hash covering everything its objects depend on:
// Verilator's version, g++'s version, the flags and the testbench source. Several rubick
// processes may share a ROOT: a lock file makes one build while the others wait. The objects are
// compiled by the Vdut.mk Verilator generates for a stub design, so their flags are exactly those
// of a design's own makefile. A design's make is then told (on its command line) not to build the
// runtime classes and to link these objects. Each flavour also holds verilated.h precompiled with
// a quick design build's flags (parsing it is most of a small design's compile time), which quick
// builds include first.

#include <mutex>
#include <optional>
#include <string>
#include <vector>

namespace rubick::verify {

/// How a design's own model is compiled (the runtime is always optimised: it is built once).
///  - Quick: Verilator keeps the modules apart (-fno-inline, so identical instances share one
///    class) and g++ does not optimise (-O0): about a third of the build time, and simulation
///    5-15x slower, which the short runs of verification do not notice.
///  - Optimised: as Verilator's own makefile does (modules inlined, -Os): for long simulations.
enum class BuildMode { Quick, Optimised };

/// Which testbench core a design links: the host-port one (rubick_harness.cpp, designs whose
/// tensors live in their banks), the AXI one (rubick_mem_harness.cpp, designs with a memory
/// system) or the processing-in-memory one (rubick_pim_harness.cpp, units reading their DRAM
/// banks, docs/pim.md).
enum class Harness { Host, Memory, Pim };

/// The objects of one flavour, ready to link.
struct Prebuilt {
  std::string key;                  // differs whenever any object could
  std::vector<std::string> globals; // Verilator's runtime classes, as Vdut_classes.mk lists them
  std::string harness;              // absolute path of the host testbench core's object
  std::string memHarness;           // absolute path of the memory testbench core's object
  std::string pimHarness;           // absolute path of the PIM testbench core's object
  std::vector<std::string> objects; // absolute paths of the runtime classes' objects
  std::string pch;                  // absolute path of the header whose .gch holds verilated.h
  double seconds = 0;               // time this process spent building it (0: reused)

  /// Variables for a design's `make -f Vdut.mk`: skip the runtime classes and link these
  /// objects when the design lists the same runtime classes; otherwise link only the harness.
  /// A quick build also includes the precompiled verilated.h.
  std::vector<std::string> makeVariables(const std::vector<std::string>& designGlobals,
                                         BuildMode mode, Harness h) const;
};

class Runtime {
public:
  /// Reads the tool versions (so the key is known); builds nothing yet. `root`: where the
  /// flavours live (created if missing); `jobs`: make's -j.
  Runtime(const std::string& root, unsigned jobs);
  /// A runtime that builds nothing: for Options::bench, where nothing is compiled.
  Runtime() : jobs_(1) {}

  /// The flavour's objects, built on first use (or reused from an earlier run). Thread-safe:
  /// concurrent callers of one flavour wait for a single build. Throws rubick::Error with the
  /// build log's tail when it fails.
  const Prebuilt& get(bool trace);

private:
  Prebuilt build(bool trace) const;

  std::string root_; // WORK/.runtime, absolute
  std::string key_;  // the flavour-independent part of the key
  unsigned jobs_;
  std::mutex mu_[2];
  std::optional<Prebuilt> built_[2];
  std::string error_[2];
};

/// The command verify runs Verilator with (before the top module and sources), shared by the
/// runtime and the designs so both are compiled alike.
std::vector<std::string> verilatorCommand(bool trace, const std::string& mdir);

const char* toString(BuildMode m);
/// Extra arguments for a design's `verilator` command.
std::vector<std::string> modeVerilatorArgs(BuildMode m);
/// Extra variables for a design's `make -f Vdut.mk`.
std::vector<std::string> modeMakeVariables(BuildMode m);

/// The command that builds a Verilator output directory (as `verilator --build` does).
std::vector<std::string> makeCommand(const std::string& mdir, unsigned jobs);

/// The runtime classes (VM_GLOBAL_FAST and VM_GLOBAL_SLOW) a generated Vdut_classes.mk lists.
std::vector<std::string> globalClasses(const std::string& classesMk);

} // namespace rubick::verify
