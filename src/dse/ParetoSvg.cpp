// SPDX-License-Identifier: Apache-2.0
// `rubick explore --plot`: latency against wires (or area) as a standalone SVG a browser shows
// as is. Every design is a grey dot (hover for its id, metrics and dataflow), Pareto-optimal
// designs are red, and the front of this 2-D projection is a staircase through them. An axis
// whose data spans more than two decades is drawn in log scale, so a few slow designs do not
// squash the rest into a corner. Coordinates are printed with fixed decimals so the file is
// byte-identical across runs.

#include "NumberText.h"

#include "rubick/dse/Report.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>

namespace rubick::dse {
namespace {

// Canvas: the plot box, and the legend to its right so it never hides a point.
constexpr double kWidth = 860, kHeight = 520;
constexpr double kLeft = 90, kRight = 610, kTop = 70, kBottom = 450;
constexpr double kLegendX = 630;
constexpr double kDecadesForLog = 2;
constexpr size_t kMaxDots = 5000;
const char* kGrey = "#9a9a9a";
const char* kRed = "#d62728";

std::string xmlEscape(const std::string& s) {
  std::string out;
  for (char c : s) {
    switch (c) {
    case '&':
      out += "&amp;";
      break;
    case '<':
      out += "&lt;";
      break;
    case '>':
      out += "&gt;";
      break;
    case '"':
      out += "&quot;";
      break;
    case '\'':
      out += "&apos;";
      break;
    default:
      out += c;
    }
  }
  return out;
}

std::string fx(double x) {
  return formatFixed(x, 2);
}

// Tick labels: plain below 10000, then k / M / G so long numbers stay readable. A linear axis
// uses one suffix for all its ticks (5k, 10k, 15k rather than 5000, 10k, 15k).
std::string tickLabel(double x, double largest) {
  double a = std::fabs(largest);
  if (a >= 1e9) return formatSignificant(x / 1e9, 4) + (x ? "G" : "");
  if (a >= 1e6) return formatSignificant(x / 1e6, 4) + (x ? "M" : "");
  if (a >= 1e4) return formatSignificant(x / 1e3, 4) + (x ? "k" : "");
  return formatSignificant(x, 4);
}

std::string plural(size_t n, const std::string& what) {
  return std::to_string(n) + " " + what + (n == 1 ? "" : "s");
}

struct Tick {
  double value;
  bool major; // labelled
};

// One axis: data range -> pixel range, linear or log10.
struct Axis {
  bool log = false;
  double lo = 0, hi = 1; // in data units (log: powers of ten)
  std::vector<Tick> ticks;

