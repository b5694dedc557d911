// place_shared gives every shared region its offset and records the exact footprint: buffers
// at their alignment in program order, the completion barriers of bulk-copy pipelines and
// tcgen05 gemms after them, the tensor-memory slot last, and the base slack a 16-byte
// aligned start needs for larger alignments; a kernel that does not fit is refused by the
// lowering, naming the bytes.
#include "ir/lower/GemmPlan.h"
#include "ir/lower/Lowered.h"
#include "ir/lower/SharedLayout.h"
#include "ir/lower/SharedPlacement.h"
#include "ir/lower/tests/LowerCases.h"

namespace place_shared_test {

using namespace tegula;
using namespace tegula::ir;
using namespace tegula::ir::testing;

namespace {

LowerResult lowered(const std::string& text, const std::string& target_name, LowerOptions o = {}) {
  auto r = lower_text(text, target_name, o);
  REQUIRE_MESSAGE(r.is_ok(), r.status().str());
  return std::move(*r);
}

LowerResult pipelined_gemm(const std::string& target_name) {
  LowerOptions o;
  o.divisibility = {{"M", 16}, {"N", 16}, {"K", 16}};
  o.tensors_aligned = true;
  return lowered(example_text("gemm/gemm_bf16.tile"), target_name, o);
}

SharedLayout layout_of(const Kernel& k, const std::string& name) {
  const Stmt* a = alloc_of(k, name);
  REQUIRE(a);
  auto l = get_shared_layout(a->attrs);
  REQUIRE(l.is_ok());
  return *l;
}

/// Every region's recorded offset, checked against alignment and overlap independently of
/// the placement code: sort by offset and walk.
void check_disjoint_and_aligned(const Kernel& k, const std::string& target_name) {
  auto regions = shared_regions(k, target(target_name));
  REQUIRE(regions.is_ok());
  auto plan = get_kernel_plan(k);
  REQUIRE(plan.is_ok());
  std::vector<std::pair<int64_t, int64_t>> spans;
  int64_t max_align = 16;
  for (const SharedRegion& r : *regions) {
    int64_t off = -1;
    if (r.kind == SharedRegion::Kind::Buffer) off = get_shared_layout(r.stmt->attrs)->offset;
    if (r.kind == SharedRegion::Kind::Barriers) off = *barrier_offset(*r.stmt);
    if (r.kind == SharedRegion::Kind::TensorMemorySlot) off = plan->tmem_slot;
    if (r.kind == SharedRegion::Kind::OpaqueStaging) off = plan->opaque_staging;
    REQUIRE(off >= 0);
    CHECK(off % r.align == 0);
    spans.push_back({off, off + r.bytes});
    max_align = std::max(max_align, r.align);
  }
  std::sort(spans.begin(), spans.end());
  for (size_t i = 1; i < spans.size(); ++i) CHECK(spans[i].first >= spans[i - 1].second);
  int64_t end = spans.empty() ? 0 : spans.back().second;
  CHECK(plan->shared_bytes == (end ? end + max_align - 16 : 0));
}

}  // namespace

TEST_CASE("buffers are placed in order, aligned, with every stage, and the footprint is exact") {
  LowerResult r = pipelined_gemm("sm_80");
  SharedLayout a = layout_of(r.kernel, "As"), b = layout_of(r.kernel, "Bs");
  CHECK(a.offset == 0);
  CHECK(a.stages == 3);
  int64_t a_bytes = shared_stage_bytes(a, {128, 32}, DType::BF16) * a.stages;
  CHECK(b.offset == (a_bytes + b.align - 1) / b.align * b.align);
  check_disjoint_and_aligned(r.kernel, "sm_80");
  CHECK(log_has(r, "shared buffer 'As'"));
  CHECK(log_has(r, "bytes of shared memory"));
}

TEST_CASE("a bulk-copy pipeline gets one completion barrier per stage after the buffers") {
  LowerResult r = pipelined_gemm("sm_90a");
  const Stmt* loop = first_op(r.kernel.body, OpKind::Pipelined);
  REQUIRE(loop);
  auto plan = get_pipeline_plan(*loop);
  REQUIRE(plan.is_ok());
  REQUIRE(*barriers_needed(*loop) == plan->stages);
  int64_t bars = *barrier_offset(*loop);
  SharedLayout b = layout_of(r.kernel, "Bs");
  CHECK(bars >= b.offset + shared_stage_bytes(b, {32, 128}, DType::BF16) * b.stages);
  CHECK(bars % kSharedBarrierBytes == 0);
  // The bulk engine's destinations are aligned for it.
  CHECK(layout_of(r.kernel, "As").align % 128 == 0);
  check_disjoint_and_aligned(r.kernel, "sm_90a");
}

TEST_CASE("a tcgen05 gemm gets a barrier and the tensor-memory slot") {
  LowerResult r = pipelined_gemm("sm_100a");
  const Stmt* gemm = first_op(r.kernel.body, OpKind::Gemm);
  REQUIRE(gemm);
  auto g = get_gemm_plan(*gemm);
  REQUIRE(g.is_ok());
  if (g->kind != InstructionKind::Tcgen05) {
    MESSAGE("sm_100a chose " << g->inst << " for the example gemm; nothing to check");
    return;
  }
  CHECK(*barrier_offset(*gemm) >= 0);
  CHECK(get_kernel_plan(r.kernel)->tmem_slot >= 0);
  check_disjoint_and_aligned(r.kernel, "sm_100a");
}

TEST_CASE("kernels without shared memory request none") {
  LowerResult r = lowered(example_text("elementwise/silu_mul.tile"), "sm_90a");
  CHECK(get_kernel_plan(r.kernel)->shared_bytes == 0);
}

TEST_CASE("every example's placement is disjoint and aligned on every target") {
  for (const char* ex : {"gemm/gemm_bf16.tile", "gemm/gemm_f16.tile", "softmax/softmax_rows.tile", "reduce/row_sum.tile",
                         "elementwise/silu_mul_parallel.tile"})
    for (const char* t : {"sm_80", "sm_90a", "sm_100a", "vulkan_generic", "host_cpu"}) {
      CAPTURE(ex);
      CAPTURE(t);
      LowerOptions o;
      o.divisibility = {{"M", 16}, {"N", 16}, {"K", 16}};
      check_disjoint_and_aligned(lowered(example_text(ex), t, o).kernel, t);
    }
}

TEST_CASE("a kernel that does not fit is refused by the lowering with the byte counts") {
  const std::string text = R"(kernel big(A: f32[4096, 4096]) grid(1) threads(128) {
  alloc S: shared f32[256, 256]
  copy A[0, 0], S
  copy S, A[0, 0]
})";
  auto r = lower_text(text, "sm_80");
  REQUIRE_FALSE(r.is_ok());
  CHECK(r.status().code() == ErrorCode::Unsupported);
  // 256 rows of 256 f32, each padded by 4 elements against bank conflicts.
  CHECK(r.status().message().find("needs 266240 bytes of shared memory") != std::string::npos);
  CHECK(r.status().message().find("'S' 266240") != std::string::npos);
  CHECK(r.status().loc().line == 1);
}

