// A run that would test nothing exits 2 with a message instead of reporting "conformant":
// an offline target asked for by name that is not probed, a filter that selects no case,
// and a named device left with no case.
#include <doctest/doctest.h>

#include <string>

#include "conformance/tests/TestSupport.h"

namespace runs_testing_nothing_refused_test {

using namespace tegula::conformance::testing;

namespace {

void check_refused(const std::string& plugin, const std::string& args, const std::string& message) {
  std::string out = scratch("runs_testing_nothing");
  CliRun run = run_conformance(plugin, args + " --quiet --out '" + out + "'");
  INFO(args << "\n" << run.output);
  CHECK(run.status == 2);
  CHECK(run.output.find(message) != std::string::npos);
}

}  // namespace

TEST_CASE("an offline target of an unknown plugin is refused") {
  check_refused("reference", "--device nosuchplugin@sm_90a", "no offline target 'nosuchplugin@sm_90a'");
}

TEST_CASE("an unknown offline target of a loaded plugin is refused") {
  check_refused("conformance_offline", "--device conformance_offline@sm_999", "no offline target 'conformance_offline@sm_999'");
}

TEST_CASE("an offline target the plugin does not compile for is refused") {
  check_refused("conformance_offline", "--device conformance_offline@gfx942", "no offline target 'conformance_offline@gfx942'");
}

TEST_CASE("a filter matching no case is refused") {
  check_refused("reference", "--filter 'no.such.case.*'", "nothing to test");
}

TEST_CASE("a named device the filter leaves without cases is refused") {
  check_refused("reference", "--device reference:0 --filter 'tegula.gemm.wgmma.*'", "device reference:0: no case selected");
}

}  // namespace runs_testing_nothing_refused_test
