// Block-level loads (ir/OpList.h) in the Vulkan backend: loop bounds, copy offsets and if
// conditions read from i32 tensors generate SPIR-V that spirv-val accepts, for a
// lavapipe-like and an H200-like device description, for unaligned tensors and for the
// aligned variant the runtime launches where it can (on the H200-like description: the
// workgroup-matrix path for gemms); serial and pipelined loops (register prefetching and
// double buffering ahead of a trip count read at run time), a paged gemm over a block table
// and a loaded flag. Results on lavapipe are the conformance suite's block_load cases.
#include "plugins/vulkan/tests/CodegenTestUtil.h"

#include <string>

namespace block_loads_test {

using namespace tegula;
using namespace tegula::vulkan;
using namespace tegula::vulkan::testing;

namespace {

const char* kKernels[] = {
    "kernel seg_sum(X: f32[T, 64], Cu: i32[S], Y: f32[B, 64]) grid(B) threads(64) {\n"
    "  alloc acc: fragment f32[1, 64]\n  alloc row: fragment f32[1, 64]\n  fill acc, 0.0\n"
    "  for j in Cu[bx] .. Cu[bx + 1] {\n    copy X[j, 0], row\n    map acc = acc + row\n  }\n"
    "  copy acc, Y[bx, 0]\n}\n",
    "kernel seg_copy(X: f32[T, 64], Cu: i32[S], Y: f32[T, 64]) grid(S - 1) threads(64) {\n"
    "  alloc rows: shared f32[4, 64]\n"
    "  pipelined j in Cu[bx] .. Cu[bx + 1], stages=2 {\n    copy X[j * 4, 0], rows\n    copy rows, Y[j * 4, 0]\n  }\n}\n",
    "kernel paged(Q: f16[M, 32], K: f16[R, 32], Tbl: i32[B, P], Np: i32[B], C: f32[M, 64]) grid(B) threads(128) {\n"
    "  alloc Qs: shared f16[64, 32]\n  alloc Ks: shared f16[64, 32]\n  alloc Acc: fragment f32[64, 64]\n"
    "  copy Q[bx * 64, 0], Qs\n  fill Acc, 0.0\n"
    "  pipelined p in 0 .. Np[bx], stages=3 {\n    copy K[Tbl[bx, p] * 64, 0], Ks\n"
    "    gemm Qs, Ks, Acc, accumulate=true, trans_b=true\n  }\n  copy Acc, C[bx * 64, 0]\n}\n",
    "kernel flag(X: f32[N, 64], F: i32[G], Y: f32[N, 64]) grid(ceildiv(N, 16)) threads(64) {\n"
    "  alloc t: fragment f32[16, 64]\n  copy X[bx * 16, 0], t\n"
    "  if F[bx] != 0 {\n    map t = t * 2.0\n  } else {\n    fill t, -1.0\n  }\n  copy t, Y[bx * 16, 0]\n}\n",
};

Result<GeneratedShader> generate(const std::string& text, const TargetDescription& t, bool aligned) {
  TG_ASSIGN_OR_RETURN(ir::Kernel k, ir::parse_and_verify(text, "test.tile"));
  ir::LowerOptions o;
  o.tensors_aligned = aligned;
  TG_ASSIGN_OR_RETURN(ir::LowerResult r, ir::lower(k, t, o));
  TG_ASSIGN_OR_RETURN(ir::Kernel lowered, ir::read_lowered(ir::print_kernel(r.kernel)));
  TG_ASSIGN_OR_RETURN(CodegenTarget ct, codegen_target(t));
  return generate_shader(lowered, ct);
}

}  // namespace

TEST_CASE("loaded bounds, offsets and conditions generate valid SPIR-V") {
  for (const DeviceCaps& caps : {lavapipe_caps(), h200_caps()}) {
    TargetDescription t = describe(caps);
    for (bool aligned : {false, true}) {
      for (const char* text : kKernels) {
        CAPTURE(caps.name);
        CAPTURE(aligned);
        CAPTURE(std::string(text).substr(0, 30));
        auto shader = generate(text, t, aligned);
        REQUIRE_MESSAGE(shader.is_ok(), shader.status().str());
        std::string verdict = spirv_val(shader->words);
        if (verdict == "skip") {
          MESSAGE("spirv-val is missing or predates this module's extensions: not validated");
          continue;
        }
        CHECK_MESSAGE(verdict.empty(), verdict);
      }
    }
  }
}

}  // namespace block_loads_test
