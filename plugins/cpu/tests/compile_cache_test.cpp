// The runtime's compile cache keeps the plugin's object code: a second runtime with the same
// cache folder loads the kernel from disk (no compile) and it computes the same results.
#include <unistd.h>

#include <cstdint>
#include <filesystem>

#include "plugins/cpu/tests/CpuTestUtil.h"

namespace compile_cache_test {

using namespace tegula;
using namespace tegula::cpu::testing;

TEST_CASE("a kernel from the disk cache runs like a fresh one") {
  std::string dir = (std::filesystem::temp_directory_path() / ("tegula_cpu_cache_" + std::to_string(::getpid()))).string();
  std::filesystem::remove_all(dir);
  const char* text = R"(
kernel twice(X: bf16[N], Y: f32[N]) grid(ceildiv(N, 32)) threads(32) {
  alloc x: fragment f32[32]
  copy X[bx * 32], x
  map x = x * 2.0 + 1.0
  copy x, Y[bx * 32]
}
)";
  std::vector<float> results[2];
  for (int round = 0; round < 2; ++round) {
    Result<Runtime> rt = open_cpu_runtime(dir);
    REQUIRE_MESSAGE(rt.is_ok(), rt.status().str());
    Result<Device> dev = rt->find_device("cpu");
    REQUIRE(dev.is_ok());
    Result<Kernel> k = dev->compile(text);
    REQUIRE_MESSAGE(k.is_ok(), k.status().str());
    CHECK(k->cache_result() == (round == 0 ? TEGULA_CACHE_MISS : TEGULA_CACHE_HIT));
    CHECK(rt->stats().plugin_compiles == (round == 0 ? 1u : 0u));
    std::vector<uint16_t> x(100);
    for (size_t i = 0; i < x.size(); ++i) x[i] = bf16_from_double(double(i) / 7);
    Result<Buffer> bx = dev->alloc(200), by = dev->alloc(400);
    REQUIRE((bx.is_ok() && by.is_ok()));
    REQUIRE(bx->write(x).is_ok());
    REQUIRE(k->launch({Arg::tensor(*bx), Arg::tensor(*by), Arg::integer(100)}).is_ok());
    Result<std::vector<float>> y = by->read<float>(100);
    REQUIRE(y.is_ok());
    results[round] = *y;
    CHECK(results[round][7] == float(bf16_to_double(x[7]) * 2 + 1));
  }
  CHECK(results[0] == results[1]);
  std::filesystem::remove_all(dir);
}

}  // namespace compile_cache_test
