#include "conformance/Cli.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <optional>
#include <string>
#include <vector>

#include "conformance/CliNumbers.h"
#include "conformance/Report.h"
#include "conformance/Runner.h"
#include "conformance/Signing.h"
#include "conformance/Suite.h"
#include "conformance/Verify.h"
#include "conformance/Worker.h"
#include "core/Files.h"
#include "tegula/tegula.hpp"

namespace tegula::conformance {
namespace {

void print_usage(FILE* to) {
  std::fprintf(to,
               "usage: tegula conformance [options]        run the suite on every device (or --device D)\n"
               "       tegula conformance list [--device D | --target T] [--filter GLOBS] [--quick]\n"
               "       tegula conformance show CASE [--device D | --target T]\n"
               "                                          the case's kernel (a .tile file) and the command that reruns it\n"
               "       tegula conformance verify REPORT [--trust PUBKEY] [--no-library-check] [--recheck N [--recheck-seed S]]\n"
               "       tegula conformance render BUNDLE    write BUNDLE/report.html again from its report.json\n"
               "                                          (a bundle made by an older build; verify checks the page)\n"
               "       tegula conformance keygen FILE      an Ed25519 key pair: FILE (secret) and FILE.pub\n"
               "options:\n"
               "  --device D         a device (\"reference:0\"), a plugin's devices (\"cuda\"), or an offline\n"
               "                     target (\"cuda@sm_100a\"; list and show take these too); repeatable\n"
               "  --filter GLOBS     comma-separated globs over case names and report rows (\"fill shared\");\n"
               "                     a leading '-' excludes\n"
               "  --out DIR          where the report goes (default: ./tegula-conformance-<date>)\n"
               "  --jobs N           worker processes per device (default: the number of CPUs)\n"
               "  --timeout S        seconds a case may take before it is a Timeout (default 60)\n"
               "  --discovery-timeout S  seconds one plugin may take to load and list its devices (default 120)\n"
               "  --seed N           the seed every input derives from (default 1234)\n"
               "  --strict           also fail on unexpected passes and stale expectation entries\n"
               "  --quick            a few cases per primitive (development; not for certification)\n"
               "  --perf             also measure each device against its declared peaks: copy paths, reductions,\n"
               "                     exp, atomics, launches, compiles, every catalogue instruction, the examples\n"
               "  --perf-filter GLOBS  only these figures (\"tegula.perf.copy.*,tegula.perf.gemm.wgmma*\"); implies --perf\n"
               "  --perf-baseline BUNDLE  list the figures that moved beyond their measured spread since BUNDLE\n"
               "  --no-offline       skip CompileOnly targets (offline compilation)\n"
               "  --expectations DIR expected-failure lists (default: the installed ones)\n"
               "  --quiet            no progress\n"
               "  --sign-key FILE    sign the bundle (every file, logs included) with this secret key\n"
               "exit status: 0 conformant, 1 a Fail, Crash or Timeout not expected (or, with --strict,\n"
               "an unexpected pass or stale expectation), 2 the run could not be made\n");
}

int usage() {
  print_usage(stderr);
  return 2;
}

bool take_value(const std::vector<std::string>& args, size_t& i, std::string& out) {
  if (i + 1 >= args.size()) {
    std::fprintf(stderr, "tegula conformance: %s needs a value\n", args[i].c_str());
    return false;
  }
  out = args[++i];
  return true;
}

void split_into(const std::string& text, std::vector<std::string>& out) {
  size_t start = 0;
  while (start <= text.size()) {
    size_t end = text.find(',', start);
    if (end == std::string::npos) end = text.size();
    if (end > start) out.push_back(text.substr(start, end - start));
    start = end + 1;
  }
}

int cmd_run(const std::vector<std::string>& args) {
  RunOptions o;
  o.command_line = {"tegula", "conformance"};
  o.command_line.insert(o.command_line.end(), args.begin(), args.end());
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    std::string v;
    if (a == "--device") {
      if (!take_value(args, i, v)) return 2;
      split_into(v, o.devices);
    } else if (a == "--filter") {
      if (!take_value(args, i, v)) return 2;
      o.filter += (o.filter.empty() ? "" : ",") + v;
    } else if (a == "--out") {
      if (!take_value(args, i, o.out_dir)) return 2;
    } else if (a == "--jobs") {
      if (!take_value(args, i, v)) return 2;
      std::optional<int64_t> jobs = parse_int_option(a, v, 1, 1024);
      if (!jobs) return 2;
      o.jobs = int(*jobs);
    } else if (a == "--timeout") {
      if (!take_value(args, i, v)) return 2;
      std::optional<double> timeout = parse_seconds_option(a, v);
      if (!timeout) return 2;
      o.timeout_s = *timeout;
    } else if (a == "--sign-key") {
      if (!take_value(args, i, o.sign_key)) return 2;
    } else if (a == "--discovery-timeout") {
      if (!take_value(args, i, v)) return 2;
      std::optional<double> timeout = parse_seconds_option(a, v);
      if (!timeout) return 2;
      o.discovery_timeout_s = *timeout;
    } else if (a == "--seed") {
      if (!take_value(args, i, v)) return 2;
      std::optional<uint64_t> seed = parse_u64_option(a, v);
      if (!seed) return 2;
      o.seed = *seed;
    } else if (a == "--expectations") {
      if (!take_value(args, i, o.expectations_dir)) return 2;
    } else if (a == "--strict") {
      o.strict = true;
    } else if (a == "--quick") {
      o.quick = true;
    } else if (a == "--perf") {
      o.perf = true;
    } else if (a == "--perf-filter") {
      if (!take_value(args, i, v)) return 2;
      o.perf = true;
      o.perf_filter += (o.perf_filter.empty() ? "" : ",") + v;
    } else if (a == "--perf-baseline") {
      if (!take_value(args, i, o.perf_baseline)) return 2;
      o.perf = true;
    } else if (a == "--no-offline") {
      o.offline = false;
    } else if (a == "--quiet") {
      o.quiet = true;
    } else {
      std::fprintf(stderr, "tegula conformance: unknown option '%s'\n", a.c_str());
      return usage();
    }
  }
  return run_suite(o);
}

int cmd_worker(const std::vector<std::string>& args) {
  WorkerOptions o;
  for (size_t i = 1; i < args.size(); ++i) {
    std::string v;
    if (args[i] == "--plugin") {
      if (!take_value(args, i, v)) return 2;
      o.plugin = v;
    } else if (args[i] == "--seed") {
      if (!take_value(args, i, v)) return 2;
      std::optional<uint64_t> seed = parse_u64_option(args[i - 1], v);
      if (!seed) return 2;
      o.seed = *seed;
    } else {
      return usage();
    }
  }
  return worker_main(o);
}

/// The cases `list` and `show` see: those of --target T (a built-in name or a JSON file),
/// of an offline name "plugin@target" (what a run compiles for it), or of --device D (the
/// first device when neither is given).
struct Listing {
  std::vector<CaseSpec> cases;
  std::string device;  ///< what --device in a reproduce command names ("" for --target)
};

Result<Listing> listing_for(const std::string& device, const std::string& target) {
  Listing out;
  if (!target.empty()) {
    TargetDescription t;
    if (file_exists(target)) {
      TG_ASSIGN_OR_RETURN(std::string text, read_file(target));
      TG_ASSIGN_OR_RETURN(t, parse_target(text, target));
    } else {
      TG_ASSIGN_OR_RETURN(t, builtin_target(target));
    }
    out.cases = build_suite(t);
    return out;
  }
  TG_ASSIGN_OR_RETURN(Runtime rt, Runtime::open());
  if (size_t at = device.find('@'); at != std::string::npos) {
    std::string plugin = device.substr(0, at), name = device.substr(at + 1);
    std::string known;
    bool loaded = false;
    for (size_t i = 0; i < tegula_runtime_plugin_count(rt.handle()); ++i) {
      tegula_plugin_info p;
      std::memset(&p, 0, sizeof p);
      p.struct_size = sizeof p;
      if (tegula_error* e = tegula_runtime_get_plugin(rt.handle(), i, &p)) {
        tegula_error_free(e);
        continue;
      }
      known += (known.empty() ? "" : ", ") + std::string(p.name);
      loaded = loaded || plugin == p.name;
    }
    if (!loaded)
      return error(ErrorCode::NotFound, "'" + device + "': no plugin '" + plugin + "' is loaded (" + (known.empty() ? "none is" : known) + ")");
    Result<TargetDescription> t = builtin_target(name);
    if (!t.is_ok()) return error(ErrorCode::NotFound, "'" + device + "': " + t.status().message());
    out.cases = build_offline_suite(*t);
    out.device = device;
    return out;
  }
  Result<Device> d = device.empty() ? (rt.devices().empty() ? Result<Device>(error(ErrorCode::NotFound, "no devices"))
                                                            : Result<Device>(rt.devices()[0]))
                                    : rt.find_device(device);
  TG_RETURN_IF_ERROR(d.status());
  TG_ASSIGN_OR_RETURN(std::string json, d->target_json());
  TG_ASSIGN_OR_RETURN(TargetDescription t, parse_target(json, "target"));
  out.cases = build_suite(t);
  TG_ASSIGN_OR_RETURN(DeviceInfo info, d->info());
  out.device = info.name;
  return out;
}

int cmd_list(const std::vector<std::string>& args) {
  std::string device, target, filter;
  bool quick = false;
  for (size_t i = 1; i < args.size(); ++i) {
    if (args[i] == "--device") {
      if (!take_value(args, i, device)) return 2;
    } else if (args[i] == "--target") {
      if (!take_value(args, i, target)) return 2;
    } else if (args[i] == "--filter") {
      if (!take_value(args, i, filter)) return 2;
    } else if (args[i] == "--quick") {
      quick = true;
    } else {
      return usage();
    }
  }
  Result<Listing> l = listing_for(device, target);
  if (!l.is_ok()) {
    std::fprintf(stderr, "tegula conformance list: %s\n", l.status().message().c_str());
    return 1;
  }
  for (const CaseSpec& c : select_cases(l->cases, quick, Filter(filter)))
    std::printf("%s%s\n", c.name.c_str(), c.unsupported.empty() ? "" : ("  (NotSupported: " + c.unsupported + ")").c_str());
  return 0;
}

/// `show CASE`: the case's kernel as a .tile file (its facts as comments), and the command
/// that runs it again.
int cmd_show(const std::vector<std::string>& args) {
  std::string device, target, name;
  for (size_t i = 1; i < args.size(); ++i) {
    if (args[i] == "--device") {
      if (!take_value(args, i, device)) return 2;
    } else if (args[i] == "--target") {
      if (!take_value(args, i, target)) return 2;
    } else if (args[i].rfind("--", 0) == 0 || !name.empty()) {
      return usage();
    } else {
      name = args[i];
    }
  }
  if (name.empty()) return usage();
  Result<Listing> l = listing_for(device, target);
  if (!l.is_ok()) {
    std::fprintf(stderr, "tegula conformance show: %s\n", l.status().message().c_str());
    return 1;
  }
  const CaseSpec* found = nullptr;
  for (const CaseSpec& c : l->cases)
    if (c.name == name) found = &c;
  if (!found) {
    std::fprintf(stderr, "tegula conformance show: no case '%s' (tegula conformance list%s%s shows the cases)\n", name.c_str(),
                 device.empty() ? "" : (" --device " + device).c_str(), target.empty() ? "" : (" --target " + target).c_str());
    return 1;
  }
  std::string where = !l->device.empty() ? l->device : "target " + target;
  std::string launch;
  for (const auto& [symbol, value] : found->symbols) launch += (launch.empty() ? "" : " ") + symbol + "=" + std::to_string(value);
  std::printf("// conformance case %s (report row \"%s\"), for %s\n", found->name.c_str(), found->row.c_str(), where.c_str());
  if (!launch.empty()) std::printf("// shape symbols: %s\n", launch.c_str());
  if (!found->unsupported.empty()) std::printf("// NotSupported there: %s\n", found->unsupported.c_str());
  std::printf("%s%s", found->kernel.c_str(), !found->kernel.empty() && found->kernel.back() == '\n' ? "" : "\n");
  std::string run_on = l->device.empty() ? "" : " --device '" + l->device + "'";
  std::printf("// reproduce: tegula conformance%s --filter '%s'\n", run_on.c_str(), found->name.c_str());
  return 0;
}

int cmd_keygen(const std::vector<std::string>& args) {
  if (args.size() != 2) return usage();
  Result<std::string> pub = generate_signing_key(args[1]);
  if (!pub.is_ok()) {
    std::fprintf(stderr, "tegula conformance keygen: %s\n", pub.status().message().c_str());
    return 1;
  }
  std::printf("secret key %s (keep it private), public key %s.pub: %s\n", args[1].c_str(), args[1].c_str(), pub->c_str());
  return 0;
}

int cmd_verify(const std::vector<std::string>& args) {
  std::string path, trust;
  bool libraries = true;
  int recheck = 0;
  std::string recheck_seed;
  for (size_t i = 1; i < args.size(); ++i) {
    std::string v;
    if (args[i] == "--no-library-check") {
      libraries = false;
    } else if (args[i] == "--trust") {
      if (!take_value(args, i, trust)) return 2;
    } else if (args[i] == "--recheck-seed") {
      if (!take_value(args, i, v)) return 2;
      if (v.empty()) {
        std::fprintf(stderr, "tegula conformance verify: --recheck-seed needs a non-empty value\n");
        return 2;
      }
      recheck_seed = v;
    } else if (args[i] == "--recheck") {
      if (!take_value(args, i, v)) return 2;
      std::optional<int64_t> n = parse_int_option(args[i - 1], v, 0, 1000000);
      if (!n) return 2;
      recheck = int(*n);
    } else if (args[i].rfind("--", 0) == 0) {
      std::fprintf(stderr, "tegula conformance verify: unknown option '%s'\n", args[i].c_str());
      return usage();
    } else if (path.empty()) {
      path = args[i];
    } else {
      return usage();
    }
  }
  if (path.empty()) return usage();
  if (file_exists(path + "/report.json")) path += "/report.json";  // the bundle's folder
  VerifyOutcome v = verify_report(path, libraries, recheck, recheck_seed);
  size_t slash = path.rfind('/');
  verify_bundle_signature(slash == std::string::npos ? "." : path.substr(0, slash), trust, v);
  for (const std::string& n : v.notes) std::fprintf(stderr, "note: %s\n", n.c_str());
  for (const std::string& e : v.errors) std::fprintf(stderr, "error: %s\n", e.c_str());
  std::printf("%s: %s\n", path.c_str(), v.ok() ? "verified" : "REJECTED");
  return v.ok() ? 0 : 1;
}

/// `render BUNDLE`: report.html written again from report.json, as this build renders it.
/// verify accepts only the page the JSON renders to, so a bundle made before the page last
/// changed needs this; a signed bundle is refused (its signature covers the old page).
int cmd_render(const std::vector<std::string>& args) {
  if (args.size() != 2 || args[1].rfind("--", 0) == 0) return usage();
  std::string dir = args[1];
  if (dir.size() > 12 && dir.compare(dir.size() - 12, 12, "/report.json") == 0) dir.resize(dir.size() - 12);
  if (file_exists(dir + "/signature.json")) {
    std::fprintf(stderr, "tegula conformance render: %s is signed: a new page would not match its signature (sign it again)\n",
                 dir.c_str());
    return 1;
  }
  Result<std::string> text = read_file(dir + "/report.json");
  Result<Json> report = text.is_ok() ? Json::parse(*text, dir + "/report.json") : Result<Json>(text.status());
  if (!report.is_ok()) {
    std::fprintf(stderr, "tegula conformance render: %s\n", report.status().message().c_str());
    return 1;
  }
  if (Status st = write_file_atomic(dir + "/report.html", render_html(*report)); !st.is_ok()) {
    std::fprintf(stderr, "tegula conformance render: %s\n", st.message().c_str());
    return 1;
  }
  std::printf("%s/report.html: rendered from %s/report.json\n", dir.c_str(), dir.c_str());
  return 0;
}

}  // namespace

int cli_main(const std::vector<std::string>& args) {
  if (!args.empty() && args[0] == "--worker") return cmd_worker(args);
  // Help anywhere (`list --help` too) is help, on stdout.
  for (const std::string& a : args)
    if (a == "--help" || a == "-h" || args[0] == "help") {
      print_usage(stdout);
      return 0;
    }
  if (!args.empty()) {
    if (args[0] == "list") return cmd_list(args);
    if (args[0] == "show") return cmd_show(args);
    if (args[0] == "verify") return cmd_verify(args);
    if (args[0] == "render") return cmd_render(args);
    if (args[0] == "keygen") return cmd_keygen(args);
  }
  return cmd_run(args);
}

}  // namespace tegula::conformance
