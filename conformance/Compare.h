/// \file
/// Comparing what a device wrote with what the reference interpreter wrote, element by
/// element, under the case's check (Case.h) and the tolerance table.
///
/// Rules, in order: equal bits always match; where the reference left poison (the kernel
/// must not write there) only equal bits match; integers and bools match only when equal;
/// a NaN matches any NaN and nothing else; infinities match only themselves; then the
/// case's check decides (Exact: no further slack; Ulp: the function's ulp limit; Accumulate:
/// the K-scaled bound, with the magnitude the reference computed on absolute values).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "conformance/Case.h"
#include "conformance/Tolerances.h"
#include "core/DType.h"

namespace tegula::conformance {

struct Mismatch {
  std::string tensor;
  std::vector<int64_t> index;
  std::string expected;  ///< value and encoding, e.g. "1.5 (0x3fc0)"
  std::string actual;
};

struct Comparison {
  int64_t elements = 0;
  int64_t mismatches = 0;
  int64_t quality_misses = 0;  ///< within tolerance, above the quality bound
  double max_abs = 0;
  double max_rel = 0;
  double max_ulp = 0;
  std::optional<Mismatch> first;

  void merge(const Comparison& other);
};

struct TensorView {
  std::string name;
  DType dtype = DType::F32;
  std::vector<int64_t> shape;
  const std::vector<uint8_t>* expected = nullptr;
  const std::vector<uint8_t>* actual = nullptr;
  const std::vector<uint8_t>* magnitude = nullptr;  ///< Accumulate only
};

Comparison compare_tensor(const TensorView& t, const CaseSpec& spec, const Tolerances& table);

/// The spacing of `dtype` at |x| (the smallest subnormal's at 0).
double ulp_of(DType dtype, double x);

/// "value (0xbits)" for one encoded element.
std::string describe_element(DType dtype, const uint8_t* p);

/// The first byte index where two buffers differ, or -1.
int64_t first_difference(const std::vector<uint8_t>& a, const std::vector<uint8_t>& b);

}  // namespace tegula::conformance
