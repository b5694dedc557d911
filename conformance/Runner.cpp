#include "conformance/Runner.h"
#include "conformance/JsonFields.h"

#include <signal.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "conformance/Executor.h"
#include "conformance/Expectations.h"
#include "conformance/Host.h"
#include "conformance/Pool.h"
#include "conformance/Progress.h"
#include "conformance/Report.h"
#include "conformance/Signing.h"
#include "conformance/Suite.h"
#include "conformance/Tolerances.h"
#include "conformance/perf/PerfDrift.h"
#include "conformance/perf/PerfRun.h"
#include "core/Files.h"
#include "core/Sha256.h"
#include "runtime/Runtime.h"
#include "tegula/tegula.h"

namespace tegula::conformance {
namespace {

/// A message as one line of the run's output: a plugin's text with a newline in it would
/// otherwise print lines of its own choosing ("reference:0: Pass").
std::string one_line(const std::string& text) {
  std::string out;
  out.reserve(text.size());
  for (char c : text) {
    if (c == '\n') out += "\\n";
    else if (c == '\r') out += "\\r";
    else out.push_back(c);
  }
  return out;
}

using Clock = std::chrono::steady_clock;


/// A device (or an offline target of a plugin) and the cases it gets.
struct DeviceRun {
  std::string name;  ///< "reference:0", or "cuda@sm_100a" for offline compilation
  bool offline = false;
  std::string plugin;
  std::string offline_target;
  Json identity = Json::object();
  std::string target_json;
  std::string target_name;
  std::string target_sha256;
  std::string case_list_sha256;
  std::vector<CaseSpec> cases;  ///< selected
  std::vector<std::string> all_names;  ///< every case of the device, selected or not
  std::vector<Record> records;
  std::vector<std::string> unexpected_passes;
  double seconds = 0;
  std::string error;  ///< why the device could not be tested at all
  Json performance;   ///< --perf: the measured figures (null when not asked for)
};

}  // namespace

std::string safe_name(const std::string& s) {
  std::string out = s;
  for (char& c : out)
    if (!isalnum(static_cast<unsigned char>(c)) && c != '-' && c != '.') c = '_';
  return out;
}

namespace {

WorkerSpec worker_spec(const std::string& plugin, const Json& hello, const std::string& log_prefix, uint64_t seed, double timeout_s) {
  WorkerSpec s;
  s.argv = {self_executable(), "--worker", "--seed", std::to_string(seed)};  // tegula-conformance
  if (!plugin.empty()) {
    s.argv.push_back("--plugin");
    s.argv.push_back(plugin);
  }
  s.hello = hello;
  s.log_path = log_prefix;
  s.hello_timeout_s = std::max(120.0, timeout_s);
  return s;
}

Record record_from(const CaseSpec& spec, const JobResult& r) {
  Record rec;
  if (r.replied) {
    if (const Json* j = r.reply.find("record")) {
      Result<Record> parsed = Record::from_json(*j);
      if (parsed.is_ok() && parsed->name == spec.name) return *parsed;
    }
    rec = not_supported_record(spec);
    rec.outcome = Outcome::Fail;
    rec.check = "worker";
    const Json* e = r.reply.find("error");
    rec.detail = e && e->is_string() ? e->as_string() : "malformed worker reply: " + r.reply.dump();
    return rec;
  }
  rec = not_supported_record(spec);
  rec.outcome = r.outcome;
  rec.check = "worker";
  rec.detail = r.detail;
  return rec;
}

class Runner {
public:
  explicit Runner(const RunOptions& o) : o_(o) {}

