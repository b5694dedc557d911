/// \file
/// `tegula conformance ...`: the conformance suite is its own executable, tegula-conformance,
/// built in conformance/ and installed beside tegula, so the runtime (and its CLI) never
/// links the suite that tests it. This command replaces the process with
/// <this executable's folder>/tegula-conformance and the same arguments.
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>

#include "runtime/Env.h"
#include "runtime/cli/Cli.h"

namespace tegula::cli {

int cmd_conformance(const std::vector<std::string>& args) {
  std::string dir = runtime::executable_dir();
  if (dir.empty()) {
    std::fprintf(stderr, "tegula conformance: cannot tell where this executable is (/proc/self/exe), "
                         "so cannot find tegula-conformance beside it\n");
    return 127;
  }
  std::string exe = dir + "/tegula-conformance";
  std::vector<char*> argv;
  argv.push_back(exe.data());
  std::vector<std::string> words = args;
  for (std::string& w : words) argv.push_back(w.data());
  argv.push_back(nullptr);
  ::execv(exe.c_str(), argv.data());
  int err = errno;  // execv returns only on failure
  std::fprintf(stderr,
               "tegula conformance: cannot run %s: %s (the conformance suite is built in conformance/ and "
               "installed beside tegula)\n",
               exe.c_str(), std::strerror(err));
  return 127;
}

}  // namespace tegula::cli
