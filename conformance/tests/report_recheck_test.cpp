// A report whose records were written rather than measured is internally consistent, so
// the static checks accept it; `verify --recheck N` re-runs a sample of its cases on the
// device and rejects it. An honest report survives the re-check.
#include <doctest/doctest.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <string>

#include "conformance/Report.h"
#include "conformance/Verify.h"
#include "conformance/tests/TestSupport.h"

namespace report_recheck_test {

using namespace tegula;
using namespace tegula::conformance;
using namespace tegula::conformance::testing;

namespace {

/// Every record made a clean Pass, and every derived field and hash recomputed.
void forge_passes(Json& report) {
  for (Json& d : const_cast<Json*>(report.find("devices"))->items()) {
    for (Json& r : const_cast<Json*>(d.find("records"))->items()) {
      r.set("outcome", "Pass");
      r.set("check", "");
      r.set("detail", "");
      r.set("mismatches", Json(0));
      r.set("max_abs_error", 0.0);
      r.set("max_rel_error", 0.0);
      r.set("max_ulp_error", 0.0);
      std::erase_if(r.members(), [](const Json::Member& m) { return m.first == "first_mismatch"; });
    }
    derive_device(d, *device_records(d), {});
  }
  report.set("summary", derive_summary(report));
  Json integrity = Json::object();
  integrity.set("sha256", integrity_hash(report));
  report.set("integrity", integrity);
}

}  // namespace

/// The folders a re-check left in `tmp`.
size_t recheck_folders(const std::string& tmp) {
  size_t n = 0;
  for (const auto& e : std::filesystem::directory_iterator(tmp))
    n += e.path().filename().string().rfind("tegula-recheck-", 0) == 0;
  return n;
}

TEST_CASE("verify --recheck catches records that were written, not measured") {
  std::string out = scratch("report_recheck");
  std::string tmp = out + "/tmp";
  REQUIRE(make_dirs(tmp).is_ok());
  const char* old_tmp = std::getenv("TMPDIR");
  std::string saved = old_tmp ? old_tmp : "";
  ::setenv("TMPDIR", tmp.c_str(), 1);  // the re-check's worker logs go to a folder of this test's
  CliRun run = run_conformance("conformance_wrong", "--filter 'tegula.fill.global.f32.*' --jobs 1 --quiet --out '" + out + "/honest'");
  REQUIRE(run.status == 1);
  CliRun honest = run_conformance("conformance_wrong", "verify '" + out + "/honest' --recheck 2");
  INFO(honest.output);
  CHECK(honest.status == 0);
  CHECK(honest.output.find("re-checked 2 cases on conformance_wrong:0") != std::string::npos);
  CHECK(honest.output.find("re-check sample drawn with seed ") != std::string::npos);
  CHECK(recheck_folders(tmp) == 0);  // a re-check that agrees leaves nothing behind

  Json forged = load_report(out + "/honest");
  forge_passes(forged);
  REQUIRE(make_dirs(out + "/forged").is_ok());
  REQUIRE(write_file_atomic(out + "/forged/report.json", forged.dump(1)).is_ok());
  CHECK(verify_report(out + "/forged/report.json").ok());  // consistent, so the file alone passes
  CliRun audit = run_conformance("conformance_wrong", "verify '" + out + "/forged' --recheck 2");
  INFO(audit.output);
  CHECK(audit.status == 1);
  CHECK(audit.output.find("is Pass in the report but Fail (values) now") != std::string::npos);
  // One that disagrees keeps the worker logs and names their folder.
  CHECK(recheck_folders(tmp) == 1);
  CHECK(audit.output.find("(worker logs in " + tmp + "/tegula-recheck-") != std::string::npos);
  if (old_tmp) ::setenv("TMPDIR", saved.c_str(), 1);
  else ::unsetenv("TMPDIR");
}

TEST_CASE("the verifier chooses the re-check sample, and its seed repeats it") {
  std::string out = scratch("report_recheck_seed");
  CliRun run = run_conformance("conformance_wrong", "--filter 'tegula.fill.global.*' --jobs 2 --quiet --out '" + out + "'");
  REQUIRE(run.status == 1);
  // The line naming the re-checked cases, and the seed line, of a verify run.
  auto line = [](const std::string& text, const std::string& start) {
    size_t at = text.find(start);
    return at == std::string::npos ? std::string() : text.substr(at, text.find('\n', at) - at);
  };
  auto sample = [&](const std::string& seed_args) {
    CliRun v = run_conformance("conformance_wrong", "verify '" + out + "' --recheck 3" + seed_args);
    INFO(v.output);
    CHECK(v.status == 0);
    return v.output;
  };
  const std::string cases = "note: re-checked 3 cases on conformance_wrong:0: ";
  std::string a = line(sample(" --recheck-seed audit-1"), cases);
  REQUIRE_FALSE(a.empty());
  CHECK(line(sample(" --recheck-seed audit-1"), cases) == a);  // the same seed draws the same cases
  // Unseeded draws are the verifier's own: the seed is printed so they can be repeated.
  std::string free_run = sample("");
  std::string seed_line = line(free_run, "note: re-check sample drawn with seed ");
  REQUIRE_FALSE(seed_line.empty());
  std::string seed = seed_line.substr(38, seed_line.find(' ', 38) - 38);
  CHECK(seed.size() == 32);
  CHECK(line(sample(" --recheck-seed " + seed), cases) == line(free_run, cases));
}

TEST_CASE("misuse: an empty --recheck-seed is refused") {
  CliRun run = run_conformance("conformance_wrong", "verify /nonexistent --recheck 1 --recheck-seed ''");
  CHECK(run.status == 2);
  CHECK(run.output.find("--recheck-seed needs a non-empty value") != std::string::npos);
}

}  // namespace report_recheck_test
