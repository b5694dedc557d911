#include "conformance/cases/Generator.h"

#include <cmath>
#include <cstdint>
#include <set>
#include <string>
#include <vector>

#include "ir/Lower.h"
#include "ir/Parser.h"
#include "ir/Printer.h"

namespace tegula::conformance {

const std::vector<DType>& all_dtypes() {
#define TG_DTYPE_LIST(e, name, bytes) DType::e,
  static const std::vector<DType> v = {TG_FOR_EACH_DTYPE(TG_DTYPE_LIST)};
#undef TG_DTYPE_LIST
  return v;
}

const std::vector<DType>& float_dtypes() {
  static const std::vector<DType> v = [] {
    std::vector<DType> floats;
    for (DType d : all_dtypes())
      if (dtype_is_float(d)) floats.push_back(d);
    return floats;
  }();
  return v;
}

bool storage_format(DType d) {
  return d == DType::E4M3FNUZ || d == DType::E5M2FNUZ || d == DType::E2M3 || d == DType::E3M2 || d == DType::E2M1 ||
         d == DType::E8M0 || d == DType::UE4M3;
}

bool conversion_partner(DType d) {
  return d == DType::F32 || d == DType::F64 || d == DType::F16 || d == DType::BF16 || d == DType::E4M3 || d == DType::I32;
}

bool tested_conversion(DType from, DType to) {
  if (!storage_format(from) && !storage_format(to)) return true;
  if (from == to) return true;
  return (storage_format(from) && conversion_partner(to)) || (storage_format(to) && conversion_partner(from));
}

bool has_negative_zero(DType d) {
  if (!dtype_is_float(d)) return false;
  const FloatFormat* f = float_format(d);
  return !f || (f->sign && f->specials != FloatSpecials::NanNegZero);
}

const std::vector<DType>& int_dtypes() {
  static const std::vector<DType> v = {DType::I8, DType::U8, DType::I32};
  return v;
}

std::string Generator::needs(std::initializer_list<DType> dtypes) const {
  std::string missing;
  std::set<DType> named;  // by dtype, not by text: "f32" is inside "tf32"
  for (DType d : dtypes) {
    if (target_.has_dtype(d) || !named.insert(d).second) continue;
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

std::string lowering_refusal(const std::string& text, const TargetDescription& target) {
  auto k = ir::parse_and_verify(text, "workload.tile");
  if (!k.is_ok()) return "";
  auto lowered = ir::lower(*k, target);
  return lowered.is_ok() || lowered.status().code() != ErrorCode::Unsupported ? "" : lowered.status().message();
}

}  // namespace tegula::conformance
