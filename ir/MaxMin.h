/// \file
/// max and min of floats as the IR defines them (ir/OpList.h): IEEE 754-2019 maximumNumber
/// and minimumNumber. A NaN loses to a number (both NaN gives NaN) and -0 < +0, so
/// max(+0, -0) = +0 and min(+0, -0) = -0 whatever the operand order. std::fmax/std::fmin
/// leave the sign of a zero result unspecified (gcc gives +0 at -O3 and -0 at -O2), so the
/// oracle cannot use them.
#pragma once

#include <cmath>

namespace tegula::ir {

inline double maximum_number(double a, double b) {
  if (std::isnan(a)) return b;
  if (std::isnan(b)) return a;
  if (a == b) return std::signbit(a) ? b : a;  // equal: only +0 and -0 differ, and +0 wins
  return a > b ? a : b;
}

inline double minimum_number(double a, double b) {
  if (std::isnan(a)) return b;
  if (std::isnan(b)) return a;
  if (a == b) return std::signbit(a) ? a : b;  // equal: only +0 and -0 differ, and -0 wins
  return a < b ? a : b;
}

}  // namespace tegula::ir
