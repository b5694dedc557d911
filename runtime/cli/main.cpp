// tegula: the command-line front end.
//
//   tegula check [--strict] FILE...      parse and verify; errors as file:line:column, and
//                                        writes that blocks may share (warnings)
//   tegula print FILE                    print the kernel in canonical form
//   tegula signature FILE                its parameters, dtypes, shapes, launch order
//   tegula run FILE [--device D] [--bind M=..,N=..] [--seed S] [--input/--output N=F] ...
//                                        run on a device with seeded random or given inputs,
//                                        and compare the outputs with the example's direct
//                                        computation or the reference device
//   tegula devices                       the devices the plugins offer
//   tegula plugins                       the plugins loaded, and those skipped with why
//   tegula targets [NAME] [--device D]   built-in target descriptions, or a device's own
//   tegula lower FILE --target T [--after PASS] [--explain]
//                                        what a kernel becomes for a target, and why
//   tegula optimizations [--target T] [--json]
//                                        which optimizations the lowering applies on each
//                                        target, each cell computed (ir/lower/optimizations/)
//   tegula spec "C[m,n] += A[m,k] * B[k,n]" --dtypes A=bf16,...
//                                        a kernel with tunables from an algebraic spec
//   tegula conformance ...               the conformance suite: runs tegula-conformance,
//                                        installed beside tegula (conformance/README.md)
//
// Every command answers --help on stdout (runtime/cli/Usage.cpp holds the texts).
#include <cstdio>
#include <new>
#include <string>
#include <vector>

#include "core/Files.h"
#include "ir/BlockRaces.h"
#include "ir/Parser.h"
#include "ir/Printer.h"
#include "runtime/cli/Cli.h"
#include "runtime/cli/Tunable.h"
#include "tegula/tegula.h"

using namespace tegula;


