// tegula devices / plugins: what the CLI lists. The plugins are named in TEGULA_PLUGINS (the
// build tree's reference and null manifests), so backends built alongside cannot change the
// listing; one test keeps the default search through <exe_dir>/../share/tegula/plugins.d,
// which an installed tegula uses.
#include <doctest/doctest.h>

#include "runtime/tests/TestSupport.h"

namespace cli_devices_test {

using namespace tegula::testing;

namespace {

/// The CLI with a clean plugin environment (the user's variables do not leak in) and only
/// the build tree's reference and null plugins, unless `env` says otherwise.
std::string tegula_cli(const std::string& args, int* rc = nullptr, const std::string& env = "") {
  std::string out;
  int status = run_command("env -u TEGULA_PLUGINS -u TEGULA_ADD_PLUGINS -u TEGULA_SELECT_PLUGINS "
                           "-u TEGULA_DISABLE_PLUGINS -u TEGULA_LOADER_DEBUG TEGULA_CACHE_DIR=off TEGULA_PLUGINS=" +
                               reference_manifest() + ":" + null_manifest() + " " + env + " " + tegula_exe() + " " + args,
                           &out);
  if (rc) *rc = status;
  return out;
}

}  // namespace

TEST_CASE("tegula devices lists the reference device") {
  int rc = -1;
  std::string out = tegula_cli("devices", &rc);
  CHECK(rc == 0);
  CHECK(out.find("DEVICE") != std::string::npos);
  CHECK(out.find("reference:0") != std::string::npos);
  CHECK(out.find("tegula reference interpreter") != std::string::npos);
  CHECK(out.find("reference 0.1.0") != std::string::npos);
  // What it does with an access outside a tensor, as the plugin declares it.
  CHECK(out.find("OUT-OF-RANGE") != std::string::npos);
  size_t line = out.find("reference:0");
  CHECK(out.substr(line, out.find('\n', line) - line).find(" detected") != std::string::npos);
}

TEST_CASE("tegula devices notes skipped plugins; tegula plugins says why") {
  std::string env = "TEGULA_ADD_PLUGINS=" + test_manifest("refuses");
  std::string out = tegula_cli("devices", nullptr, env);
  CHECK(out.find("note: 1 plugin(s) or device(s) skipped; 'tegula plugins' says why") != std::string::npos);  // the refusing one
  out = tegula_cli("plugins", nullptr, env);
  // The reference plugin declares TG_CONCURRENT_COMPILE; the null skeleton does not.
  CHECK(out.find("reference 0.1.0 (tegula), ABI 1, 1 device(s), compiles side by side\n") != std::string::npos);
  CHECK(out.find("null 0.1.0 (tegula), ABI 1, 0 device(s)\n") != std::string::npos);
  CHECK(out.find(test_manifest("refuses") + ": the plugin refused the host's ABI versions 1..1: no test hardware present") !=
        std::string::npos);
}

TEST_CASE("a refusal reason with newlines prints escaped, on its own line") {
  std::string env = "TEGULA_ADD_PLUGINS=" + test_manifest("refuses_multiline");
  std::string out = tegula_cli("plugins", nullptr, env);
  INFO(out);
  CHECK(out.find(test_manifest("refuses_multiline") +
                 ": the plugin refused the host's ABI versions 1..1: no test hardware present\\n  /forged/manifest.json: "
                 "loaded fine?\\tend\n") != std::string::npos);  // the plugin strings turn \r into '?'
  // No line of the listing starts with the forged text.
  CHECK(out.find("\n  /forged/manifest.json") == std::string::npos);
}

TEST_CASE("the default search finds the build tree's plugins beside the executable") {
  int rc = -1;
  // An empty TEGULA_PLUGINS means unset: the default search, narrowed to the reference plugin.
  std::string out = tegula_cli("devices", &rc, "TEGULA_PLUGINS= TEGULA_SELECT_PLUGINS=reference");
  CHECK(rc == 0);
  CHECK(out.find("reference:0") != std::string::npos);
}

TEST_CASE("no devices at all") {
  int rc = -1;
  std::string out = tegula_cli("devices", &rc, "TEGULA_PLUGINS=/nonexistent");
  CHECK(rc == 0);
  CHECK(out.find("no devices") != std::string::npos);
}

}  // namespace cli_devices_test
