// SPDX-License-Identifier: Apache-2.0
// How well the explorer's wire proxy ranks designs against the wires nextpnr-ice40 routes (not
// a test: it prints figures; docs/cost-model.md, "The wire proxy against place and route").
//
//   build/bench/wire_calibration [size] [arrays] [designs per array]
//
// GEMM size^3 (default 4) on each array of `arrays` (default 2x2,2x4), one design for every
// access entry in every role (explore's --all --cover roles, as bench/proxy_calibration), each
// emitted (emit::package) into a scratch directory under $TMPDIR, wrapped as `rubick synth`'s
// ice40 flow wraps it (synth::wrapperModule: three pins), synthesised with Yosys synth_ice40 and
// placed and routed by nextpnr-ice40 on the HX8K, one seed (1), with --write routed.json. The
// routed netlist gives every net's ROUTING attribute, wire;pip;strength triples: the pips a
// net uses, one per routing switch, i.e. per wire segment it enters. Summed over three sets of
// nets:
//   data   the array's data nets, the ones the wire proxy stands for: a bank's read data and
//          port register to the PEs, PE to PE (systolic registers, partial sums), each PE's
//          product into its accumulator or adder tree, and the results back to the banks (by
//          name: tK_T_port<p>, _rdata<p>, _out<p>, _seed<p> in the top; prod_<pe>, and _op_<pe>,
//          _r_<pe>, _s<p>_<h>, _g<n>, _in, _out, _seed in the array). Not the multipliers'
//          insides, the control, the address generators or the banks' storage;
//   dut    every net of the design (named dut.*): the control and the banks too;
//   all    every routed net, the wrapper's shift registers and the clock included.
// `span` counts only the inter-tile segments (sp4/sp12) of the data nets. Printed: per design
// the explorer's wires and links and the measured numbers; Spearman's rank correlation of the
// wires (and of wires + links, the sum the area proxy prices) with each measure, over all
// designs and within each array; the least-squares fit of data pips to wires and links
// (coefficients >= 0, with a constant), the ranking with it, and the same fit made on the other
// arrays tested on each one. Yosys and nextpnr run one at a time: about 24 s of CPU a design
// at 2x2 and 36 s at 2x4, so the default sweep (GEMM 4^3 on 2x2 and 2x4: 27 designs) takes about
// 15 minutes on an idle 2-core machine (22 and 33 minutes measured beside other jobs).

#include "rank_correlation.h"
#include "role_designs.h"

#include "rubick/dse/Explore.h"
#include "rubick/dse/Select.h"
#include "rubick/emit/Package.h"
#include "rubick/frontend/Parser.h"
#include "rubick/frontend/Sema.h"
#include "rubick/support/Diagnostic.h"
#include "rubick/support/Process.h"
#include "rubick/support/SourceFile.h"
#include "rubick/synth/Wrapper.h"

#include <Eigen/Dense>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <numeric>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

using namespace rubick;
namespace fs = std::filesystem;

