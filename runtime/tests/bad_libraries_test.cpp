// Misuse: manifests pointing at libraries that cannot be a plugin. Each is refused with its
// reason, and the reference plugin next to it keeps working.
#include <doctest/doctest.h>

#include <limits.h>
#include <stdlib.h>
#include <sys/stat.h>

#include "runtime/tests/TestSupport.h"

namespace bad_libraries_test {

using namespace tegula;
using namespace tegula::testing;

namespace {

/// Opens a runtime on `manifest` plus the reference plugin; returns the refusal reason.
std::string refusal(const std::string& manifest, const std::string& plugin) {
  CapturedLog log;
  auto rt = open_runtime({manifest, reference_manifest()}, &log);
  REQUIRE(rt.is_ok());
  CHECK(device_names(*rt) == std::vector<std::string>{"reference:0"});
  std::string reason = skip_reason(*rt, plugin);
  CHECK(log.contains(reason));
  return reason;
}

}  // namespace

TEST_CASE("a missing library") {
  std::string dir = scratch_dir("missing_library");
  std::string m = write_manifest(dir, "ghost", "libtegula_ghost.so");
  CHECK(refusal(m, "ghost") == "library " + dir + "/libtegula_ghost.so not found");
}

TEST_CASE("a file that is not ELF") {
  std::string dir = scratch_dir("garbage_library");
  REQUIRE(write_file_atomic(dir + "/libgarbage.so", "this is not a shared library\n").is_ok());
  std::string m = write_manifest(dir, "garbage", "libgarbage.so");
  char resolved[PATH_MAX];
  REQUIRE(::realpath((dir + "/libgarbage.so").c_str(), resolved));
  CHECK(refusal(m, "garbage") == std::string(resolved) + " is not an ELF shared library");
}

TEST_CASE("a FIFO named as the library is refused without blocking") {
  std::string dir = scratch_dir("fifo_library");
  REQUIRE(::mkfifo((dir + "/libfifo.so").c_str(), 0600) == 0);
  std::string m = write_manifest(dir, "fifo", "libfifo.so");
  std::string reason = refusal(m, "fifo");
  CHECK(reason.find("libfifo.so' is a pipe, not a regular file") != std::string::npos);
}

TEST_CASE("an ELF file for another architecture") {
  std::string dir = scratch_dir("wrong_arch");
  // The first bytes of a 64-bit little-endian AArch64 shared object.
  std::string header("\x7f" "ELF\x02\x01\x01", 7);
  header.resize(16, '\0');
  header += std::string("\x03\x00\xb7\x00", 4);  // e_type ET_DYN, e_machine EM_AARCH64 (183)
  header.resize(64, '\0');
  REQUIRE(write_file_atomic(dir + "/libarm.so", header).is_ok());
  std::string m = write_manifest(dir, "arm", "libarm.so");
  std::string reason = refusal(m, "arm");
  CHECK(reason.find("is an ELF file for aarch64, the host is x86_64") != std::string::npos);
}

TEST_CASE("library_arch in the manifest refuses before the library is even opened") {
  std::string dir = scratch_dir("library_arch");
  // The library exists and would load: the refusal must come from the manifest alone.
  std::string m = write_manifest(dir, "reference_arm", plugin_library("reference"), ", \"library_arch\": \"aarch64\"");
  CHECK(refusal(m, "reference_arm") == "built for aarch64 (library_arch), the host is x86_64; not loaded");
}

TEST_CASE("a library without tg_plugin_query") {
  CHECK(refusal(test_manifest("missing_symbol"), "missing_symbol") == "the library does not export tg_plugin_query");
}

TEST_CASE("a plugin that refuses to load") {
  CHECK(refusal(test_manifest("refuses"), "refuses") ==
        "the plugin refused the host's ABI versions 1..1: no test hardware present");
  CHECK(refusal(test_manifest("no_reason"), "no_reason") ==
        "the plugin refused the host's ABI versions 1..1: no reason given");
}

}  // namespace bad_libraries_test
