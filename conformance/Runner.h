/// \file
/// `tegula conformance` itself: find the devices (through a worker), build each device's
/// cases from its target description, probe which plugins compile offline for which
/// built-in targets, run everything on worker processes with a watchdog, apply the
/// plugins' expectation lists and write the report bundle.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace tegula::conformance {

struct RunOptions {
  std::vector<std::string> devices;  ///< --device (repeatable or comma-separated); empty: every device
  std::string filter;                ///< --filter globs
  std::string out_dir;               ///< --out; "" makes tegula-conformance-<date> here
  int jobs = 0;                      ///< --jobs; 0: the number of CPUs (at most 4 for a GPU)
  double timeout_s = 60;             ///< --timeout per case
  uint64_t seed = 1234;
  bool strict = false;
  bool quick = false;
  bool offline = true;               ///< --no-offline turns CompileOnly targets off
  std::string expectations_dir;      ///< --expectations; "" finds the installed lists
  std::vector<std::string> command_line;
  bool quiet = false;
};

/// Runs the suite and writes the report; returns the exit status (0 conformant, 1 not,
/// 2 when the run itself could not be done).
int run_suite(const RunOptions& options);

/// The default expectations folder: <exe>/../share/tegula/conformance/expectations.
std::string default_expectations_dir();

}  // namespace tegula::conformance
