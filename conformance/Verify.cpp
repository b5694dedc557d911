#include "conformance/Verify.h"
#include "conformance/JsonFields.h"

#include <stdlib.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "conformance/Expectations.h"
#include "conformance/Host.h"
#include "conformance/Report.h"
#include "conformance/Runner.h"
#include "conformance/Suite.h"
#include "conformance/Tolerances.h"
#include "conformance/perf/PerfCheck.h"
#include "conformance/perf/PerfDrift.h"
#include "core/Files.h"
#include "core/Sha256.h"
#include "ir/Parser.h"

namespace tegula::conformance {
namespace {

/// Why a bundle's case list differs from this build's, for the message: the cases this build
/// selects that the bundle has no record of, and the records this build has no case for,
/// with the first of each. A bundle verifies only with a build of the same suite.
std::string case_list_difference(const std::vector<CaseSpec>& selected, const std::vector<Record>& records) {
  std::set<std::string> recorded, known;
  for (const Record& r : records) recorded.insert(r.name);
  for (const CaseSpec& c : selected) known.insert(c.name);
  size_t missing = 0, unknown = 0;
  std::string first_missing, first_unknown;
  for (const CaseSpec& c : selected)
    if (!recorded.count(c.name) && missing++ == 0) first_missing = c.name;
  for (const Record& r : records)
    if (!known.count(r.name) && unknown++ == 0) first_unknown = r.name;
  std::string out = " (the bundle was made by a build whose suite has other cases: this build has " +
                    std::to_string(missing) + " it has no record of";
  if (missing) out += ", first " + first_missing;
  out += ", and no case for " + std::to_string(unknown) + " of its records";
  if (unknown) out += ", first " + first_unknown;
  return out + "; verify it with the build that wrote it)";
}


/// The ulp limit of an Ulp case: the table's entry for its function and its output
/// tensors' dtype (the largest, where outputs differ), read from the case's kernel.
Result<double> output_ulp_limit(const CaseSpec& spec) {
  Result<ir::Kernel> kernel = ir::parse_and_verify(spec.kernel, spec.name);
  if (!kernel.is_ok()) return error(ErrorCode::Internal, "the case's kernel does not parse: " + kernel.status().message());
  double limit = -1;
  for (size_t i = 0; i < kernel->params.size() && i < spec.tensors.size(); ++i) {
    const ir::Param& p = kernel->params[i];
    if (!p.is_tensor || spec.tensors[i].role == Role::Input || !dtype_is_float(p.dtype)) continue;
    limit = std::max(limit, Tolerances::builtin().ulp(spec.function, p.dtype).tolerance);
  }
  if (limit < 0) return error(ErrorCode::Internal, "an Ulp case without a float output");
  return limit;
}

class Verifier {
public:
  Verifier(const Json& report, VerifyOutcome& out) : r_(report), out_(out) {}

  void run(bool check_libraries) {
    if (str(r_, "schema") != kReportSchema) return error("schema is not " + std::string(kReportSchema));
    const Json* integrity = r_.find("integrity");
    if (!integrity || str(*integrity, "sha256") != integrity_hash(r_))
      error("the integrity hash does not match the report's contents (the report was edited)");
    check_suite();
    const Json* run = r_.find("run");
    if (!run) return error("no 'run' section");
    seed_ = str(*run, "seed");
    quick_ = str(*run, "profile") == "quick";
    if (!quick_ && str(*run, "profile") != "full") error("unknown profile '" + str(*run, "profile") + "'");
    filter_ = str(*run, "filter");
    if (!check_plugins(check_libraries)) return;
    check_devices();
    check_optimizations();
    if (const Json* s = r_.find("summary"); !s || !(*s == derive_summary(r_)))
      error("the summary does not follow from the devices' counts (expected " + derive_summary(r_).dump() + ")");
  }

private:
  void error(const std::string& e) { out_.errors.push_back(e); }

  /// The matrix must be the one this build derives from the devices' descriptions; its
  /// measured figures cannot be derived (the integrity hash covers them). A report made
  /// before the matrix existed has none, and says so.
  void check_optimizations() {
    const Json* m = r_.find("optimizations");
    if (!m) return out_.notes.push_back("no optimization matrix in the report (made before it existed)");
    if (std::string diff = optimizations_difference(*m, derive_optimizations(r_)); !diff.empty())
      error(
          "the optimization matrix does not follow from the devices' target descriptions and this build's lowering: " +
          diff);
  }

