// tegula: the command-line front end.
//
//   tegula check FILE...                 parse and verify; errors as file:line:column
//   tegula print FILE                    print the kernel in canonical form
//   tegula run FILE [--device D] [--bind M=..,N=..] [--seed S]
//                                        run on a device with seeded random inputs and
//                                        compare the outputs with the example's direct
//                                        computation
//   tegula devices                       the devices the plugins offer
//   tegula plugins                       the plugins loaded, and those skipped with why
//   tegula targets [NAME] [--device D]   built-in target descriptions, or a device's own
//   tegula lower FILE --target T [--after PASS] [--explain]
//                                        what a kernel becomes for a target, and why
//   tegula conformance ...               the conformance suite: runs tegula-conformance,
//                                        installed beside tegula (conformance/README.md)
#include <cstdio>
#include <new>
#include <string>
#include <vector>

#include "core/Files.h"
#include "ir/Parser.h"
#include "ir/Printer.h"
#include "runtime/cli/Cli.h"

using namespace tegula;

namespace tegula::cli {

int usage() {
  std::fprintf(stderr,
               "usage: tegula <command> [args]\n"
               "  check FILE...                       parse and verify kernels\n"
               "  print FILE                          print a kernel in canonical form\n"
               "  run FILE [--device D] [--bind M=..,N=..] [--seed S]\n"
               "                                      run with random inputs and check the outputs\n"
               "  devices                             list devices\n"
               "  plugins                             list plugins, and the ones skipped with why\n"
               "  targets [NAME] [--device D]         list or describe target descriptions\n"
               "  lower FILE --target T [--after PASS] [--explain]\n"
               "                                      print the kernel lowered for a target\n"
               "  conformance ...                     run the conformance suite (tegula-conformance)\n"
               "environment: TEGULA_PLUGINS, TEGULA_ADD_PLUGINS, TEGULA_SELECT_PLUGINS,\n"
               "  TEGULA_DISABLE_PLUGINS, TEGULA_LOADER_DEBUG=1, TEGULA_CACHE_DIR (or off)\n");
  return 2;
}

}  // namespace tegula::cli

namespace {

Result<ir::Kernel> load_kernel(const std::string& path) {
  TG_ASSIGN_OR_RETURN(std::string text, read_file(path, kMaxSourceBytes));
  return ir::parse_and_verify(text, path);
}

int cmd_check(const std::vector<std::string>& files) {
  if (files.empty()) return cli::usage();
  int failures = 0;
  for (const std::string& f : files) {
    auto k = load_kernel(f);
    if (!k.is_ok()) {
      std::fprintf(stderr, "%s\n", k.status().str().c_str());
      ++failures;
      continue;
    }
    std::printf("%s: ok (kernel %s)\n", f.c_str(), k->name.c_str());
  }
  return failures ? 1 : 0;
}

int cmd_print(const std::vector<std::string>& args) {
  if (args.size() != 1) return cli::usage();
  auto k = load_kernel(args[0]);
  if (!k.is_ok()) {
    std::fprintf(stderr, "%s\n", k.status().str().c_str());
    return 1;
  }
  std::fputs(ir::print_kernel(*k).c_str(), stdout);
  return 0;
}

}  // namespace

static int run_command(int argc, char** argv) {
  if (argc < 2) return cli::usage();
  std::string cmd = argv[1];
  std::vector<std::string> args(argv + 2, argv + argc);
  if (cmd == "check") return cmd_check(args);
  if (cmd == "print") return cmd_print(args);
  if (cmd == "run") return cli::cmd_run(args);
  if (cmd == "devices") return cli::cmd_devices(args);
  if (cmd == "plugins") return cli::cmd_plugins(args);
  if (cmd == "targets") return cli::cmd_targets(args);
  if (cmd == "lower") return cli::cmd_lower(args);
  if (cmd == "conformance") return cli::cmd_conformance(args);
  if (cmd == "--help" || cmd == "-h" || cmd == "help") {
    cli::usage();
    return 0;
  }
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
