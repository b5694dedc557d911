// The report matrix's row labels work as --filter values ("fill shared", "gemm wgmma*"):
// included or excluded like case names, in a run's selection and in `list`.
#include <doctest/doctest.h>

#include <set>
#include <string>

#include "conformance/Suite.h"
#include "conformance/tests/TestSupport.h"

namespace filter_by_row_test {

using namespace tegula;
using namespace tegula::conformance;
using namespace tegula::conformance::testing;

TEST_CASE("a row label selects exactly its row's cases") {
  auto target = builtin_target("sm_90a");
  REQUIRE(target.is_ok());
  std::vector<CaseSpec> all = build_suite(*target);
  size_t in_row = 0;
  for (const CaseSpec& c : all) in_row += c.row == "fill shared";
  REQUIRE(in_row > 0);
  std::vector<CaseSpec> picked = select_cases(all, false, Filter("fill shared"));
  CHECK(picked.size() == in_row);
  for (const CaseSpec& c : picked) CHECK(c.row == "fill shared");
  // Excluded by its row; globs over rows.
  for (const CaseSpec& c : select_cases(all, false, Filter("tegula.fill.*, -fill shared"))) CHECK(c.row != "fill shared");
  std::set<std::string> rows;
  for (const CaseSpec& c : select_cases(all, false, Filter("fill *"))) rows.insert(c.row);
  CHECK(rows.count("fill shared") == 1);
  CHECK(rows.size() > 1);
  CHECK_FALSE(Filter("fill shared").matches("tegula.fill.shared.f32.lattice"));  // a name alone does not match a label
  CHECK(Filter("fill shared").matches("tegula.fill.shared.f32.lattice", "fill shared"));
}

TEST_CASE("list takes a row label") {
  CliRun r = run_conformance("reference", "list --target sm_90a --filter 'fill shared'");
  INFO(r.output);
  CHECK(r.status == 0);
  auto target = builtin_target("sm_90a");
  size_t expected = 0;
  for (const CaseSpec& c : build_suite(*target)) expected += c.row == "fill shared";
  size_t lines = 0;
  for (char c : r.output) lines += c == '\n';
  CHECK(lines == expected);
}

}  // namespace filter_by_row_test