  std::string label(double x) const {
    double largest = std::max(std::fabs(lo), std::fabs(hi));
    return tickLabel(x, log ? x : largest);
  }
  double frac(double x) const {
    if (log) return (std::log10(x) - std::log10(lo)) / (std::log10(hi) - std::log10(lo));
    return (x - lo) / (hi - lo);
  }
};

double niceStep(double raw) {
  double p = std::pow(10.0, std::floor(std::log10(raw)));
  for (double m : {1.0, 2.0, 5.0})
    if (m * p >= raw) return m * p;
  return 10 * p;
}

Axis makeAxis(const std::vector<double>& values) {
  Axis a;
  if (values.empty()) return a;
  double lo = *std::min_element(values.begin(), values.end());
  double hi = *std::max_element(values.begin(), values.end());
  if (lo > 0 && hi / lo > std::pow(10.0, kDecadesForLog)) {
    a.log = true;
    int e0 = int(std::floor(std::log10(lo))), e1 = int(std::ceil(std::log10(hi)));
    a.lo = std::pow(10.0, e0);
    a.hi = std::pow(10.0, e1);
    for (int e = e0; e <= e1; ++e) {
      a.ticks.push_back({std::pow(10.0, e), true});
      for (int m = 2; m <= 9 && e < e1; ++m)
        a.ticks.push_back({m * std::pow(10.0, e), false});
    }
    return a;
  }
  if (hi == lo) {
    // One value (or all equal): centre it in a range of about its own size.
    double pad = std::max(1.0, std::fabs(lo) * 0.5);
    hi += pad;
    lo = lo >= 0 ? std::max(0.0, lo - pad) : lo - pad;
  }
  double step = niceStep((hi - lo) / 5);
  a.lo = std::floor(lo / step) * step;
  a.hi = std::ceil(hi / step) * step;
  for (int i = 0; a.lo + i * step <= a.hi + step * 1e-9; ++i)
    a.ticks.push_back({a.lo + i * step, true});
  return a;
}

struct Canvas {
  std::string out;
  void line(double x1, double y1, double x2, double y2, const std::string& style) {
    out += "<line x1=\"" + fx(x1) + "\" y1=\"" + fx(y1) + "\" x2=\"" + fx(x2) + "\" y2=\"" +
           fx(y2) + "\" " + style + "/>\n";
  }
  void text(double x, double y, const std::string& s, const std::string& attrs) {
    out +=
        "<text x=\"" + fx(x) + "\" y=\"" + fx(y) + "\" " + attrs + ">" + xmlEscape(s) + "</text>\n";
  }
};

void drawAxes(Canvas& c, const Axis& xa, const Axis& ya, const std::string& xLabel,
              const std::string& yLabel, bool withTicks) {
  const std::string grid = "stroke=\"#e6e6e6\" stroke-width=\"1\"";
  const std::string ink = "stroke=\"#333\" stroke-width=\"1\"";
  if (withTicks) {
    for (const Tick& t : xa.ticks) {
      double px = kLeft + xa.frac(t.value) * (kRight - kLeft);
      if (t.major) c.line(px, kTop, px, kBottom, grid);
      c.line(px, kBottom, px, kBottom + (t.major ? 6 : 3), ink);
      if (t.major)
        c.text(px, kBottom + 20, xa.label(t.value), "text-anchor=\"middle\" class=\"tick\"");
    }
    for (const Tick& t : ya.ticks) {
      double py = kBottom - ya.frac(t.value) * (kBottom - kTop);
      if (t.major) c.line(kLeft, py, kRight, py, grid);
      c.line(kLeft - (t.major ? 6 : 3), py, kLeft, py, ink);
      if (t.major)
        c.text(kLeft - 9, py + 4, ya.label(t.value), "text-anchor=\"end\" class=\"tick\"");
    }
  }
  c.out += "<rect x=\"" + fx(kLeft) + "\" y=\"" + fx(kTop) + "\" width=\"" + fx(kRight - kLeft) +
           "\" height=\"" + fx(kBottom - kTop) + "\" fill=\"none\" " + ink + "/>\n";
  c.text((kLeft + kRight) / 2, kBottom + 45, xLabel, "text-anchor=\"middle\" class=\"label\"");
  double ly = (kTop + kBottom) / 2;
  c.text(24, ly, yLabel,
         "text-anchor=\"middle\" class=\"label\" transform=\"rotate(-90 24 " + fx(ly) + ")\"");
}

void drawLegend(Canvas& c, const std::string& second) {
  double y = kTop + 10;
  c.out += "<circle class=\"legend-marker\" cx=\"" + fx(kLegendX + 8) + "\" cy=\"" + fx(y) +
           "\" r=\"3\" fill=\"" + kGrey + "\"/>\n";
  c.text(kLegendX + 22, y + 4, "design", "class=\"legend\"");
  y += 22;
  c.out += "<circle class=\"legend-marker\" cx=\"" + fx(kLegendX + 8) + "\" cy=\"" + fx(y) +
           "\" r=\"4.5\" fill=\"" + kRed + "\" stroke=\"#7a1010\"/>\n";
  c.text(kLegendX + 22, y + 4, "Pareto-optimal", "class=\"legend\"");
  c.text(kLegendX + 22, y + 18, "(latency, " + second + ", buffer bytes)",
         "class=\"legend small\"");
  y += 40;
  c.line(kLegendX, y, kLegendX + 16, y,
         std::string("stroke=\"") + kRed + "\" stroke-width=\"1.5\"");
  c.text(kLegendX + 22, y + 4, "front in this plane", "class=\"legend\"");
}

} // namespace

std::string paretoSvg(const dataflow::StatementView& v, const std::vector<DesignPoint>& points,
                      Objective o) {
  const bool area = o == Objective::Area;
  auto yOf = [&](const DesignPoint& d) { return area ? d.metrics.area : double(d.metrics.wires); };
  std::vector<double> xs, ys;
  for (const DesignPoint& d : points) {
    xs.push_back(double(d.metrics.latency));
    ys.push_back(yOf(d));
  }
  Axis xa = makeAxis(xs), ya = makeAxis(ys);
  std::string xLabel = std::string("latency (cycles") + (xa.log ? ", log scale)" : ")");
  std::string yLabel = area ? "area (area proxy, NAND2-equivalent gates" : "wires (wire bits";
  yLabel += ya.log ? ", log scale)" : ")";
  size_t paretoCount = 0;
  for (const DesignPoint& d : points)
    paretoCount += d.pareto;

  Canvas c;
  c.out += "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
  c.out += "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" + fx(kWidth) + "\" height=\"" +
           fx(kHeight) + "\" viewBox=\"0 0 " + fx(kWidth) + " " + fx(kHeight) + "\">\n";
  c.out += "<style>text { font-family: sans-serif; font-size: 12px; fill: #222; }"
           " .title { font-size: 16px; font-weight: bold; } .label { font-size: 13px; }"
           " .small { font-size: 10px; fill: #555; }</style>\n";
  c.out += "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n";
  c.text(kLeft, 28,
         "rubick explore: " + v.statement + ", latency against " + (area ? "area" : "wires"),
         "class=\"title\"");
  c.text(kLeft, 48,
         plural(points.size(), "design") + ", " + std::to_string(paretoCount) +
             " Pareto-optimal over (latency, " + (area ? "area" : "wires") + ", buffer bytes)",
         "class=\"small\"");
  drawAxes(c, xa, ya, xLabel, yLabel, !points.empty());
  drawLegend(c, area ? "area" : "wires");
  if (points.empty()) {
    c.text((kLeft + kRight) / 2, (kTop + kBottom) / 2, "no designs",
           "text-anchor=\"middle\" class=\"label\"");
    return c.out + "</svg>\n";
  }

  auto px = [&](double x) { return kLeft + xa.frac(x) * (kRight - kLeft); };
  auto py = [&](double y) { return kBottom - ya.frac(y) * (kBottom - kTop); };

  // The staircase: Pareto points by latency, keeping each that improves the y metric (the 2-D
  // non-dominated subset; the others are on the 3-D front through their buffer size).
  std::vector<size_t> order;
  for (size_t i = 0; i < points.size(); ++i)
    if (points[i].pareto) order.push_back(i);
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) {
    return std::pair(xs[a], ys[a]) < std::pair(xs[b], ys[b]);
  });
  std::vector<size_t> front;
  double best = std::numeric_limits<double>::infinity();
  for (size_t i : order)
    if (ys[i] < best) {
      front.push_back(i);
      best = ys[i];
    }
  if (front.size() > 1) {
    std::string pts;
    for (size_t k = 0; k < front.size(); ++k) {
      size_t i = front[k];
      if (k) pts += " " + fx(px(xs[i])) + "," + fx(py(ys[front[k - 1]]));
      pts += (k ? " " : "") + fx(px(xs[i])) + "," + fx(py(ys[i]));
    }
    c.out += "<polyline class=\"front\" points=\"" + pts + "\" fill=\"none\" stroke=\"" + kRed +
             "\" stroke-width=\"1.5\"/>\n";
  }

  auto tooltip = [&](const DesignPoint& d) {
    return d.id + ": latency " + std::to_string(d.metrics.latency) + " cycles, " +
           (area ? "area " + formatSignificant(d.metrics.area)
                 : "wires " + std::to_string(d.metrics.wires)) +
           ", buffer " + std::to_string(d.metrics.bufferBytes) + " bytes, " +
           std::to_string(d.dataflow.p) + "x" + std::to_string(d.dataflow.q) + " " +
           dataflow::toSpec(d.dataflow, v);
  };
  auto circle = [&](size_t i, bool pareto, const std::string& tip) {
    c.out += "<circle class=\"point" + std::string(pareto ? " pareto" : "") + "\" cx=\"" +
             fx(px(xs[i])) + "\" cy=\"" + fx(py(ys[i])) + "\" r=\"" + (pareto ? "4.5" : "3") +
             "\" fill=\"" + (pareto ? kRed : kGrey) + "\"" +
             (pareto ? " stroke=\"#7a1010\"" : " fill-opacity=\"0.6\"") + "><title>" +
             xmlEscape(tip) + "</title></circle>\n";
  };

  // Grey points first so the red ones stay on top. A large search (millions of designs) would
  // give a file no browser opens, so beyond kMaxDots the grey designs that land on the same
  // pixel share one dot; Pareto-optimal designs are always drawn one by one.
  if (points.size() <= kMaxDots) {
    for (size_t i = 0; i < points.size(); ++i)
      if (!points[i].pareto) circle(i, false, tooltip(points[i]));
  } else {
    std::map<std::pair<long, long>, size_t> cell;  // pixel -> index into groups
    std::vector<std::pair<size_t, size_t>> groups; // (first design, designs), first-seen order
    for (size_t i = 0; i < points.size(); ++i) {
      if (points[i].pareto) continue;
      std::pair<long, long> key{std::lround(px(xs[i])), std::lround(py(ys[i]))};
      auto [it, added] = cell.emplace(key, groups.size());
      if (added)
        groups.push_back({i, 1});
      else
        ++groups[it->second].second;
    }
    for (const auto& [i, n] : groups)
      circle(i, false,
             n == 1 ? tooltip(points[i])
                    : std::to_string(n) + " designs here, e.g. " + tooltip(points[i]));
    c.text(kLegendX, kTop + 110, "grey dots merged per pixel:", "class=\"legend small\"");
    c.text(kLegendX, kTop + 124,
           plural(points.size() - paretoCount, "design") + " in " + plural(groups.size(), "dot"),
           "class=\"legend small\"");
  }
  for (size_t i = 0; i < points.size(); ++i)
    if (points[i].pareto) circle(i, true, tooltip(points[i]));
  return c.out + "</svg>\n";
}

} // namespace rubick::dse
