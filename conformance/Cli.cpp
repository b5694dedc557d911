#include "conformance/Cli.h"

#include <cstdio>
#include <cstdlib>
#include <optional>
#include <string>
#include <vector>

#include "conformance/CliNumbers.h"
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
               "       tegula conformance verify REPORT [--trust PUBKEY] [--no-library-check] [--recheck N [--recheck-seed S]]\n"
               "       tegula conformance keygen FILE      an Ed25519 key pair: FILE (secret) and FILE.pub\n"
               "options:\n"
               "  --device D         a device (\"reference:0\"), a plugin's devices (\"cuda\"), or an offline\n"
               "                     target (\"cuda@sm_100a\"); repeatable\n"
               "  --filter GLOBS     comma-separated case globs; a leading '-' excludes\n"
               "  --out DIR          where the report goes (default: ./tegula-conformance-<date>)\n"
               "  --jobs N           worker processes per device (default: the number of CPUs)\n"
               "  --timeout S        seconds a case may take before it is a Timeout (default 60)\n"
               "  --discovery-timeout S  seconds one plugin may take to load and list its devices (default 120)\n"
               "  --seed N           the seed every input derives from (default 1234)\n"
               "  --strict           also fail on unexpected passes and stale expectation entries\n"
               "  --quick            a few cases per primitive (development; not for certification)\n"
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
  std::string json;
  if (!target.empty()) {
    Result<TargetDescription> t = file_exists(target) ? [&]() -> Result<TargetDescription> {
      TG_ASSIGN_OR_RETURN(std::string text, read_file(target));
      return parse_target(text, target);
    }()
                                                      : builtin_target(target);
    if (!t.is_ok()) {
      std::fprintf(stderr, "tegula conformance list: %s\n", t.status().message().c_str());
      return 1;
    }
    json = t->canonical_json;
  } else {
    auto rt = Runtime::open();
    if (!rt.is_ok()) {
      std::fprintf(stderr, "tegula conformance list: %s\n", rt.status().message().c_str());
      return 1;
    }
    auto d = device.empty() ? (rt->devices().empty() ? Result<Device>(error(ErrorCode::NotFound, "no devices")) : Result<Device>(rt->devices()[0]))
                            : rt->find_device(device);
    if (!d.is_ok()) {
      std::fprintf(stderr, "tegula conformance list: %s\n", d.status().message().c_str());
      return 1;
    }
    auto j = d->target_json();
    if (!j.is_ok()) {
      std::fprintf(stderr, "tegula conformance list: %s\n", j.status().message().c_str());
      return 1;
    }
    json = *j;
  }
  Result<TargetDescription> t = parse_target(json, "target");
  if (!t.is_ok()) return 1;
  std::vector<CaseSpec> all = build_suite(*t);
  for (const CaseSpec& c : select_cases(all, quick, Filter(filter)))
    std::printf("%s%s\n", c.name.c_str(), c.unsupported.empty() ? "" : ("  (NotSupported: " + c.unsupported + ")").c_str());
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
    if (args[0] == "verify") return cmd_verify(args);
    if (args[0] == "keygen") return cmd_keygen(args);
  }
  return cmd_run(args);
}

}  // namespace tegula::conformance
