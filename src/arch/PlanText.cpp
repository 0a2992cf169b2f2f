// SPDX-License-Identifier: Apache-2.0
#include "rubick/arch/PlanText.h"

#include <sstream>

namespace rubick::arch {

namespace {

template <class T>
std::string list(const std::vector<T>& v) {
  std::ostringstream os;
  os << "[";
  for (size_t i = 0; i < v.size(); ++i)
    os << (i ? " " : "") << v[i];
  os << "]";
  return os.str();
}

std::string window(const dse::Window& w) {
  return w.empty() ? "-" : std::to_string(w.lo) + ".." + std::to_string(w.hi);
}

const char* foldName(dataflow::Fold f) {
  switch (f) {
  case dataflow::Fold::Sum:
    return "sum";
  case dataflow::Fold::Max:
    return "max";
  case dataflow::Fold::Min:
    return "min";
  }
  return "?";
}

} // namespace

std::string printPlan(const Plan& p) {
  std::ostringstream os;
  os << "plan " << p.name << "\n"
     << "  statement   " << p.statement << "\n"
     << "  dataflow    " << p.spec << " on " << p.p << "x" << p.q << " (PE e = x * " << p.q
     << " + y)\n"
     << "  fold        " << foldName(p.fold) << (p.factor != 1 ? ", factor " : "")
     << (p.factor != 1 ? std::to_string(p.factor) : "") << "\n"
     << "  chained     " << (p.chain ? "yes" : "no") << "\n"
     << "coordinates (u = a * tau + b[e]; valid while 0 <= u < limit)\n";
  for (const Coordinate& c : p.coords) {
    os << "  " << c.name << ": a " << c.a << ", limit " << c.factor;
    if (c.outerDim >= 0) os << " (" << c.lastLimit << " on the last of outer " << c.outerDim << ")";
    os << ", b " << list(c.b) << "\n";
  }
  os << "outer loops (outermost first)\n";
  for (size_t k = 0; k < p.outer.size(); ++k)
    os << "  " << k << ": " << p.outer[k].name << ", extent " << p.outer[k].extent << "\n";
  const dse::Schedule& s = p.schedule;
  os << "schedule\n"
     << "  tiles " << s.tiles << ", tau " << s.first << ".." << s.last << ", tile cycles "
     << s.tileCycles << ", interval " << s.interval << ", latency " << s.latency << "\n"
     << "widths\n"
     << "  tau " << p.tauBits << ", product " << p.productBits << ", accumulator "
     << p.accumulatorBits << "\n";
  for (const TensorPlan& t : p.tensors) {
    os << "tensor " << t.name << " (" << t.id << ", " << (t.output ? "output" : "input")
       << "): " << ir::toString(t.entry) << "\n"
       << "  bits " << t.elementBits << " in the banks, " << t.wireBits << " in the array\n"
       << "  " << (t.streaming ? "streaming" : "no port time") << (t.held ? ", held" : "")
       << (t.systolic ? ", systolic" : "") << (t.recurs ? ", recurs" : "")
       << (t.bufferRecurs ? ", recurs across buffer tiles" : "")
       << (t.accumulates ? ", accumulates (+=)" : "") << "\n"
       << "  banks " << t.ports.size() << " of depth " << t.depth << " (" << t.addressBits
       << " address bits), te " << t.teMin << ".." << t.teMax << ", strides per outer loop "
       << list(t.strides);
    if (!t.recurDims.empty()) os << ", recurs along outer " << list(t.recurDims);
    os << "\n";
    for (size_t b = 0; b < t.ports.size(); ++b) {
      os << "  bank " << b << " at (" << t.ports[b].first << ", " << t.ports[b].second
         << "), window " << (b < t.window.size() ? window(t.window[b]) : "-");
      if (b < t.hop0.size()) os << ", hop0 " << t.hop0[b];
      if (b < t.chainOfPort.size() && !t.chainOfPort[b].empty())
        os << ", chain of groups " << list(t.chainOfPort[b]);
      os << "\n";
    }
    os << "  per PE: bank " << list(t.portOf) << "\n"
       << "          upstream " << list(t.upstream) << "\n"
       << "          hop " << list(t.hop) << "\n";
    if (!t.teShift.empty()) os << "          te - t1 " << list(t.teShift) << "\n";
    if (!t.groups.empty()) {
      os << "  adder groups (" << t.treeInputs << " inputs, depth " << t.treeDepth << "):";
      for (size_t g = 0; g < t.groups.size(); ++g)
        os << " " << g << "=" << list(t.groups[g]);
      os << "\n";
    }
  }
  return os.str();
}

} // namespace rubick::arch
