/// \file
/// The tolerance table (conformance/tolerances.json, compiled into the suite): ulp limits
/// per elementwise function and output dtype, and the accumulation bound for sums of random
/// values. Its SHA-256 goes into every report, and `verify` rejects a report made with a
/// different table.
#pragma once

#include <map>
#include <string>

#include "core/DType.h"
#include "core/Status.h"

namespace tegula::conformance {

struct UlpLimit {
  double tolerance = 0;  ///< above: Fail
  double quality = 0;    ///< above (within tolerance): QualityWarning
};

struct AccumulateLimit {
  double unit_roundoff = 0;
  double k_factor = 0;
  double quality_k_factor = 0;
  double output_ulps = 0;
};

class Tolerances {
public:
  /// The table compiled into this build.
  static const Tolerances& builtin();
  static Result<Tolerances> parse(const std::string& json);

  int version() const { return version_; }
  const std::string& sha256() const { return sha256_; }
  const std::string& text() const { return text_; }

  /// The limit for `function` with output `dtype`; Unsupported-free: a missing entry is 0 ulp.
  UlpLimit ulp(const std::string& function, DType dtype) const;
  AccumulateLimit accumulate(DType operand, DType accumulator) const;

private:
  int version_ = 0;
  std::string sha256_;
  std::string text_;
  std::map<std::string, std::map<std::string, UlpLimit>> ulp_;
  std::map<std::string, AccumulateLimit> accumulate_;
};

}  // namespace tegula::conformance
