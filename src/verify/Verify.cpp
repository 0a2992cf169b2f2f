#include "rubick/verify/Verify.h"

#include "Files.h"
#include "Runtime.h"

#include "rubick/dataflow/StatementView.h"
#include "rubick/emit/Package.h"
#include "rubick/emit/Templates.h"
#include "rubick/ref/Interpreter.h"
#include "rubick/support/Diagnostic.h"
#include "rubick/support/Process.h"

#include <atomic>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <set>
#include <sstream>
#include <thread>

namespace rubick::verify {

namespace fs = std::filesystem;

bool Result::pass() const {
  if (!built || trials.empty()) return false;
  for (const Trial& t : trials)
    if (!t.pass) return false;
  return true;
}

double Result::utilization() const {
  if (trials.empty() || trials[0].measured <= 0) return 0;
  return double(macs) / (double(p * q) * double(trials[0].measured));
}

std::vector<dse::DesignPoint> sample(const std::vector<dse::DesignPoint>& points,
                                     const std::string& how) {
  std::vector<dse::DesignPoint> out;
  std::set<std::vector<ir::EntryKind>> combos;
  std::set<std::pair<size_t, ir::EntryKind>> roles;
  for (const dse::DesignPoint& d : points) {
    bool fresh = false;
    if (how == "combinations") {
      std::vector<ir::EntryKind> k;
      for (const ir::OrientedEntry& e : d.entries)
        k.push_back(e.kind);
      fresh = combos.insert(k).second;
    } else {
      for (size_t a = 0; a < d.entries.size(); ++a)
        fresh |= roles.insert({a, d.entries[a].kind}).second;
    }
    if (fresh) out.push_back(d);
  }
  return out;
}

namespace {

// Stimulus for one trial: the inputs of every access, then the expected output.
std::string stimulus(const tc::Program& prog, size_t stmt, const dataflow::StatementView& v,
                     uint64_t seed) {
  ref::TensorData data = ref::randomInputs(prog, stmt, seed);
  ref::TensorData inputs = data;
  ref::runStatement(prog, stmt, data);
  std::ostringstream os;
  os << "rubick-stimulus 1\n";
  for (size_t a = 0; a < v.accesses.size(); ++a) {
    const dataflow::AccessView& av = v.accesses[a];
    const std::vector<int64_t>& values = av.write ? data[av.tensor] : inputs[av.tensor];
    os << (av.write ? "expect " : "tensor ") << a << " " << values.size() << "\n";
    for (int64_t x : values)
      os << x << "\n";
  }
  return os.str();
}

Trial parseRun(const std::string& log, uint64_t seed) {
  Trial t;
  t.seed = seed;
  std::istringstream in(log);
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind("RESULT ", 0) == 0) {
      t.pass = line.find("RESULT PASS") == 0;
      auto field = [&](const std::string& key) -> std::string {
        size_t at = line.find(" " + key + "=");
        if (at == std::string::npos) return "0";
        at += key.size() + 2;
        return line.substr(at, line.find(' ', at) - at);
      };
      t.mismatches = std::stoull(field("mismatches"));
      t.elements = std::stoull(field("elements"));
      t.measured = std::stoll(field("measured"));
      t.predicted = std::stoll(field("predicted"));
      t.simCycles = std::stoull(field("sim_cycles"));
      t.simSeconds = std::stod(field("sim_seconds"));
    } else if (!line.empty()) {
      t.report += line + "\n";
    }
  }
  return t;
}