  void check_suite() {
    const Json* suite = r_.find("suite");
    if (!suite) return error("no 'suite' section");
    if (str(*suite, "version") != kSuiteVersion)
      error("made by suite '" + str(*suite, "version") + "', this is '" + kSuiteVersion + "': its cases cannot be re-derived here");
    const Json* tol = suite->find("tolerance_table");
    if (!tol || str(*tol, "sha256") != Tolerances::builtin().sha256())
      error("the tolerance table's hash differs from this suite's (" + Tolerances::builtin().sha256() + ")");
  }

  /// False when there is no plugin list to check the devices against.
  bool check_plugins(bool check_libraries) {
    const Json* plugins = r_.find("plugins");
    if (!plugins || !plugins->is_array()) {
      error("no 'plugins' array");
      return false;
    }
    for (const Json& p : plugins->items()) {
      std::string name = str(p, "name");
      ExpectationList list;
      list.plugin = name;
      if (const Json* e = p.find("expectations")) {
        list.source = str(*e, "source");
        if (const Json* entries = e->find("expected_failures"); entries && entries->is_array()) {
          for (const Json& x : entries->items())
            list.entries.push_back({str(x, "cases"), str(x, "devices"), str(x, "reason"), str(x, "issue")});
        }
      }
      expectations_[name] = list;
      // This build's own list for the plugin, where it ships one: the report's may excuse no
      // failure that it does not (check_devices). Out-of-tree plugins' lists are the report's.
      Result<ExpectationList> shipped = ExpectationList::load(default_expectations_dir(), name);
      if (!shipped.is_ok()) error("plugin " + name + ": this build's expectation list does not load: " + shipped.status().message());
      else if (!shipped->source.empty()) shipped_[name] = *shipped;
      else if (!list.entries.empty())
        out_.notes.push_back("plugin " + name + ": this build ships no expectation list for it; the report's own excuses its failures");
      std::string lib = str(p, "library_path");
      if (check_libraries && !lib.empty() && file_exists(lib)) {
        Result<std::string> sha = file_sha256(lib);
        if (!sha.is_ok() || *sha != str(p, "library_sha256"))
          error("plugin " + name + ": " + lib + " is not the library the report was made with (SHA-256 differs)");
      } else if (check_libraries) {
        out_.notes.push_back("plugin " + name + ": library " + lib + " not present; its hash was not checked");
      }
    }
    return true;
  }

  void check_devices() {
    const Json* devices = r_.find("devices");
    if (!devices || !devices->is_array()) return error("no 'devices' array");
    std::map<std::string, std::vector<std::pair<std::string, std::vector<std::string>>>> by_plugin;
    for (const Json& d : devices->items()) {
      std::vector<std::string> names;
      if (check_device(d, names)) by_plugin[str(d, "plugin")].emplace_back(str(d, "name"), std::move(names));
    }
    for (const Json& p : r_.find("plugins")->items()) {
      std::string name = str(p, "name");
      Json want = Json::array();
      for (const std::string& s : stale_expectations(expectations_[name], by_plugin[name])) want.push(Json(s));
      const Json* got = p.find("stale_expectations");
      if (!got || !(*got == want)) error("plugin " + name + ": stale expectations should be " + want.dump());
    }
  }

