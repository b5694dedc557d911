// `tegula conformance render BUNDLE` writes report.html again from report.json, as this build
// renders it: verify accepts only that page, so a bundle made before the page last changed
// verifies again. A signed bundle is refused (its signature covers the page it has).
#include <doctest/doctest.h>

#include <string>

#include "conformance/Report.h"
#include "conformance/tests/TestSupport.h"

namespace render_rewrites_page_test {

using namespace tegula;
using namespace tegula::conformance;
using namespace tegula::conformance::testing;

TEST_CASE("render writes the page the report renders to, and refuses a signed bundle") {
  std::string dir = scratch("render_rewrites_page");
  CliRun run = run_conformance("reference", "--filter 'tegula.fill.global.f32.*' --quiet --out '" + dir + "'");
  INFO(run.output);
  REQUIRE(run.status == 0);
  const std::string older = "<html>the page an older build wrote</html>";
  REQUIRE(write_file_atomic(dir + "/report.html", older).is_ok());
  CliRun before = run_conformance("reference", "verify '" + dir + "'");
  CHECK(before.status == 1);
  CHECK(before.output.find("report.html is not the page the report renders to") != std::string::npos);

  CliRun rendered = run_conformance("reference", "render '" + dir + "'");
  INFO(rendered.output);
  CHECK(rendered.status == 0);
  Result<std::string> page = read_file(dir + "/report.html");
  REQUIRE(page.is_ok());
  CHECK(*page == render_html(load_report(dir)));
  CHECK(run_conformance("reference", "verify '" + dir + "'").status == 0);

  REQUIRE(write_file_atomic(dir + "/signature.json", "{}").is_ok());
  REQUIRE(write_file_atomic(dir + "/report.html", older).is_ok());
  CliRun signed_bundle = run_conformance("reference", "render '" + dir + "'");
  CHECK(signed_bundle.status == 1);
  CHECK(signed_bundle.output.find("is signed") != std::string::npos);
  CHECK(*read_file(dir + "/report.html") == older);
}

}  // namespace render_rewrites_page_test
