// SPDX-License-Identifier: Apache-2.0
#include "Simulate.h"

#include "Files.h"

#include "rubick/emit/Templates.h"
#include "rubick/support/Diagnostic.h"
#include "rubick/support/Hash.h"
#include "rubick/support/Interrupt.h"
#include "rubick/support/OwnedOutput.h"
#include "rubick/support/Process.h"

#include <nlohmann/json.hpp>

#include <chrono>
#include <cstdlib>
#include <sstream>

namespace rubick::verify {

namespace fs = std::filesystem;

Trial parseRun(const std::string& log, uint64_t seed) {
  Trial t;
  t.seed = seed;
  std::istringstream in(log);
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind("RESULT ", 0) == 0) {
      t.pass = line.rfind("RESULT PASS", 0) == 0;
      auto field = [&](const std::string& key, const char* absent = "0") -> std::string {
        size_t at = line.find(" " + key + "=");
        if (at == std::string::npos) return absent;
        at += key.size() + 2;
        return line.substr(at, line.find(' ', at) - at);
      };
      t.mismatches = std::stoull(field("mismatches"));
      t.elements = std::stoull(field("elements"));
      t.measured = std::stoll(field("measured"));
      t.predicted = std::stoll(field("predicted"));
      t.simCycles = std::stoull(field("sim_cycles"));
      t.simSeconds = std::stod(field("sim_seconds"));
      t.rowHits = std::stoll(field("row_hits", "-1"));
      t.rowMisses = std::stoll(field("row_misses", "-1"));
      t.rowConflicts = std::stoll(field("row_conflicts", "-1"));
    } else if (!line.empty()) {
      t.report += line + "\n";
    }
  }
  return t;
}

namespace {

// RUBICK_VERIFY_FAULT=epilogue: lane 0 of the epilogue reads its first operand one element
// further on (or, without operands, flips its result's lowest bit).
void injectEpilogueFault(std::vector<emit::File>& files) {
  for (emit::File& f : files) {
    const std::string suffix = "_epilogue.v";
    if (f.path.size() < suffix.size() ||
        f.path.compare(f.path.size() - suffix.size(), suffix.size(), suffix) != 0)
      continue;
    const std::string index = "assign op0_idx[31:0] = col_l0",
                      row = "assign op0_idx[31:0] = row_l0";
    size_t at = f.content.find(index);
    if (at == std::string::npos) at = f.content.find(row);
    if (at != std::string::npos) {
      f.content.insert(at + index.size(), " + 32'd1");
      return;
    }
    at = f.content.find("assign out_data[");
    if (at == std::string::npos) return;
    const size_t hi = at + std::string("assign out_data[").size();
    const int bits = std::stoi(f.content.substr(hi, f.content.find(':', hi) - hi)) + 1;
    const size_t end = f.content.find(';', at);
    f.content.insert(end, " ^ " + std::to_string(bits) + "'d1");
    return;
  }
}

// RUBICK_VERIFY_FAULT=rtl breaks PE (0, 0) on purpose, so tests can check that verify catches
// wrong hardware (docs/development.md).
void injectFault(std::vector<emit::File>& files, const std::string& arraySuffix) {
  const char* fault = std::getenv("RUBICK_VERIFY_FAULT");
  if (fault && std::string(fault) == "epilogue") injectEpilogueFault(files);
  if (!fault || std::string(fault) != "rtl" || arraySuffix.empty()) return;
  for (emit::File& f : files) {
    const std::string& p = f.path;
    if (p.size() < arraySuffix.size() ||
        p.compare(p.size() - arraySuffix.size(), arraySuffix.size(), arraySuffix) != 0)
      continue;
    const size_t at = f.content.find("wire valid_0_0 = ");
    if (at == std::string::npos) continue;
    f.content.replace(at, f.content.find(';', at) - at, "wire valid_0_0 = 1'b0");
    return;
  }
}

} // namespace

bool optimiseFor(int64_t simulatedCycles, int64_t pes) {
  return double(simulatedCycles) * double(pes) > 2e7;
}

void checkTools() {
  // verilator (a Perl script) generates C++; make runs Verilator's makefile, which compiles and
  // links with g++ and archives with ar (verilated.mk). The simulator is built, not found.
  for (const char* tool : {"verilator", "make", "g++", "ar"})
    if (!onPath(tool))
      throw Error("verify", std::string(tool) +
                                " is not on PATH; verify runs verilator, make, g++ and ar "
                                "(scripts/setup.sh installs them)");
}

void prepareWork(const Options& o) {
  if (o.bench) return; // nothing is built or written
  checkTools();        // before anything is created, so a missing tool leaves nothing behind
  const Overwrite how = o.force ? Overwrite::Force : Overwrite::OwnOnly;
  claimWorkDirectory(o.workDir, how);
  claimWorkDirectory(runtimeRoot(o), how);
}

Options withAbsolutePaths(const Options& o) {
  Options a = o;
  for (std::string* p : {&a.workDir, &a.runtimeDir, &a.wave})
    if (!p->empty()) *p = fs::absolute(*p).lexically_normal().string();
  return a;
}