  /// False when the device's target could not be read; `all_names` gets its whole case list.
  bool check_device(const Json& d, std::vector<std::string>& all_names) {
    std::string name = str(d, "name");
    std::string where = "device " + name + ": ";
    bool offline = str(d, "kind") == "offline";
    if (!offline && str(d, "kind") != "device") error(where + "unknown kind '" + str(d, "kind") + "'");
    if (d.find("error")) {
      // Not tested at all: no records, one unexpected failure.
      const Json* recs = d.find("records");
      if (recs && recs->is_array() && recs->size()) error(where + "a device that was not tested has records");
      Json derived = Json::object();
      derive_device(derived, {}, {}, true);
      for (const auto& [key, value] : derived.members())
        if (const Json* got = d.find(key); !got || !(*got == value)) error(where + key + " should be " + value.dump());
      return false;
    }
    const Json* target = d.find("target");
    if (!target) {
      error(where + "no target description");
      return false;
    }
    Result<TargetDescription> t = parse_target(str(*target, "json"), name + " target");
    if (!t.is_ok()) {
      error(where + "its target description does not parse: " + t.status().message());
      return false;
    }
    if (target_hash(*t) != str(*target, "sha256")) error(where + "the target description does not match its SHA-256");
    if (offline) {
      Result<TargetDescription> builtin = builtin_target(t->name);
      if (!builtin.is_ok() || builtin->canonical_json != t->canonical_json)
        error(where + "an offline target must be the built-in description '" + t->name + "'");
    }
    std::vector<CaseSpec> all = offline ? build_offline_suite(*t) : build_suite(*t);
    for (const CaseSpec& c : all) all_names.push_back(c.name);
    bool same_cases = case_list_hash(all) == str(d, "case_list_sha256");
    std::vector<CaseSpec> selected = select_cases(all, quick_, Filter(filter_));
    Result<std::vector<Record>> recs = device_records(d);
    if (!same_cases)
      error(where + "the case list generated from its target description does not match the recorded hash" +
            (recs.is_ok() ? case_list_difference(selected, *recs) : std::string()));
    if (!recs.is_ok()) {
      error(where + recs.status().message());
      return true;
    }
    std::vector<Record> records = *recs;
    if (records.size() != selected.size())
      error(where + std::to_string(records.size()) + " records for " + std::to_string(selected.size()) + " selected cases");
    if (const Json* n = d.find("selected_cases"); !n || n->as_int() != int64_t(selected.size()))
      error(where + "selected_cases is not the number of cases the run selects");
    size_t n = std::min(records.size(), selected.size());
    // What the device declares about out-of-range accesses decides whether its erroneous
    // cases run (Executor.cpp, judge_out_of_range).
    const Json* id = d.find("identity");
    std::string declared = id && id->find("out_of_range") ? str(*id, "out_of_range") : "undeclared";
    bool runs_erroneous = declared == "detected" || declared == "silent";
    for (size_t i = 0; i < n; ++i) check_record(where, offline, runs_erroneous, selected[i], records[i]);
    // Expected-failure marks and the derived fields, recomputed.
    std::vector<Record> marked = records;
    std::vector<std::string> passes = apply_expectations(expectations_[str(d, "plugin")], name, marked);
    for (size_t i = 0; i < records.size(); ++i)
      if (marked[i].expected_failure != records[i].expected_failure)
        error(where + records[i].name + ": its expected-failure mark does not follow from the expectation list");
    if (auto s = shipped_.find(str(d, "plugin")); s != shipped_.end()) {
      std::vector<Record> ours = records;
      apply_expectations(s->second, name, ours);
      for (size_t i = 0; i < records.size(); ++i)
        if (!marked[i].expected_failure.empty() && ours[i].expected_failure.empty())
          error(where + records[i].name + ": excused as an expected failure by the report's expectation list, not by this build's (" +
                s->second.source + ")");
    }
    Json derived = Json::object();
    derive_device(derived, marked, passes);
    for (const auto& [key, value] : derived.members()) {
      const Json* got = d.find(key);
      if (!got || !(*got == value)) error(where + key + " should be " + value.dump());
    }
    check_performance(where, d, offline, *t);
    return true;
  }

  /// --perf: every device (not an offline target) has the section, consistent with its
  /// description; without --perf none has one.
  void check_performance(const std::string& where, const Json& d, bool offline, const TargetDescription& t) {
    const Json* run = r_.find("run");
    const Json* asked = run ? run->find("perf") : nullptr;
    bool perf = asked && asked->is_bool() && asked->as_bool();
    const Json* section = d.find("performance");
    if (!section) {
      if (perf && !offline) error(where + "the run measured performance (--perf), this device has no performance section");
      return;
    }
    if (!perf || offline) return error(where + "a performance section the run did not ask for");
    const Json* filter = run->find("perf_filter");
    std::string globs = filter && filter->is_string() ? filter->as_string() : "";
    if (std::string diff = performance_difference(*section, t, globs); !diff.empty()) return error(where + "performance: " + diff);
    if (const Json* drift = section->find("drift"))
      if (std::string diff = drift_difference(*drift, *section); !diff.empty()) return error(where + "performance: " + diff);
    out_.notes.push_back(where + std::to_string(measured_figures(*section)) +
                         " performance figures measured: their derived values and declared peaks are checked, the measurements are covered by the integrity hash");
  }

