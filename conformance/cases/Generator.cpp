#include "conformance/cases/Generator.h"

#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "ir/Printer.h"

namespace tegula::conformance {

const std::vector<DType>& all_dtypes() {
  static const std::vector<DType> v = {DType::F64, DType::F32, DType::TF32, DType::F16, DType::BF16, DType::E4M3,
                                       DType::E5M2, DType::I8,  DType::U8,   DType::I32, DType::Bool};
  return v;
}

const std::vector<DType>& float_dtypes() {
  static const std::vector<DType> v = {DType::F64, DType::F32, DType::TF32, DType::F16, DType::BF16, DType::E4M3, DType::E5M2};
  return v;
}

const std::vector<DType>& int_dtypes() {
  static const std::vector<DType> v = {DType::I8, DType::U8, DType::I32};
  return v;
}

std::string Generator::needs(std::initializer_list<DType> dtypes) const {
  std::string missing;
  for (DType d : dtypes) {
    if (target_.has_dtype(d) || missing.find(dtype_name(d)) != std::string::npos) continue;
    missing += (missing.empty() ? "" : ", ") + std::string(dtype_name(d));
  }
  if (missing.empty()) return "";
  return "target '" + target_.name + "' does not claim " + missing;
}

namespace kt {

std::string literal(double v, DType d) {
  if (!dtype_is_float(d) && std::isfinite(v) && v == std::floor(v)) return std::to_string(int64_t(v));
  return ir::print_float(v);
}

std::string dims(std::initializer_list<std::string> parts) {
  std::string s = "[";
  for (const std::string& p : parts) s += (s.size() > 1 ? ", " : "") + p;
  return s + "]";
}

std::string dims(const std::vector<int64_t>& parts) {
  std::string s = "[";
  for (int64_t p : parts) s += (s.size() > 1 ? ", " : "") + std::to_string(p);
  return s + "]";
}

}  // namespace kt
}  // namespace tegula::conformance