namespace {

struct Sample {
  std::string array, id, entries;
  double wires = 0, links = 0;       // the explorer's
  double cells = 0, fmax = 0;        // nextpnr: logic cells, MHz
  double data = 0, dut = 0, all = 0; // pips
  double span = 0;                   // sp4/sp12 segments of the data nets
};

using rubick::bench::spearman;

// A scratch directory, removed however the design's run ends.
struct Scratch {
  fs::path dir;
  Scratch() {
    const char* tmp = std::getenv("TMPDIR");
    std::string pattern = std::string(tmp && *tmp ? tmp : "/tmp") + "/rubick-wirecal-XXXXXX";
    if (!::mkdtemp(pattern.data())) throw Error("wire_calibration", "cannot create " + pattern);
    dir = pattern;
  }
  ~Scratch() {
    std::error_code ec;
    fs::remove_all(dir, ec);
  }
};

std::string readText(const fs::path& p) {
  return readSourceFile(p.string()).text();
}

void writeText(const fs::path& p, const std::string& text) {
  std::ofstream out(p, std::ios::binary);
  out << text;
  if (!out) throw Error(p.string(), "cannot write");
}

// The array's data nets as emit names them (VerilogTop.cpp, VerilogArray.cpp). After flattening
// a net keeps the name of its highest level (the top's tK_T_port<p> rather than the array's
// tK_T_op_<pe>), one bit of it is `name[i]`; a bank's read data counts too, since a port without
// a register is that net.
const std::regex
    kData("dut\\.(t\\d+_\\w+_(port|rdata|out|seed)\\d+|array\\.(t\\d+_\\w+_(r_\\d+_\\d+|s\\d+_"
          "\\d+|op_\\d+_\\d+|g\\d+|in|out|seed)|prod_\\d+_\\d+))(\\[\\d+\\])?");

// Pips per net set in nextpnr's routed JSON: ROUTING is "wire;pip;strength;..." with an empty
// pip for the net's source wire.
void countRouting(const fs::path& routed, Sample& s) {
  const nlohmann::json j = nlohmann::json::parse(readText(routed));
  for (const auto& [moduleName, module] : j.at("modules").items())
    for (const auto& [name, net] : module.at("netnames").items()) {
      const auto attrs = net.find("attributes");
      if (attrs == net.end() || !attrs->contains("ROUTING")) continue;
      const std::string routing = attrs->at("ROUTING").get<std::string>();
      std::vector<std::string> f;
      std::stringstream in(routing);
      for (std::string x; std::getline(in, x, ';');)
        f.push_back(x);
      double pips = 0, spans = 0;
      for (size_t i = 0; i + 1 < f.size(); i += 3) {
        if (f[i + 1].empty()) continue;
        ++pips;
        const std::string wire = f[i].substr(f[i].rfind('/') + 1);
        if (wire.starts_with("sp4_") || wire.starts_with("sp12_") || wire.starts_with("span"))
          ++spans;
      }
      s.all += pips;
      if (name.starts_with("dut.")) s.dut += pips;
      if (std::regex_match(name, kData)) {
        s.data += pips;
        s.span += spans;
      }
    }
}

// Yosys synth_ice40 behind rubick_synth_wrap and nextpnr-ice40 (HX8K, seed 1), as `rubick
// synth`'s ice40 flow runs them, with the routed netlist written. False (and `why`) when the
// design is not placed.
bool placeAndRoute(const std::vector<emit::File>& files, Sample& s, std::string& why) {
  Scratch scratch;
  const fs::path dir = scratch.dir / "design";
  emit::writeDirectory(dir.string(), files);
  const std::string top =
      nlohmann::json::parse(readText(dir / "design.json")).at("top").get<std::string>();
  std::string script = "read_verilog -sv";
  std::istringstream list(readText(dir / "filelist.f"));
  for (std::string line; std::getline(list, line);)
    if (!line.empty()) script += " " + line;
  writeText(
      dir / "wrap.v",
      synth::wrapperModule(top, synth::modulePorts(readText(dir / ("rtl/" + top + ".v")), top)));
  script += "\nread_verilog -sv wrap.v\nsynth_ice40 -top " + std::string(synth::kWrapperName) +
            " -json ice40.json\n";
  writeText(dir / "ice40.ys", script);
  std::string error;
  const int yosys = runProcess({"yosys", "-q", "-s", "ice40.ys"}, dir.string(),
                               (dir / "yosys.log").string(), &error);
  if (yosys == -1) throw Error("yosys", "cannot run: " + error);
  if (yosys != 0)
    throw Error("yosys",
                "synth_ice40 failed on " + s.id + " (exit status " + std::to_string(yosys) + ")");
  const int status =
      runProcess({"nextpnr-ice40", "--hx8k", "--package", "ct256", "--json", "ice40.json", "--seed",
                  "1", "--freq", "12", "--write", "routed.json"},
                 dir.string(), (dir / "nextpnr.log").string(), &error);
  if (status == -1) throw Error("nextpnr-ice40", "cannot run: " + error);
  const std::string log = readText(dir / "nextpnr.log");
  std::smatch m;
  if (std::regex_search(log, m, std::regex("ICESTORM_LC:\\s*(\\d+)/\\s*(\\d+)")))
    s.cells = std::stod(m[1]);
  if (status != 0) {
    why = std::regex_search(log, m, std::regex("ERROR: ([^\\n]*)")) ? m[1].str() : "failed";
    return false;
  }
  static const std::regex fmaxLine("Max frequency for clock '[^']*': ([0-9.]+) MHz");
  for (auto it = std::sregex_iterator(log.begin(), log.end(), fmaxLine);
       it != std::sregex_iterator(); ++it)
    s.fmax = std::stod((*it)[1]); // the last report: after routing
  countRouting(dir / "routed.json", s);
  return true;
}

// Least squares of y on (1, wires, links) over `use`, the two slopes at least 0: the weight of
// a link bit against a wire bit. Returns {constant, wires, links}.
std::vector<double> fit(const std::vector<Sample>& s, const std::vector<size_t>& use) {
  std::vector<bool> on = {true, true, true};
  while (true) {
    std::vector<int> cols;
    for (int k = 0; k < 3; ++k)
      if (on[size_t(k)]) cols.push_back(k);
    Eigen::MatrixXd a(use.size(), cols.size());
    Eigen::VectorXd b(use.size());
    for (size_t i = 0; i < use.size(); ++i) {
      const double x[3] = {1, s[use[i]].wires, s[use[i]].links};
      for (size_t c = 0; c < cols.size(); ++c)
        a(Eigen::Index(i), Eigen::Index(c)) = x[cols[c]];
      b(Eigen::Index(i)) = s[use[i]].data;
    }
    const Eigen::VectorXd x = a.colPivHouseholderQr().solve(b);
    std::vector<double> coef(3, 0);
    bool negative = false;
    for (size_t c = 0; c < cols.size(); ++c) {
      coef[size_t(cols[c])] = x(Eigen::Index(c));
      if (cols[c] > 0 && x(Eigen::Index(c)) < 0) {
        on[size_t(cols[c])] = false;
        negative = true;
      }
    }
    if (!negative) return coef;
  }
}

std::string entryList(const dse::DesignPoint& d, const dataflow::StatementView& v,
                      const tc::Program& prog) {
  std::string text;
  for (size_t a = 0; a < d.entries.size(); ++a)
    text +=
        (a ? "," : "") + prog.tensors[v.accesses[a].tensor].name + "=" + ir::toString(d.entries[a]);
  return text;
}

} // namespace

