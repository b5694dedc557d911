// A plugin that crashes or hangs while it loads takes only its own discovery worker down:
// it is recorded (Crash or Timeout, with its name) and the other plugins are tested. Asked
// for, or when everything is asked for, it fails the run as a device that was not tested.
#include <doctest/doctest.h>

#include <string>

#include "conformance/tests/TestSupport.h"

namespace plugin_dies_at_discovery_test {

using namespace tegula;
using namespace tegula::conformance::testing;

namespace {

CliRun run_with(const std::string& broken, const std::string& args) {
  std::string cmd = "TEGULA_PLUGINS='" + manifest("reference") + ":" + manifest(broken) + "' TEGULA_CACHE_DIR=off '" +
                    tegula_exe() + "' conformance " + args + " 2>&1";
  CliRun r;
  FILE* p = ::popen(cmd.c_str(), "r");
  if (!p) return r;
  char buf[4096];
  size_t n;
  while ((n = std::fread(buf, 1, sizeof buf, p)) > 0) r.output.append(buf, n);
  int status = ::pclose(p);
  r.status = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return r;
}

const char* kFilter = "--filter 'tegula.copy.global_shared.f32.*,-*.misaligned' --no-offline --quiet --discovery-timeout 3";

/// The report's skipped entry for `plugin`, or an empty object.
Json skipped_entry(const Json& report, const std::string& plugin) {
  const Json* skipped = report.find("skipped");
  if (skipped)
    for (const Json& s : skipped->items())
      if (field(s, "plugin") == plugin) return s;
  return Json::object();
}

}  // namespace

TEST_CASE("a plugin that crashes while loading is a Crash; reference:0 is still certified") {
  std::string out = scratch("discovery_crash");
  CliRun run = run_with("conformance_loadcrash", std::string(kFilter) + " --device reference:0 --out '" + out + "'");
  INFO(run.output);
  CHECK(run.status == 0);
  CHECK(run.output.find("plugin 'conformance_loadcrash'") != std::string::npos);
  Json report = load_report(out);
  CHECK_FALSE(records(report, "reference:0").empty());
  Json s = skipped_entry(report, "conformance_loadcrash");
  CHECK(field(s, "reason").rfind("Crash while loading", 0) == 0);
  CHECK(field(s, "reason").find("signal 11") != std::string::npos);
}

TEST_CASE("a plugin that hangs while loading is a Timeout, within the discovery timeout") {
  std::string out = scratch("discovery_hang");
  CliRun run = run_with("conformance_loadhang", std::string(kFilter) + " --device reference:0 --out '" + out + "'");
  INFO(run.output);
  CHECK(run.status == 0);
  Json report = load_report(out);
  CHECK_FALSE(records(report, "reference:0").empty());
  CHECK(field(skipped_entry(report, "conformance_loadhang"), "reason").rfind("Timeout while loading", 0) == 0);
}

TEST_CASE("asking for every device, a plugin that died is a device not tested, and the run fails") {
  std::string out = scratch("discovery_crash_all");
  CliRun run = run_with("conformance_loadcrash", std::string(kFilter) + " --out '" + out + "'");
  INFO(run.output);
  CHECK(run.status == 1);
  CHECK(run.output.find("conformance_loadcrash: not tested: plugin 'conformance_loadcrash': Crash while loading") !=
        std::string::npos);
  Json report = load_report(out);
  CHECK_FALSE(records(report, "reference:0").empty());
  // The bundle still verifies: the dead plugin is recorded, not hidden.
  CliRun verify = run_with("conformance_loadcrash", "verify '" + out + "/report.json'");
  INFO(verify.output);
  CHECK(verify.status == 0);
}

}  // namespace plugin_dies_at_discovery_test
