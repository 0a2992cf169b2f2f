// SPDX-License-Identifier: Apache-2.0
// Lowering a checked program to isl: the plain loop ranges and affine indices become an isl set
// per statement and an isl map per access. isl text is built with placeholder names (S0, T0,
// i0, ...) so that no user name can collide with isl syntax; the user's names are put back
// afterwards through the C API, where any string is a valid name.

#include "rubick/poly/PolyProgram.h"

#include "rubick/support/Diagnostic.h"

#include <sstream>

namespace rubick::poly {
namespace {

std::string placeholderTuple(const std::string& prefix, size_t n, const std::string& var) {
  std::string s = prefix + "[";
  for (size_t i = 0; i < n; ++i)
    s += (i ? ", " : "") + var + std::to_string(i);
  return s + "]";
}

std::string affineText(const tc::AffineIndex& a) {
  std::ostringstream os;
  bool any = false;
  auto term = [&](int64_t c, const std::string& var) {
    if (!any) {
      os << (c < 0 ? "-" : "");
    } else {
      os << (c < 0 ? " - " : " + ");
    }
    // Magnitude printed unsigned so that INT64_MIN cannot overflow on negation.
    uint64_t mag = c < 0 ? uint64_t(0) - static_cast<uint64_t>(c) : static_cast<uint64_t>(c);
    os << mag << var;
    any = true;
  };
  for (size_t l = 0; l < a.coeffs.size(); ++l)
    if (a.coeffs[l] != 0) term(a.coeffs[l], "*i" + std::to_string(l));
  if (!any || a.constant != 0) term(a.constant, "");
  return os.str();
}

isl::set nameSet(isl::set s, const std::string& tuple, const std::vector<std::string>& dims) {
  isl_set* raw = isl_set_set_tuple_name(s.release(), tuple.c_str());
  for (size_t i = 0; i < dims.size(); ++i)
    raw = isl_set_set_dim_name(raw, isl_dim_set, static_cast<unsigned>(i), dims[i].c_str());
  return isl::manage(raw);
}

isl::map nameMap(isl::map m, const std::string& in, const std::vector<std::string>& inDims,
                 const std::string& out) {
  isl_map* raw = isl_map_set_tuple_name(m.release(), isl_dim_in, in.c_str());
  raw = isl_map_set_tuple_name(raw, isl_dim_out, out.c_str());
  for (size_t i = 0; i < inDims.size(); ++i)
    raw = isl_map_set_dim_name(raw, isl_dim_in, static_cast<unsigned>(i), inDims[i].c_str());
  return isl::manage(raw);
}

isl::set tensorDomain(const IslContext& ctx, const tc::Tensor& t) {
  std::ostringstream os;
  os << "{ " << placeholderTuple("T", t.shape.size(), "d");
  for (size_t d = 0; d < t.shape.size(); ++d)
    os << (d ? " and " : " : ") << "0 <= d" << d << " < " << t.shape[d];
  os << " }";
  std::vector<std::string> dims;
  for (size_t d = 0; d < t.shape.size(); ++d)
    dims.push_back("d" + std::to_string(d));
  return nameSet(isl::set(ctx.ctx(), os.str()), t.name, dims);
}

PolyAccess access(const IslContext& ctx, const tc::Statement& s, const isl::set& domain,
                  const tc::Access& a, const std::string& tensorName, bool write) {
  std::ostringstream os;
  os << "{ " << placeholderTuple("S", s.loops.size(), "i") << " -> T[";
  for (size_t d = 0; d < a.indices.size(); ++d)
    os << (d ? ", " : "") << affineText(a.indices[d]);
  os << "] }";
  std::vector<std::string> names;
  for (const tc::Loop& l : s.loops)
    names.push_back(l.name);
  PolyAccess pa;
  pa.tensor = a.tensor;
  pa.write = write;
  pa.relation =
      nameMap(isl::map(ctx.ctx(), os.str()), s.name, names, tensorName).intersect_domain(domain);
  return pa;
}

} // namespace

PolyProgram lower(const IslContext& ctx, tc::Program program) {
  PolyProgram p;
  p.program = std::move(program);
  guardIsl("building the polyhedral model", [&] {
    const tc::Program& prog = p.program;
    for (const tc::Tensor& t : prog.tensors)
      p.tensorDomains.push_back(tensorDomain(ctx, t));
    for (size_t si = 0; si < prog.statements.size(); ++si) {
      const tc::Statement& s = prog.statements[si];
      std::ostringstream os;
      os << "{ " << placeholderTuple("S", s.loops.size(), "i");
      for (size_t l = 0; l < s.loops.size(); ++l)
        os << (l ? " and " : " : ") << s.loops[l].lo << " <= i" << l << " < " << s.loops[l].hi;
      os << " }";
      std::vector<std::string> names;
      for (const tc::Loop& l : s.loops)
        names.push_back(l.name);
      PolyStatement ps;
      ps.statement = si;
      ps.domain = nameSet(isl::set(ctx.ctx(), os.str()), s.name, names);
      PolyAccess w = access(ctx, s, ps.domain, s.write, prog.tensors[s.write.tensor].name, true);
      if (isReduction(s.op))
        for (size_t l = 0; l < s.loops.size(); ++l)
          if (s.loops[l].reduction) w.reductionLoops.push_back(static_cast<int>(l));
      ps.accesses.push_back(w);
      if (s.readsOutput())
        ps.accesses.push_back(
            access(ctx, s, ps.domain, s.write, prog.tensors[s.write.tensor].name, false));
      for (const tc::Access& a : s.reads)
        ps.accesses.push_back(access(ctx, s, ps.domain, a, prog.tensors[a.tensor].name, false));
      // Consistency check: sema proved every access in bounds; isl must agree.
      for (const PolyAccess& a : ps.accesses)
        if (!a.relation.range().is_subset(p.tensorDomains[a.tensor]))
          throw Error("rubick", "internal error: access to '" + prog.tensors[a.tensor].name +
                                    "' in " + s.name + " leaves the tensor after range inference");
      p.statements.push_back(std::move(ps));
    }
    return 0;
  });
  return p;
}

} // namespace rubick::poly
