// TEGULA_LOADER_DEBUG=1 logs, on stderr with the prefix "tegula loader: ", every path
// searched, every manifest found and every refusal with its reason; without it the loader
// is silent.
#include <doctest/doctest.h>

#include "runtime/tests/TestSupport.h"

namespace loader_debug_log_test {

using namespace tegula::testing;

TEST_CASE("the debug log shows paths, manifests and refusals") {
  std::string dir = scratch_dir("loader_debug");
  write_manifest(dir, "ghost", "libghost.so");
  std::string out;
  // stderr only: the subshell sends stdout away, run_command collects the rest.
  int rc = run_command("(env -u TEGULA_PLUGINS TEGULA_CACHE_DIR=off TEGULA_LOADER_DEBUG=1 TEGULA_ADD_PLUGINS=" + dir +
                           " TEGULA_DISABLE_PLUGINS=null " + tegula_exe() + " devices >/dev/null)",
                       &out);
  CHECK(rc == 0);
  CHECK(out.find("tegula loader: searching " + dir + " (TEGULA_ADD_PLUGINS)\n") != std::string::npos);
  CHECK(out.find("(next to the executable)\n") != std::string::npos);
  CHECK(out.find("(install prefix)") != std::string::npos);
  CHECK(out.find("(XDG_DATA_DIRS") != std::string::npos);
  CHECK(out.find("tegula loader: found manifest " + dir + "/ghost.json: plugin 'ghost'") != std::string::npos);
  CHECK(out.find("tegula loader: refusing plugin 'ghost' (" + dir + "/ghost.json): library " + dir +
                 "/libghost.so not found") != std::string::npos);
  CHECK(out.find("plugin 'null' disabled (disable globs \"null\")") != std::string::npos);
  CHECK(out.find("tegula loader: plugin 'reference': negotiated ABI 1") != std::string::npos);
  // Every line carries the prefix (the CLI's own notes aside).
  size_t start = 0;
  while (start < out.size()) {
    size_t end = out.find('\n', start);
    std::string line = out.substr(start, end - start);
    if (line.rfind("note:", 0) != 0) CHECK(line.rfind("tegula loader: ", 0) == 0);
    start = end + 1;
  }
}

TEST_CASE("without the variable the loader is silent") {
  std::string out;
  int rc = run_command("(env -u TEGULA_LOADER_DEBUG -u TEGULA_PLUGINS TEGULA_CACHE_DIR=off TEGULA_ADD_PLUGINS=/nonexistent " +
                           tegula_exe() + " devices >/dev/null)",
                       &out);
  CHECK(rc == 0);
  CHECK(out == "");
}

}  // namespace loader_debug_log_test