  void check_record(const std::string& where, bool offline, bool runs_erroneous, const CaseSpec& spec, const Record& r) {
    std::string at = where + r.name + ": ";
    if (r.name != spec.name) return error(where + "record '" + r.name + "' where the case list has '" + spec.name + "'");
    if (r.kernel_sha256 != sha256_hex(spec.kernel)) error(at + "kernel hash does not match the case's kernel");
    if (r.row != spec.row) error(at + "row does not match the case");
    if (r.shape != spec.symbols) error(at + "shape does not match the case");
    bool unsupported = !spec.unsupported.empty() || (spec.out_of_range && !runs_erroneous);
    if (unsupported != (r.outcome == Outcome::NotSupported) && spec.out_of_range)
      error(at + std::string(unsupported ? "the device declares no detected or silent out-of-range behaviour, so this erroneous case must be NotSupported"
                                         : "the device declares detected or silent out-of-range behaviour, so this erroneous case cannot be NotSupported"));
    else if (unsupported != (r.outcome == Outcome::NotSupported))
      error(at + std::string(unsupported ? "the target does not claim this case, so it must be NotSupported"
                                         : "the target claims this case, so it cannot be NotSupported"));
    if (offline && (r.outcome == Outcome::Pass || r.outcome == Outcome::QualityWarning))
      error(at + "an offline target cannot Pass: nothing ran");
    if (!offline && r.outcome == Outcome::CompileOnly) error(at + "CompileOnly on a device that runs kernels");
    bool success = is_success(r.outcome);
    if (success && (r.mismatches != 0 || r.first_mismatch || !r.check.empty()))
      error(at + outcome_name(r.outcome) + " with mismatches or a failed check");
    if (is_failure(r.outcome) && r.check.empty()) error(at + outcome_name(r.outcome) + " without the check that failed");
    if (r.outcome == Outcome::Pass || r.outcome == Outcome::QualityWarning) {
      if (!offline && r.seed != std::strtoull(seed_.c_str(), nullptr, 10)) error(at + "run with a seed other than the run's");
      if (spec.check == Check::Exact && (r.max_abs != 0 || r.max_ulp != 0)) error(at + "an exact case passed with a non-zero error");
      if (r.outcome == Outcome::QualityWarning && spec.check == Check::Exact) error(at + "an exact case cannot be a QualityWarning");
      if (spec.check == Check::Ulp) {
        Result<double> limit = output_ulp_limit(spec);
        if (!limit.is_ok()) error(at + limit.status().message());
        else if (r.max_ulp > *limit) error(at + "passed with an error above the tolerance table's limit for its output dtype");
      }
    }
  }

