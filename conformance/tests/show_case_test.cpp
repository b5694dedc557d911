// `tegula conformance show CASE` prints the case's kernel as a .tile file (its facts as
// comments) and the command that runs it again; an unknown case is an error.
#include <doctest/doctest.h>

#include <string>

#include "conformance/Suite.h"
#include "conformance/tests/TestSupport.h"
#include "ir/Parser.h"
#include "tegula/tegula.hpp"

namespace show_case_test {

using namespace tegula;
using namespace tegula::conformance;
using namespace tegula::conformance::testing;

TEST_CASE("show prints the kernel and the reproduce command") {
  // The reference device describes its own target.
  RuntimeOptions o;
  o.manifest_paths = std::vector<std::string>{manifest("reference")};
  o.ignore_environment = true;
  o.cache_dir = "off";
  auto rt = Runtime::open(o);
  REQUIRE(rt.is_ok());
  auto json = rt->find_device("reference:0")->target_json();
  REQUIRE(json.is_ok());
  auto rt_target = parse_target(*json, "reference");
  REQUIRE(rt_target.is_ok());
  const std::string name = "tegula.fill.global.f32.lattice";
  const CaseSpec* spec = nullptr;
  std::vector<CaseSpec> all = build_suite(*rt_target);
  for (const CaseSpec& c : all)
    if (c.name == name) spec = &c;
  REQUIRE(spec);
  CliRun r = run_conformance("reference", "show " + name + " --device reference:0");
  INFO(r.output);
  REQUIRE(r.status == 0);
  CHECK(r.output.rfind("// conformance case " + name + " (report row \"" + spec->row + "\"), for reference:0\n", 0) == 0);
  CHECK(r.output.find(spec->kernel) != std::string::npos);
  CHECK(r.output.find("// reproduce: tegula conformance --device 'reference:0' --filter '" + name + "'\n") != std::string::npos);
  // What it prints is a kernel file: the comments are the IR's.
  auto k = ir::parse_and_verify(r.output, "shown.tile");
  CHECK_MESSAGE(k.is_ok(), k.status().str());
}

TEST_CASE("misuse: an unknown case, no case") {
  CliRun r = run_conformance("reference", "show tegula.nosuch --device reference:0");
  CHECK(r.status == 1);
  CHECK(r.output.find("no case 'tegula.nosuch' (tegula conformance list --device reference:0 shows the cases)") != std::string::npos);
  CHECK(run_conformance("reference", "show").status == 2);
}

}  // namespace show_case_test
