// Record::from_json requires integers where integers are expected: 1e300 (whose conversion
// to int64 is undefined), 2.5, a string or a missing field is a Parse error naming the
// field, never a silently converted or defaulted value.
#include <doctest/doctest.h>

#include <string>

#include "conformance/Record.h"

namespace corrupt_record_numbers_rejected_test {

using namespace tegula;
using namespace tegula::conformance;

namespace {

Json valid_record() {
  Record r;
  r.name = "tegula.fill.global.f32.one";
  r.row = "fill";
  r.outcome = Outcome::Pass;
  r.elements = 4;
  r.shape = {{"N", 4}};
  r.seed = 1234;
  return r.to_json();
}

std::string parse_error(const Json& j) {
  Result<Record> r = Record::from_json(j);
  return r.is_ok() ? "" : r.status().message();
}

}  // namespace

TEST_CASE("a valid record parses") { CHECK(parse_error(valid_record()).empty()); }

TEST_CASE("a count of 1e300 is refused") {
  Json j = valid_record();
  j.set("elements", Json(1e300));
  CHECK(parse_error(j).find("elements is not an integer") != std::string::npos);
}

TEST_CASE("a missing count is refused") {
  Json j = Json::object();
  Json base = valid_record();  // the loop must not range over a member of a temporary
  for (const auto& [k, v] : base.members())
    if (k != "mismatches") j.set(k, v);
  CHECK(parse_error(j).find("no 'mismatches'") != std::string::npos);
}

TEST_CASE("a fractional shape extent is refused") {
  Json j = valid_record();
  Json shape = Json::object();
  shape.set("N", Json(2.5));
  j.set("shape", shape);
  CHECK(parse_error(j).find("shape.N is not an integer") != std::string::npos);
}

TEST_CASE("a seed that is not a decimal string is refused") {
  Json j = valid_record();
  j.set("seed", "12x");
  CHECK(parse_error(j).find("seed") != std::string::npos);
}

}  // namespace corrupt_record_numbers_rejected_test