TEST_CASE("shared memory an instruction keeps for itself is not the kernel's") {
  TargetDescription t = target("sm_80");
  LowerOptions o;
  o.divisibility = {{"M", 16}, {"N", 16}, {"K", 16}};
  o.tensors_aligned = true;
  auto k = parse_and_verify(example_text("gemm/gemm_bf16.tile"), "gemm_bf16.tile");
  REQUIRE(k.is_ok());
  auto plain = lower(*k, t, o);
  REQUIRE(plain.is_ok());
  int64_t need = get_kernel_plan(plain->kernel)->shared_bytes;
  int64_t stages = get_pipeline_plan(*first_op(plain->kernel.body, OpKind::Pipelined))->stages;
  REQUIRE(stages > 1);
  SUBCASE("a reserve that leaves room for fewer stages shortens the pipeline") {
    for (MatrixInstruction& mi : t.matrix_instructions) mi.shared_reserve = t.shared_memory_per_block - need + 1;
    auto r = lower(*k, t, o);
    REQUIRE_MESSAGE(r.is_ok(), r.status().str());
    CHECK(get_pipeline_plan(*first_op(r->kernel.body, OpKind::Pipelined))->stages < stages);
    CHECK(get_kernel_plan(r->kernel)->shared_bytes <= need - 1);
    CHECK(log_has(*r, "pipeline shortened"));
  }
  SUBCASE("a reserve that leaves no room refuses the kernel, naming the instruction") {
    for (MatrixInstruction& mi : t.matrix_instructions) mi.shared_reserve = t.shared_memory_per_block - 64;
    auto r = lower(*k, t, o);
    REQUIRE_FALSE(r.is_ok());
    CHECK(r.status().code() == ErrorCode::Unsupported);
    CHECK(r.status().message().find("beside what its instruction") != std::string::npos);
  }
}

TEST_CASE("a reserve larger than the whole budget leaves nothing and refuses, without crashing") {
  TargetDescription t = target("sm_80");
  for (MatrixInstruction& mi : t.matrix_instructions) mi.shared_reserve = t.shared_memory_per_block * 2;
  auto k = parse_and_verify(example_text("gemm/gemm_bf16.tile"), "gemm_bf16.tile");
  REQUIRE(k.is_ok());
  auto r = lower(*k, t);
  REQUIRE_FALSE(r.is_ok());
  CHECK(r.status().code() == ErrorCode::Unsupported);
  CHECK(r.status().message().find("offers 0 per block") != std::string::npos);
}

}  // namespace place_shared_test
