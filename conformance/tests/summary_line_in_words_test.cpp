// The last line of a run gives the verdict and the counts in words, and names report.html.
#include <doctest/doctest.h>

#include <string>

#include "conformance/Progress.h"
#include "conformance/tests/TestSupport.h"

namespace summary_line_in_words_test {

using namespace tegula;
using namespace tegula::conformance;
using namespace tegula::conformance::testing;

namespace {

Json summary(const std::string& verdict, int64_t pass, int64_t fail, int64_t not_supported, int64_t expected) {
  Json counts = Json::object();
  counts.set("Pass", Json(pass));
  counts.set("Fail", Json(fail));
  counts.set("NotSupported", Json(not_supported));
  Json s = Json::object();
  s.set("counts", counts);
  s.set("expected_failures", Json(expected));
  s.set("verdict", verdict);
  return s;
}

}  // namespace

TEST_CASE("counts in words, zero counts left out, expected failures said") {
  CHECK(summary_line(summary("conformant", 12, 0, 3, 0), "out/report.html") ==
        "conformant: 15 cases, 12 passed, 3 not supported; report out/report.html");
  CHECK(summary_line(summary("conformant", 5, 2, 0, 2), "r.html") == "conformant: 7 cases, 5 passed, 2 failed (all expected); report r.html");
  CHECK(summary_line(summary("not conformant", 5, 3, 0, 1), "r.html") ==
        "not conformant: 8 cases, 5 passed, 3 failed (1 of them expected); report r.html");
  CHECK(summary_line(summary("conformant", 1, 0, 0, 0), "r.html") == "conformant: 1 case, 1 passed; report r.html");
}

TEST_CASE("the last line of a run") {
  std::string out = scratch("summary_line");
  CliRun r = run_conformance("reference", "--filter 'tegula.fill.global.f32.lattice' --jobs 1 --quiet --out '" + out + "'");
  INFO(r.output);
  REQUIRE(r.status == 0);
  std::string text = r.output;
  while (!text.empty() && text.back() == '\n') text.pop_back();
  std::string last = text.substr(text.rfind('\n') + 1);
  CHECK(last == "conformant: 1 case, 1 passed; report " + out + "/report.html");
  CHECK(file_exists(out + "/report.html"));
}

}  // namespace summary_line_in_words_test