  int run() {
    ::signal(SIGPIPE, SIG_IGN);
    out_ = o_.out_dir.empty() ? "tegula-conformance-" + timestamp(true) : o_.out_dir;
    started_ = timestamp();
    if (!o_.sign_key.empty()) {
      if (Status st = check_signing_key(o_.sign_key); !st.is_ok()) return fatal("--sign-key: " + st.message());
    }
    if (Status st = make_dirs(out_ + "/logs"); !st.is_ok()) return fatal(st.message());
    jobs_ = o_.jobs > 0 ? o_.jobs : std::max(1, int(::sysconf(_SC_NPROCESSORS_ONLN)));
    if (!o_.perf_baseline.empty()) {
      Result<Json> b = load_perf_baseline(o_.perf_baseline);
      if (!b.is_ok()) return fatal("--perf-baseline: " + b.status().message());
      baseline_ = *b;
    }
    if (int rc = discover()) return rc;
    if (int rc = choose_devices()) return rc;
    if (o_.offline) probe_offline();
    if (int rc = check_selection()) return rc;
    for (DeviceRun& d : runs_) run_device(d);
    if (o_.perf)
      for (DeviceRun& d : runs_) measure_device(d);
    if (int rc = apply_expectation_lists()) return rc;
    return write_report();
  }

private:
  int fatal(const std::string& message) {
    std::fprintf(stderr, "tegula conformance: %s\n", message.c_str());
    return 2;
  }

  WorkerSpec worker(const std::string& plugin, const Json& hello, const std::string& log) {
    return worker_spec(plugin, hello, out_ + "/logs/" + safe_name(log), o_.seed, o_.timeout_s);
  }

  /// Devices are found plugin by plugin, each plugin loaded in a worker of its own: one that
  /// crashes or hangs while loading or listing its devices is recorded (Crash or Timeout,
  /// with its name) and the other plugins are still tested. The manifests are read here
  /// without loading anything.
  int discover() {
    tegula_runtime_options ro{};
    ro.struct_size = sizeof ro;
    runtime::Discovery found = runtime::discover_for_options(ro, runtime::Log());
    Json plugins = Json::array(), devices = Json::array(), skipped = Json::array();
    for (const runtime::Skipped& s : found.skipped) skipped.push(skipped_entry(s.source, s.plugin, s.reason));
    for (const runtime::Manifest& m : found.manifests) {
      Json hello = Json::object();
      hello.set("op", "hello");
      Json cmd = Json::object();
      cmd.set("op", "devices");
      WorkerSpec spec = worker(m.name, hello, "discovery-" + m.name);
      spec.hello_timeout_s = o_.discovery_timeout_s;
      JobResult r = run_one(spec, cmd, o_.discovery_timeout_s);
      std::string failure;
      if (!r.replied) failure = std::string(outcome_name(r.outcome)) + " while loading: " + r.detail;
      else if (const Json* e = r.reply.find("error")) failure = "Fail while loading: " + (e->is_string() ? e->as_string() : e->dump());
      else if (std::string bad = discovery_shape_error(r.reply); !bad.empty()) failure = "Fail while loading: malformed reply: " + bad;
      if (!failure.empty()) {
        std::fprintf(stderr, "tegula conformance: plugin '%s' (%s): %s\n", m.name.c_str(), m.path.c_str(), one_line(failure).c_str());
        skipped.push(skipped_entry(m.path, m.name, failure));
        dead_plugins_.push_back({m.name, failure});
        continue;
      }
      for (const Json& p : r.reply.find("plugins")->items()) plugins.push(p);
      for (const Json& d : r.reply.find("devices")->items()) devices.push(d);
      // The worker saw every other manifest as "not selected"; only its own plugin's
      // entries (a failed load, a skipped device, a duplicate) are news.
      for (const Json& s : r.reply.find("skipped")->items()) {
        if (str(s, "plugin") != m.name) continue;
        bool known = false;
        for (const Json& k : skipped.items()) known = known || (str(k, "source") == str(s, "source") && str(k, "reason") == str(s, "reason"));
        if (!known) skipped.push(s);
      }
    }
    discovery_ = Json::object();
    discovery_.set("plugins", plugins);
    discovery_.set("devices", devices);
    discovery_.set("skipped", skipped);
    return 0;
  }

  static Json skipped_entry(const std::string& source, const std::string& plugin, const std::string& reason) {
    Json x = Json::object();
    x.set("source", source);
    x.set("plugin", plugin);
    x.set("reason", reason);
    return x;
  }

