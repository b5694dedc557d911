// Helpers for the conformance tests: run `tegula conformance` as a subprocess with chosen
// plugins (the test plugins of conformance/testing, or the reference plugin), and read the
// report it writes.
#pragma once

#include <sys/wait.h>

#include <cstdio>
#include <cstdlib>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "conformance/Report.h"
#include "conformance/Verify.h"
#include "core/Files.h"
#include "core/Json.h"

namespace tegula::conformance::testing {

inline std::string tegula_exe() { return std::string(TEGULA_BINARY_DIR) + "/bin/tegula"; }

/// The manifest of a plugin: "reference", or a test plugin ("conformance_wrong", ...).
inline std::string manifest(const std::string& plugin) {
  if (plugin.rfind("conformance_", 0) == 0) return std::string(TEGULA_BINARY_DIR) + "/conformance/testing/plugins.d/" + plugin + ".json";
  return std::string(TEGULA_BINARY_DIR) + "/share/tegula/plugins.d/" + plugin + ".json";
}

/// A fresh, empty folder for one test.
inline std::string scratch(const std::string& name) {
  std::string dir = std::string(TEGULA_BINARY_DIR) + "/conformance/test-scratch/" + name;
  std::string cmd = "rm -rf '" + dir + "'";
  if (std::system(cmd.c_str()) != 0) return dir;
  (void)make_dirs(dir);
  return dir;
}

struct CliRun {
  int status = -1;
  std::string output;  // stdout and stderr
};

/// `tegula conformance ARGS` with only `plugins` loaded; its output and exit status.
inline CliRun run_conformance_with(const std::vector<std::string>& plugins, const std::string& args) {
  std::string manifests;
  for (const std::string& p : plugins) manifests += (manifests.empty() ? "" : ":") + manifest(p);
  std::string cmd =
      "TEGULA_PLUGINS='" + manifests + "' TEGULA_CACHE_DIR=off '" + tegula_exe() + "' conformance " + args + " 2>&1";
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

/// `tegula conformance ARGS` with only `plugin` loaded; its output and exit status.
inline CliRun run_conformance(const std::string& plugin, const std::string& args) {
  return run_conformance_with({plugin}, args);
}

inline Json load_report(const std::string& dir) {
  Result<std::string> text = read_file(dir + "/report.json");
  if (!text.is_ok()) return Json();
  Result<Json> j = Json::parse(*text);
  return j.is_ok() ? *j : Json();
}

/// The records of one device of a report.
inline std::vector<Json> records(const Json& report, const std::string& device) {
  const Json* devices = report.find("devices");
  if (!devices) return {};
  for (const Json& d : devices->items())
    if (d.find("name") && d.find("name")->as_string() == device) return d.find("records")->items();
  return {};
}

inline std::string field(const Json& j, const char* key) {
  const Json* v = j.find(key);
  return v && v->is_string() ? v->as_string() : "";
}

/// Outcome and check of every record, counted: {"Fail/values": 12, ...}.
inline std::map<std::string, int> tally(const std::vector<Json>& recs) {
  std::map<std::string, int> t;
  for (const Json& r : recs) ++t[field(r, "outcome") + "/" + field(r, "check")];
  return t;
}

/// A fresh integrity hash over the report as it now stands: what a forger does after an edit.
inline void reseal(Json& report) {
  Json integrity = Json::object();
  integrity.set("sha256", integrity_hash(report));
  report.set("integrity", integrity);
}

/// verify's errors for `base` edited by `edit` (resealed when `seal`), written to the scratch
/// folder `name`; a single "cannot write" error when it could not be written.
inline std::vector<std::string> verify_edited_report(const Json& base, const std::string& name,
                                                     const std::function<void(Json&)>& edit, bool seal = true) {
  Json report = base;
  edit(report);
  if (seal) reseal(report);
  std::string dir = scratch(name);
  if (!write_file_atomic(dir + "/report.json", report.dump(1)).is_ok()) return {"cannot write " + dir + "/report.json"};
  return conformance::verify_report(dir + "/report.json").errors;
}

/// Whether some error contains `text`.
inline bool mentions(const std::vector<std::string>& errors, const std::string& text) {
  for (const std::string& e : errors)
    if (e.find(text) != std::string::npos) return true;
  return false;
}

}  // namespace tegula::conformance::testing
