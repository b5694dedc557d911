// What `tegula lower --explain` says about register prefetching and double buffering
// (ir/lower/PlanRegisterPrefetch.cpp) is what the generated shader does: a copy "loaded one
// iteration ahead through registers" <=> the module loads from a storage buffer before its
// first loop (the prologue that fills the registers for the first iteration); "double-buffered"
// <=> one workgroup barrier in the loop instead of the two around the tile stores; and the
// shader declares exactly the lower.shared_bytes that place_shared recorded; and the
// explanation says the loop "runs unpipelined" exactly when nothing is prefetched; and the
// tiles it says are "stored as 16-byte words" are exactly the shader's uvec4 arrays. Checked for
// the pipelined examples and for gemms that keep one stage, on the lavapipe and H200
// descriptions.
#include "plugins/vulkan/tests/CodegenTestUtil.h"

#include <map>
#include <set>
#include <string>
#include <vector>

#include "ir/lower/Lowered.h"
#include "plugins/vulkan/spirv/Spirv.h"

namespace explain_matches_shader_test {

using namespace tegula;
using namespace tegula::vulkan;
using namespace tegula::vulkan::testing;

namespace {

struct ShaderFacts {
  int prologue_loads = 0;        ///< storage-buffer loads before the first loop
  int barriers_in_first_loop = -1;  ///< -1 without a loop
};

/// Walk the module's instructions (SPIR-V 1.x: a 5-word header, then opcode | words << 16).
ShaderFacts facts_of(const std::vector<uint32_t>& words) {
  ShaderFacts f;
  std::set<uint32_t> storage_vars, storage_ptrs;
  uint32_t merge = 0;
  bool in_loop = false, done = false;
  for (size_t i = 5; i < words.size() && !done;) {
    uint32_t op = words[i] & 0xffff, n = words[i] >> 16;
    if (n == 0 || i + n > words.size()) break;
    const uint32_t* w = &words[i];
    if (op == spv::OpVariable && n >= 4 && w[3] == spv::SCStorageBuffer) storage_vars.insert(w[2]);
    if (op == spv::OpAccessChain && n >= 4 && storage_vars.count(w[3])) storage_ptrs.insert(w[2]);
    if (!in_loop) {
      if (op == spv::OpLoad && n >= 4 && storage_ptrs.count(w[3])) ++f.prologue_loads;
      if (op == spv::OpLoopMerge) {
        in_loop = true;
        merge = w[1];
        f.barriers_in_first_loop = 0;
      }
    } else {
      if (op == spv::OpLabel && w[1] == merge) done = true;
      if (op == spv::OpControlBarrier) ++f.barriers_in_first_loop;
    }
    i += n;
  }
  return f;
}

int lines_saying(const std::vector<std::string>& log, const std::string& needle) {
  int n = 0;
  for (const std::string& line : log) n += line.find(needle) != std::string::npos;
  return n;
}

bool says(const std::vector<std::string>& log, const std::string& needle) {
  for (const std::string& line : log)
    if (line.find(needle) != std::string::npos) return true;
  return false;
}

std::string gemm(int stages, const std::string& after = "") {
  return "kernel g(A: f16[M, K], B: f16[K, N], C: f32[M, N]) grid(ceildiv(N, 32), ceildiv(M, 32)) threads(64) {\n"
         "  alloc As: shared f16[32, 16]\n  alloc Bs: shared f16[16, 32]\n  alloc Acc: fragment f32[32, 32]\n"
         "  fill Acc, 0.0\n  pipelined kk in 0 .. ceildiv(K, 16), stages=" + std::to_string(stages) + " {\n"
         "    copy A[by * 32, kk * 16], As\n    copy B[kk * 16, bx * 32], Bs\n"
         "    gemm As, Bs, Acc, accumulate=true\n  }\n" + after + "  copy Acc, C[by * 32, bx * 32]\n}\n";
}

}  // namespace

TEST_CASE("explain's register prefetch and double buffering are the shader's") {
  struct Kernel {
    std::string name, text;
  };
  std::vector<Kernel> kernels = {{"gemm_f16.tile", example_text("gemm/gemm_f16.tile")},
                                 {"gemm_bf16.tile", example_text("gemm/gemm_bf16.tile")},
                                 {"stages=1", gemm(1)},
                                 {"stages=2", gemm(2)},
                                 {"tiles read after the loop", gemm(2, "  fill Acc, 0.0\n  gemm As, Bs, Acc, accumulate=true\n")},
                                 {"a source the kernel writes",
                                  "kernel g(A: f32[N], B: f32[N]) grid(1) threads(32) {\n  alloc S: shared f32[32]\n"
                                  "  pipelined i in 0 .. ceildiv(N, 32), stages=2 {\n"
                                  "    copy A[i * 32], S\n    copy S, B[i * 32]\n    copy S, A[i * 32]\n  }\n}\n"}};
  int prefetching = 0, double_buffered = 0, single = 0, none = 0, packed = 0;
  for (const DeviceCaps& caps : {lavapipe_caps(), h200_caps()})
    for (const Kernel& kernel : kernels)
      for (bool aligned : {false, true}) {
        CAPTURE(caps.name);
        CAPTURE(kernel.name);
        CAPTURE(aligned);
        TargetDescription t = describe(caps);
        auto k = ir::parse_and_verify(kernel.text, "case.tile");
        REQUIRE_MESSAGE(k.is_ok(), k.status().str());
        ir::LowerOptions o;
        if (aligned) {
          o.tensors_aligned = true;
          for (const std::string& sym : k->symbols()) o.divisibility[sym] = 128;
        }
        auto lowered = ir::lower(*k, t, o);
        REQUIRE_MESSAGE(lowered.is_ok(), lowered.status().str());
        auto read = ir::read_lowered(ir::print_kernel(lowered->kernel), t);
        REQUIRE_MESSAGE(read.is_ok(), read.status().str());
        auto ct = codegen_target(t);
        REQUIRE(ct.is_ok());
        auto shader = generate_shader(*read, *ct);
        REQUIRE_MESSAGE(shader.is_ok(), shader.status().str());
        ShaderFacts f = facts_of(shader->words);
        CHECK(int64_t(shader->iface.shared_bytes) == ir::get_kernel_plan(*read)->shared_bytes);
        bool registers = says(lowered->log, "loaded one iteration ahead through registers");
        bool two = says(lowered->log, "(double-buffered: one barrier per iteration)");
        CHECK(registers == (f.prologue_loads > 0));
        CHECK(says(lowered->log, "runs unpipelined") == !registers);
        int words = lines_saying(lowered->log, "stored as 16-byte words");
        CHECK(words == packed_workgroup_arrays(shader->words));
        packed += words;
        if (registers) CHECK(two == (f.barriers_in_first_loop == 1));
        if (registers && !two) CHECK(f.barriers_in_first_loop == 2);
        prefetching += registers;
        double_buffered += two;
        single += registers && !two;
        none += !registers;
      }
  // Both outcomes occur, so neither equivalence holds vacuously.
  CHECK(prefetching > 0);
  CHECK(double_buffered > 0);
  CHECK(single > 0);
  CHECK(none > 0);
  CHECK(packed > 0);
}

}  // namespace explain_matches_shader_test