  /// What is wrong with a discovery reply's shape, or "": the rest of the run reads its
  /// "devices", "plugins" and "skipped" without further checks.
  static std::string discovery_shape_error(const Json& reply) {
    if (!reply.is_object()) return "not an object";
    for (const char* list : {"devices", "plugins"}) {
      const Json* v = reply.find(list);
      if (!v || !v->is_array()) return std::string("no '") + list + "' array";
      for (const Json& item : v->items())
        if (!item.is_object()) return std::string("an entry of '") + list + "' is not an object";
    }
    if (!reply.find("skipped")) return "no 'skipped' entry";
    for (const Json& d : reply.find("devices")->items()) {
      const Json* type = d.find("device_type");
      if (type && !type->is_int()) return "device '" + str(d, "name") + "': device_type is not an integer";
    }
    return "";
  }

  bool wanted(const std::string& device, const std::string& plugin) const {
    if (o_.devices.empty()) return true;
    for (const std::string& d : o_.devices)
      if (d == device || d == plugin) return true;
    return false;
  }

  int choose_devices() {
    Filter filter(o_.filter);
    std::map<std::string, bool> matched;
    for (const Json& d : discovery_.find("devices")->items()) {
      std::string name = str(d, "name"), plugin = str(d, "plugin");
      if (!wanted(name, plugin)) continue;
      for (const std::string& w : o_.devices)
        if (w == name || w == plugin) matched[w] = true;
      DeviceRun run;
      run.name = name;
      run.plugin = plugin;
      for (const char* k : {"device_name", "vendor", "driver_version", "toolkit_version", "plugin_version", "memory_bytes",
                            "compute_units", "device_type", "out_of_range"})
        if (const Json* v = d.find(k)) run.identity.set(k, *v);
      run.target_name = str(d, "target_name");
      run.target_json = str(d, "target_json");
      Result<TargetDescription> t = parse_target(run.target_json, name + " target");
      if (!t.is_ok()) {
        // A device without a usable description cannot be tested, which fails the run.
        run.error = "no usable target description: " + (d.find("target_error") ? str(d, "target_error") : t.status().message());
        std::fprintf(stderr, "tegula conformance: %s: %s\n", name.c_str(), one_line(run.error).c_str());
        runs_.push_back(std::move(run));
        continue;
      }
      run.target_sha256 = target_hash(*t);
      std::vector<CaseSpec> all = build_suite(*t);
      run.case_list_sha256 = case_list_hash(all);
      run.cases = select_cases(all, o_.quick, filter);
      for (const CaseSpec& c : all) run.all_names.push_back(c.name);
      runs_.push_back(std::move(run));
    }
    // A plugin that died while loading is untested, which fails the run when it was asked
    // for (by name, by one of its devices, or by asking for everything).
    for (const DeadPlugin& dead : dead_plugins_) {
      bool asked = o_.devices.empty();
      for (const std::string& w : o_.devices) {
        bool mine = w == dead.name || w.rfind(dead.name + ":", 0) == 0 || w.rfind(dead.name + "@", 0) == 0;
        if (mine) matched[w] = true;
        asked = asked || mine;
      }
      if (!asked) continue;
      DeviceRun run;
      run.name = dead.name;
      run.plugin = dead.name;
      run.error = "plugin '" + dead.name + "': " + dead.failure;
      runs_.push_back(std::move(run));
    }
    for (const std::string& w : o_.devices)
      if (!matched[w] && w.find('@') == std::string::npos) return fatal("no device '" + w + "' (see tegula devices)");
    return 0;  // an empty selection is refused after the offline probe (check_selection)
  }

  /// A run that would test nothing is refused (exit 2) rather than reported conformant: an
  /// offline target asked for by name that was not probed or not offered, a device asked
  /// for by name or plugin whose case list the filter leaves empty, and a run whose devices
  /// all end with no selected case (an empty machine, or a filter matching nothing).
  /// Devices that could not be tested are not "nothing": they fail the run as usual.
  int check_selection() {
    for (const std::string& w : o_.devices) {
      if (w.find('@') == std::string::npos) continue;
      bool found = std::any_of(runs_.begin(), runs_.end(), [&](const DeviceRun& d) { return d.name == w; });
      if (found) continue;
      if (!o_.offline) return fatal("'" + w + "' is an offline target, and --no-offline skips offline targets");
      return fatal("no offline target '" + w + "': its plugin is not loaded, the target is not built in (" +
                   join(builtin_target_names()) + "), a device of the plugin covers it, or the plugin does not compile for it");
    }
    size_t selected = 0;
    bool untestable = false;
    for (const DeviceRun& d : runs_) {
      selected += d.cases.size();
      untestable = untestable || !d.error.empty();
      bool asked = std::find(o_.devices.begin(), o_.devices.end(), d.name) != o_.devices.end() ||
                   std::find(o_.devices.begin(), o_.devices.end(), d.plugin) != o_.devices.end();
      if (asked && d.error.empty() && d.cases.empty())
        return fatal("device " + d.name + ": no case selected (" + std::to_string(d.all_names.size()) + " cases, filter '" +
                     o_.filter + "'" + (o_.quick ? ", --quick" : "") + ")");
    }
    if (selected == 0 && !untestable)
      return fatal(runs_.empty() ? "no devices found (see tegula plugins): nothing to test"
                                 : "no case selected on any device (filter '" + o_.filter + "'): nothing to test");
    return 0;
  }