int main(int argc, char** argv) {
  try {
    const int64_t size = argc > 1 ? std::stoll(argv[1]) : 4;
    std::vector<std::pair<int64_t, int64_t>> arrays;
    {
      std::istringstream in(argc > 2 ? argv[2] : "2x2,2x4");
      for (std::string a; std::getline(in, a, ',');) {
        const size_t x = a.find('x');
        if (x == std::string::npos) throw Error("wire_calibration", "array " + a + ": not PxQ");
        arrays.push_back({std::stoll(a.substr(0, x)), std::stoll(a.substr(x + 1))});
      }
    }
    const size_t perArray = argc > 3 ? size_t(std::stoul(argv[3])) : 1000;
    if (!onPath("yosys") || !onPath("nextpnr-ice40"))
      throw Error("wire_calibration", "needs yosys and nextpnr-ice40 on PATH");
    auto file = std::make_shared<const SourceFile>(
        "gemm.tc", "def gemm(int8(M,K) A, int8(K,N) B) -> (C) { C(i,j) +=! A(i,k) * B(k,j) }");
    tc::SemaOptions sema;
    for (const char* n : {"M", "N", "K"})
      sema.sizes.push_back({n, size, {}});
    const tc::Program prog = tc::analyze(tc::parse(file), file, sema);
    const dataflow::StatementView v = dataflow::viewStatement(prog, 0);
    std::vector<Sample> samples;
    std::vector<std::string> arrayNames;
    const auto started = std::chrono::steady_clock::now();
    auto seconds = [&] {
      return std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    };
    for (const auto& [p, q] : arrays) {
      const dse::ExploreOptions o = bench::arrayOptions(prog, v, p, q);
      std::vector<dse::DesignPoint> designs = bench::roleDesigns(v, o);
      const std::string shape = std::to_string(p) + "x" + std::to_string(q);
      arrayNames.push_back(shape);
      std::fprintf(stderr, "%s: %zu designs", shape.c_str(), designs.size());
      if (designs.size() > perArray) designs.resize(perArray);
      std::fprintf(stderr, ", placing and routing %zu\n", designs.size());
      for (const dse::DesignPoint& d : designs) {
        Sample s{shape, d.id, entryList(d, v, prog), double(d.metrics.wires),
                 double(d.metrics.linkBits)};
        std::vector<emit::File> files;
        try {
          files = emit::package(prog, v, d, o, emit::moduleName(prog.name, d.id));
        } catch (const Error& e) {
          std::fprintf(stderr, "  %s: not built (%s)\n", d.id.c_str(), e.diag().message.c_str());
          continue;
        }
        std::string why;
        if (!placeAndRoute(files, s, why)) {
          std::fprintf(stderr, "  %s: not placed (%s)\n", d.id.c_str(), why.c_str());
          continue;
        }
        std::fprintf(stderr, "  %s: %.0f logic cells, %.0f data pips (%.0f s)\n", d.id.c_str(),
                     s.cells, s.data, seconds());
        samples.push_back(s);
      }
    }
    std::printf("wire calibration: GEMM %lld^3, one design per entry and role; %zu designs placed "
                "and routed (nextpnr-ice40 --hx8k, seed 1) in %.0f s\n\n",
                static_cast<long long>(size), samples.size(), seconds());
    std::printf("array  id                wires  links     LC    MHz  data_pips  data_span  "
                "dut_pips  all_pips  entries\n");
    for (const Sample& s : samples)
      std::printf("%-5s  %-16s  %5.0f  %5.0f  %5.0f  %5.1f  %9.0f  %9.0f  %8.0f  %8.0f  %s\n",
                  s.array.c_str(), s.id.c_str(), s.wires, s.links, s.cells, s.fmax, s.data, s.span,
                  s.dut, s.all, s.entries.c_str());
    if (samples.size() < 3) return 0;

    using Field = double Sample::*;
    auto column = [&](const std::vector<size_t>& use, auto get) {
      std::vector<double> x;
      for (size_t i : use)
        x.push_back(get(samples[i]));
      return x;
    };
    std::vector<size_t> all(samples.size());
    std::iota(all.begin(), all.end(), 0);
    auto inArray = [&](const std::string& a) {
      std::vector<size_t> use;
      for (size_t i = 0; i < samples.size(); ++i)
        if (samples[i].array == a) use.push_back(i);
      return use;
    };
    // One row of correlations: the proxy `get` against measure `m`, all and within each array.
    auto row = [&](const char* label, auto get, Field m) {
      std::printf("  %-28s all %6.3f", label,
                  spearman(column(all, get), column(all, [&](const Sample& s) { return s.*m; })));
      for (const std::string& a : arrayNames) {
        const std::vector<size_t> use = inArray(a);
        if (use.size() > 2)
          std::printf(
              "   %s %6.3f (%zu)", a.c_str(),
              spearman(column(use, get), column(use, [&](const Sample& s) { return s.*m; })),
              use.size());
      }
      std::printf("\n");
    };
    const auto wires = [](const Sample& s) { return s.wires; };
    const auto wiresLinks = [](const Sample& s) { return s.wires + s.links; };
    const auto cells = [](const Sample& s) { return s.cells; };
    const struct {
      const char* name;
      Field field;
    } measures[] = {{"data pips", &Sample::data},
                    {"data sp4/sp12 segments", &Sample::span},
                    {"dut pips", &Sample::dut},
                    {"all pips", &Sample::all}};
    std::printf("\nSpearman rank correlation (designs in parentheses):\n");
    for (const auto& m : measures) {
      std::printf("with %s:\n", m.name);
      row("wires (explore's column)", wires, m.field);
      row("wires + links", wiresLinks, m.field);
      row("logic cells (for scale)", cells, m.field);
    }

    const std::vector<double> coef = fit(samples, all);
    const auto fitted = [&](const std::vector<double>& c) {
      return [c](const Sample& s) { return c[1] * s.wires + c[2] * s.links; };
    };
    std::printf("\nfit of data pips (least squares, slopes >= 0): %.1f + %.3f x wires + %.3f x "
                "links\n",
                coef[0], coef[1], coef[2]);
    std::printf("Spearman with data pips:\n");
    row("wires (no coefficient)", wires, &Sample::data);
    row("fitted wires and links", fitted(coef), &Sample::data);
    if (arrayNames.size() > 1) {
      std::printf("held out (fitted on the other arrays, ranked within this one):");
      for (const std::string& a : arrayNames) {
        std::vector<size_t> use = inArray(a), rest;
        for (size_t i = 0; i < samples.size(); ++i)
          if (samples[i].array != a) rest.push_back(i);
        if (use.size() < 3 || rest.size() < 3) continue;
        const auto f = fitted(fit(samples, rest));
        std::printf("  %s %.3f", a.c_str(),
                    spearman(column(use, f), column(use, [](const Sample& s) { return s.data; })));
      }
      std::printf("\n");
    }
    return 0;
  } catch (const Error& e) {
    std::fprintf(stderr, "wire_calibration: %s\n", e.diag().message.c_str());
    return 1;
  }
}