  const Json& r_;
  VerifyOutcome& out_;
  std::string seed_, filter_;
  bool quick_ = false;
  std::map<std::string, ExpectationList> expectations_;
  std::map<std::string, ExpectationList> shipped_;  ///< this build's lists, for the plugins it ships one for
};

}  // namespace

/// 16 random bytes as hex, from the kernel's generator.
std::string random_seed() {
  unsigned char bytes[16] = {};
  std::ifstream in("/dev/urandom", std::ios::binary);
  in.read(reinterpret_cast<char*>(bytes), sizeof bytes);
  static const char* digits = "0123456789abcdef";
  std::string out;
  for (unsigned char b : bytes) out += {digits[b >> 4], digits[b & 15]};
  if (!in) out += std::to_string(std::chrono::steady_clock::now().time_since_epoch().count());  // no urandom: the clock
  return out;
}

/// Re-runs `count` cases of every device of the report that runs kernels and compares; the
/// sample is drawn with `sample_seed` (the verifier's, not the report's).
void recheck_report(const Json& report, int count, const std::string& sample_seed, VerifyOutcome& out) {
  std::string seed = str(*report.find("run"), "seed");
  out.notes.push_back("re-check sample drawn with seed " + sample_seed + " (--recheck-seed " + sample_seed + " draws it again)");
  for (const Json& d : report.find("devices")->items()) {
    std::string name = str(d, "name");
    if (str(d, "kind") != "device" || d.find("error")) continue;
    Result<TargetDescription> t = parse_target(str(*d.find("target"), "json"), name);
    Result<std::vector<Record>> recs = device_records(d);
    if (!t.is_ok() || !recs.is_ok()) continue;
    std::map<std::string, CaseSpec> specs;
    for (CaseSpec& c : build_suite(*t)) specs[c.name] = std::move(c);
    // The sample: the claimed cases whose hash with the verifier's seed is lowest.
    std::vector<std::pair<std::string, size_t>> order;
    for (size_t i = 0; i < recs->size(); ++i)
      if ((*recs)[i].outcome != Outcome::NotSupported && specs.count((*recs)[i].name))
        order.emplace_back(sha256_hex(sample_seed + "\n" + name + "\n" + (*recs)[i].name), i);
    std::sort(order.begin(), order.end());
    if (order.size() > size_t(count)) order.resize(size_t(count));
    std::vector<CaseSpec> cases;
    for (const auto& o : order) cases.push_back(specs[(*recs)[o.second].name]);
    if (cases.empty()) continue;
    DeviceCall call;
    call.device = name;
    call.plugin = str(d, "plugin");
    call.workers = 1;
    call.seed = std::strtoull(seed.c_str(), nullptr, 10);
    std::error_code no_tmp;
    std::string tmp = std::filesystem::temp_directory_path(no_tmp).string();  // $TMPDIR, else /tmp
    std::string dir = (no_tmp || tmp.empty() ? std::string("/tmp") : tmp) + "/tegula-recheck-XXXXXX";
    bool made_dir = ::mkdtemp(dir.data()) != nullptr;
    call.log_prefix = (made_dir ? dir : std::string("/tmp")) + "/worker";
    std::vector<Record> again = run_device_cases(call, cases);
    size_t errors_before = out.errors.size();
    // The worker logs are kept only when a re-check disagrees: the error names their folder.
    auto drop_logs = [&] {
      std::error_code ignored;
      if (made_dir && out.errors.size() == errors_before) std::filesystem::remove_all(dir, ignored);
    };
    bool absent = std::all_of(again.begin(), again.end(), [](const Record& r) {
      return r.check == "worker" && r.detail.find("could not") != std::string::npos;
    });
    if (absent) {
      out.notes.push_back("device " + name + " is not available here; its records were not re-checked");
      drop_logs();
      continue;
    }
    for (size_t k = 0; k < again.size(); ++k) {
      const Record& was = (*recs)[order[k].second];
      const Record& now = again[k];
      if (was.outcome != now.outcome || was.check != now.check)
        out.errors.push_back("(worker logs in " + call.log_prefix.substr(0, call.log_prefix.rfind('/')) + ") " +"re-check on " + name + ": " + was.name + " is " + outcome_name(was.outcome) +
                             (was.check.empty() ? "" : " (" + was.check + ")") + " in the report but " + outcome_name(now.outcome) +
                             (now.check.empty() ? "" : " (" + now.check + ")") + " now: " + now.detail);
    }
    std::string names;
    for (const CaseSpec& c : cases) names += (names.empty() ? "" : ", ") + c.name;
    out.notes.push_back("re-checked " + std::to_string(again.size()) + " cases on " + name + ": " + names);
    drop_logs();
  }
}

VerifyOutcome verify_report(const std::string& path, bool check_plugin_libraries, int recheck, const std::string& recheck_seed) {
  VerifyOutcome out;
  Result<std::string> text = read_file(path);
  if (!text.is_ok()) {
    out.errors.push_back(text.status().message());
    return out;
  }
  Result<Json> report = Json::parse(*text, path);
  if (!report.is_ok()) {
    out.errors.push_back("not a JSON report: " + report.status().str());
    return out;
  }
  Verifier(*report, out).run(check_plugin_libraries);
  size_t slash = path.rfind('/');
  std::string html = (slash == std::string::npos ? std::string() : path.substr(0, slash + 1)) + "report.html";
  if (file_exists(html)) {
    Result<std::string> page = read_file(html);
    if (!page.is_ok() || *page != render_html(*report)) out.errors.push_back("report.html is not the page the report renders to");
  } else {
    out.notes.push_back("no report.html beside the report; only the JSON was checked");
  }
  if (recheck > 0 && out.ok()) recheck_report(*report, recheck, recheck_seed.empty() ? random_seed() : recheck_seed, out);
  return out;
}

}  // namespace tegula::conformance
