// Every case the suite generates for every built-in target is a valid kernel that the
// lowering accepts for that target (where the target claims it): a case that did not would
// blame a device for the suite's own mistake. Names are unique and dotted.
#include <doctest/doctest.h>

#include <set>
#include <string>
#include <vector>

#include "conformance/Suite.h"
#include "ir/Lower.h"
#include "ir/Parser.h"

namespace cases_lower_on_every_target_test {

using namespace tegula;
using namespace tegula::conformance;

TEST_CASE("every generated case parses, verifies and lowers on every built-in target") {
  for (const std::string& name : builtin_target_names()) {
    auto target = builtin_target(name);
    REQUIRE(target.is_ok());
    std::vector<CaseSpec> cases = build_suite(*target);
    std::set<std::string> names;
    int supported = 0, failures = 0;
    for (const CaseSpec& c : cases) {
      CHECK_MESSAGE(names.insert(c.name).second, "duplicate case name " << c.name);
      CHECK_MESSAGE(c.name.rfind("tegula.", 0) == 0, c.name);
      auto k = ir::parse_and_verify(c.kernel, c.name);
      if (!k.is_ok()) {
        if (++failures < 10) FAIL_CHECK(name << ": " << k.status().str() << "\n" << c.kernel);
        continue;
      }
      if (!c.unsupported.empty()) continue;
      ++supported;
      auto lowered = ir::lower(*k, *target);
      if (!lowered.is_ok() && ++failures < 10) FAIL_CHECK(name << ": " << lowered.status().str() << "\n" << c.kernel);
    }
    CHECK(failures == 0);
    MESSAGE(name << ": " << cases.size() << " cases, " << supported << " claimed");
  }
}

}  // namespace cases_lower_on_every_target_test
