// SPDX-License-Identifier: Apache-2.0
// How well the explorer's area proxy ranks designs against synthesis, and a refit of its cost
// table (not a test: it prints figures; docs/synthesis.md, "Calibrating the proxy").
//
//   build/bench/proxy_calibration [flows] [designs per array]
//
// For GEMM 8^3 on 2x2, 2x4 and 4x4 arrays, one design for every access entry in every role
// (explore's --all --cover roles), each emitted in memory and synthesised (synth::
// synthesizeFiles; default flows generic,xilinx). The proxy's area is linear in the cost
// table's five area coefficients; each design's five features are its area under a table
// with one coefficient 1 and the others 0. Printed: per design the proxy and the measured
// numbers; Spearman's rank correlation of the proxy with generic cells (and LUT + FF) with the
// default table; the least-squares refit of the coefficients to generic cells (on all designs,
// and fitted on the small arrays alone, tested on 4x4); the correlations after; and the refit
// table as JSON for designs/.

#include "rank_correlation.h"
#include "role_designs.h"

#include "rubick/dse/CostModel.h"
#include "rubick/dse/Explore.h"
#include "rubick/dse/Select.h"
#include "rubick/emit/Package.h"
#include "rubick/frontend/Parser.h"
#include "rubick/frontend/Sema.h"
#include "rubick/support/Diagnostic.h"
#include "rubick/synth/Ranked.h"

#include <Eigen/Dense>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <numeric>
#include <string>

using namespace rubick;

namespace {

struct Sample {
  std::string array, id;
  double proxy = 0;
  double features[5] = {};
  double cells = 0, lutff = 0;
};

using rubick::bench::spearman;

const char* kNames[5] = {"multiplierAreaPerBit2", "adderAreaPerBit", "registerAreaPerBit",
                         "sramAreaPerBit", "wireAreaPerBit"};

dse::CostTable unitTable(int k) {
  dse::CostTable t;
  t.multiplierAreaPerBit2 = k == 0;
  t.adderAreaPerBit = k == 1;
  t.registerAreaPerBit = k == 2;
  t.sramAreaPerBit = k == 3;
  t.wireAreaPerBit = k == 4;
  return t;
}

// Least squares of cells on the features of `use`, coefficients at least 0 (a negative cost
// would rank nonsense): refit without the negative ones until none is.
std::vector<double> fit(const std::vector<Sample>& s, const std::vector<size_t>& use) {
  std::vector<bool> on(5, true);
  while (true) {
    std::vector<int> cols;
    for (int k = 0; k < 5; ++k)
      if (on[size_t(k)]) cols.push_back(k);
    Eigen::MatrixXd a(use.size(), cols.size());
    Eigen::VectorXd b(use.size());
    for (size_t i = 0; i < use.size(); ++i) {
      for (size_t c = 0; c < cols.size(); ++c)
        a(Eigen::Index(i), Eigen::Index(c)) = s[use[i]].features[cols[c]];
      b(Eigen::Index(i)) = s[use[i]].cells;
    }
    const Eigen::VectorXd x = a.colPivHouseholderQr().solve(b);
    std::vector<double> coef(5, 0);
    bool negative = false;
    for (size_t c = 0; c < cols.size(); ++c) {
      coef[size_t(cols[c])] = x(Eigen::Index(c));
      if (x(Eigen::Index(c)) < 0) {
        on[size_t(cols[c])] = false;
        negative = true;
      }
    }
    if (!negative) return coef;
  }
}

double area(const Sample& s, const std::vector<double>& coef) {
  double a = 0;
  for (int k = 0; k < 5; ++k)
    a += coef[size_t(k)] * s.features[k];
  return a;
}

} // namespace

