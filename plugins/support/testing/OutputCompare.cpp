#include "plugins/support/testing/OutputCompare.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <limits>

namespace tegula::plugin_testing {

Tolerance same_value() { return Tolerance{std::numeric_limits<double>::denorm_min(), 0}; }

double ulps(DType d, double n) {
  switch (d) {
    case DType::F64: return n * std::ldexp(1.0, -52);
    case DType::F32: return n * std::ldexp(1.0, -23);
    case DType::TF32:
    case DType::F16: return n * std::ldexp(1.0, -10);
    case DType::BF16: return n * std::ldexp(1.0, -7);
    case DType::E4M3: return n * std::ldexp(1.0, -3);
    case DType::E5M2: return n * std::ldexp(1.0, -2);
    case DType::E4M3FNUZ:
    case DType::E5M2FNUZ:
    case DType::E2M3:
    case DType::E3M2:
    case DType::E2M1:
    case DType::E8M0:
    case DType::UE4M3: return n * std::ldexp(1.0, -std::max(float_format(d)->man_bits, 1));
    case DType::I8:
    case DType::U8:
    case DType::I32:
    case DType::Bool: return 0;
  }
  return 0;
}

Tolerance ulp_tolerance(DType d, double n, double abs) { return Tolerance{abs, ulps(d, n)}; }

Tolerance default_tolerance(DType d) {
  switch (d) {
    case DType::F64: return {1e-12, 1e-12};
    case DType::F32: return {2e-5, 2e-5};
    case DType::TF32: return {1e-5, 2e-3};
    case DType::F16: return {1e-4, 2e-3};
    case DType::BF16: return {1e-3, 1.6e-2};
    case DType::E4M3: return {0.002, 0.13};
    case DType::E5M2: return {2e-5, 0.26};
    case DType::E4M3FNUZ:
    case DType::E5M2FNUZ:
    case DType::E2M3:
    case DType::E3M2:
    case DType::E2M1:
    case DType::E8M0:
    case DType::UE4M3: {
      // Two of the format's ulps relative, and its smallest step absolute.
      const FloatFormat& f = *float_format(d);
      return {std::ldexp(1.0, f.min_normal_exponent() - f.man_bits), 2 * std::ldexp(1.0, -std::max(f.man_bits, 1))};
    }
    case DType::I8:
    case DType::U8:
    case DType::I32:
    case DType::Bool: return {0.5, 0};
  }
  return {0.5, 0};
}

bool element_matches(DType d, const void* g, const void* w, Tolerance tol) {
  double gv = load_element(d, g), wv = load_element(d, w);
  if (std::isnan(gv) || std::isnan(wv)) return std::isnan(gv) && std::isnan(wv);
  if (tol.exact()) {
    // The same encoding; fp6, fp4 and ue4m3 encodings are their low bits (core/DType.h: a
    // load ignores the bits above, which a same-dtype copy may carry over).
    const FloatFormat* f = float_format(d);
    if (f && f->bits() < 8) return ((*static_cast<const uint8_t*>(g) ^ *static_cast<const uint8_t*>(w)) & ((1u << f->bits()) - 1)) == 0;
    return std::memcmp(g, w, dtype_size(d)) == 0;
  }
  if (gv == wv) return true;  // -0 and +0; an infinity and itself
  if (!std::isfinite(gv) || !std::isfinite(wv)) return false;
  return std::fabs(gv - wv) <= tol.abs + tol.rel * std::fabs(wv);
}

examples::OutputComparison compare_tensor(const std::string& name, const examples::HostTensor& got,
                                          const examples::HostTensor& want, Tolerance tol) {
  examples::OutputComparison c;
  c.name = name;
  c.elements = got.numel();
  if (got.dtype != want.dtype || got.bytes.size() != want.bytes.size()) {
    c.mismatches = c.elements;
    c.first_mismatch = name + ": " + std::to_string(got.bytes.size()) + " bytes of " + dtype_name(got.dtype) +
                       " against " + std::to_string(want.bytes.size()) + " bytes of " + dtype_name(want.dtype);
    return c;
  }
  size_t esize = dtype_size(got.dtype);
  for (int64_t i = 0; i < c.elements; ++i) {
    const uint8_t* g = got.bytes.data() + size_t(i) * esize;
    const uint8_t* w = want.bytes.data() + size_t(i) * esize;
    double gv = load_element(got.dtype, g), wv = load_element(got.dtype, w);
    if (std::isfinite(gv) && std::isfinite(wv)) {
      c.max_abs_error = std::max(c.max_abs_error, std::fabs(gv - wv));
      if (wv != 0) c.max_rel_error = std::max(c.max_rel_error, std::fabs(gv - wv) / std::fabs(wv));
    }
    if (element_matches(got.dtype, g, w, tol)) continue;
    if (c.mismatches++ == 0) {
      char buf[160];
      std::snprintf(buf, sizeof buf, "[%lld]: got %.9g, expected %.9g", static_cast<long long>(i), gv, wv);
      c.first_mismatch = name + buf;
    }
  }
  return c;
}

Status compare_launch(const ir::Kernel& k, const examples::LaunchData& before, const examples::LaunchData& got,
                      const examples::LaunchData& want, Tolerance tol) {
  return compare_launch(k, before, got, want, [tol](DType) { return tol; });
}

Status compare_launch(const ir::Kernel& k, const examples::LaunchData& before, const examples::LaunchData& got,
                      const examples::LaunchData& want, const ToleranceFor& tol) {
  std::string wrong;
  auto note = [&](const std::string& what) { wrong += (wrong.empty() ? "" : "; ") + what; };
  size_t tensors = std::min({k.params.size(), before.tensors.size(), got.tensors.size(), want.tensors.size()});
  if (tensors != k.params.size())
    return error(ErrorCode::InvalidArgument, "launch data for kernel '" + k.name + "' has tensors for " +
                                                 std::to_string(tensors) + " of its " + std::to_string(k.params.size()) +
                                                 " parameters");
  for (size_t i = 0; i < k.params.size(); ++i) {
    const ir::Param& p = k.params[i];
    if (!p.is_tensor) continue;
    bool output = std::find(before.outputs.begin(), before.outputs.end(), i) != before.outputs.end();
    if (!output) {
      if (got.tensors[i].bytes != before.tensors[i].bytes) note("input '" + p.name + "' was modified by the kernel");
      continue;
    }
    examples::OutputComparison c = compare_tensor(p.name, got.tensors[i], want.tensors[i], tol(p.dtype));
    if (c.mismatches)
      note(p.name + ": " + std::to_string(c.mismatches) + " of " + std::to_string(c.elements) +
           " elements differ; first " + c.first_mismatch);
  }
  if (wrong.empty()) return Status::ok();
  return error(ErrorCode::Device, k.name + ": " + wrong);
}

}  // namespace tegula::plugin_testing
