/// \file
/// `tegula conformance verify REPORT`: re-derive everything in a report that can be
/// re-derived, and reject it when anything differs. It checks the integrity hash; the suite
/// version and the tolerance table's hash against this build; every device's target
/// description against its hash, and the case list regenerated from it against the
/// recorded hash; that the records are exactly the selected cases, in order, each with its
/// kernel's hash, its row and shape; that every outcome is possible for its case (NotSupported
/// only where the target does not claim the case, CompileOnly only offline, no Pass with
/// mismatches or errors above the tolerance table); the expected-failure marks against the
/// embedded expectation lists, and that those excuse no failure this build's own list for
/// the plugin (where it ships one) does not; every count and the verdict; the plugin libraries' hashes
/// where the files are present; and report.html against the page the report renders to.
///
/// What it cannot prove from the file alone is that a record was measured rather than
/// written: `recheck` re-runs that many of each device's cases on this machine's device of
/// the same name, with the report's seed, and requires the same outcomes (an audit, as
/// MLPerf's TEST01 re-checks a sample of results). The sample is drawn with a seed the
/// verifier chooses (random unless given, and printed so the audit can be repeated), so the
/// author of a report cannot know which cases it will hold. Devices not present here are
/// noted, not failed.
#pragma once

#include <string>
#include <vector>

namespace tegula::conformance {

struct VerifyOutcome {
  std::vector<std::string> errors;
  std::vector<std::string> notes;
  bool ok() const { return errors.empty(); }
};

/// Verifies the report at `path` (and report.html beside it, if present). `recheck_seed`
/// draws the re-check sample; empty: a random one.
VerifyOutcome verify_report(const std::string& path, bool check_plugin_libraries = true, int recheck = 0,
                            const std::string& recheck_seed = "");

}  // namespace tegula::conformance