int main(int argc, char** argv) {
  try {
    synth::Options so;
    so.flows = synth::parseFlows(argc > 1 ? argv[1] : "generic,xilinx", "flows");
    const size_t perArray = argc > 2 ? size_t(std::stoul(argv[2])) : 1000;
    auto file = std::make_shared<const SourceFile>(
        "gemm.tc", "def gemm(int8(M,K) A, int8(K,N) B) -> (C) { C(i,j) +=! A(i,k) * B(k,j) }");
    tc::SemaOptions sema;
    for (const char* n : {"M", "N", "K"})
      sema.sizes.push_back({n, 8, {}});
    const tc::Program prog = tc::analyze(tc::parse(file), file, sema);
    const dataflow::StatementView v = dataflow::viewStatement(prog, 0);
    std::vector<Sample> samples;
    const auto started = std::chrono::steady_clock::now();
    for (const auto& [p, q] : std::vector<std::pair<int64_t, int64_t>>{{2, 2}, {2, 4}, {4, 4}}) {
      const dse::ExploreOptions o = bench::arrayOptions(prog, v, p, q);
      std::vector<dse::DesignPoint> designs = bench::roleDesigns(v, o);
      if (designs.size() > perArray) designs.resize(perArray);
      const std::string shape = std::to_string(p) + "x" + std::to_string(q);
      std::fprintf(stderr, "%s: synthesising %zu designs\n", shape.c_str(), designs.size());
      for (const synth::RankedSynthesis& x :
           synth::synthesizeRanked(prog, v, o, designs, designs.size(), so)) {
        if (!x.unbuilt.empty() || !x.report.generic) continue;
        Sample s{shape, x.design.id, x.design.metrics.area, {}, 0, 0};
        for (int k = 0; k < 5; ++k)
          s.features[k] = dse::evaluate(v, x.design.dataflow, x.design.entries,
                                        o.constraints.elementBits, unitTable(k))
                              .area;
        s.cells = double(x.report.generic->cells);
        if (x.report.xilinx) s.lutff = double(x.report.xilinx->luts + x.report.xilinx->flipFlops);
        samples.push_back(s);
      }
    }
    std::printf("proxy calibration: GEMM 8^3, one design per entry and role on 2x2, 2x4, 4x4; "
                "%zu designs synthesised in %.0f s\n\n",
                samples.size(),
                std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count());
    std::printf("array  id                proxy_area    cells   LUT+FF\n");
    for (const Sample& s : samples)
      std::printf("%-5s  %-16s  %10.0f  %7.0f  %7.0f\n", s.array.c_str(), s.id.c_str(), s.proxy,
                  s.cells, s.lutff);
    std::vector<size_t> all(samples.size()), small, large;
    std::iota(all.begin(), all.end(), 0);
    for (size_t i = 0; i < samples.size(); ++i)
      (samples[i].array == "4x4" ? large : small).push_back(i);
    auto rho = [&](const std::vector<size_t>& use, const std::vector<double>* coef, bool lutff) {
      std::vector<double> a, b;
      for (size_t i : use) {
        a.push_back(coef ? area(samples[i], *coef) : samples[i].proxy);
        b.push_back(lutff ? samples[i].lutff : samples[i].cells);
      }
      return spearman(a, b);
    };
    // Within one array the designs differ in entries only: the ranking explore makes.
    auto perArrayRho = [&](const std::vector<double>* coef) {
      std::string text;
      for (const char* a : {"2x2", "2x4", "4x4"}) {
        std::vector<size_t> use;
        for (size_t i = 0; i < samples.size(); ++i)
          if (samples[i].array == a) use.push_back(i);
        char buf[64];
        std::snprintf(buf, sizeof buf, " %s %.3f", a, use.size() > 2 ? rho(use, coef, false) : 0);
        text += buf;
      }
      return text;
    };
    const bool lut =
        std::any_of(samples.begin(), samples.end(), [](const Sample& s) { return s.lutff > 0; });
    std::printf("\nSpearman rank correlation with generic cells, default cost table: all %.3f;"
                " within each array%s\n",
                rho(all, nullptr, false), perArrayRho(nullptr).c_str());
    if (lut) std::printf("  with synth_xilinx LUT + FF: all %.3f\n", rho(all, nullptr, true));
    const std::vector<double> coef = fit(samples, all), held = fit(samples, small);
    std::printf("\nrefit to generic cells (least squares, coefficients >= 0):\n");
    for (int k = 0; k < 5; ++k)
      std::printf("  %-22s %10.4f (fitted on 2x2 and 2x4 alone: %.4f)\n", kNames[k],
                  coef[size_t(k)], held[size_t(k)]);
    std::printf("Spearman after the refit: all %.3f; within each array%s\n", rho(all, &coef, false),
                perArrayRho(&coef).c_str());
    if (lut) std::printf("  with synth_xilinx LUT + FF: all %.3f\n", rho(all, &coef, true));
    if (!large.empty() && !small.empty())
      std::printf("held out: fitted on 2x2 and 2x4, on 4x4 %.3f (default table %.3f)\n",
                  rho(large, &held, false), rho(large, nullptr, false));
    std::printf("\nthe refit as a cost table (rubick explore --cost-table FILE):\n{\n");
    for (int k = 0; k < 5; ++k)
      std::printf("  \"%s\": %.4f%s\n", kNames[k], coef[size_t(k)], k < 4 ? "," : "");
    std::printf("}\n");
    return 0;
  } catch (const Error& e) {
    std::fprintf(stderr, "proxy_calibration: %s\n", e.diag().message.c_str());
    return 1;
  }
}