  static std::string join(const std::vector<std::string>& names) {
    std::string out;
    for (const std::string& n : names) out += (out.empty() ? "" : ", ") + n;
    return out;
  }

  /// Whether every device of the plugin is a software model (the reference interpreter):
  /// its "compiled code" for a hardware target is the lowered IR, with no instructions to
  /// check, so it gets no CompileOnly targets unless they are asked for by name.
  bool model_only(const std::string& plugin) const {
    bool any = false;
    for (const Json& d : discovery_.find("devices")->items()) {
      if (str(d, "plugin") != plugin) continue;
      any = true;
      const Json* type = d.find("device_type");
      if (!type || type->as_int() != TEGULA_DEVICE_TYPE_REFERENCE) return false;
    }
    return any;
  }

  /// A worker's answer to an offline probe: offered (neither field set), refused as
  /// unsupported or unimplemented (`not_offered`), or a failure to report (`error`).
  struct ProbeAnswer {
    bool not_offered = false;
    std::string error;
  };

  static ProbeAnswer probe_answer(const JobResult& r) {
    ProbeAnswer a;
    if (!r.replied) {
      a.error = outcome_name(r.outcome) + std::string(": ") + r.detail;
      return a;
    }
    if (const Json* e = r.reply.find("error")) {
      a.error = e->is_string() ? e->as_string() : e->dump();
      return a;
    }
    const Json* ok = r.reply.find("ok");
    if (!ok || !ok->is_bool()) {
      a.error = "the worker's reply has no boolean 'ok': " + r.reply.dump();
      return a;
    }
    if (ok->as_bool()) return a;
    std::string code = str(r.reply, "code");
    if (code == error_code_name(ErrorCode::Unsupported) || code == error_code_name(ErrorCode::Unimplemented)) {
      a.not_offered = true;
      return a;
    }
    a.error = (code.empty() ? std::string("error") : code) + ": " + str(r.reply, "reason");
    return a;
  }

  /// Which plugins compile offline for which built-in targets their devices do not cover.
  void probe_offline() {
    Filter filter(o_.filter);
    for (const Json& p : discovery_.find("plugins")->items()) {
      std::string plugin = str(p, "name");
      bool model = model_only(plugin);
      std::vector<std::string> targets;
      for (const std::string& t : builtin_target_names()) {
        std::string name = plugin + "@" + t;
        bool covered = false;
        for (const DeviceRun& d : runs_)
          if (d.plugin == plugin && !d.offline && d.target_name == t) covered = true;
        bool asked = std::find(o_.devices.begin(), o_.devices.end(), name) != o_.devices.end();
        if (!covered && ((o_.devices.empty() && !model) || asked)) targets.push_back(t);
      }
      if (targets.empty()) continue;
      std::vector<Json> jobs;
      for (const std::string& t : targets) {
        Json j = Json::object();
        j.set("op", "probe");
        j.set("plugin", plugin);
        j.set("target", t);
        jobs.push_back(j);
      }
      Json hello = Json::object();
      hello.set("op", "hello");
      std::vector<ProbeAnswer> answers(targets.size());
      run_jobs(worker(plugin, hello, plugin + ".probe"), jobs, 1, o_.timeout_s,
               [&](size_t i, const JobResult& r) { answers[i] = probe_answer(r); });
      for (size_t i = 0; i < targets.size(); ++i) {
        if (answers[i].not_offered) continue;
        DeviceRun run;
        run.name = plugin + "@" + targets[i];
        run.offline = true;
        run.plugin = plugin;
        run.offline_target = targets[i];
        run.target_name = targets[i];
        run.identity.set("device_name", "offline compilation for " + targets[i]);
        run.identity.set("plugin_version", str(p, "version"));
        Result<TargetDescription> t = builtin_target(targets[i]);
        if (answers[i].error.empty() && !t.is_ok()) answers[i].error = t.status().message();
        if (!answers[i].error.empty()) {
          // Neither offered nor refused: the target cannot be tested, which fails the run.
          run.error = "offline probe failed: " + answers[i].error;
          std::fprintf(stderr, "tegula conformance: %s: %s\n", run.name.c_str(), one_line(run.error).c_str());
          runs_.push_back(std::move(run));
          continue;
        }
        run.target_json = t->canonical_json;
        run.target_sha256 = target_hash(*t);
        std::vector<CaseSpec> all = build_offline_suite(*t);
        run.case_list_sha256 = case_list_hash(all);
        run.cases = select_cases(all, o_.quick, filter);
        for (const CaseSpec& c : all) run.all_names.push_back(c.name);
        runs_.push_back(std::move(run));
      }
    }
  }

