// SPDX-License-Identifier: Apache-2.0
// The PIM testbench (sim_templates/rubick_pim_harness.cpp and rubick_pim_dut.cpp) on a
// hand-made PIM top (toy_pim.v, design.json, stimulus.txt here), before rubick emits PIM
// designs. It is built and run as `rubick verify` runs a design (verify::simulate with
// Harness::Pim, linking the shared runtime's pim_harness.o), then its program is run directly
// on broken variants of design.json and the stimulus:
//   - the design passes: C read from one unit each, T the sum of the three units' partial sums
//     (8 bits, wrapped), S from the units' write columns (the banks' WRs), no bank violation,
//     the measured cycles within the tolerance; the replicated bias written once for all units
//     (host_wall), offs once per unit (sim_cycles counts the writes);
//   - a wrong expected value fails (exit 1), naming the element, also one in a write column;
//   - a write column the unit never writes fails (exit 1): as padding (it holds the fill bytes)
//     and as an element's place (its fill bytes are the element's value); a written word where
//     design.json has padding fails too;
//   - a prediction one cycle beyond the tolerance fails (exit 1);
//   - banks with a longer tRCD than the units' readers fail with the unit and cycle (exit 1);
//   - an output element no unit places (on chip or in a write column), an input element in a
//     write column, a stimulus of the wrong size, a waveform asked of a build without tracing:
//     exit 2.
//
//   pim_harness_test SOURCE_DIR WORK RUNTIME
#include "Files.h"
#include "Simulate.h"

#include "rubick/emit/Templates.h"
#include "rubick/support/Diagnostic.h"
#include "rubick/support/Process.h"

#include <nlohmann/json.hpp>

#include <cstdio>
#include <filesystem>
#include <sstream>
#include <string>
#include <vector>

