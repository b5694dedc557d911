// The compile cache folder is created private to the user (0700), and entries are used only
// from a cache folder, kernels folder and entry file that nobody else can write: such an
// entry is not loaded (the kernel is compiled instead) and not deleted.
#include <doctest/doctest.h>

#include <sys/stat.h>

#include "runtime/tests/TestSupport.h"

namespace cache_permissions_test {

using namespace tegula;
using namespace tegula::testing;

namespace {

mode_t mode_of(const std::string& path) {
  struct stat st {};
  REQUIRE(::stat(path.c_str(), &st) == 0);
  return st.st_mode & 07777;
}

/// Fill a fresh cache under `parent` with the axpb entry; returns the cache folder.
std::string filled_cache(const std::string& name, std::string* entry) {
  std::string cache = scratch_dir(name) + "/cache";  // created by the cache itself
  auto rt = open_runtime({reference_manifest()}, nullptr, cache);
  REQUIRE(rt->find_device("reference")->compile(axpb_ir()).is_ok());
  std::string out;
  REQUIRE(run_command("ls " + cache + "/kernels-v1/*.bin", &out) == 0);
  *entry = out.substr(0, out.find('\n'));
  return cache;
}

/// Compile axpb in a new runtime on `cache`; its cache result and the log.
tegula_cache_result compile_again(const std::string& cache, CapturedLog& log) {
  auto rt = open_runtime({reference_manifest()}, &log, cache);
  auto k = rt->find_device("reference")->compile(axpb_ir());
  REQUIRE(k.is_ok());
  return k->cache_result();
}

}  // namespace

TEST_CASE("the cache folders and entries are created private") {
  std::string entry;
  std::string cache = filled_cache("cache_private", &entry);
  CHECK(mode_of(cache) == 0700);
  CHECK(mode_of(cache + "/kernels-v1") == 0700);
  CHECK(mode_of(entry) == 0600);
  CapturedLog log;
  CHECK(compile_again(cache, log) == TEGULA_CACHE_HIT);
}

TEST_CASE("entries in a folder writable by others are not used") {
  for (const char* which : {"", "/kernels-v1"}) {
    INFO(which);
    std::string entry;
    std::string cache = filled_cache(std::string("cache_shared_folder") + (*which ? "_kernels" : ""), &entry);
    std::string folder = cache + which;
    REQUIRE(::chmod(folder.c_str(), 0777) == 0);
    CapturedLog log;
    CHECK(compile_again(cache, log) == TEGULA_CACHE_REBUILT);
    CHECK(log.contains("compile cache: not using " + entry + ": '" + folder + "' is writable by other users"));
    CHECK(file_exists(entry));  // not ours to delete
    REQUIRE(::chmod(folder.c_str(), 0700) == 0);
  }
}

TEST_CASE("an entry file writable by others is not used") {
  std::string entry;
  std::string cache = filled_cache("cache_shared_file", &entry);
  REQUIRE(::chmod(entry.c_str(), 0666) == 0);
  CapturedLog log;
  CHECK(compile_again(cache, log) == TEGULA_CACHE_REBUILT);
  CHECK(log.contains("'" + entry + "' is writable by other users"));
}

}  // namespace cache_permissions_test
