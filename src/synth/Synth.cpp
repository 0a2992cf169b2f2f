// SPDX-License-Identifier: Apache-2.0
#include "rubick/synth/Synth.h"

#include "rubick/support/Diagnostic.h"
#include "rubick/support/Interrupt.h"
#include "rubick/support/OwnedOutput.h"
#include "rubick/support/Process.h"
#include "rubick/support/SourceFile.h"
#include "rubick/synth/Wrapper.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>

namespace rubick::synth {

namespace fs = std::filesystem;
using Json = nlohmann::ordered_json;

const char* toString(Flow f) {
  switch (f) {
  case Flow::Generic:
    return "generic";
  case Flow::Xilinx:
    return "xilinx";
  case Flow::Ice40:
    return "ice40";
  }
  return "?";
}

namespace {

// The project's file reader: a file that cannot be read is a rubick::Error naming it.
std::string readText(const fs::path& p) {
  return readSourceFile(p.string()).text();
}

void writeText(const fs::path& p, const std::string& text) {
  fs::create_directories(p.parent_path());
  std::ofstream out(p, std::ios::binary);
  out << text;
  if (!out) throw Error(p.string(), "cannot write");
}

// The last lines of a log, for an error message.
std::string tail(const std::string& log, size_t lines = 12) {
  size_t at = log.size();
  for (size_t n = 0; n <= lines && at > 0; ++n)
    at = log.rfind('\n', at - 1) == std::string::npos ? 0 : log.rfind('\n', at - 1);
  return log.substr(at);
}

// A scratch directory for the tools, removed however synthesize ends.
struct Scratch {
  fs::path dir;
  Scratch() {
    const char* tmp = std::getenv("TMPDIR");
    std::string pattern = std::string(tmp && *tmp ? tmp : "/tmp") + "/rubick-synth-XXXXXX";
    if (!::mkdtemp(pattern.data()))
      throw Error("synth", "cannot create a scratch directory under " + pattern);
    dir = pattern;
  }
  ~Scratch() {
    std::error_code ec;
    fs::remove_all(dir, ec);
  }
};

// Runs a tool in the scratch directory with its output in `log` (relative to it).
void run(const std::vector<std::string>& argv, const Scratch& s, const std::string& log,
         const std::string& what) {
  std::string error;
  const int status = runProcess(argv, s.dir.string(), (s.dir / log).string(), &error);
  if (status == -1) throw Error(argv[0], "cannot run: " + error);
  if (status != 0)
    throw Error(argv[0], what + " failed (exit status " + std::to_string(status) + "):\n" +
                             tail(readText(s.dir / log)));
}

// The top module's entry in a `stat -json` report.
Json topStat(const fs::path& statJson, const std::string& top) {
  const Json j = Json::parse(readText(statJson));
  for (const auto& [name, module] : j.at("modules").items())
    if (name == "\\" + top || name == top) return module;
  return Json::object();
}

std::map<std::string, int64_t> cellTypes(const fs::path& statJson, const std::string& top) {
  std::map<std::string, int64_t> types;
  const Json module = topStat(statJson, top);
  if (module.contains("num_cells_by_type"))
    for (const auto& [type, n] : module.at("num_cells_by_type").items())
      types[type] = n.get<int64_t>();
  return types;
}

int64_t countOf(const std::map<std::string, int64_t>& types, const std::regex& pattern) {
  int64_t n = 0;
  for (const auto& [type, count] : types)
    if (std::regex_match(type, pattern)) n += count;
  return n;
}

std::string readScript(const std::vector<std::string>& files) {
  std::string s = "read_verilog -sv";
  for (const std::string& f : files)
    s += " " + f;
  return s + "\n";
}

// The device's package with the most pins (nextpnr needs one).
std::string defaultPackage(const std::string& device) {
  if (device == "up5k" || device == "u4k") return "sg48";
  if (device == "lp384") return "qn32";
  if (device == "lp1k" || device == "hx1k") return "tq144";
  return "ct256"; // hx8k, lp8k, hx4k, lp4k
}

} // namespace

namespace {

void checkTools(const Options& o) {
  if (!onPath("yosys")) throw Error("yosys", "not found on PATH (Debian: apt-get install yosys)");
  const bool ice40 = std::count(o.flows.begin(), o.flows.end(), Flow::Ice40) > 0;
  if (ice40 && !onPath("nextpnr-ice40"))
    throw Error("nextpnr-ice40",
                "not found on PATH (Debian: apt-get install nextpnr-ice40), or leave out the "
                "ice40 flow (--flows generic,xilinx)");
  if (o.seeds < 1) throw Error("--seeds", "needs at least 1 seed");
}

} // namespace

Report synthesizeFiles(const std::vector<OutputEntry>& design, const Options& o,
                       std::vector<OutputEntry>* kept) {
  checkTools(o);
  const OutputEntry* json = nullptr;
  const OutputEntry* list = nullptr;
  for (const OutputEntry& f : design) {
    if (f.path == "design.json") json = &f;
    if (f.path == "filelist.f") list = &f;
  }
  if (!json || !list)
    throw Error("synth", "not a design: it needs design.json and filelist.f (give the folder "
                         "`rubick emit -o` wrote)");
  Report r;
  r.top = Json::parse(json->content).at("top").get<std::string>();
  std::vector<std::string> files;
  std::istringstream lines(list->content);
  for (std::string line; std::getline(lines, line);)
    if (!line.empty()) files.push_back(line);

  // A signal unwinds (the tools it reaches die with it, the scratch directory goes) instead of
  // killing rubick and leaving Yosys running in its own process group.
  InterruptScope interruptible;
  Scratch s;
  for (const OutputEntry& f : design)
    writeText(s.dir / f.path, f.content);
  std::vector<OutputEntry> out;
  auto keep = [&](const std::string& rel) {
    if (kept) kept->push_back({rel, readText(s.dir / rel)});
  };
  auto say = [&](const std::string& what) {
    if (o.progress) o.progress(what);
  };
  const std::string read = readScript(files);

  for (Flow f : o.flows) {
    if (f == Flow::Generic) {
      say("generic synthesis (yosys synth)");
      // With macros: synth's own steps but memory_map (`yosys -h synth`), and the memories
      // unpacked at the end so that stat counts their bits.
      const std::string body =
          o.memoryMacros ? "synth -top " + r.top +
                               " -flatten -run :fine\n"
                               "# fine, without memory_map: each memory stays one macro\n"
                               "opt -fast -full\nopt -full\ntechmap\nopt -fast\nabc -fast\n"
                               "opt -fast\ntee -q -o synth/generic_ltp.txt ltp -noff\n"
                               "memory_unpack\ntee -q -o synth/generic_stat.json stat -json\n"
                         : "synth -top " + r.top +
                               " -flatten\ntee -q -o synth/generic_stat.json stat -json\n"
                               "tee -q -o synth/generic_ltp.txt ltp -noff\n";
      writeText(s.dir / "synth/generic.ys", "# Yosys generic synthesis of " + r.top +
                                                " (run in the design's folder).\n" + read + body);
      run({"yosys", "-q", "-s", "synth/generic.ys"}, s, "synth/generic.log", "generic synthesis");
      Generic g;
      g.memoryMacros = o.memoryMacros;
      g.cellTypes = cellTypes(s.dir / "synth/generic_stat.json", r.top);
      for (const auto& [type, n] : g.cellTypes)
        if (type.rfind("$mem", 0) != 0) g.cells += n; // a macro's ports are not logic
      g.flipFlops = countOf(g.cellTypes, std::regex("\\$_.*DFF.*_"));
      const Json stat = topStat(s.dir / "synth/generic_stat.json", r.top);
      g.memories = stat.value("num_memories", int64_t(0));
      g.memoryBits = stat.value("num_memory_bits", int64_t(0));
      std::smatch m;
      const std::string ltp = readText(s.dir / "synth/generic_ltp.txt");
      if (std::regex_search(ltp, m, std::regex("length=(\\d+)"))) g.depth = std::stoll(m[1]);
      r.generic = g;
      for (const char* k : {"synth/generic.ys", "synth/generic.log", "synth/generic_stat.json",
                            "synth/generic_ltp.txt"})
        keep(k);
    } else if (f == Flow::Xilinx) {
      say("Xilinx synthesis (yosys synth_xilinx)");
      writeText(s.dir / "synth/xilinx.ys",
                "# Yosys synth_xilinx of " + r.top + " (7-series; run in the design's folder).\n" +
                    read + "synth_xilinx -top " + r.top +
                    " -flatten\ntee -q -o synth/xilinx_stat.json stat -json\n");
      run({"yosys", "-q", "-s", "synth/xilinx.ys"}, s, "synth/xilinx.log", "synth_xilinx");
      Xilinx x;
      x.cellTypes = cellTypes(s.dir / "synth/xilinx_stat.json", r.top);
      x.luts = countOf(x.cellTypes, std::regex("LUT[1-6]"));
      x.flipFlops = countOf(x.cellTypes, std::regex("FD[CPRSE]E?"));
      x.dsps = countOf(x.cellTypes, std::regex("DSP48E1"));
      x.carries = countOf(x.cellTypes, std::regex("CARRY4"));
      x.bram18 = countOf(x.cellTypes, std::regex("RAMB18E1"));
      x.bram36 = countOf(x.cellTypes, std::regex("RAMB36E1"));
      x.lutRams = countOf(x.cellTypes, std::regex("RAM(32|64|128|256)[XM].*"));
      x.shiftRegisters = countOf(x.cellTypes, std::regex("SRL.*"));
      r.xilinx = x;
      for (const char* k : {"synth/xilinx.ys", "synth/xilinx.log", "synth/xilinx_stat.json"})
        keep(k);
    } else {
      say("iCE40 synthesis (yosys synth_ice40) behind the pin-light wrapper");
      const std::string top = readText(s.dir / ("rtl/" + r.top + ".v"));
      writeText(s.dir / "synth/rubick_synth_wrap.v", wrapperModule(r.top, modulePorts(top, r.top)));
      writeText(s.dir / "synth/ice40.ys",
                "# Yosys synth_ice40 of " + r.top + " in " + kWrapperName +
                    " (run in the design's folder).\n" + read +
                    "read_verilog -sv synth/rubick_synth_wrap.v\n" + "synth_ice40 -top " +
                    kWrapperName +
                    " -json synth/ice40.json\ntee -q -o synth/ice40_stat.json stat -json\n");
      run({"yosys", "-q", "-s", "synth/ice40.ys"}, s, "synth/ice40.log", "synth_ice40");
      Ice40 c;
      c.device = o.device;
      c.package = o.package.empty() ? defaultPackage(o.device) : o.package;
      const std::map<std::string, int64_t> types =
          cellTypes(s.dir / "synth/ice40_stat.json", kWrapperName);
      c.luts = countOf(types, std::regex("SB_LUT4"));
      c.flipFlops = countOf(types, std::regex("SB_DFF.*"));
      c.rams = countOf(types, std::regex("SB_RAM40_4K.*"));
      c.carries = countOf(types, std::regex("SB_CARRY"));
      c.dsps = countOf(types, std::regex("SB_MAC16"));
      for (const char* k : {"synth/rubick_synth_wrap.v", "synth/ice40.ys", "synth/ice40.log",
                            "synth/ice40_stat.json"})
        keep(k);
      for (int seed = 1; seed <= o.seeds; ++seed) {
        say("place and route (nextpnr-ice40 --" + c.device + ", seed " + std::to_string(seed) +
            ")");
        const std::string log = "synth/nextpnr_seed" + std::to_string(seed) + ".log";
        std::string error;
        const int status =
            runProcess({"nextpnr-ice40", "--" + c.device, "--package", c.package, "--json",
                        "synth/ice40.json", "--seed", std::to_string(seed), "--freq", "12"},
                       s.dir.string(), (s.dir / log).string(), &error);
        if (status == -1) throw Error("nextpnr-ice40", "cannot run: " + error);
        const std::string text = readText(s.dir / log);
        keep(log);
        std::smatch m;
        if (std::regex_search(text, m, std::regex("ICESTORM_LC:\\s*(\\d+)/\\s*(\\d+)"))) {
          c.logicCells = std::stoll(m[1]);
          c.logicCellsAvailable = std::stoll(m[2]);
        }
        if (status != 0) {
          // Too large for the device, typically: the result says why.
          std::smatch ram;
          const bool rams =
              std::regex_search(text, ram, std::regex("ICESTORM_RAM:\\s*(\\d+)/\\s*(\\d+)"));
          if (c.logicCells > c.logicCellsAvailable && c.logicCellsAvailable > 0)
            c.why = "does not fit: " + std::to_string(c.logicCells) + " logic cells, the " +
                    c.device + " has " + std::to_string(c.logicCellsAvailable);
          else if (rams && std::stoll(ram[1]) > std::stoll(ram[2]))
            c.why = "does not fit: " + ram[1].str() + " block RAMs, the " + c.device + " has " +
                    ram[2].str();
          else
            c.why = std::regex_search(text, m, std::regex("ERROR: ([^\\n]*)"))
                        ? m[1].str()
                        : "nextpnr-ice40 failed (exit status " + std::to_string(status) + ")";
          break;
        }
        c.placed = true;
        double fmax = 0;
        static const std::regex fmaxLine("Max frequency for clock '[^']*': ([0-9.]+) MHz");
        for (auto it = std::sregex_iterator(text.begin(), text.end(), fmaxLine);
             it != std::sregex_iterator(); ++it)
          fmax = std::stod((*it)[1]); // the last report: after routing
        c.fmaxMhz.push_back(fmax);
      }
      if (!c.fmaxMhz.empty()) {
        std::vector<double> sorted = c.fmaxMhz;
        std::sort(sorted.begin(), sorted.end());
        const size_t n = sorted.size();
        c.medianFmaxMhz = n % 2 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
      }
      r.ice40 = c;
    }
  }
  return r;
}

Report synthesize(const std::string& outdir, const Options& o) {
  const fs::path dir = outdir;
  if (!fs::is_regular_file(dir / "design.json") || !fs::is_regular_file(dir / "filelist.f"))
    throw Error(outdir, "not a design folder: it needs design.json and filelist.f (give the "
                        "folder `rubick emit -o` wrote)");
  checkTools(o);
  checkOwnOutputDirectory(outdir); // before the tools run, which may take minutes
  // The design's files as its filelist names them, with design.json and the list itself.
  std::vector<OutputEntry> design;
  for (const char* f : {"design.json", "filelist.f"})
    design.push_back({f, readText(dir / f)});
  std::istringstream lines(design.back().content);
  for (std::string line; std::getline(lines, line);)
    if (!line.empty()) design.push_back({line, readText(dir / line)});
  std::vector<OutputEntry> out;
  const Report r = synthesizeFiles(design, o, &out);
  // Flows not run this time keep their earlier results.
  Json merged = Json::parse(reportJson(r));
  if (fs::is_regular_file(dir / "synth.json")) {
    Json old;
    try {
      old = Json::parse(readText(dir / "synth.json"));
    } catch (const Json::exception&) {
    }
    Json all = {{"top", r.top}};
    for (const char* k : {"generic", "xilinx", "ice40"})
      if (merged.contains(k))
        all[k] = merged[k];
      else if (old.is_object() && old.contains(k))
        all[k] = old[k];
    merged = all;
  }
  out.push_back({"synth.json", merged.dump(2) + "\n"});
  addToOutputDirectory(outdir, out);
  return r;
}

std::string reportJson(const Report& r) {
  Json j;
  j["top"] = r.top;
  if (r.generic)
    j["generic"] = {{"cells", r.generic->cells},
                    {"flip_flops", r.generic->flipFlops},
                    {"logic_depth", r.generic->depth},
                    {"memories_as", r.generic->memoryMacros ? "macros" : "flip-flops"},
                    {"memories", r.generic->memories},
                    {"memory_bits", r.generic->memoryBits},
                    {"cell_types", r.generic->cellTypes}};
  if (r.xilinx)
    j["xilinx"] = {
        {"luts", r.xilinx->luts},           {"flip_flops", r.xilinx->flipFlops},
        {"dsps", r.xilinx->dsps},           {"carry4", r.xilinx->carries},
        {"ramb18", r.xilinx->bram18},       {"ramb36", r.xilinx->bram36},
        {"lut_rams", r.xilinx->lutRams},    {"shift_registers", r.xilinx->shiftRegisters},
        {"cell_types", r.xilinx->cellTypes}};
  if (r.ice40) {
    const Ice40& c = *r.ice40;
    j["ice40"] = {{"device", c.device},
                  {"package", c.package},
                  {"luts", c.luts},
                  {"flip_flops", c.flipFlops},
                  {"rams", c.rams},
                  {"carries", c.carries},
                  {"dsps", c.dsps},
                  {"placed", c.placed},
                  {"why", c.why},
                  {"logic_cells", c.logicCells},
                  {"logic_cells_available", c.logicCellsAvailable},
                  {"fmax_mhz", c.fmaxMhz},
                  {"median_fmax_mhz", c.medianFmaxMhz}};
  }
  return j.dump(2) + "\n";
}

std::string reportText(const Report& r) {
  std::ostringstream os;
  os << "top " << r.top << "\n";
  if (r.generic)
    os << "generic: " << r.generic->cells << " cells (" << r.generic->flipFlops
       << " flip-flops), logic depth " << r.generic->depth;
  if (r.generic && r.generic->memoryMacros)
    os << "; " << r.generic->memories << " memories (" << r.generic->memoryBits
       << " bits) kept as macros";
  if (r.generic) os << "\n";
  if (r.xilinx)
    os << "xilinx (7-series): " << r.xilinx->luts << " LUTs, " << r.xilinx->flipFlops << " FFs, "
       << r.xilinx->dsps << " DSP48E1, " << r.xilinx->bram36 << " RAMB36 + " << r.xilinx->bram18
       << " RAMB18, " << r.xilinx->lutRams << " LUT RAMs\n";
  if (r.ice40) {
    const Ice40& c = *r.ice40;
    os << "ice40 (" << c.device << "): " << c.luts << " LUT4, " << c.flipFlops << " FFs, " << c.rams
       << " RAM4K, " << c.dsps << " MAC16; ";
    if (!c.placed) {
      os << "not placed: " << c.why << "\n";
    } else {
      char med[32];
      std::snprintf(med, sizeof med, "%.2f", c.medianFmaxMhz);
      os << c.logicCells << "/" << c.logicCellsAvailable << " logic cells, Fmax " << med
         << " MHz (median of " << c.fmaxMhz.size() << " seed" << (c.fmaxMhz.size() > 1 ? "s" : "")
         << ")\n";
    }
  }
  return os.str();
}

} // namespace rubick::synth
