// `tegula conformance list --device plugin@target` takes the offline names a run takes and
// lists the cases a run compiles for them; a plugin not loaded or a target not built in is
// an error naming it.
#include <doctest/doctest.h>

#include <string>

#include "conformance/Suite.h"
#include "conformance/tests/TestSupport.h"

namespace list_offline_names_test {

using namespace tegula;
using namespace tegula::conformance;
using namespace tegula::conformance::testing;

TEST_CASE("an offline name lists the offline suite of its target") {
  auto target = builtin_target("sm_90a");
  REQUIRE(target.is_ok());
  std::vector<CaseSpec> offline = build_offline_suite(*target);
  REQUIRE(!offline.empty());
  const std::string& name = offline.front().name;
  CliRun r = run_conformance("reference", "list --device reference@sm_90a --filter '" + name + "'");
  INFO(r.output);
  CHECK(r.status == 0);
  CHECK(r.output.rfind(name, 0) == 0);
  CliRun all = run_conformance("reference", "list --device reference@sm_90a");
  size_t lines = 0;
  for (char c : all.output) lines += c == '\n';
  CHECK(lines == offline.size());
}

TEST_CASE("misuse: an unloaded plugin, an unknown target") {
  CliRun plugin = run_conformance("reference", "list --device nosuch@sm_90a");
  CHECK(plugin.status == 1);
  CHECK(plugin.output.find("'nosuch@sm_90a': no plugin 'nosuch' is loaded (reference)") != std::string::npos);
  CliRun target = run_conformance("reference", "list --device reference@sm_1");
  CHECK(target.status == 1);
  CHECK(target.output.find("'reference@sm_1': ") != std::string::npos);
  CHECK(target.output.find("sm_1") != std::string::npos);
}

}  // namespace list_offline_names_test