namespace {

namespace fs = std::filesystem;
using namespace rubick;

int failures = 0;

void check(bool ok, const std::string& what) {
  if (ok) return;
  std::printf("FAILED: %s\n", what.c_str());
  ++failures;
}

bool has(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

struct Run {
  int rc = -1;
  std::string out;
};

// The simulator of `dir` on a design.json and a stimulus of the test's own.
Run run(const fs::path& dir, const std::string& design, const std::string& stimulus,
        std::vector<std::string> extra = {}) {
  verify::writeFile(dir / "variant.json", design);
  verify::writeFile(dir / "variant.txt", stimulus);
  std::vector<std::string> args = {(dir / "obj_dir" / "sim").string(), "variant.json",
                                   "variant.txt"};
  args.insert(args.end(), extra.begin(), extra.end());
  Run r;
  // runProcess appends to its log: without this, a check would also see the earlier runs' output.
  fs::remove(dir / "variant.log");
  r.rc = runProcess(args, dir.string(), (dir / "variant.log").string());
  r.out = verify::readFile(dir / "variant.log");
  return r;
}

// The stimulus with section `kind select` changed by `edit` (its values, as numbers).
std::string editStimulus(const std::string& text, const std::string& kind, int select,
                         void (*edit)(std::vector<long long>&)) {
  std::istringstream in(text);
  std::ostringstream out;
  std::string word;
  in >> word;
  out << word;
  in >> word;
  out << " " << word << "\n"; // rubick-stimulus 1
  while (in >> word) {
    int sel = 0;
    size_t count = 0;
    in >> sel >> count;
    std::vector<long long> values(count);
    for (long long& v : values)
      in >> v;
    if (word == kind && sel == select) edit(values);
    out << word << " " << sel << " " << values.size() << "\n";
    for (long long v : values)
      out << v << " ";
    out << "\n";
  }
  return out.str();
}

} // namespace

int main(int argc, char** argv) {
  if (argc != 4) {
    std::fprintf(stderr, "usage: %s SOURCE_DIR WORK RUNTIME\n", argv[0]);
    return 2;
  }
  const fs::path src = argv[1];
  try {
    verify::Options o;
    o.workDir = argv[2];
    o.runtimeDir = argv[3];
    o.build = verify::Build::Quick;
    o = verify::withAbsolutePaths(o);
    verify::prepareWork(o);
    verify::Runtime runtime(verify::runtimeRoot(o), 2);

    const std::string design = verify::readFile(src / "design.json");
    const std::string stimulus = verify::readFile(src / "stimulus.txt");
    verify::SimDesign d;
    d.dir = fs::path(o.workDir) / "toy_pim";
    d.top = "toy_pim_axil";
    d.files = {{"rtl/rubick_bank_stream.v", emit::rtlTemplates().at("rubick_bank_stream")},
               {"rtl/rubick_stream_wport.v", emit::rtlTemplates().at("rubick_stream_wport")},
               {"rtl/rubick_axil_regs.v", emit::rtlTemplates().at("rubick_axil_regs")},
               {"rtl/rubick_axil_host.v", emit::rtlTemplates().at("rubick_axil_host")},
               {"rtl/toy_pim.v", verify::readFile(src / "toy_pim.v")},
               {"filelist.f", "rtl/rubick_bank_stream.v\nrtl/rubick_stream_wport.v\n"
                              "rtl/rubick_axil_regs.v\nrtl/rubick_axil_host.v\nrtl/toy_pim.v\n"},
               {"design.json", design}};
    d.harness = verify::Harness::Pim;
    d.stimulus = [&](uint64_t) { return stimulus; };
    d.simulatedCycles = 30;
    d.pes = 2;
    verify::Result r;
    verify::simulate(d, o, runtime, 2, r);
    check(r.built && r.trials.size() == 1, "one trial run");
    if (r.trials.size() == 1) {
      const verify::Trial& t = r.trials[0];
      std::printf("trial: %s, %zu elements, measured %lld, predicted %lld, %llu cycles\n%s",
                  t.pass ? "pass" : "FAIL", t.elements, static_cast<long long>(t.measured),
                  static_cast<long long>(t.predicted), static_cast<unsigned long long>(t.simCycles),
                  t.report.c_str());
      check(t.pass && t.mismatches == 0 && t.elements == 19, "the design passes");
      // From the reader's timing (rtl_templates/rubick_bank_stream.v): rows of 2 columns in 2
      // banks, tRCD 2, tRP 2, tRAS 5, CL 2, columns R R W R R W R W R. Reads in cycles 3 and 4,
      // on out_* in 6 and 7, their sums in the write port after those edges: the first WR in 8
      // (3 cycles late), then reads in 9 and 10, the second WR in 14, a read in 15, the third WR
      // in 19 (its one word there), the last read in 20, taken in 23: done in 24.
      // design.json predicts 26 with a tolerance of 2.
      check(t.measured == 24 && t.predicted == 26, "measured 24 cycles, predicted 26");
      // Everything through the AXI4-Lite slaves of toy_pim_axil: reset 2; 4 host-window writes
      // (bias once for all units, offs once per unit) of 3 cycles each (AW and W, the write,
      // B), the first one more (the window takes requests from the 2nd cycle after reset): 13;
      // START 3; the run 24 and a cycle for irq; STATUS, CYCLES_LO, CYCLES_HI 2 each (R the
      // cycle after AR); 6 host-window reads of 4 (AR, host_re, the top's data, R): C once from
      // each unit, T from all three (S from the banks, no host read).
      check(t.simCycles == 2 + 13 + 3 + 25 + 6 + 24, "73 cycles in all (the bias written once)");
      check(has(t.report, "PIM units=3 activates=15 reads=18 writes=9 violations=0\n"),
            "the PIM line");
    }

    const nlohmann::json j = nlohmann::json::parse(design);
    {
      Run x = run(d.dir, design,
                  editStimulus(stimulus, "expect", 3, [](std::vector<long long>& v) { ++v[1]; }));
      check(x.rc == 1 && has(x.out, "mismatch C[1]: expected ") &&
                has(x.out, "RESULT FAIL mismatches=1 elements=19 "),
            "a wrong expected value fails:\n" + x.out);
      x = run(d.dir, design,
              editStimulus(stimulus, "expect", 5, [](std::vector<long long>& v) { v[7] ^= 64; }));
      check(x.rc == 1 && has(x.out, "mismatch S[1][2]: expected ") &&
                has(x.out, "RESULT FAIL mismatches=1 elements=19 "),
            "a wrong expected word in a write column fails:\n" + x.out);
    }
    {
      // A tenth column, a W column the units never write (they stream 9): as padding, then as
      // S[u][4]'s place instead of the third W column (whose written word is then padding).
      nlohmann::json more = j;
      more["stream"]["columns"] = 10;
      more["stream"]["runs"].push_back({1, 1});
      for (nlohmann::json& unit : more["stream"]["units"]) {
        unit.push_back({-1, -1});
        unit.push_back({-1, -1});
      }
      Run x = run(d.dir, more.dump(), stimulus);
      check(x.rc == 1 && has(x.out, "unit 0 column 9: padding word 0 is 0xa5a5a5a5\n") &&
                has(x.out, "unit 2 column 9: padding word 1 is 0xa5a5a5a5\n") &&
                has(x.out, "RESULT FAIL mismatches=6 elements=19 "),
            "a write column never written fails:\n" + x.out);
      for (nlohmann::json& unit : more["stream"]["units"]) {
        std::swap(unit[24], unit[30]); // column 7's first word, column 9's first
      }
      x = run(d.dir, more.dump(), stimulus);
      check(x.rc == 1 && has(x.out, "unit 1 column 7: padding word 0 is ") &&
                has(x.out, "mismatch S[1][4]: expected ") &&
                has(x.out, "RESULT FAIL mismatches=9 elements=19 "),
            "an element in a write column never written fails:\n" + x.out);
    }
    {
      nlohmann::json late = j;
      late["prediction"]["cycles"] = 27;
      Run x = run(d.dir, late.dump(), stimulus);
      check(x.rc == 1 &&
                has(x.out, "RESULT FAIL mismatches=0 elements=19 measured=24 predicted=27"),
            "a prediction 3 cycles off with a tolerance of 2 fails:\n" + x.out);
      late["prediction"]["cycles"] = 22;
      x = run(d.dir, late.dump(), stimulus);
      check(x.rc == 0 && has(x.out, "RESULT PASS "), "2 cycles early within 2 passes:\n" + x.out);
    }
    {
      nlohmann::json slow = j;
      slow["bank"]["trcd"] = 3;
      Run x = run(d.dir, slow.dump(), stimulus);
      check(x.rc == 1 && has(x.out, "bank violation in unit 0, cycle ") &&
                has(x.out, "bank violation in unit 2, cycle ") && has(x.out, "(tRCD 3)") &&
                has(x.out, "violations=6\n") && has(x.out, "RESULT FAIL mismatches=0 "),
            "a tRCD violation fails:\n" + x.out);
    }
    {
      nlohmann::json lost = j;
      lost["tensors"][3]["places"][1][1] = nlohmann::json::array();
      Run x = run(d.dir, lost.dump(), stimulus);
      check(x.rc == 2 && has(x.out, "C[1] has no place"),
            "an output element with no place is bad input:\n" + x.out);
      lost = j;
      lost["stream"]["units"][2][19] = {-1, -1}; // S[2][3]
      x = run(d.dir, lost.dump(), stimulus);
      check(x.rc == 2 && has(x.out, "S[2][3] has no place"),
            "an output element in no write column and not on chip is bad input:\n" + x.out);
      lost = j;
      lost["stream"]["units"][0][8] = {0, 5}; // A[0][5] in a W column
      x = run(d.dir, lost.dump(), stimulus);
      check(x.rc == 2 && has(x.out, "of column 2 is no output element"),
            "an input element in a write column is bad input:\n" + x.out);
    }
    {
      Run x = run(d.dir, design, editStimulus(stimulus, "tensor", 2, [](std::vector<long long>& v) {
                    v.push_back(0);
                  }));
      check(x.rc == 2, "a stimulus of the wrong size is bad input:\n" + x.out);
      x = run(d.dir, design, stimulus, {"--wave", "w.fst"});
      check(x.rc == 2 && has(x.out, "no waveform support"),
            "a waveform from a build without tracing:\n" + x.out);
    }
  } catch (const Error& e) {
    std::printf("FAILED: %s\n", e.what());
    return 1;
  }
  if (failures) return 1;
  std::printf("pim_harness: OK\n");
  return 0;
}
