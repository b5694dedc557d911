// tegula-conformance: the conformance suite's executable. `tegula conformance ARGS` runs
// `tegula-conformance ARGS` from tegula's folder (runtime/cli/Conformance.cpp), so the
// runtime does not link the suite; the suite's workers are this executable too.
#include <cstdio>
#include <new>
#include <string>
#include <vector>

#include "conformance/Cli.h"

int main(int argc, char** argv) {
  // The standard library throws when memory runs out; report it instead of aborting.
  try {
    return tegula::conformance::cli_main(std::vector<std::string>(argv + 1, argv + argc));
  } catch (const std::bad_alloc&) {
    std::fputs("tegula-conformance: out of memory\n", stderr);
    return 2;
  }
}
