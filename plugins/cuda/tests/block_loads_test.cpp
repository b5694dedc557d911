// Block-level loads (ir/OpList.h) in the CUDA backend: loop bounds, copy offsets and if
// conditions read from i32 tensors compile offline (NVRTC, no device) for sm_80, sm_89,
// sm_90a and sm_100a, in serial and pipelined loops (cp.async and TMA copies staged ahead
// of a trip count read at run time, a wgmma left in flight); a loop's bounds are read once
// per block, before the loop, not per iteration; and on a CUDA device the results match
// the interpreter on segment offsets with empty and one-row segments.
#include "plugins/cuda/tests/CudaTest.h"

#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

namespace block_loads_test {

using namespace tegula;
using namespace tegula::cuda::testing;

namespace {

const char* kTargets[] = {"sm_80", "sm_89", "sm_90a", "sm_100a"};

const char* kSegmentSum =
    "kernel seg_sum(X: f32[T, 64], Cu: i32[S], Y: f32[B, 64]) grid(B) threads(64) {\n"
    "  alloc acc: fragment f32[1, 64]\n  alloc row: fragment f32[1, 64]\n  fill acc, 0.0\n"
    "  for j in Cu[bx] .. Cu[bx + 1] {\n    copy X[j, 0], row\n    map acc = acc + row\n  }\n"
    "  copy acc, Y[bx, 0]\n}\n";

const char* kSegmentCopy =
    "kernel seg_copy(X: f32[T, 64], Cu: i32[S], Y: f32[T, 64]) grid(S - 1) threads(64) {\n"
    "  alloc rows: shared f32[4, 64]\n"
    "  pipelined j in Cu[bx] .. Cu[bx + 1], stages=3 {\n    copy X[j * 4, 0], rows\n    copy rows, Y[j * 4, 0]\n  }\n}\n";

const char* kPagedGemm =
    "kernel paged(Q: f16[M, 32], K: f16[R, 32], Tbl: i32[B, P], Np: i32[B], C: f32[M, 64]) grid(B) threads(128) {\n"
    "  alloc Qs: shared f16[64, 32]\n  alloc Ks: shared f16[64, 32]\n  alloc Acc: fragment f32[64, 64]\n"
    "  copy Q[bx * 64, 0], Qs\n  fill Acc, 0.0\n"
    "  pipelined p in 0 .. Np[bx], stages=3 {\n    copy K[Tbl[bx, p] * 64, 0], Ks\n"
    "    gemm Qs, Ks, Acc, accumulate=true, trans_b=true\n  }\n  copy Acc, C[bx * 64, 0]\n}\n";

const char* kFlag =
    "kernel flag(X: f32[N, 64], F: i32[G], Y: f32[N, 64]) grid(ceildiv(N, 16)) threads(64) {\n"
    "  alloc t: fragment f32[16, 64]\n  copy X[bx * 16, 0], t\n"
    "  if F[bx] != 0 {\n    map t = t * 2.0\n  } else {\n    fill t, -1.0\n  }\n  copy t, Y[bx * 16, 0]\n}\n";

size_t count(const std::string& hay, const std::string& needle) {
  size_t n = 0;
  for (size_t p = hay.find(needle); p != std::string::npos; p = hay.find(needle, p + 1)) ++n;
  return n;
}

/// Overwrite tensor `i` of the launch data with i32 values.
void set_i32(examples::LaunchData& d, size_t i, const std::vector<int32_t>& v) {
  d.tensors[i].bytes.assign(v.size() * 4, 0);
  std::memcpy(d.tensors[i].bytes.data(), v.data(), v.size() * 4);
}

}  // namespace

TEST_CASE("loaded bounds, offsets and conditions compile offline for every CUDA target") {
  TG_REQUIRE_NVRTC();
  for (const char* t : kTargets) {
    for (const char* text : {kSegmentSum, kSegmentCopy, kPagedGemm, kFlag}) {
      CAPTURE(t);
      CAPTURE(std::string(text).substr(0, 40));
      auto ptx = ptx_for(text, t);
      REQUIRE_MESSAGE(ptx.is_ok(), ptx.status().str());
      CHECK(contains(*ptx, std::string(".target ") + t));
    }
  }
}

TEST_CASE("a loop's loaded bounds are read once per block, before the loop") {
  for (const char* t : {"sm_80", "sm_90a"}) {
    CAPTURE(t);
    // Serial loop: each bound is one load of Cu in the whole kernel.
    auto sum = generate_for(kSegmentSum, t);
    REQUIRE_MESSAGE(sum.is_ok(), sum.status().str());
    CHECK(count(sum->source, "(g_Cu + ") == 2);
    // Pipelined loop: the prologue and the steady state share the bounds read once.
    auto copy = generate_for(kSegmentCopy, t);
    REQUIRE_MESSAGE(copy.is_ok(), copy.status().str());
    CHECK(count(copy->source, "(g_Cu + ") == 2);
    // The table is read where each stage's copy is issued, under the trip-count guard.
    auto paged = generate_for(kPagedGemm, t);
    REQUIRE_MESSAGE(paged.is_ok(), paged.status().str());
    CHECK(count(paged->source, "(g_Np + ") == 1);
    CHECK(count(paged->source, "(g_Tbl + ") >= 1);
  }
}

TEST_CASE("on a CUDA device: segments, a paged gemm and loaded flags match the interpreter") {
  TG_REQUIRE_GPU(gpu);
  {
    RunOptions o;
    o.bindings = {{"T", 40}, {"S", 8}, {"B", 7}};
    o.prepare = [](examples::LaunchData& d) { set_i32(d, 1, {0, 0, 1, 6, 6, 19, 20, 40}); };
    Status st = run_and_compare(*gpu, kSegmentSum, o);
    CHECK_MESSAGE(st.is_ok(), st.str());
  }
  {
    RunOptions o;
    o.bindings = {{"T", 44}, {"S", 6}};
    o.prepare = [](examples::LaunchData& d) { set_i32(d, 1, {0, 0, 1, 1, 7, 9}); };
    Status st = run_and_compare(*gpu, kSegmentCopy, o);
    CHECK_MESSAGE(st.is_ok(), st.str());
  }
  {
    RunOptions o;
    o.bindings = {{"M", 3 * 64}, {"R", 4 * 64}, {"B", 3}, {"P", 3}};
    o.prepare = [](examples::LaunchData& d) {
      set_i32(d, 2, {0, 0, 0, 2, 0, 0, 3, 1, 3});
      set_i32(d, 3, {0, 1, 3});
    };
    Status st = run_and_compare(*gpu, kPagedGemm, o);
    CHECK_MESSAGE(st.is_ok(), st.str());
  }
  {
    RunOptions o;
    o.bindings = {{"N", 50}, {"G", 4}};
    o.prepare = [](examples::LaunchData& d) { set_i32(d, 1, {0, 3, 1, 0}); };
    Status st = run_and_compare(*gpu, kFlag, o);
    CHECK_MESSAGE(st.is_ok(), st.str());
  }
}

}  // namespace block_loads_test
