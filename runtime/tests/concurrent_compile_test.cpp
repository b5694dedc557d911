// A plugin that declares TG_CONCURRENT_COMPILE has compile and executable_load called from
// several threads at once; one that does not, or that answers the first release's
// tg_plugin_info (no concurrency field), is called one compile at a time. The test plugins
// (plugins/concurrent.c) wait up to 300 ms inside each call for a second one and log the
// most they saw at once.
#include <doctest/doctest.h>

#include <cstdlib>
#include <cstring>
#include <thread>

#include "runtime/tests/TestSupport.h"

namespace concurrent_compile_test {

using namespace tegula;
using namespace tegula::testing;

/// The largest N of the plugin's "<entry>: at most N at once" lines, or 0 when none.
int most_at_once(const CapturedLog& log, const std::string& entry) {
  int most = 0;
  std::string key = entry + ": at most ";
  for (const std::string& line : log.lines) {
    size_t p = line.find(key);
    if (p == std::string::npos) continue;
    most = std::max(most, std::atoi(line.c_str() + p + key.size()));
  }
  return most;
}

/// Compile `threads` kernels, each under its own name, on `threads` threads at once; returns
/// how many compiled.
int compile_on_threads(Device& d, int threads) {
  std::vector<int> ok(size_t(threads), 0);
  std::vector<std::thread> pool;
  for (int t = 0; t < threads; ++t) {
    pool.emplace_back([&, t] {
      std::string text = axpb_ir();
      text.replace(text.find("axpb"), 4, "axpb" + std::to_string(t));
      ok[size_t(t)] = d.compile(text).is_ok();
    });
  }
  for (std::thread& th : pool) th.join();
  int n = 0;
  for (int v : ok) n += v;
  return n;
}

/// What the public API says of the runtime's one plugin (tegula_plugin_info.concurrent_compile).
uint32_t reported_concurrent_compile(const Runtime& rt) {
  tegula_plugin_info info;
  std::memset(&info, 0, sizeof(info));
  info.struct_size = sizeof(info);
  info.concurrent_compile = 7;  // poisoned: the runtime must write it
  tegula_error* e = tegula_runtime_get_plugin(rt.handle(), 0, &info);
  if (e) {
    tegula_error_free(e);
    return 99;
  }
  return info.concurrent_compile;
}

TEST_CASE("a plugin declaring TG_CONCURRENT_COMPILE compiles and loads on several threads at once") {
  CapturedLog log;
  auto rt = open_runtime({test_manifest("concurrent")}, &log);
  REQUIRE(rt.is_ok());
  CHECK(reported_concurrent_compile(*rt) == 1);
  Device d = rt->find_device("concurrent").value();
  CHECK(compile_on_threads(d, 4) == 4);
  CHECK(most_at_once(log, "compile") >= 2);
  CHECK(most_at_once(log, "executable_load") >= 2);
}

TEST_CASE("a plugin answering the first release's tg_plugin_info is called one compile at a time") {
  CapturedLog log;
  auto rt = open_runtime({test_manifest("serial_compile")}, &log);
  REQUIRE(rt.is_ok());
  CHECK(reported_concurrent_compile(*rt) == 0);
  Device d = rt->find_device("serial_compile").value();
  CHECK(compile_on_threads(d, 3) == 3);
  // Each of the three calls logged, and none saw another.
  CHECK(most_at_once(log, "compile") == 1);
  CHECK(most_at_once(log, "executable_load") == 1);
}

}  // namespace concurrent_compile_test
