// An executable is host object code behind a checked header: executable_load links it
// without compiling; truncated, damaged or foreign bytes, a stale format version, an
// executable compiled for another CPU, or one asking for absurd scratch memory are refused
// with TG_ERR_CORRUPT (so the runtime compiles again instead of running them).
#include <cstdint>
#include <cstring>

#include "plugins/support/Container.h"

#include "plugins/cpu/tests/CpuTestUtil.h"

namespace executable_bytes_test {

using namespace tegula;
using namespace tegula::cpu::testing;

namespace {

const char* kKernel = R"(
kernel scale(X: f32[N], Y: f32[N]) grid(ceildiv(N, 64)) threads(64) {
  alloc x: fragment f32[64]
  copy X[bx * 64], x
  map x = x * 2.0
  copy x, Y[bx * 64]
}
)";

/// The blob with field `index` replaced (field 0 is the host identity), resealed with a
/// valid size and digest: what a damaged or foreign cache entry that passes the container's
/// own checks looks like.
std::string with_field(const std::string& blob, int index, const std::string& value) {
  auto r = plugin::ContainerReader::open(blob.data(), blob.size(), "tgcpuexe", 2, "cpu executable");
  REQUIRE_MESSAGE(r.is_ok(), r.status().str());
  plugin::ContainerWriter w("tgcpuexe", 2);
  for (int i = 0; i < 7; ++i) {
    auto field = r->field("field");
    REQUIRE(field.is_ok());
    w.field(i == index ? std::string_view(value) : *field);
  }
  return w.finish();
}

}  // namespace

TEST_CASE("a compiled executable loads; its header names the host CPU") {
  CpuPlugin p;
  std::string blob = p.compiled(p.lowered(kKernel));
  CHECK(blob.compare(0, 8, "tgcpuexe") == 0);
  CHECK(blob.find("\x7f" "ELF") != std::string::npos);
  CHECK(p.device->load(blob).is_ok());
}

TEST_CASE("damaged, truncated and foreign bytes are refused as corrupt") {
  CpuPlugin p;
  std::string blob = p.compiled(p.lowered(kKernel));
  REQUIRE(!blob.empty());
  for (size_t at : {size_t(0), size_t(9), size_t(20), blob.size() / 2, blob.size() - 40, blob.size() - 1}) {
    std::string bad = blob;
    bad[at] = char(bad[at] ^ 0x5a);
    CAPTURE(at);
    CHECK_FALSE(p.device->load(bad).is_ok());
    CHECK(plugin_testing::last_code() == TG_ERR_CORRUPT);
  }
  for (size_t size : {size_t(0), size_t(7), size_t(30), blob.size() - 1}) {
    CAPTURE(size);
    CHECK_FALSE(p.device->load(blob.substr(0, size)).is_ok());
    CHECK(plugin_testing::last_code() == TG_ERR_CORRUPT);
  }
  CHECK_FALSE(p.device->load(blob + "x").is_ok());
  CHECK(plugin_testing::last_code() == TG_ERR_CORRUPT);
  CHECK_FALSE(p.device->load(std::string("tgrefexe") + blob.substr(8)).is_ok());
  CHECK(plugin_testing::last_code() == TG_ERR_CORRUPT);
  CHECK_FALSE(p.device->load(std::string(1000, '\0')).is_ok());
  CHECK(plugin_testing::last_code() == TG_ERR_CORRUPT);
}

TEST_CASE("an executable for another CPU is refused, naming it") {
  CpuPlugin p;
  std::string blob = p.compiled(p.lowered(kKernel));
  REQUIRE(!blob.empty());
  // Rebuild the blob around another host identity and brand, with a valid checksum: the
  // format is the plugin's own, so this is what another machine's cache would hold.
  std::string foreign = with_field(with_field(blob, 0, "x86_64-unknown-linux-gnu|znver9|+avx2"), 1, "Some Other CPU");
  CHECK_FALSE(p.device->load(foreign).is_ok());
  CHECK(plugin_testing::last_code() == TG_ERR_CORRUPT);
  CHECK_MESSAGE(plugin_testing::last_message().find("Some Other CPU") != std::string::npos, plugin_testing::last_message());
}

TEST_CASE("a scratch size no kernel could need is refused as corrupt") {
  CpuPlugin p;
  std::string blob = p.compiled(p.lowered(kKernel));
  REQUIRE(!blob.empty());
  // Field 4 is the scratch bytes per core; resealed, as a damaged cache entry could be.
  for (uint64_t bytes : {~uint64_t(0), ~uint64_t(0) - 62, uint64_t(1) << 40}) {
    CAPTURE(bytes);
    std::string arena(reinterpret_cast<const char*>(&bytes), 8);
    std::string bad = with_field(blob, 4, arena);
    CHECK_FALSE(p.device->load(bad).is_ok());
    CHECK(plugin_testing::last_code() == TG_ERR_CORRUPT);
  }
}

TEST_CASE("executable_describe shows the LLVM IR and the assembly") {
  CpuPlugin p;
  std::string blob = p.compiled(p.lowered(R"(
kernel mm(A: f32[M, K], B: f32[K, N], C: f32[M, N]) grid(ceildiv(N, 64), ceildiv(M, 32)) threads(1) {
  alloc a: shared f32[32, 16]
  alloc b: shared f32[16, 64]
  alloc c: fragment f32[32, 64]
  fill c, 0.0
  for k in 0 .. ceildiv(K, 16) {
    copy A[by * 32, k * 16], a
    copy B[k * 16, bx * 64], b
    gemm a, b, c, accumulate=true
  }
  copy c, C[by * 32, bx * 64]
}
)"));
  REQUIRE(!blob.empty());
  Result<std::string> described = p.plugin->describe(blob);
  REQUIRE_MESSAGE(described.is_ok(), described.status().str());
  std::string text = *described;
  CHECK(text.find("define void @tegula_kernel_mm") != std::string::npos);
  CHECK(text.find("vfmadd231ps") != std::string::npos);
  CHECK_FALSE(p.plugin->describe("garbage").is_ok());
  CHECK(plugin_testing::last_code() == TG_ERR_CORRUPT);
}

}  // namespace executable_bytes_test