Result verifyOne(const tc::Program& prog, size_t stmt, const dataflow::StatementView& v,
                 const dse::DesignPoint& pt, const dse::ExploreOptions& eo, const Options& o,
                 Runtime& runtime, unsigned buildJobs) {
  Result r;
  r.id = pt.id;
  r.spec = dataflow::toSpec(pt.dataflow, v);
  r.p = pt.dataflow.p;
  r.q = pt.dataflow.q;
  r.macs = pt.metrics.macs;
  const fs::path dir = fs::path(o.workDir) / pt.id;
  try {
    std::string name = emit::moduleName(prog.name, pt.id);
    std::vector<emit::File> files = emit::package(prog, v, pt, eo, name);
    files.push_back({"dut.cpp", emit::simTemplates().at("rubick_dut")});
    // RUBICK_VERIFY_FAULT=rtl breaks PE (0, 0) on purpose, so tests can check that verify
    // catches wrong hardware (docs/development.md).
    if (const char* fault = std::getenv("RUBICK_VERIFY_FAULT");
        fault && std::string(fault) == "rtl")
      for (emit::File& f : files)
        if (f.path.find("_array.v") != std::string::npos) {
          size_t at = f.content.find("wire valid_0_0 = ");
          size_t end = f.content.find(';', at);
          if (at != std::string::npos) f.content.replace(at, end - at, "wire valid_0_0 = 1'b0");
        }
    // The build is reused when every input of it is unchanged: the design's files and the
    // prebuilt runtime it links.
    std::string designKey;
    for (const emit::File& f : files)
      if (f.path != "README.md") designKey += f.path + "\n" + f.content;
    fs::create_directories(dir);
    for (const emit::File& f : files) {
      fs::create_directories((dir / f.path).parent_path());
      if (!fs::exists(dir / f.path) || readFile(dir / f.path) != f.content)
        writeFile(dir / f.path, f.content);
    }
    // Builds without waveform support are much faster; one with it is made only when needed.
    auto build = [&](bool trace, double* seconds, bool* reused) -> fs::path {
      const Prebuilt& rt = runtime.get(trace);
      const std::string tag = trace ? "_trace" : "";
      const std::string mdir = "obj_dir" + tag;
      const fs::path exe = dir / mdir / "sim";
      const fs::path keyFile = dir / ("build" + tag + ".key");
      const fs::path log = dir / ("build" + tag + ".log");
      const BuildMode mode = o.optimise ? BuildMode::Optimised : BuildMode::Quick;
      const std::string key = designKey + "runtime " + rt.key + "\nmode " + toString(mode) + "\n";
      const bool unchanged = fs::exists(keyFile) && readFile(keyFile) == key && fs::exists(exe);
      if (reused) *reused = unchanged;
      if (unchanged) return exe;
      fs::remove(keyFile);
      fs::remove(log);
      auto t0 = std::chrono::steady_clock::now();
      auto run = [&](const std::vector<std::string>& args) {
        std::string why;
        if (runProcess(args, dir.string(), log.string(), &why) != 0)
          throw Error("verify", "Verilator build failed" + (why.empty() ? "" : ": " + why) + "\n" +
                                    tail(readFile(log), 15));
      };
      std::vector<std::string> gen = verilatorCommand(trace, mdir);
      for (const std::string& a : modeVerilatorArgs(mode))
        gen.push_back(a);
      gen.insert(gen.end(), {"--top-module", name + "_top", "-f", "filelist.f", "dut.cpp"});
      run(gen);
      std::vector<std::string> make = makeCommand(mdir, buildJobs);
      for (const std::string& var :
           rt.makeVariables(globalClasses(readFile(dir / mdir / "Vdut_classes.mk"))))
        make.push_back(var);
      for (const std::string& var : modeMakeVariables(mode))
        make.push_back(var);
      run(make);
      if (seconds)
        *seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
      writeFile(keyFile, key);
      return exe;
    };
    const fs::path exe = build(!o.wave.empty(), &r.buildSeconds, &r.reused);
    r.built = true;
    for (int k = 0; k < o.trials; ++k) {
      uint64_t seed = o.seed + uint64_t(k);
      std::string stim = "stimulus_" + std::to_string(seed) + ".txt";
      writeFile(dir / stim, stimulus(prog, stmt, v, seed));
      auto run = [&](const fs::path& program, const std::string& wave) {
        std::string log = (dir / ("run_" + std::to_string(seed) + ".log")).string();
        fs::remove(log);
        std::vector<std::string> args = {program.string(), "design.json", stim};
        if (!wave.empty()) {
          args.push_back("--wave");
          args.push_back(wave);
        }
        std::string why;
        int rc = runProcess(args, dir.string(), log, &why);
        Trial t = parseRun(readFile(log), seed);
        if (rc < 0) t.report += why + "\n";
        return t;
      };
      std::string wave = k == 0 && !o.wave.empty() ? fs::absolute(o.wave).string() : "";
      Trial t = run(exe, wave);
      t.wave = wave;
      if (!t.pass && wave.empty()) {
        // Deterministic: the same run, built with waveform support, shows the failure.
        std::string w = (dir / ("trial_" + std::to_string(seed) + ".fst")).string();
        run(build(true, nullptr, nullptr), w);
        t.wave = w;
      }
      r.trials.push_back(std::move(t));
    }
  } catch (const Error& e) {
    r.error = e.diag().message;
  }
  return r;
}

} // namespace

std::vector<Result> verifyDesigns(const tc::Program& prog, size_t stmt,
                                  const std::vector<dse::DesignPoint>& points,
                                  const dse::ExploreOptions& eo, const Options& o,
                                  double* runtimeSeconds) {
  if (!onPath("verilator"))
    throw Error("verify", "verilator is not on PATH (scripts/setup.sh installs it)");
  std::error_code ec;
  fs::create_directories(o.workDir, ec);
  if (ec) throw Error(o.workDir, "cannot create the work directory: " + ec.message());
  const dataflow::StatementView v = dataflow::viewStatement(prog, stmt);
  unsigned cores = std::max(1u, std::thread::hardware_concurrency());
  unsigned jobs = o.jobs ? o.jobs : cores;
  jobs = std::max(1u, std::min<unsigned>(jobs, static_cast<unsigned>(points.size())));
  unsigned buildJobs = std::max(1u, cores / jobs);
  // Before the workers start, with every core: all of them link it. The other flavour (a
  // waveform after a failure) is built when first needed.
  Runtime runtime(o.runtimeDir.empty() ? (fs::path(o.workDir) / ".runtime").string() : o.runtimeDir,
                  cores);
  double rtSeconds = points.empty() ? 0 : runtime.get(!o.wave.empty()).seconds;
  if (runtimeSeconds) *runtimeSeconds = rtSeconds;
  std::vector<Result> results(points.size());
  std::atomic<size_t> next{0}, done{0};
  std::vector<std::thread> pool;
  for (unsigned t = 0; t < jobs; ++t)
    pool.emplace_back([&] {
      for (size_t i; (i = next++) < points.size();) {
        results[i] = verifyOne(prog, stmt, v, points[i], eo, o, runtime, buildJobs);
        size_t d = ++done;
        if (o.progress) o.progress(d, points.size());
      }
    });
  for (std::thread& t : pool)
    t.join();
  return results;
}

} // namespace rubick::verify
