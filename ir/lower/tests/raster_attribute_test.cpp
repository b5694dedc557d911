// A kernel may say its own raster group (`raster=G` in its header, or a tunable `raster=R`):
// lowering takes it over the compile option, 1 keeps the launch order, results do not change;
// a group outside 1..65535 or not an integer is a located error.
#include "ir/lower/Passes.h"

#include <cstdint>
#include "ir/Parser.h"
#include "ir/lower/tests/LowerCases.h"

namespace raster_attribute_test {

using namespace tegula;
using namespace tegula::ir;
using namespace tegula::ir::testing;

namespace {

std::string gemm_with(const std::string& attrs) {
  std::string text = example_text("gemm/gemm_bf16.tile");
  size_t at = text.find("reference=matmul");
  REQUIRE(at != std::string::npos);
  return text.insert(at + std::string("reference=matmul").size(), ", " + attrs);
}

}  // namespace

TEST_CASE("the kernel's raster group wins over the compile option and changes no result") {
  LowerOptions o;
  o.raster_group = 8;
  auto r = lower_text(gemm_with("raster=4"), "sm_90a", o);
  REQUIRE_MESSAGE(r.is_ok(), r.status().str());
  CHECK(attr_text(r->kernel, "lower.raster") == "4");
  auto k = parse_and_verify(example_text("gemm/gemm_bf16.tile"), "gemm");
  REQUIRE(k.is_ok());
  CHECK(*run_bytes(r->kernel, "M=700,N=300,K=40", 8) == *run_bytes(*k, "M=700,N=300,K=40", 8));

  r = lower_text(gemm_with("raster=1"), "sm_90a", o);
  REQUIRE_MESSAGE(r.is_ok(), r.status().str());
  CHECK(attr_text(r->kernel, "lower.raster") == "");
  r = lower_text(example_text("gemm/gemm_bf16.tile"), "sm_90a", o);
  REQUIRE(r.is_ok());
  CHECK(attr_text(r->kernel, "lower.raster") == "8");
}

TEST_CASE("a tunable raster group") {
  std::string text =
      "kernel g(A: f32[M, N], B: f32[M, N]) tune(R in [1, 8]) grid(ceildiv(N, 64), ceildiv(M, 4)) threads(64), raster=R {\n"
      "  alloc x: fragment f32[4, 64]\n"
      "  copy A[by * 4, bx * 64], x\n"
      "  copy x, B[by * 4, bx * 64]\n"
      "}\n";
  for (int64_t g : {1, 8}) {
    Binding b{{"R", g}};
    auto k = parse_and_verify(text, "g.tile", &b);
    REQUIRE_MESSAGE(k.is_ok(), k.status().str());
    auto r = lower(*k, target("sm_90a"), {});
    REQUIRE_MESSAGE(r.is_ok(), r.status().str());
    CHECK(attr_text(r->kernel, "lower.raster") == (g == 1 ? "" : "8"));
    CHECK(*run_bytes(r->kernel, "M=37,N=200", 3) == *run_bytes(*k, "M=37,N=200", 3));
  }
}

TEST_CASE("misuse: a raster group that is not 1 to 65535, or not an integer") {
  for (const char* bad : {"raster=0", "raster=70000", "raster=2.5", "raster=wide"}) {
    CAPTURE(bad);
    auto k = parse_and_verify(gemm_with(bad), "gemm.tile");
    REQUIRE_FALSE(k.is_ok());
    CHECK(k.status().str().find("gemm.tile:4:") != std::string::npos);
    CHECK(k.status().message().find("raster") != std::string::npos);
  }
}

}  // namespace raster_attribute_test