  void run_device(DeviceRun& d) {
    Clock::time_point start = Clock::now();
    DeviceCall call;
    call.device = d.name;
    call.plugin = d.plugin;
    call.offline = d.offline;
    call.offline_target = d.offline_target;
    // Accelerators: a few workers (each holds its own context on the one device); CPUs and
    // models: one per core.
    const Json* type = d.identity.find("device_type");
    bool accelerator = type && type->as_int() == TEGULA_DEVICE_TYPE_GPU;
    call.workers = o_.jobs > 0 ? o_.jobs : (accelerator ? std::min(jobs_, 4) : jobs_);
    call.timeout_s = o_.timeout_s;
    call.seed = o_.seed;
    call.log_prefix = out_ + "/logs/" + safe_name(d.name);
    call.quiet = o_.quiet;
    d.records = run_device_cases(call, d.cases);
    d.seconds = std::chrono::duration<double>(Clock::now() - start).count();
  }

  /// The performance figures of a device (not of an offline target), after its cases, so
  /// no case's worker runs beside them.
  void measure_device(DeviceRun& d) {
    if (d.offline || !d.error.empty()) return;
    Result<TargetDescription> t = parse_target(d.target_json, d.name + " target");
    if (!t.is_ok()) return;
    const Json* type = d.identity.find("device_type");
    PerfCall call;
    call.device = d.name;
    Json hello = Json::object();
    hello.set("op", "hello");
    hello.set("device", d.name);
    call.worker = worker(d.plugin, hello, d.name + ".perf");
    call.timeout_s = std::max(o_.timeout_s, 120.0);  // a figure: a compile, 100 ms of warm-up, ten batches
    call.model = type && type->as_int() == TEGULA_DEVICE_TYPE_REFERENCE;
    call.large = type && type->as_int() == TEGULA_DEVICE_TYPE_GPU;
    call.quiet = o_.quiet;
    call.filter = o_.perf_filter;
    d.performance = run_device_perf(call, *t);
    if (baseline_.is_null()) return;
    Json none;
    const Json* before = &none;
    if (const Json* devices = baseline_.find("devices"); devices && devices->is_array())
      for (const Json& b : devices->items())
        if (str(b, "name") == d.name && b.find("performance")) before = b.find("performance");
    Json drift = perf_drift(*before, d.performance, str(*baseline_.find("integrity"), "sha256"));
    for (const Json& e : drift.find("figures")->items())
      std::fprintf(stderr, "  perf drift on %s: %s %s -> %s %s (%+.3g%%, beyond the measured spread of %.3g%%)\n", d.name.c_str(),
                   str(e, "name").c_str(), e.find("baseline_value")->dump().c_str(), e.find("value")->dump().c_str(),
                   str(e, "unit").c_str(), e.find("change_pct")->as_double(), e.find("spread_pct")->as_double());
    d.performance.set("drift", drift);
  }

