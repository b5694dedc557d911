#include "conformance/Tolerances.h"

#include <string>

#include "conformance/TolerancesEmbed.h"
#include "core/Json.h"
#include "core/Sha256.h"

namespace tegula::conformance {
namespace {

Status bad(const std::string& what) { return error(ErrorCode::Parse, "tolerance table: " + what); }

}  // namespace

Result<Tolerances> Tolerances::parse(const std::string& text) {
  TG_ASSIGN_OR_RETURN(Json doc, Json::parse(text, "tolerances.json"));
  Tolerances t;
  t.text_ = text;
  t.sha256_ = sha256_hex(text);
  const Json* schema = doc.find("schema");
  if (!schema || !schema->is_string() || schema->as_string() != "tegula.conformance.tolerances.v1")
    return bad("schema must be \"tegula.conformance.tolerances.v1\"");
  const Json* version = doc.find("version");
  if (!version || !version->is_int() || version->as_int() < 1) return bad("version must be a positive integer");
  t.version_ = int(version->as_int());
  const Json* ulp = doc.find("ulp");
  if (!ulp || !ulp->is_object()) return bad("'ulp' must be an object");
  for (const auto& [function, per_dtype] : ulp->members()) {
    if (!per_dtype.is_object()) return bad("ulp." + function + " must be an object");
    for (const auto& [dtype, pair] : per_dtype.members()) {
      if (dtype != "*" && !parse_dtype(dtype)) return bad("ulp." + function + ": unknown dtype '" + dtype + "'");
      if (!pair.is_array() || pair.size() != 2 || !pair.items()[0].is_number() || !pair.items()[1].is_number())
        return bad("ulp." + function + "." + dtype + " must be [tolerance, quality]");
      UlpLimit l{pair.items()[0].as_double(), pair.items()[1].as_double()};
      if (l.quality > l.tolerance || l.quality < 0) return bad("ulp." + function + "." + dtype + ": quality must be in 0..tolerance");
      t.ulp_[function][dtype] = l;
    }
  }
  const Json* acc = doc.find("accumulate");
  if (!acc || !acc->is_object()) return bad("'accumulate' must be an object");
  for (const auto& [key, entry] : acc->members()) {
    AccumulateLimit l;
    double* fields[] = {&l.unit_roundoff, &l.k_factor, &l.quality_k_factor, &l.output_ulps};
    const char* names[] = {"unit_roundoff", "k_factor", "quality_k_factor", "output_ulps"};
    for (int i = 0; i < 4; ++i) {
      const Json* v = entry.find(names[i]);
      if (!v || !v->is_number() || v->as_double() < 0) return bad("accumulate." + key + "." + names[i] + " must be a number >= 0");
      *fields[i] = v->as_double();
    }
    t.accumulate_[key] = l;
  }
  return t;
}

const Tolerances& Tolerances::builtin() {
  static const Tolerances table = [] {
    Result<Tolerances> t = parse(kTolerancesJson);
    TG_ASSERT(t.is_ok(), "the built-in tolerance table must parse (conformance/tolerances.json)");
    return std::move(t).value();
  }();
  return table;
}

UlpLimit Tolerances::ulp(const std::string& function, DType dtype) const {
  auto f = ulp_.find(function);
  if (f == ulp_.end()) return {};
  auto d = f->second.find(dtype_name(dtype));
  if (d != f->second.end()) return d->second;
  d = f->second.find("*");
  return d != f->second.end() ? d->second : UlpLimit{};
}

AccumulateLimit Tolerances::accumulate(DType operand, DType accumulator) const {
  auto it = accumulate_.find(std::string(dtype_name(operand)) + "_" + dtype_name(accumulator));
  if (it != accumulate_.end()) return it->second;
  it = accumulate_.find(std::string("*_") + dtype_name(accumulator));
  return it != accumulate_.end() ? it->second : AccumulateLimit{};
}

}  // namespace tegula::conformance
