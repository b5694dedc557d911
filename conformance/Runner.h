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
  double discovery_timeout_s = 120;  ///< --discovery-timeout: loading one plugin and listing its devices
  uint64_t seed = 1234;
  bool strict = false;
  bool quick = false;
  bool offline = true;               ///< --no-offline turns CompileOnly targets off
  std::string expectations_dir;      ///< --expectations; "" finds the installed lists
  std::vector<std::string> command_line;
  std::string sign_key;              ///< --sign-key: sign the bundle with this Ed25519 secret key file
  bool quiet = false;                ///< no progress lines (failures are still listed)
  bool perf = false;                 ///< --perf: measure each device's performance figures (conformance/perf/)
  std::string perf_filter;           ///< --perf-filter: globs over figure names ("" for all)
  std::string perf_baseline;         ///< --perf-baseline: an earlier bundle to report drift against
};

/// Runs the suite and writes the report; returns the exit status (0 conformant, 1 not,
/// 2 when the run itself could not be done).
int run_suite(const RunOptions& options);

/// One device's cases, run on worker processes exactly as a suite run does (verify's
/// re-checks use it too).
struct DeviceCall {
  std::string device;  ///< "reference:0", or "<plugin>@<target>" for offline compilation
  std::string plugin;
  bool offline = false;
  std::string offline_target;
  int workers = 1;
  double timeout_s = 60;
  uint64_t seed = 1234;
  std::string log_prefix;  ///< worker logs go to <log_prefix>.w<N>.log
  bool quiet = true;       ///< no progress lines
};

struct CaseSpec;
struct Record;
/// One record per case, in order (NotSupported cases are not sent to a worker).
std::vector<Record> run_device_cases(const DeviceCall& call, const std::vector<CaseSpec>& cases);

/// A name as a file name: what is not a letter, digit, '-' or '.' becomes '_'. A device's
/// worker logs are logs/<safe_name(device)>.w<N>.log in the bundle.
std::string safe_name(const std::string& s);

/// The default expectations folder: <exe>/../share/tegula/conformance/expectations.
std::string default_expectations_dir();

}  // namespace tegula::conformance
