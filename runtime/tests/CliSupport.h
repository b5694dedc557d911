// Running the built tegula CLI from a test: only the build tree's reference plugin is
// loaded (TEGULA_PLUGINS), no compile cache, the caller's filters cleared.
#pragma once

#include <string>

#include "runtime/tests/TestSupport.h"

namespace tegula::testing {

inline std::string cli_env(const std::string& env) {
  return "env -u TEGULA_PLUGINS -u TEGULA_ADD_PLUGINS -u TEGULA_SELECT_PLUGINS -u TEGULA_DISABLE_PLUGINS "
         "TEGULA_CACHE_DIR=off TEGULA_PLUGINS=" + reference_manifest() + " " + env + " ";
}

/// stdout and stderr together.
inline std::string tegula_cli(const std::string& args, int* rc, const std::string& env = "") {
  std::string out;
  *rc = run_command(cli_env(env) + tegula_exe() + " " + args, &out);
  return out;
}

/// stdout alone.
inline std::string tegula_cli_stdout(const std::string& args, int* rc, const std::string& env = "") {
  std::string out;
  *rc = run_command("(" + cli_env(env) + tegula_exe() + " " + args + " 2>/dev/null)", &out);
  return out;
}

}  // namespace tegula::testing