  int apply_expectation_lists() {
    std::string dir = o_.expectations_dir.empty() ? default_expectations_dir() : o_.expectations_dir;
    for (const Json& p : discovery_.find("plugins")->items()) {
      std::string plugin = str(p, "name");
      Result<ExpectationList> list = ExpectationList::load(dir, plugin);
      if (!list.is_ok()) return fatal(list.status().message());
      expectations_[plugin] = *list;
    }
    for (DeviceRun& d : runs_) d.unexpected_passes = apply_expectations(expectations_[d.plugin], d.name, d.records);
    return 0;
  }

  int write_report() {
    Json report = Json::object();
    report.set("schema", kReportSchema);
    Json suite = Json::object();
    suite.set("version", kSuiteVersion);
    suite.set("tegula_version", tegula_version());
    Json tol = Json::object();
    tol.set("version", Json(int64_t(Tolerances::builtin().version())));
    tol.set("sha256", Tolerances::builtin().sha256());
    suite.set("tolerance_table", tol);
    report.set("suite", suite);

    Json run = Json::object();
    Json cmd = Json::array();
    for (const std::string& a : o_.command_line) cmd.push(Json(a));
    run.set("command_line", cmd);
    run.set("seed", std::to_string(o_.seed));
    run.set("profile", o_.quick ? "quick" : "full");
    run.set("filter", o_.filter);
    Json devs = Json::array();
    for (const std::string& d : o_.devices) devs.push(Json(d));
    run.set("devices", devs);
    run.set("offline", o_.offline);
    run.set("strict", o_.strict);
    run.set("jobs", Json(int64_t(jobs_)));
    run.set("timeout_s", o_.timeout_s);
    run.set("perf", o_.perf);
    run.set("perf_filter", o_.perf_filter);
    run.set("perf_baseline", o_.perf_baseline);
    run.set("started", started_);
    run.set("finished", timestamp());
    report.set("run", run);
    report.set("host", host_identity());

    Json plugins = Json::array();
    for (const Json& p : discovery_.find("plugins")->items()) {
      std::string name = str(p, "name");
      Json x = Json::object();
      for (const char* k : {"name", "vendor", "version", "description", "library_path", "manifest_path", "abi_version"})
        if (const Json* v = p.find(k)) x.set(k, *v);
      Result<std::string> sha = file_sha256(str(p, "library_path"));
      x.set("library_sha256", sha.is_ok() ? *sha : "");
      x.set("expectations", expectations_[name].to_json());
      std::vector<std::pair<std::string, std::vector<std::string>>> mine;
      for (const DeviceRun& d : runs_)
        if (d.plugin == name) mine.emplace_back(d.name, d.all_names);
      Json stale = Json::array();
      for (const std::string& s : stale_expectations(expectations_[name], mine)) stale.push(Json(s));
      x.set("stale_expectations", stale);
      plugins.push(x);
    }
    report.set("plugins", plugins);
    report.set("skipped", *discovery_.find("skipped"));

    Json devices = Json::array();
    for (const DeviceRun& d : runs_) {
      Json x = Json::object();
      x.set("name", d.name);
      x.set("kind", d.offline ? "offline" : "device");
      x.set("plugin", d.plugin);
      if (!d.error.empty()) x.set("error", d.error);
      x.set("identity", d.identity);
      Json t = Json::object();
      t.set("name", d.target_name);
      t.set("sha256", d.target_sha256);
      t.set("json", d.target_json);
      x.set("target", t);
      x.set("case_list_sha256", d.case_list_sha256);
      x.set("selected_cases", Json(int64_t(d.cases.size())));
      x.set("seconds", std::round(d.seconds * 10) / 10);
      Json recs = Json::array();
      for (const Record& r : d.records) recs.push(r.to_json());
      x.set("records", recs);
      derive_device(x, d.records, d.unexpected_passes, !d.error.empty());
      if (!d.performance.is_null()) x.set("performance", d.performance);
      devices.push(x);
    }
    report.set("devices", devices);
    report.set("optimizations", derive_optimizations(report));
    report.set("summary", derive_summary(report));
    Json integrity = Json::object();
    integrity.set("sha256", integrity_hash(report));
    report.set("integrity", integrity);

    std::string json_path = out_ + "/report.json", html_path = out_ + "/report.html";
    if (Status st = write_file_atomic(json_path, report.dump(1) + "\n"); !st.is_ok()) return fatal(st.message());
    if (Status st = write_file_atomic(html_path, render_html(report)); !st.is_ok()) return fatal(st.message());
    // Last: the signature covers every file of the bundle as it now stands.
    if (!o_.sign_key.empty()) {
      if (Status st = sign_bundle(out_, o_.sign_key); !st.is_ok()) return fatal("cannot sign the bundle: " + st.message());
    }
    return print_summary(report, html_path);
  }

