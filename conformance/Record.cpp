#include "conformance/Record.h"
#include "conformance/JsonFields.h"

#include <cerrno>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <string>

namespace tegula::conformance {
namespace {

/// Numbers that JSON cannot hold (inf) are written as strings.
Json number(double v) {
  if (std::isfinite(v)) return Json(v);
  return Json(std::isnan(v) ? "nan" : (v > 0 ? "inf" : "-inf"));
}

double read_number(const Json* j) {
  if (!j) return 0;
  if (j->is_number()) return j->as_double();
  if (j->is_string()) {
    if (j->as_string() == "inf") return INFINITY;
    if (j->as_string() == "-inf") return -INFINITY;
    return NAN;
  }
  return 0;
}


/// An integer field: a JSON integer (not 1e300, not 2.5, not a string), else a Parse error
/// naming the record and the field.
Result<int64_t> read_int(const Json& j, const std::string& record, const std::string& field) {
  if (!j.is_int()) return error(ErrorCode::Parse, "record " + record + ": " + field + " is not an integer: " + j.dump());
  return j.as_int();
}

Result<int64_t> read_int_member(const Json& j, const char* key, const std::string& record) {
  const Json* v = j.find(key);
  if (!v) return error(ErrorCode::Parse, "record " + record + ": no '" + key + "'");
  return read_int(*v, record, key);
}

}  // namespace

Json Record::to_json() const {
  Json j = Json::object();
  j.set("name", name);
  j.set("row", row);
  j.set("outcome", outcome_name(outcome));
  j.set("check", check);
  j.set("detail", detail);
  j.set("elements", elements);
  j.set("mismatches", mismatches);
  j.set("max_abs_error", number(max_abs));
  j.set("max_rel_error", number(max_rel));
  j.set("max_ulp_error", number(max_ulp));
  if (first_mismatch) {
    Json m = Json::object();
    m.set("tensor", first_mismatch->tensor);
    Json idx = Json::array();
    for (int64_t i : first_mismatch->index) idx.push(Json(i));
    m.set("index", idx);
    m.set("expected", first_mismatch->expected);
    m.set("actual", first_mismatch->actual);
    j.set("first_mismatch", m);
  }
  Json s = Json::object();
  for (const auto& [k, v] : shape) s.set(k, Json(v));
  j.set("shape", s);
  j.set("seed", std::to_string(seed));
  j.set("ms", std::round(ms * 1000) / 1000);
  j.set("kernel_sha256", kernel_sha256);
  if (!expected_failure.empty()) j.set("expected_failure", expected_failure);
  return j;
}

Result<Record> Record::from_json(const Json& j) {
  if (!j.is_object()) return error(ErrorCode::Parse, "a record must be an object");
  Record r;
  r.name = str(j, "name");
  if (r.name.empty()) return error(ErrorCode::Parse, "a record has no name");
  r.row = str(j, "row");
  auto o = parse_outcome(str(j, "outcome"));
  if (!o) return error(ErrorCode::Parse, "record " + r.name + ": unknown outcome '" + str(j, "outcome") + "'");
  r.outcome = *o;
  r.check = str(j, "check");
  r.detail = str(j, "detail");
  TG_ASSIGN_OR_RETURN(r.elements, read_int_member(j, "elements", r.name));
  TG_ASSIGN_OR_RETURN(r.mismatches, read_int_member(j, "mismatches", r.name));
  r.max_abs = read_number(j.find("max_abs_error"));
  r.max_rel = read_number(j.find("max_rel_error"));
  r.max_ulp = read_number(j.find("max_ulp_error"));
  if (const Json* m = j.find("first_mismatch"); m && m->is_object()) {
    Mismatch mm;
    mm.tensor = str(*m, "tensor");
    if (const Json* idx = m->find("index"); idx && idx->is_array())
      for (const Json& i : idx->items()) {
        TG_ASSIGN_OR_RETURN(int64_t at, read_int(i, r.name, "first_mismatch.index"));
        mm.index.push_back(at);
      }
    mm.expected = str(*m, "expected");
    mm.actual = str(*m, "actual");
    r.first_mismatch = mm;
  }
  if (const Json* s = j.find("shape"); s && s->is_object())
    for (const auto& [k, v] : s->members()) {
      TG_ASSIGN_OR_RETURN(int64_t extent, read_int(v, r.name, "shape." + k));
      r.shape.emplace_back(k, extent);
    }
  std::string seed = str(j, "seed");
  char* end = nullptr;
  errno = 0;
  r.seed = std::strtoull(seed.c_str(), &end, 10);
  if (seed.empty() || *end != '\0' || errno == ERANGE || seed[0] == '-')
    return error(ErrorCode::Parse, "record " + r.name + ": seed is not an unsigned decimal string: '" + seed + "'");
  if (const Json* v = j.find("ms"); v && v->is_number()) r.ms = v->as_double();
  r.kernel_sha256 = str(j, "kernel_sha256");
  r.expected_failure = str(j, "expected_failure");
  return r;
}

}  // namespace tegula::conformance
