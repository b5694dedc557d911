// A signed bundle can be trusted by a third party: an edit of report.json that re-hashes
// the integrity field (which an unsigned report cannot tell from the real one), a deleted,
// replaced or added log, an edited signature and a key other than the trusted one are all
// refused, and verify says what it checked (signature and signer, or that it is unsigned).
#include <doctest/doctest.h>

#include <string>

#include "conformance/Host.h"
#include "conformance/Report.h"
#include "conformance/tests/TestSupport.h"

namespace report_signature_test {

using namespace tegula;
using namespace tegula::conformance;
using namespace tegula::conformance::testing;

namespace {

CliRun sh(const std::string& cmd) {
  CliRun r;
  FILE* p = ::popen((cmd + " 2>&1").c_str(), "r");
  if (!p) return r;
  char buf[4096];
  size_t n;
  while ((n = std::fread(buf, 1, sizeof buf, p)) > 0) r.output.append(buf, n);
  int status = ::pclose(p);
  r.status = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return r;
}

struct Signed {
  std::string root, bundle, key;
};

/// One signed run of a few reference cases, made once for every test case.
const Signed& signed_bundle() {
  static Signed s = [] {
    Signed x;
    x.root = scratch("signature");
    x.bundle = x.root + "/bundle";
    x.key = x.root + "/key";
    CliRun keygen = run_conformance("reference", "keygen '" + x.key + "'");
    REQUIRE_MESSAGE(keygen.status == 0, keygen.output);
    CliRun run = run_conformance("reference", "--device reference:0 --filter 'tegula.copy.global_shared.f32.*,-*.misaligned' "
                                              "--no-offline --quiet --sign-key '" + x.key + "' --out '" + x.bundle + "'");
    REQUIRE_MESSAGE(run.status == 0, run.output);
    return x;
  }();
  return s;
}

/// A copy of the signed bundle to tamper with.
std::string copy_of(const std::string& name) {
  const Signed& s = signed_bundle();
  std::string dir = s.root + "/" + name;
  REQUIRE(sh("rm -rf '" + dir + "' && cp -r '" + s.bundle + "' '" + dir + "'").status == 0);
  return dir;
}

CliRun verify(const std::string& dir, const std::string& extra = "") {
  return run_conformance("reference", "verify '" + dir + "' " + extra);
}

/// The forgery an unsigned report cannot show: another device identity, re-hashed, with
/// the page rendered again.
void forge_identity(const std::string& dir) {
  Json r = load_report(dir);
  Json& device = const_cast<Json::Array&>(r.find("devices")->items())[0];
  Json& identity = *const_cast<Json*>(device.find("identity"));
  identity.set("device_name", "NVIDIA H200");
  Json integrity = Json::object();
  integrity.set("sha256", integrity_hash(r));
  r.set("integrity", integrity);
  REQUIRE(write_file_atomic(dir + "/report.json", r.dump(1) + "\n").is_ok());
  REQUIRE(write_file_atomic(dir + "/report.html", render_html(r)).is_ok());
}

}  // namespace

TEST_CASE("the signed bundle verifies against the trusted key, and says what it checked") {
  const Signed& s = signed_bundle();
  CliRun v = verify(s.bundle, "--trust '" + s.key + ".pub'");
  INFO(v.output);
  CHECK(v.status == 0);
  CHECK(v.output.find("note: signature: valid, by the trusted key") != std::string::npos);
  CHECK(v.output.find("files of the bundle match their signed SHA-256") != std::string::npos);
  // Without --trust the signature is still checked, and verify says it names nobody.
  CliRun untrusted = verify(s.bundle);
  CHECK(untrusted.status == 0);
  CHECK(untrusted.output.find("no --trust key was given") != std::string::npos);
}

TEST_CASE("a re-hashed edit of report.json verifies unsigned but is rejected signed") {
  std::string dir = copy_of("forged_identity");
  forge_identity(dir);
  CliRun v = verify(dir, "--trust '" + signed_bundle().key + ".pub'");
  INFO(v.output);
  CHECK(v.status == 1);
  CHECK(v.output.find("report.json was changed after signing") != std::string::npos);
  CHECK(v.output.find("report.html was changed after signing") != std::string::npos);

  // The same forgery with the signature removed passes every integrity check: unsigned
  // reports say so.
  REQUIRE(sh("rm '" + dir + "/signature.json'").status == 0);
  CliRun unsigned_run = verify(dir);
  INFO(unsigned_run.output);
  CHECK(unsigned_run.status == 0);
  CHECK(unsigned_run.output.find("note: unsigned:") != std::string::npos);
  CliRun demanded = verify(dir, "--trust '" + signed_bundle().key + ".pub'");
  CHECK(demanded.status == 1);
  CHECK(demanded.output.find("the bundle is unsigned") != std::string::npos);
}

TEST_CASE("a deleted, replaced or added log is noticed") {
  std::string key = "--trust '" + signed_bundle().key + ".pub'";
  std::string deleted = copy_of("deleted_log");
  CliRun ls = sh("ls '" + deleted + "/logs' | head -1");
  std::string log = ls.output.substr(0, ls.output.find('\n'));
  REQUIRE(!log.empty());
  REQUIRE(sh("rm '" + deleted + "/logs/" + log + "'").status == 0);
  CliRun v = verify(deleted, key);
  CHECK(v.status == 1);
  CHECK(v.output.find("logs/" + log + " is signed but missing (deleted after signing)") != std::string::npos);

  std::string replaced = copy_of("replaced_log");
  REQUIRE(write_file_atomic(replaced + "/logs/" + log, "all cases passed\n").is_ok());
  v = verify(replaced, key);
  CHECK(v.status == 1);
  CHECK(v.output.find("logs/" + log + " was changed after signing") != std::string::npos);

  std::string added = copy_of("added_log");
  REQUIRE(write_file_atomic(added + "/logs/extra.log", "more\n").is_ok());
  v = verify(added, key);
  CHECK(v.status == 1);
  CHECK(v.output.find("logs/extra.log is not covered by the signature (added after signing)") != std::string::npos);
}

TEST_CASE("another key, or an edited signature file, is refused") {
  const Signed& s = signed_bundle();
  CliRun keygen = run_conformance("reference", "keygen '" + s.root + "/other'");
  REQUIRE(keygen.status == 0);
  CliRun v = verify(s.bundle, "--trust '" + s.root + "/other.pub'");
  INFO(v.output);
  CHECK(v.status == 1);
  CHECK(v.output.find("which is not the trusted key") != std::string::npos);

  // Re-signing needs the secret key: rewriting the signed hashes breaks the signature.
  std::string dir = copy_of("forged_signature");
  forge_identity(dir);
  Json sig = Json::parse(read_file(dir + "/signature.json").value()).value();
  Json part = Json::parse(sig.find("signed")->as_string()).value();
  Json& files = *const_cast<Json*>(part.find("files"));
  files.set("report.json", file_sha256(dir + "/report.json").value());
  sig.set("signed", part.dump());
  REQUIRE(write_file_atomic(dir + "/signature.json", sig.dump(1) + "\n").is_ok());
  v = verify(dir, "--trust '" + s.key + ".pub'");
  CHECK(v.status == 1);
  CHECK(v.output.find("the signature does not match the signed part") != std::string::npos);

  CliRun bad_key = verify(s.bundle, "--trust 1234");
  CHECK(bad_key.status == 1);
  CHECK(bad_key.output.find("is not an Ed25519 public key") != std::string::npos);
}

}  // namespace report_signature_test
