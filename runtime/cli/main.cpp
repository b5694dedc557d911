// tegula: the command-line front end.
//
//   tegula check FILE...                 parse and verify; errors as file:line:column
//   tegula print FILE                    print the kernel in canonical form
//   tegula run FILE [--device D] [--bind M=..,N=..] [--seed S]
//                                        run with seeded random inputs and compare the
//                                        outputs with the example's direct computation
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "core/Files.h"
#include "examples/checks/Checks.h"
#include "ir/Interpreter.h"
#include "ir/Parser.h"
#include "ir/Printer.h"

using namespace tegula;

namespace {

int usage() {
  std::fprintf(stderr,
               "usage: tegula <command> [args]\n"
               "  check FILE...                       parse and verify kernels\n"
               "  print FILE                          print a kernel in canonical form\n"
               "  run FILE [--device D] [--bind M=..,N=..] [--seed S]\n"
               "                                      run with random inputs and check the outputs\n");
  return 2;
}

Result<ir::Kernel> load_kernel(const std::string& path) {
  TG_ASSIGN_OR_RETURN(std::string text, read_file(path));
  return ir::parse_and_verify(text, path);
}

int cmd_check(const std::vector<std::string>& files) {
  if (files.empty()) return usage();
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
  if (args.size() != 1) return usage();
  auto k = load_kernel(args[0]);
  if (!k.is_ok()) {
    std::fprintf(stderr, "%s\n", k.status().str().c_str());
    return 1;
  }
  std::fputs(ir::print_kernel(*k).c_str(), stdout);
  return 0;
}

int cmd_run(const std::vector<std::string>& args) {
  std::string file, device = "reference", bind_text;
  uint64_t seed = 1;
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    bool has_value = i + 1 < args.size();
    if (a == "--device" && has_value) {
      device = args[++i];
    } else if (a == "--bind" && has_value) {
      bind_text += (bind_text.empty() ? "" : ",") + args[++i];
    } else if (a == "--seed" && has_value) {
      seed = std::strtoull(args[++i].c_str(), nullptr, 10);
    } else if (a.rfind("--", 0) == 0) {
      std::fprintf(stderr, "tegula run: unknown option '%s'\n", a.c_str());
      return 2;
    } else if (file.empty()) {
      file = a;
    } else {
      return usage();
    }
  }
  if (file.empty()) return usage();
  if (device != "reference" && device != "reference:0") {
    std::fprintf(stderr, "tegula run: unknown device '%s'\n", device.c_str());
    return 1;
  }
  auto k = load_kernel(file);
  if (!k.is_ok()) {
    std::fprintf(stderr, "%s\n", k.status().str().c_str());
    return 1;
  }
  auto bindings = examples::parse_bindings(bind_text);
  if (!bindings.is_ok()) {
    std::fprintf(stderr, "tegula run: %s\n", bindings.status().message().c_str());
    return 2;
  }
  auto data = examples::make_launch_data(*k, *bindings, seed);
  if (!data.is_ok()) {
    std::fprintf(stderr, "tegula run: %s\n", data.status().message().c_str());
    return 1;
  }
  std::vector<ir::Arg> iargs = examples::interpreter_args(*k, *data);
  Status st = ir::interpret(*k, iargs);
  if (!st.is_ok()) {
    std::fprintf(stderr, "%s\n", st.str().c_str());
    return 1;
  }
  std::printf("ran %s on %s (seed %llu)\n", k->name.c_str(), device.c_str(), (unsigned long long)seed);
  if (!examples::has_direct_computation(*k)) {
    std::printf("no direct computation to compare with\n");
    return 0;
  }
  auto check = examples::check_outputs(*k, *data);
  if (!check.is_ok()) {
    std::fprintf(stderr, "tegula run: %s\n", check.status().message().c_str());
    return 1;
  }
  std::fputs(examples::format_check(*check).c_str(), stdout);
  return check->passed ? 0 : 1;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) return usage();
  std::string cmd = argv[1];
  std::vector<std::string> args(argv + 2, argv + argc);
  if (cmd == "check") return cmd_check(args);
  if (cmd == "print") return cmd_print(args);
  if (cmd == "run") return cmd_run(args);
  if (cmd == "--help" || cmd == "-h" || cmd == "help") {
    usage();
    return 0;
  }
  std::fprintf(stderr, "tegula: unknown command '%s'\n", cmd.c_str());
  return usage();
}
