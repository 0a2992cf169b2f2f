// The PIM testbench (sim_templates/rubick_pim_harness.cpp and rubick_pim_dut.cpp) on a
// hand-made PIM top (toy_pim.v, design.json, stimulus.txt here), before rubick emits PIM
// designs. It is built and run as `rubick verify` runs a design (verify::simulate with
// Harness::Pim, linking the shared runtime's pim_harness.o), then its program is run directly
// on broken variants of design.json and the stimulus:
//   - the design passes: C read from one unit each, T the sum of the three units' partial sums
//     (8 bits, wrapped), no bank violation, the measured cycles within the tolerance; the
//     replicated bias written once for all units (host_wall), offs once per unit (sim_cycles
//     counts the writes);
//   - a wrong expected value fails (exit 1), naming the element;
//   - a prediction one cycle beyond the tolerance fails (exit 1);
//   - banks with a longer tRCD than the units' readers fail with the unit and cycle (exit 1);
//   - an output element no unit places, a stimulus of the wrong size, a waveform asked of a
//     build without tracing: exit 2.
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
    d.top = "toy_pim";
    d.files = {{"rtl/rubick_bank_stream.v", emit::rtlTemplates().at("rubick_bank_stream")},
               {"rtl/toy_pim.v", verify::readFile(src / "toy_pim.v")},
               {"filelist.f", "rtl/rubick_bank_stream.v\nrtl/toy_pim.v\n"},
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
      check(t.pass && t.mismatches == 0 && t.elements == 4, "the design passes");
      // From the reader's timing (rtl_templates/rubick_bank_stream.v): rows of 2 columns in 2
      // banks, tRCD 2, tRP 2, tRAS 5, CL 2: the third row's ACT waits for its bank's tRAS and
      // tRP, done 15 cycles after start; design.json predicts 17 with a tolerance of 2.
      check(t.measured == 15 && t.predicted == 17, "measured 15 cycles, predicted 17");
      // Reset 2, writes 4 (bias once with host_wall, offs once per unit), start 1, run 15,
      // reads 6 (C once from each unit, T from all three).
      check(t.simCycles == 28, "28 cycles in all (the bias written once for all units)");
      check(has(t.report, "PIM units=3 activates=9 reads=18 violations=0\n"), "the PIM line");
    }

    const nlohmann::json j = nlohmann::json::parse(design);
    {
      Run x = run(d.dir, design,
                  editStimulus(stimulus, "expect", 3, [](std::vector<long long>& v) { ++v[1]; }));
      check(x.rc == 1 && has(x.out, "mismatch C[1]: expected ") &&
                has(x.out, "RESULT FAIL mismatches=1 elements=4 "),
            "a wrong expected value fails:\n" + x.out);
    }
    {
      nlohmann::json late = j;
      late["prediction"]["cycles"] = 18;
      Run x = run(d.dir, late.dump(), stimulus);
      check(x.rc == 1 && has(x.out, "RESULT FAIL mismatches=0 elements=4 measured=15 predicted=18"),
            "a prediction 3 cycles off with a tolerance of 2 fails:\n" + x.out);
      late["prediction"]["cycles"] = 13;
      x = run(d.dir, late.dump(), stimulus);
      check(x.rc == 0 && has(x.out, "RESULT PASS "), "2 cycles early within 2 passes:\n" + x.out);
    }
    {
      nlohmann::json slow = j;
      slow["bank"]["trcd"] = 3;
      Run x = run(d.dir, slow.dump(), stimulus);
      check(x.rc == 1 && has(x.out, "bank violation in unit 0, cycle ") &&
                has(x.out, "bank violation in unit 2, cycle ") && has(x.out, "(tRCD 3)") &&
                has(x.out, "violations=9\n") && has(x.out, "RESULT FAIL mismatches=0 "),
            "a tRCD violation fails:\n" + x.out);
    }
    {
      nlohmann::json lost = j;
      lost["tensors"][3]["places"][1][1] = nlohmann::json::array();
      Run x = run(d.dir, lost.dump(), stimulus);
      check(x.rc == 2 && has(x.out, "C[1] has no place"),
            "an output element with no place is bad input:\n" + x.out);
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