std::unique_ptr<Runtime> openRuntime(const Options& o, unsigned jobs, bool any, double* seconds) {
  if (seconds) *seconds = 0;
  if (o.bench) return std::make_unique<Runtime>();
  auto runtime = std::make_unique<Runtime>(runtimeRoot(o), jobs);
  if (any && seconds)
    *seconds = runtime->get(!o.wave.empty()).seconds;
  else if (any)
    runtime->get(!o.wave.empty());
  return runtime;
}

std::string runtimeRoot(const Options& o) {
  return o.runtimeDir.empty() ? (fs::path(o.workDir) / ".runtime").string() : o.runtimeDir;
}

namespace {

// rubick_mem_dut.cpp's list of the top's AXI4 master ports, from design.json.
std::string axiPortsHeader(const std::vector<emit::File>& files) {
  std::string list;
  for (const emit::File& f : files)
    if (f.path == "design.json") {
      const nlohmann::json j = nlohmann::json::parse(f.content);
      const nlohmann::json& axi = j.at("axi");
      if (!axi.contains("port_prefixes")) break;
      for (size_t k = 0; k < axi.at("port_prefixes").size(); ++k)
        list +=
            " X(" + std::to_string(k) + ", " + axi.at("port_prefixes")[k].get<std::string>() + ")";
    }
  if (list.empty()) list = " X(0, m_axi_)";
  return "// The top's AXI4 master ports (design.json axi.port_prefixes).\n"
         "#define RUBICK_AXI_PORTS(X)" +
         list + "\n";
}

// Verilator's C++ and objects are only inputs of the link: the program alone is kept, about a
// fifth of the folder, so that a sweep of thousands of designs fits on a small disk.
void pruneBuild(const fs::path& objDir) {
  for (const fs::directory_entry& e : fs::directory_iterator(objDir))
    if (e.path().filename() != "sim") fs::remove_all(e.path());
}

const char* dutTemplate(Harness h) {
  return h == Harness::Memory ? "rubick_mem_dut"
         : h == Harness::Pim  ? "rubick_pim_dut"
                              : "rubick_dut";
}

// The standalone testbench (Options::bench): verify's harness and pin driver under tb/, built by
// Verilator's default prefix (V<top>) so that a plain `verilator --build` or FuseSoC builds it.
Bench standaloneBench(const SimDesign& d, uint64_t seed) {
  Bench b;
  b.top = d.top;
  const auto& t = emit::simTemplates();
  const char* harness = d.harness == Harness::Memory ? "rubick_mem_harness"
                        : d.harness == Harness::Pim  ? "rubick_pim_harness"
                                                     : "rubick_harness";
  std::string core = t.at("rubick_dut_core");
  const std::string include = "#include \"Vdut.h\"\n";
  const size_t at = core.find(include);
  if (at == std::string::npos) throw Error("emit", "internal: rubick_dut_core.h has no Vdut.h");
  core.replace(at, include.size(),
               "#include \"V" + d.top + ".h\"\nusing Vdut = V" + d.top +
                   "; // Verilator's prefix\n");
  b.files.push_back({"tb/" + std::string(harness) + ".cpp", t.at(harness)});
  b.files.push_back({"tb/dut.cpp", t.at(dutTemplate(d.harness))});
  b.files.push_back({"tb/rubick_dut_core.h", core});
  if (d.harness == Harness::Memory)
    b.files.push_back({"tb/dut_axi_ports.h", axiPortsHeader(d.files)});
  for (const char* h :
       {"rubick_axi_mem", "rubick_pim_bank", "rubick_sim_values", "rubick_sim_design"})
    b.files.push_back({"tb/" + std::string(h) + ".h", t.at(h)});
  b.files.push_back({"tb/stimulus.txt", d.stimulus(seed)});
  if (d.runArgs) b.runArgs = d.runArgs(seed);
  return b;
}

void simulateIn(SimDesign& d, const Options& o, Runtime& runtime, unsigned buildJobs, Result& r) {
  if (o.bench) {
    *o.bench = standaloneBench(d, o.seed);
    return;
  }
  d.files.push_back({"dut.cpp", emit::simTemplates().at(dutTemplate(d.harness))});
  d.files.push_back({"rubick_dut_core.h", emit::simTemplates().at("rubick_dut_core")});
  if (d.harness == Harness::Memory) d.files.push_back({"dut_axi_ports.h", axiPortsHeader(d.files)});
  injectFault(d.files, d.faultyArray);
  // The build is reused when every input of it is unchanged: the design's files, the prebuilt
  // runtime it links and the build mode. READMEs do not matter to it.
  std::string designKey;
  for (const emit::File& f : d.files)
    if (fs::path(f.path).filename() != "README.md") designKey += f.path + "\n" + f.content;
  fs::create_directories(d.dir);
  for (const emit::File& f : d.files) {
    fs::create_directories((d.dir / f.path).parent_path());
    if (!fs::exists(d.dir / f.path) || readFile(d.dir / f.path) != f.content)
      writeFile(d.dir / f.path, f.content);
  }
  const bool optimise = o.build == Build::Optimised ||
                        (o.build == Build::Auto && optimiseFor(d.simulatedCycles, d.pes));
  const BuildMode mode = optimise ? BuildMode::Optimised : BuildMode::Quick;
  // Builds without waveform support are much faster; one with it is made only when needed.
  auto build = [&](bool trace, double* seconds, bool* reused) -> fs::path {
    const Prebuilt& rt = runtime.get(trace);
    const std::string tag = trace ? "_trace" : "";
    const std::string mdir = "obj_dir" + tag;
    const fs::path exe = d.dir / mdir / "sim";
    const fs::path keyFile = d.dir / ("build" + tag + ".key");
    const fs::path log = d.dir / ("build" + tag + ".log");
    std::string key = designKey + "runtime " + rt.key + "\nmode " + toString(mode);
    for (const std::string& a : modeVerilatorArgs(mode))
      key += " " + a;
    for (const std::string& a : modeMakeVariables(mode))
      key += " " + a;
    key += "\n";
    // The key file holds a digest with the key's length, not the key (the design's sources,
    // hundreds of KiB a design across a sweep); a stale build only costs a rebuild.
    key = fnv1aHex(key) + " " + std::to_string(key.size()) + "\n";
    const bool unchanged = fs::exists(keyFile) && readFile(keyFile) == key && fs::exists(exe);
    if (reused) *reused = unchanged;
    if (unchanged) return exe;
    fs::remove(keyFile);
    fs::remove(log);
    // Make does not see a new runtime (its objects live elsewhere): the old program would stay.
    fs::remove(exe);
    const auto t0 = std::chrono::steady_clock::now();
    auto run = [&](const std::vector<std::string>& args) {
      std::string why;
      if (runProcess(args, d.dir.string(), log.string(), &why) != 0)
        throw Error("verify", "Verilator build failed" + (why.empty() ? "" : ": " + why) + "\n" +
                                  tail(readFile(log), 15));
    };
    std::vector<std::string> gen = verilatorCommand(trace, mdir);
    for (const std::string& a : modeVerilatorArgs(mode))
      gen.push_back(a);
    gen.insert(gen.end(), {"--top-module", d.top, "-f", "filelist.f", "dut.cpp"});
    run(gen);
    std::vector<std::string> make = makeCommand(mdir, buildJobs);
    for (const std::string& var : rt.makeVariables(
             globalClasses(readFile(d.dir / mdir / "Vdut_classes.mk")), mode, d.harness))
      make.push_back(var);
    for (const std::string& var : modeMakeVariables(mode))
      make.push_back(var);
    run(make);
    pruneBuild(d.dir / mdir);
    if (seconds)
      *seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    writeFile(keyFile, key);
    return exe;
  };
  const fs::path exe = build(!o.wave.empty(), &r.buildSeconds, &r.reused);
  r.built = true;
  for (int k = 0; k < o.trials; ++k) {
    const uint64_t seed = o.seed + uint64_t(k);
    const std::string stim = "stimulus_" + std::to_string(seed) + ".txt";
    writeFile(d.dir / stim, d.stimulus(seed));
    auto run = [&](const fs::path& program, const std::string& wave) {
      const std::string log = (d.dir / ("run_" + std::to_string(seed) + ".log")).string();
      fs::remove(log);
      std::vector<std::string> args = {program.string(), "design.json", stim};
      if (d.runArgs)
        for (std::string& a : d.runArgs(seed))
          args.push_back(std::move(a));
      if (!wave.empty()) {
        args.push_back("--wave");
        args.push_back(wave);
      }
      std::string why;
      const int rc = runProcess(args, d.dir.string(), log, &why);
      const std::string text = readFile(log);
      Trial t = parseRun(text, seed);
      if (rc < 0)
        t.report += why + "\n";
      else if (rc != 0 && text.find("RESULT ") == std::string::npos)
        t.report += "the simulation " +
                    (why.empty() ? "exited with status " + std::to_string(rc)
                                 : why.substr(why.find(' ') + 1)) +
                    " (log: " + log + ")\n" + tail(text, 10);
      return t;
    };
    const std::string wave = k == 0 && !o.wave.empty() ? fs::absolute(o.wave).string() : "";
    Trial t = run(exe, wave);
    t.wave = wave;
    if (!t.pass && wave.empty()) {
      // Deterministic: the same run, built with waveform support, shows the failure.
      const std::string w = (d.dir / ("trial_" + std::to_string(seed) + ".fst")).string();
      run(build(true, nullptr, nullptr), w);
      t.wave = w;
    }
    r.trials.push_back(std::move(t));
  }
}

} // namespace

void simulate(SimDesign d, const Options& o, Runtime& runtime, unsigned buildJobs, Result& r) {
  try {
    simulateIn(d, o, runtime, buildJobs, r);
  } catch (const Interrupted&) {
    // Half built or half run: nothing in it can be trusted, and the next run rebuilds it.
    std::error_code ec;
    if (!o.bench) fs::remove_all(d.dir, ec); // the standalone testbench wrote nothing there
    throw;
  }
}

} // namespace rubick::verify
