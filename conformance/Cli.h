/// \file
/// The `tegula conformance` command line: the tegula-conformance executable (main.cpp),
/// which `tegula conformance` runs (runtime/cli/Conformance.cpp).
///
///   tegula conformance [--device D]... [--filter GLOBS] [--out DIR] [--jobs N]
///                      [--timeout S] [--seed N] [--strict] [--quick] [--no-offline]
///                      [--expectations DIR] [--quiet]
///   tegula conformance list [--device D | --target T] [--filter GLOBS] [--quick]
///   tegula conformance show CASE [--device D | --target T]
///   tegula conformance verify REPORT [--no-library-check] [--recheck N]
#pragma once

#include <string>
#include <vector>

namespace tegula::conformance {

/// `args` are the words after "conformance". Returns the process exit status.
int cli_main(const std::vector<std::string>& args);

}  // namespace tegula::conformance
