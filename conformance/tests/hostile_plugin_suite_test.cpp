// The hostile-plugin suite: the hostile plugin (conformance/testing/HostilePlugin.cpp) beside
// the reference plugin, crashing, hanging or answering garbage at every entry of the ABI in
// turn, against `tegula devices`, `tegula run` on reference:0 and `tegula conformance
// --device reference:0`. What it holds (and the README's "What the host survives" states):
// - garbage at any entry: every command completes, the plugin's message is printed escaped
//   (no forged lines, no control characters), reference:0 runs and is certified;
// - a crash or hang at an entry the host calls in its own process (loading, enumerating,
//   unloading) takes that process down, as it would any program: only `tegula conformance`
//   survives it, because it discovers each plugin in its own worker and records the plugin
//   as not tested (Crash or Timeout, with its name) while reference:0 is still certified;
// - a crash or hang at any other entry never happens to a host that does not use the plugin.
#include <doctest/doctest.h>

#include <sys/wait.h>

#include <set>
#include <string>
#include <vector>

#include "conformance/tests/TestSupport.h"
#include "plugins/abi/tegula_abi_entries.h"

namespace hostile_plugin_suite_test {

using namespace tegula;
using namespace tegula::conformance::testing;

namespace {

struct Outcome {
  int exit_code = -1;  ///< -1: killed by a signal or the timeout
  bool timed_out = false;
  std::string output;
};

Outcome run(const std::string& entry, const std::string& fault, const std::string& args, int timeout_s = 5) {
  std::string cmd = "TEGULA_PLUGINS='" + manifest("reference") + ":" + manifest("conformance_hostile") +
                    "' TEGULA_CACHE_DIR=off TEGULA_HOSTILE_ENTRY=" + entry + " TEGULA_HOSTILE_FAULT=" + fault +
                    " timeout -s KILL " + std::to_string(timeout_s) + " '" + tegula_exe() + "' " + args + " 2>&1";
  Outcome o;
  FILE* p = ::popen(cmd.c_str(), "r");
  if (!p) return o;
  char buf[4096];
  size_t n;
  while ((n = std::fread(buf, 1, sizeof buf, p)) > 0) o.output.append(buf, n);
  int status = ::pclose(p);
  o.exit_code = WIFEXITED(status) && WEXITSTATUS(status) != 137 ? WEXITSTATUS(status) : -1;
  o.timed_out = WIFEXITED(status) && WEXITSTATUS(status) == 137;
  return o;
}

std::vector<std::string> all_entries() {
  std::vector<std::string> out;
#define TG_ENTRY_NAME(name, ret, params, args, since, optional) out.push_back(#name);
  TG_ABI_PLUGIN_ENTRIES(TG_ENTRY_NAME)
#undef TG_ENTRY_NAME
  return out;
}

/// The entries the host calls in its own process when it only lists devices: loading,
/// enumerating, describing, unloading. A crash or hang there is the host's too.
const std::set<std::string> kInProcess = {"get_info", "init", "shutdown", "device_count", "device_properties",
                                          "device_target"};

const char* kRun = "run " TEGULA_SOURCE_DIR "/examples/elementwise/silu_mul.tile --device reference:0 --bind N=1000";

/// No control character but newline, and no line the plugin's message forged.
void check_escaped(const std::string& output) {
  CHECK(output.find('\x1b') == std::string::npos);
  CHECK(output.find('\x07') == std::string::npos);
  CHECK(output.find('\r') == std::string::npos);
  CHECK(output.find("\nreference:0: Pass (forged line)") == std::string::npos);
}

}  // namespace

TEST_CASE("garbage at any entry: every command completes and reference:0 runs") {
  for (const std::string& entry : all_entries()) {
    CAPTURE(entry);
    Outcome devices = run(entry, "garbage", "devices");
    INFO(devices.output);
    CHECK(devices.exit_code == 0);
    CHECK(devices.output.find("reference:0") != std::string::npos);
    check_escaped(devices.output);
    Outcome r = run(entry, "garbage", kRun);
    INFO(r.output);
    CHECK(r.exit_code == 0);
    CHECK(r.output.find("PASS") != std::string::npos);
    check_escaped(r.output);
  }
}

TEST_CASE("a crash or hang outside loading and enumeration never reaches a host that does not use the plugin") {
  for (const std::string& entry : all_entries()) {
    if (kInProcess.count(entry)) continue;
    for (const char* fault : {"crash", "hang"}) {
      CAPTURE(entry);
      CAPTURE(fault);
      Outcome devices = run(entry, fault, "devices");
      INFO(devices.output);
      CHECK(devices.exit_code == 0);
      Outcome r = run(entry, fault, kRun);
      INFO(r.output);
      CHECK(r.exit_code == 0);
    }
  }
}

TEST_CASE("a crash or hang while loading takes the process down; only conformance survives it") {
  for (const std::string& entry : kInProcess) {
    for (const char* fault : {"crash", "hang"}) {
      CAPTURE(entry);
      CAPTURE(fault);
      Outcome devices = run(entry, fault, "devices", 3);
      INFO(devices.output);
      CHECK(devices.exit_code != 0);
      if (std::string(fault) == "hang") CHECK(devices.timed_out);
      std::string out = scratch(std::string("hostile_") + entry + "_" + fault);
      Outcome c = run(entry, fault,
                      "conformance --device reference:0 --filter 'tegula.copy.global_shared.f32.*,-*.misaligned' --no-offline "
                      "--quiet --discovery-timeout 3 --out '" + out + "'",
                      60);
      INFO(c.output);
      CHECK(c.exit_code == 0);
      Json report = load_report(out);
      CHECK_FALSE(records(report, "reference:0").empty());
    }
  }
}

TEST_CASE("conformance on the hostile device records its faults and still finishes") {
  for (const char* entry : {"compile", "launch", "buffer_alloc"})
    for (const char* fault : {"crash", "garbage"}) {
      CAPTURE(entry);
      CAPTURE(fault);
      std::string out = scratch(std::string("hostile_dev_") + entry + "_" + fault);
      Outcome c = run(entry, fault,
                      "conformance --device conformance_hostile:0 --filter 'tegula.copy.global_shared.f32.*,-*.misaligned' "
                      "--no-offline --quiet --out '" + out + "'",
                      120);
      INFO(c.output);
      // Every case failed one way or another: the run completes and says the device is not conformant.
      CHECK(c.exit_code == 1);
      Json report = load_report(out);
      std::vector<Json> recs = records(report, "conformance_hostile:0");
      CHECK_FALSE(recs.empty());
      check_escaped(c.output);
    }
}

}  // namespace hostile_plugin_suite_test
