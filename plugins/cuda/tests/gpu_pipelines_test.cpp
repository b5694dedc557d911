// On a CUDA device: pipelined loops match the interpreter with every copy engine the device
// has (the bulk tensor copy engine with its mbarriers, cp.async with zero fill past the
// edge, plain copies when neither fits), 2 to 4 stages, K not a multiple of the tile, and
// rasterised block order; the H200 benchmark gemms (f16, bf16, int4) and the int4 GEMV at small
// shapes too. Skips without a device.
#include "plugins/cuda/tests/CudaTest.h"

#include <cstdint>

namespace gpu_pipelines_test {

using namespace tegula;
using namespace tegula::cuda::testing;

namespace {

std::string pipelined_gemm(const std::string& dt, int bm, int bn, int bk, int stages, int threads, const std::string& inst) {
  auto s = [](int v) { return std::to_string(v); };
  std::string acc = dt == "i8" ? "i32" : "f32";
  return "kernel pg(A: " + dt + "[M, K], B: " + dt + "[K, N], C: " + acc + "[M, N]) grid(ceildiv(N, " + s(bn) + "), ceildiv(M, " + s(bm) +
         ")) threads(" + s(threads) + ") {\n  alloc As: shared " + dt + "[" + s(bm) + ", " + s(bk) + "]\n  alloc Bs: shared " + dt + "[" + s(bk) +
         ", " + s(bn) + "]\n  alloc Acc: fragment " + acc + "[" + s(bm) + ", " + s(bn) + "]\n  fill Acc, 0.0\n  pipelined k in 0 .. ceildiv(K, " +
         s(bk) + "), stages=" + s(stages) + " {\n    copy A[by * " + s(bm) + ", k * " + s(bk) + "], As\n    copy B[k * " + s(bk) + ", bx * " +
         s(bn) + "], Bs\n    gemm As, Bs, Acc, accumulate=true" + (inst.empty() ? "" : ", inst=" + inst) + "\n  }\n  copy Acc, C[by * " + s(bm) +
         ", bx * " + s(bn) + "]\n}\n";
}

}  // namespace

TEST_CASE("pipelined gemms match the interpreter with every copy engine") {
  TG_REQUIRE_GPU(gpu);
  struct Case {
    std::string label, text;
    std::map<std::string, int64_t> shape;
  };
  std::vector<Case> cases = {
      {"bf16 wgmma, bulk copies, 3 stages", pipelined_gemm("bf16", 128, 128, 32, 3, 256, ""), {{"M", 256}, {"N", 384}, {"K", 160}}},
      {"f16 wgmma, bulk copies, 2 stages, K tail", pipelined_gemm("f16", 64, 128, 64, 2, 128, ""), {{"M", 192}, {"N", 256}, {"K", 208}}},
      {"bf16 wgmma, bulk copies, 4 stages, edges", pipelined_gemm("bf16", 128, 64, 64, 4, 256, ""), {{"M", 144}, {"N", 80}, {"K", 96}}},
      {"bf16 mma.sync, cp.async, 3 stages", pipelined_gemm("bf16", 64, 64, 32, 3, 128, "\"mma_sync.m16n8k16.bf16_f32\""), {{"M", 128}, {"N", 96}, {"K", 112}}},
      {"f16 mma.sync, cp.async, 2 stages, edges", pipelined_gemm("f16", 64, 64, 32, 2, 128, "\"mma_sync.m16n8k16.f16_f32\""), {{"M", 80}, {"N", 48}, {"K", 48}}},
      {"f32 fma, 3 stages", pipelined_gemm("f32", 32, 32, 16, 3, 64, "fma"), {{"M", 64}, {"N", 48}, {"K", 80}}},
      {"i8 mma.sync, 3 stages", pipelined_gemm("i8", 64, 64, 64, 3, 128, "\"mma_sync.m16n8k32.i8_i32\""), {{"M", 64}, {"N", 128}, {"K", 192}}},
  };
  for (const Case& c : cases) {
    for (int raster : {0, 2}) {
      RunOptions o;
      o.bindings = c.shape;
      for (const auto& [sym, v] : c.shape) o.lower.divisibility[sym] = 16;
      o.lower.raster_group = raster;
      o.use_default_tolerance = false;
      o.tolerance = c.label.rfind("i8", 0) == 0 ? Tolerance{} : Tolerance{.abs = 1e-6 * double(c.shape.at("K")), .rel = 1e-5};
      CAPTURE(c.label);
      CAPTURE(raster);
      Status st = run_and_compare(*gpu, c.text, o);
      CHECK_MESSAGE(st.is_ok(), c.label << ": " << st.str());
    }
  }
}

TEST_CASE("the H200 benchmark gemms match the interpreter at small shapes") {
  TG_REQUIRE_GPU(gpu);
  if (gpu->target_name != "sm_90a") {
    MESSAGE("skipped: the benchmark kernels are tuned for sm_90a");
    return;
  }
  for (const char* f : {"gemm_bf16_h200.tile", "gemm_f16_h200.tile"}) {
    auto text = read_file(std::string(TEGULA_SOURCE_DIR) + "/bench/cuda/" + f);
    REQUIRE(text.is_ok());
    RunOptions o;
    o.bindings = {{"M", 256}, {"N", 512}, {"K", 320}};
    o.lower.divisibility = {{"M", 16}, {"N", 16}, {"K", 16}};
    o.lower.raster_group = 8;
    o.use_default_tolerance = false;
    o.tolerance = {.abs = 4e-3, .rel = 8e-3};
    CAPTURE(f);
    Status st = run_and_compare(*gpu, *text, o);
    CHECK_MESSAGE(st.is_ok(), f << ": " << st.str());
  }
}

TEST_CASE("the H200 norm tiles match the interpreter (rows of 8192 in registers)") {
  TG_REQUIRE_GPU(gpu);
  for (const char* f : {"rmsnorm_h200.tile", "layernorm_h200.tile", "layernorm_lean_h200.tile", "layernorm_residual_h200.tile",
                        "layernorm_residual_lean_h200.tile"}) {
    auto text = read_file(std::string(TEGULA_SOURCE_DIR) + "/bench/cuda/" + f);
    REQUIRE(text.is_ok());
    RunOptions o;
    o.bindings = {{"M", 5}};
    CAPTURE(f);
    Status st = run_and_compare(*gpu, *text, o);
    CHECK_MESSAGE(st.is_ok(), f << ": " << st.str());
  }
}

TEST_CASE("the H200 int4 tiles match the interpreter at small shapes") {
  TG_REQUIRE_GPU(gpu);
  if (gpu->target_name != "sm_90a") {
    MESSAGE("skipped: the benchmark kernels are tuned for sm_90a");
    return;
  }
  struct Tile {
    const char* file;
    std::map<std::string, int64_t> bindings;
  };
  const Tile tiles[] = {{"gemv_int4_h200.tile", {{"M", 1}, {"N", 256}, {"K", 1024}, {"KW", 128}, {"G", 8}}},
                        {"gemm_int4_h200.tile", {{"M", 256}, {"N", 256}, {"K", 384}, {"KW", 48}, {"G", 3}}},
                        {"gemm_int4_f16w_h200.tile", {{"M", 512}, {"N", 256}, {"K", 384}, {"KW", 48}, {"G", 3}}}};
  for (const Tile& tile : tiles) {
    auto text = read_file(std::string(TEGULA_SOURCE_DIR) + "/bench/cuda/" + tile.file);
    REQUIRE(text.is_ok());
    RunOptions o;
    o.bindings = tile.bindings;
    o.lower.divisibility = {{"N", 16}, {"K", 16}, {"KW", 16}};
    if (tile.bindings.at("M") % 16 == 0) o.lower.divisibility["M"] = 16;
    o.use_default_tolerance = false;
    o.tolerance = {.abs = 4e-3, .rel = 8e-3};
    CAPTURE(tile.file);
    Status st = run_and_compare(*gpu, *text, o);
    CHECK_MESSAGE(st.is_ok(), tile.file << ": " << st.str());
  }
}

TEST_CASE("the H200 MLA split tile matches the interpreter (a tail block, fewer heads than a group)") {
  TG_REQUIRE_GPU(gpu);
  if (gpu->target_name != "sm_90a") {
    MESSAGE("skipped: the benchmark kernels are tuned for sm_90a");
    return;
  }
  auto text = read_file(std::string(TEGULA_SOURCE_DIR) + "/bench/cuda/mla_decode_split_h200.tile");
  REQUIRE(text.is_ok());
  RunOptions o;
  // 5 key blocks over 2 splits: 3 and 2 (the last one 44 keys); 70 heads: a full group and 6.
  o.bindings = {{"B", 2}, {"H", 70}, {"L", 300}, {"NS", 2}};
  o.use_default_tolerance = false;
  o.tolerance = {.abs = 4e-3, .rel = 8e-3};
  Status st = run_and_compare(*gpu, *text, o);
  CHECK_MESSAGE(st.is_ok(), st.str());
}

}  // namespace gpu_pipelines_test