namespace {

/// A file's kernel; with tunables, the first candidate the verifier accepts, after every
/// candidate was verified (*summary says how many were, and why the first other was not).
Result<ir::Kernel> load_kernel(const std::string& path, const std::string& tune_text, std::string* summary) {
  TG_ASSIGN_OR_RETURN(std::string text, read_file(path, kMaxSourceBytes));
  ir::TuneSpace space;
  TG_ASSIGN_OR_RETURN(ir::Kernel k, cli::parse_cli_kernel(text, path, tune_text, &space));
  if (space.empty() || !tune_text.empty()) return k;
  std::vector<ir::RejectedBinding> rejected;
  TG_ASSIGN_OR_RETURN(std::vector<ir::Binding> bindings, ir::enumerate_bindings(space, &rejected));
  size_t verified = 0;
  std::string first_refusal;
  for (const ir::Binding& b : bindings) {
    Result<ir::Kernel> instance = ir::parse_and_verify(text, path, &b);
    if (instance.is_ok()) ++verified;
    else if (first_refusal.empty()) first_refusal = ir::binding_text(b) + ": " + instance.status().str();
  }
  *summary = std::to_string(space.tunables.size()) + " tunables, " + std::to_string(verified) + " of " +
             std::to_string(space.size()) + " candidates verify";
  if (!rejected.empty()) *summary += ", " + std::to_string(rejected.size()) + " break where conditions";
  if (!first_refusal.empty()) *summary += "; first refused: " + first_refusal;
  return k;
}

int cmd_check(const std::vector<std::string>& args) {
  // --strict: a write that blocks may share (a race between blocks) is an error, not a warning.
  bool strict = false;
  std::vector<std::string> files;
  for (const std::string& a : args) {
    if (a == "--strict") {
      strict = true;
      continue;
    }
    if (a.size() > 1 && a[0] == '-') {
      std::fprintf(stderr, "tegula check: unknown option '%s'\n", a.c_str());
      return cli::command_usage("check");
    }
    files.push_back(a);
  }
  if (files.empty()) return cli::command_usage("check");
  int failures = 0;
  for (const std::string& f : files) {
    std::string tunables;
    auto k = load_kernel(f, "", &tunables);
    if (!k.is_ok()) {
      std::fprintf(stderr, "%s\n", k.status().str().c_str());
      ++failures;
      continue;
    }
    std::vector<ir::BlockRace> races = ir::find_block_races(*k);
    for (const ir::BlockRace& r : races)
      std::fprintf(stderr, "%s: %s: %s\n", r.loc.known() ? r.loc.str().c_str() : f.c_str(), strict ? "error" : "warning",
                   r.message.c_str());
    if (strict && !races.empty()) {
      ++failures;
      continue;
    }
    std::printf("%s: ok (kernel %s%s)%s\n", f.c_str(), k->name.c_str(), tunables.empty() ? "" : ("; " + tunables).c_str(),
                races.empty() ? "" : (", " + std::to_string(races.size()) + " warning" + (races.size() == 1 ? "" : "s")).c_str());
  }
  return failures ? 1 : 0;
}

int cmd_print(const std::vector<std::string>& args) {
  std::string file, tune_text;
  for (size_t i = 0; i < args.size(); ++i) {
    if (args[i] == "--tune") {
      auto v = cli::option_value(args, i);
      if (!v.is_ok()) return cli::fail("print", v.status(), 2);
      tune_text = *v;
    } else if (!file.empty() || args[i].rfind("--", 0) == 0) {
      return cli::command_usage("print");
    } else {
      file = args[i];
    }
  }
  if (file.empty()) return cli::command_usage("print");
  auto text = read_file(file, kMaxSourceBytes);
  if (!text.is_ok()) return cli::fail("print", text.status());
  ir::TuneSpace space;
  auto k = cli::parse_cli_kernel(*text, file, tune_text, &space);
  if (!k.is_ok()) {
    std::fprintf(stderr, "%s\n", k.status().str().c_str());
    return 1;
  }
  // A kernel with tunables prints as one instance: the tunables and their values first.
  if (!space.empty()) {
    std::printf("// tunables:");
    for (const ir::Tunable& t : space.tunables) {
      std::printf(" %s in [", t.name.c_str());
      for (size_t i = 0; i < t.values.size(); ++i) std::printf("%s%lld", i ? ", " : "", (long long)t.values[i]);
      std::printf("]");
    }
    ir::Binding b;
    if (!tune_text.empty()) b = *ir::parse_binding(tune_text, space);
    std::printf("\n// instance%s\n", tune_text.empty() ? " (the first candidate that verifies; --tune picks one)"
                                                        : (": " + ir::binding_text(b)).c_str());
  }
  std::fputs(ir::print_kernel(*k).c_str(), stdout);
  return 0;
}

}  // namespace

static int run_command(int argc, char** argv) {
  if (argc < 2) return cli::usage();
  std::string cmd = argv[1];
  std::vector<std::string> args(argv + 2, argv + argc);
  if (cmd == "--help" || cmd == "-h" || cmd == "help") return cli::top_help();
  if (cmd == "--version") {
    std::printf("tegula %s\n", tegula_version());
    return 0;
  }
  // tegula-conformance answers its own --help (it has subcommands of its own).
  if (cmd != "conformance" && cli::asks_for_help(args)) return cli::command_help(cmd);
  if (cmd == "check") return cmd_check(args);
  if (cmd == "print") return cmd_print(args);
  if (cmd == "signature") return cli::cmd_signature(args);
  if (cmd == "run") return cli::cmd_run(args);
  if (cmd == "devices") return cli::cmd_devices(args);
  if (cmd == "plugins") return cli::cmd_plugins(args);
  if (cmd == "targets") return cli::cmd_targets(args);
  if (cmd == "lower") return cli::cmd_lower(args);
  if (cmd == "tune") return cli::cmd_tune(args);
  if (cmd == "optimizations") return cli::cmd_optimizations(args);
  if (cmd == "spec") return cli::cmd_spec(args);
  if (cmd == "conformance") return cli::cmd_conformance(args);
  std::fprintf(stderr, "tegula: unknown command '%s'\n", cmd.c_str());
  return cli::usage();
}

int main(int argc, char** argv) {
  // Nothing in tegula throws, but the standard library does when memory runs out; that is
  // an error message and exit status 1, not an abort with a core dump.
  try {
    return run_command(argc, argv);
  } catch (const std::bad_alloc&) {
    std::fputs("tegula: out of memory\n", stderr);
    return 1;
  }
}
