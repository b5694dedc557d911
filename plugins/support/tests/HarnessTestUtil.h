/// \file
/// Paths for the harness's own tests: the reference plugin and the runtime tests' broken
/// plugins (runtime/tests/plugins), all in the build tree's lib/.
#pragma once

#include <string>

namespace tegula::plugin_testing::testing {

inline std::string library(const std::string& plugin) {
  return std::string(TEGULA_BINARY_DIR) + "/lib/libtegula_" + plugin + ".so";
}

}  // namespace tegula::plugin_testing::testing
