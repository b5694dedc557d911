// Storing f32 into bf16 and f16 rounds exactly as core/DType.h does, for every one of the
// 2^32 f32 bit patterns (NaNs, infinities, subnormals, every tie).
#include <cstdint>
#include <cstring>
#include <thread>

#include "plugins/cpu/tests/CpuTestUtil.h"

namespace convert_f32_exhaustive_test {

using namespace tegula;
using namespace tegula::cpu::testing;

namespace {

const char* kKernel = R"(
kernel store_narrow(X: f32[N], Y: bf16[N], Z: f16[N]) grid(ceildiv(N, 8192)) threads(1) {
  copy X[bx * 8192], Y[bx * 8192], extent=[8192]
  copy X[bx * 8192], Z[bx * 8192], extent=[8192]
}
)";

}  // namespace

TEST_CASE("f32 to bf16 and f16, all 2^32 inputs") {
  Device dev = cpu_device();
  Result<Kernel> kernel = dev.compile(kKernel);
  REQUIRE_MESSAGE(kernel.is_ok(), kernel.status().str());
  constexpr uint64_t kChunk = uint64_t(1) << 26;
  Result<Buffer> x = dev.alloc(kChunk * 4), y = dev.alloc(kChunk * 2), z = dev.alloc(kChunk * 2);
  REQUIRE((x.is_ok() && y.is_ok() && z.is_ok()));
  std::vector<uint32_t> in(kChunk);
  std::vector<uint16_t> bf(kChunk), hf(kChunk);
  uint64_t bad_bf16 = 0, bad_f16 = 0;
  std::string first;
  for (uint64_t base = 0; base < (uint64_t(1) << 32); base += kChunk) {
    for (uint64_t i = 0; i < kChunk; ++i) in[i] = uint32_t(base + i);
    REQUIRE(x->write(in).is_ok());
    Status st = kernel->launch({Arg::tensor(*x), Arg::tensor(*y), Arg::tensor(*z), Arg::integer(int64_t(kChunk))});
    REQUIRE_MESSAGE(st.is_ok(), st.str());
    REQUIRE(y->read(bf.data(), kChunk * 2).is_ok());
    REQUIRE(z->read(hf.data(), kChunk * 2).is_ok());
    // Check on two threads: core's converters are the slow part.
    uint64_t bad[2][2] = {{0, 0}, {0, 0}};
    uint32_t first_bad[2] = {0, 0};
    auto check = [&](int part) {
      for (uint64_t i = uint64_t(part); i < kChunk; i += 2) {
        float f;
        std::memcpy(&f, &in[i], 4);
        bool b = bf[i] != bf16_from_double(f), h = hf[i] != f16_from_double(f);
        if ((b || h) && bad[part][0] + bad[part][1] == 0) first_bad[part] = in[i];
        bad[part][0] += b;
        bad[part][1] += h;
      }
    };
    std::thread other(check, 1);
    check(0);
    other.join();
    for (int p = 0; p < 2; ++p) {
      if (first.empty() && bad[p][0] + bad[p][1]) first = "first wrong input bits " + std::to_string(first_bad[p]);
      bad_bf16 += bad[p][0];
      bad_f16 += bad[p][1];
    }
  }
  CHECK_MESSAGE(bad_bf16 == 0, bad_bf16, " wrong bf16 results; ", first);
  CHECK_MESSAGE(bad_f16 == 0, bad_f16, " wrong f16 results; ", first);
}

}  // namespace convert_f32_exhaustive_test