  int print_summary(const Json& report, const std::string& html_path) {
    const Json& summary = *report.find("summary");
    {  // what needs attention is printed even with --quiet (which only silences progress)
      for (const DeviceRun& d : runs_) {
        int shown = 0;
        if (!d.error.empty()) std::fprintf(stderr, "  %s: not tested: %s\n", d.name.c_str(), one_line(d.error).c_str());
        for (const Record& r : d.records) {
          if (!is_failure(r.outcome) || !r.expected_failure.empty()) continue;
          if (shown++ < 25) std::fprintf(stderr, "  %s %s: %s: %s\n", outcome_name(r.outcome), d.name.c_str(), r.name.c_str(), one_line(r.detail).c_str());
        }
        if (shown > 25) std::fprintf(stderr, "  ... and %d more failures on %s\n", shown - 25, d.name.c_str());
        for (const std::string& n : d.unexpected_passes) std::fprintf(stderr, "  unexpected pass %s: %s\n", d.name.c_str(), n.c_str());
      }
      for (const Json& p : report.find("plugins")->items())
        for (const Json& s : p.find("stale_expectations")->items())
          std::fprintf(stderr, "  stale expectation in %s: %s names no case\n", str(p, "name").c_str(), s.as_string().c_str());
    }
    std::printf("%s\n", summary_line(summary, html_path).c_str());
    return int(summary.find("exit_status")->as_int());
  }

  RunOptions o_;
  std::string out_, started_;
  int jobs_ = 1;
  Json discovery_;
  Json baseline_;  ///< --perf-baseline's report
  struct DeadPlugin {
    std::string name, failure;
  };
  std::vector<DeadPlugin> dead_plugins_;  ///< crashed, hung or failed while loading
  std::vector<DeviceRun> runs_;
  std::map<std::string, ExpectationList> expectations_;
};

}  // namespace

std::vector<Record> run_device_cases(const DeviceCall& d, const std::vector<CaseSpec>& cases) {
  std::vector<Record> records(cases.size());
  Progress progress(d.device, cases.size(), d.quiet);
  std::vector<Json> jobs;
  std::vector<size_t> job_case;
  std::vector<std::string> kernel_of;  // cases sharing a kernel prefer the same worker
  for (size_t i = 0; i < cases.size(); ++i) {
    const CaseSpec& c = cases[i];
    if (!c.unsupported.empty()) {
      records[i] = not_supported_record(c);
      progress.add(records[i]);
      continue;
    }
    kernel_of.push_back(c.kernel);
    Json j = Json::object();
    j.set("op", d.offline ? "offline" : "run");
    if (d.offline) {
      j.set("plugin", d.plugin);
      j.set("target", d.offline_target);
    } else {
      j.set("device", d.device);
    }
    j.set("case", c.name);
    jobs.push_back(j);
    job_case.push_back(i);
  }
  Json hello = Json::object();
  hello.set("op", "hello");
  if (!d.offline) hello.set("device", d.device);
  run_jobs(worker_spec(d.plugin, hello, d.log_prefix, d.seed, d.timeout_s), jobs, d.workers, d.timeout_s,
           [&](size_t job, const JobResult& r) {
             size_t i = job_case[job];
             records[i] = record_from(cases[i], r);
             progress.add(records[i]);
           },
           kernel_of);
  progress.finish();
  return records;
}

std::string default_expectations_dir() {
  std::string exe = self_executable();
  size_t slash = exe.rfind('/');
  std::string dir = slash == std::string::npos ? "." : exe.substr(0, slash);
  return dir + "/../share/tegula/conformance/expectations";
}

int run_suite(const RunOptions& options) { return Runner(options).run(); }

}  // namespace tegula::conformance
