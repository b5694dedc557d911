#include "conformance/Compare.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "conformance/Inputs.h"

namespace tegula::conformance {
namespace {

int mantissa_bits(DType d) {
  switch (d) {
    case DType::F64: return 52;
    case DType::F32: return 23;
    case DType::TF32:
    case DType::F16: return 10;
    case DType::BF16: return 7;
    case DType::E4M3: return 3;
    case DType::E5M2: return 2;
    default: return float_format(d) ? float_format(d)->man_bits : 0;
  }
}

std::vector<int64_t> unflatten(int64_t flat, const std::vector<int64_t>& shape) {
  std::vector<int64_t> index(shape.size());
  for (size_t i = shape.size(); i-- > 0;) {
    int64_t d = shape[i] > 0 ? shape[i] : 1;
    index[i] = flat % d;
    flat /= d;
  }
  return index;
}

struct Verdict {
  bool ok = true;
  bool quality_miss = false;
  double abs = 0, rel = 0, ulps = 0;
};

Verdict judge_float(DType d, double e, double a, double mag, const CaseSpec& spec, const Tolerances& table) {
  Verdict v;
  if (std::isnan(e) || std::isnan(a)) {
    v.ok = std::isnan(e) && std::isnan(a);
    return v;
  }
  double unit = ulp_of(d, e);
  if (std::isinf(e) || std::isinf(a)) {
    if (e == a) return v;
    // Overflow a little early is allowed within the ulp limit at the largest finite value.
    v.ok = false;
    if (spec.check == Check::Ulp && std::isinf(a) && !std::isinf(e) && std::signbit(a) == std::signbit(e)) {
      double limit = table.ulp(spec.function, d).tolerance;
      double mx = dtype_max(d);
      v.ok = std::fabs(e) >= mx - limit * ulp_of(d, mx);
    }
    return v;
  }
  v.abs = std::fabs(a - e);
  v.rel = e != 0 ? v.abs / std::fabs(e) : (v.abs ? INFINITY : 0);
  v.ulps = v.abs / unit;
  switch (spec.check) {
    case Check::Exact:
      v.ok = false;  // equal bits were already accepted; -0 and +0 differ here on purpose
      return v;
    case Check::Ulp: {
      UlpLimit l = table.ulp(spec.function, d);
      v.ok = v.ulps <= l.tolerance;
      v.quality_miss = v.ok && v.ulps > l.quality;
      return v;
    }
    case Check::Accumulate: {
      AccumulateLimit l = table.accumulate(spec.operand, spec.accumulator);
      double scale = double(spec.depth) * l.unit_roundoff * std::fabs(mag);
      double rounding = l.output_ulps * unit;
      v.ok = v.abs <= l.k_factor * scale + rounding;
      v.quality_miss = v.ok && v.abs > l.quality_k_factor * scale + rounding;
      return v;
    }
  }
  return v;
}

}  // namespace

double ulp_of(DType d, double x) {
  x = std::fabs(x);
  double sub = min_subnormal(d);
  if (x == 0 || std::isnan(x)) return sub;
  if (std::isinf(x)) x = dtype_max(d);
  int e = 0;
  std::frexp(x, &e);  // x = m * 2^e, m in [0.5, 1)
  int exp = std::max(e - 1, int(std::lround(std::log2(min_normal(d)))));
  return std::ldexp(1.0, exp - mantissa_bits(d));
}

std::string describe_element(DType d, const uint8_t* p) {
  size_t n = dtype_size(d);
  uint64_t bits = 0;
  std::memcpy(&bits, p, n);
  char buf[96];
  std::snprintf(buf, sizeof buf, "%.*g (0x%0*llx)", d == DType::F64 ? 17 : 9, load_element(d, p), int(2 * n),
                (unsigned long long)bits);
  return buf;
}

int64_t first_difference(const std::vector<uint8_t>& a, const std::vector<uint8_t>& b) {
  size_t n = std::min(a.size(), b.size());
  for (size_t i = 0; i < n; ++i)
    if (a[i] != b[i]) return int64_t(i);
  return a.size() == b.size() ? -1 : int64_t(n);
}

void Comparison::merge(const Comparison& o) {
  elements += o.elements;
  mismatches += o.mismatches;
  quality_misses += o.quality_misses;
  max_abs = std::max(max_abs, o.max_abs);
  max_rel = std::max(max_rel, o.max_rel);
  max_ulp = std::max(max_ulp, o.max_ulp);
  if (!first && o.first) first = o.first;
}

/// The same encoding: the same bytes, or for fp6, fp4 and ue4m3 the same low bits (a load
/// ignores the bits above, which a same-dtype copy may carry over: core/DType.h).
static bool same_encoding(DType d, const uint8_t* e, const uint8_t* a, size_t size) {
  const FloatFormat* f = float_format(d);
  if (f && f->bits() < 8) return ((e[0] ^ a[0]) & ((1u << f->bits()) - 1)) == 0;
  return std::memcmp(e, a, size) == 0;
}

Comparison compare_tensor(const TensorView& t, const CaseSpec& spec, const Tolerances& table) {
  Comparison c;
  size_t size = dtype_size(t.dtype);
  int64_t n = int64_t(t.expected->size() / size);
  std::vector<uint8_t> poison_bits = poison_element(t.dtype);
  bool is_float = dtype_is_float(t.dtype);
  c.elements = n;
  for (int64_t i = 0; i < n; ++i) {
    const uint8_t* e = t.expected->data() + size_t(i) * size;
    const uint8_t* a = t.actual->data() + size_t(i) * size;
    if (same_encoding(t.dtype, e, a, size)) continue;
    Verdict v;
    v.ok = false;
    bool untouched = std::memcmp(e, poison_bits.data(), size) == 0;
    double ev = load_element(t.dtype, e), av = load_element(t.dtype, a);
    if (!untouched && is_float) {
      double mag = t.magnitude ? load_element(t.dtype, t.magnitude->data() + size_t(i) * size) : 0;
      v = judge_float(t.dtype, ev, av, mag, spec, table);
    } else if (!untouched) {
      v.abs = std::fabs(av - ev);
      v.rel = ev != 0 ? v.abs / std::fabs(ev) : INFINITY;
    }
    if (std::isfinite(v.abs)) c.max_abs = std::max(c.max_abs, v.abs);
    if (std::isfinite(v.rel)) c.max_rel = std::max(c.max_rel, v.rel);
    if (std::isfinite(v.ulps)) c.max_ulp = std::max(c.max_ulp, v.ulps);
    if (v.quality_miss) ++c.quality_misses;
    if (v.ok) continue;
    ++c.mismatches;
    if (!c.first) {
      Mismatch m;
      m.tensor = t.name;
      m.index = unflatten(i, t.shape);
      m.expected = untouched ? "untouched (poison " + describe_element(t.dtype, e) + ")" : describe_element(t.dtype, e);
      m.actual = describe_element(t.dtype, a);
      c.first = m;
    }
  }
  return c;
}

}  // namespace tegula::conformance
