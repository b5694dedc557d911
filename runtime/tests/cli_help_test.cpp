// The CLI a person meets: every command answers --help on stdout with exit 0, `tegula
// --version` exists, and the top-level usage lists every command and option.
#include <doctest/doctest.h>

#include "runtime/tests/CliSupport.h"

namespace cli_help_test {

using namespace tegula::testing;

TEST_CASE("every command answers --help and -h on stdout") {
  for (const char* cmd : {"check", "print", "signature", "run", "devices", "plugins", "targets", "lower", "tune", "spec",
                          "optimizations", "conformance"}) {
    for (const char* flag : {"--help", "-h"}) {
      CAPTURE(cmd);
      CAPTURE(flag);
      int rc = -1;
      std::string out = tegula_cli_stdout(std::string(cmd) + " " + flag, &rc);
      CHECK(rc == 0);
      CHECK(out.find("usage: tegula") != std::string::npos);
      CHECK(out.find(cmd) != std::string::npos);
    }
  }
}

TEST_CASE("--help after other arguments is still help, not a file named --help") {
  int rc = -1;
  std::string out = tegula_cli_stdout("check a.tile --help", &rc);
  CHECK(rc == 0);
  CHECK(out.find("usage: tegula check") != std::string::npos);
  out = tegula_cli_stdout("run " + example("elementwise/silu_mul.tile") + " --bind N=8 --help", &rc);
  CHECK(rc == 0);
  CHECK(out.find("--input NAME=FILE") != std::string::npos);
  out = tegula_cli_stdout("conformance list --help", &rc);
  CHECK(rc == 0);
  CHECK(out.find("usage: tegula conformance") != std::string::npos);
}

TEST_CASE("tegula --version") {
  int rc = -1;
  std::string out = tegula_cli_stdout("--version", &rc);
  CHECK(rc == 0);
  CHECK(out == std::string("tegula ") + tegula_version() + "\n");
}

TEST_CASE("the top-level usage lists every command and option") {
  int rc = -1;
  std::string help = tegula_cli_stdout("--help", &rc);
  CHECK(rc == 0);
  for (const char* word : {"check", "print", "signature", "run", "devices", "plugins", "targets", "lower", "tune", "spec",
                           "optimizations", "--json", "--kernel", "--description", "conformance list",
                           "conformance verify", "--filter", "--assume", "--raster", "--after", "--explain", "--bind",
                           "--seed", "--input", "--output", "--print", "--repeat", "--check-against", "--version",
                           "TEGULA_DISABLE_PLUGINS"}) {
    CAPTURE(word);
    CHECK(help.find(word) != std::string::npos);
  }
  // Without a command it is a mistake: the same usage on stderr, exit 2.
  std::string out = tegula_cli_stdout("", &rc);
  CHECK(rc == 2);
  CHECK(out.empty());
  out = tegula_cli("nonsense --help", &rc);
  CHECK(rc == 2);
  CHECK(out.find("unknown command 'nonsense'") != std::string::npos);
}

}  // namespace cli_help_test
