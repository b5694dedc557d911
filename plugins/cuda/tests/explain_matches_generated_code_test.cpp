// What `tegula lower --explain` says is what the CUDA code does: a copy the lowering gives
// to the tensor copy engine is issued as cp.async.bulk.tensor (with a tensor map), one it
// gives to the asynchronous copy unit as cp.async, and no other copy is; the executable
// requests exactly lower.shared_bytes and initialises its mbarriers where place_shared put
// them; a gemm the lowering leaves in flight across iterations (plan.inflight, "stays in
// flight" in the explanation) waits for all but its newest wgmma group, and no other gemm
// does. Checked on the generated C++ of the shipped kernels, on every CUDA target, with and
// without the shape assumptions the runtime adds.
#include "ir/Analysis.h"
#include "ir/lower/Lowered.h"
#include "ir/lower/SharedPlacement.h"
#include "plugins/cuda/tests/CudaTest.h"

namespace explain_matches_generated_code_test {

using namespace tegula;
using namespace tegula::cuda::testing;

namespace {

size_t count(const std::string& hay, const std::string& needle) {
  size_t n = 0;
  for (size_t p = hay.find(needle); p != std::string::npos; p = hay.find(needle, p + 1)) ++n;
  return n;
}

std::string source_file(const std::string& rel) {
  auto t = read_file(std::string(TEGULA_SOURCE_DIR) + "/" + rel);
  REQUIRE_MESSAGE(t.is_ok(), t.status().str());
  return *t;
}

struct Planned {
  int bulk = 0, async = 0, inflight = 0;
  std::vector<int64_t> barrier_offsets;
};

Planned what_lowering_planned(const ir::Kernel& k) {
  Planned p;
  ir::for_each_stmt(k.body, [&](const ir::Stmt& s) {
    if (s.op == ir::OpKind::Copy) {
      auto c = ir::get_copy_plan(s);
      REQUIRE(c.is_ok());
      p.bulk += c->engine == ir::CopyEngine::Bulk;
      p.async += c->engine == ir::CopyEngine::Async;
    }
    if (s.op == ir::OpKind::Pipelined) {
      auto loop = ir::get_pipeline_plan(s);
      REQUIRE(loop.is_ok());
      p.inflight += loop->inflight >= 0;
    }
    auto n = ir::barriers_needed(s);
    REQUIRE(n.is_ok());
    for (int64_t i = 0; i < *n; ++i) p.barrier_offsets.push_back(*ir::barrier_offset(s) + ir::kSharedBarrierBytes * i);
  });
  return p;
}

}  // namespace

TEST_CASE("explain's copy engines and shared bytes are the generated code's") {
  const char* kernels[] = {"examples/gemm/gemm_bf16.tile", "examples/gemm/gemm_f16.tile", "examples/softmax/softmax_rows.tile",
                           "examples/reduce/row_sum.tile", "bench/cuda/gemm_bf16_h200.tile", "bench/cuda/gemm_f16_h200.tile",
                           "bench/cuda/softmax_row_h200.tile"};
  int bulk_seen = 0, async_seen = 0, inflight_seen = 0, waiting_wgmma_seen = 0;
  for (std::string file : kernels)
    for (std::string tname : {"sm_80", "sm_90a", "sm_100a"})
      for (bool assume : {false, true}) {
        CAPTURE(file);
        CAPTURE(tname);
        CAPTURE(assume);
        auto k = ir::parse_and_verify(source_file(file), file);
        REQUIRE_MESSAGE(k.is_ok(), k.status().str());
        ir::LowerOptions o;
        if (assume) {
          o.divisibility = {{"M", 128}, {"N", 128}, {"K", 64}};
          o.tensors_aligned = true;
        }
        TargetDescription t = target(tname);
        auto r = ir::lower(*k, t, o);
        REQUIRE_MESSAGE(r.is_ok(), r.status().str());
        auto arch = cuda::arch_for_target(t);
        REQUIRE(arch.is_ok());
        auto g = cuda::generate_cuda(r->kernel, t, *arch);
        REQUIRE_MESSAGE(g.is_ok(), g.status().str());
        Planned p = what_lowering_planned(r->kernel);
        bulk_seen += p.bulk;
        async_seen += p.async;
        CHECK(g->info.shared_bytes == ir::get_kernel_plan(r->kernel)->shared_bytes);
        inflight_seen += p.inflight;
        bool explained_bulk = false, explained_async = false, explained_inflight = false;
        for (const std::string& line : r->log) {
          explained_bulk = explained_bulk || line.find("ahead by the tensor copy engine") != std::string::npos;
          explained_async = explained_async || line.find("ahead by the asynchronous copy unit") != std::string::npos;
          explained_inflight =
              explained_inflight || line.find("stays in flight across iterations") != std::string::npos;
        }
        CHECK(explained_inflight == (p.inflight > 0));
        CHECK((p.inflight > 0) == contains(g->source, "tg_wgmma_wait<1>();"));
        waiting_wgmma_seen += p.inflight == 0 && contains(g->source, "tg_wgmma_wait<0>();");
        CHECK(explained_bulk == (p.bulk > 0));
        CHECK(explained_async == (p.async > 0));
        CHECK((p.bulk > 0) == (count(g->source, "tg_tma_load_2d(smem_u32") > 0));
        CHECK((p.bulk > 0) == !g->info.tensor_maps.empty());
        CHECK((p.async > 0) == (count(g->source, "tg_cp_async((smem_u32") > 0));
        // Every mbarrier initialised is one place_shared placed, and no other.
        CHECK(count(g->source, "tg_mbar_init(smem_u32") == p.barrier_offsets.size());
        for (int64_t off : p.barrier_offsets) CHECK(contains(g->source, "tg_mbar_init(smem_u32 + " + std::to_string(off) + "u"));
      }
  // The sweep must have exercised both engines.
  CHECK(bulk_seen > 0);
  CHECK(async_seen > 0);
  // And both a wgmma gemm left in flight and one that waits every iteration.
  CHECK(inflight_seen > 0);
  CHECK(waiting_wgmma_seen > 0);
}

TEST_CASE("code that would address shared memory past lower.shared_bytes is an internal error") {
  // read_lowered refuses such a kernel (Verify); generate_cuda, handed it anyway, checks its
  // own consistency instead of budgeting: the regions it addresses must lie in the request.
  std::string file = "examples/gemm/gemm_bf16.tile";
  auto k = ir::parse_and_verify(source_file(file), file);
  REQUIRE_MESSAGE(k.is_ok(), k.status().str());
  TargetDescription t = target("sm_80");
  auto r = ir::lower(*k, t);
  REQUIRE_MESSAGE(r.is_ok(), r.status().str());
  int64_t placed = ir::get_kernel_plan(r->kernel)->shared_bytes;
  REQUIRE(placed > 16);
  ir::set_attr(r->kernel.attrs, "lower.shared_bytes", ir::AttrValue::of_int(16));
  auto read = ir::read_lowered(ir::print_kernel(r->kernel), t, "forged.lowered");
  REQUIRE_FALSE(read.is_ok());
  CHECK(read.status().code() == ErrorCode::Verify);
  auto arch = cuda::arch_for_target(t);
  REQUIRE(arch.is_ok());
  auto g = cuda::generate_cuda(r->kernel, t, *arch);
  REQUIRE_FALSE(g.is_ok());
  CHECK(g.status().code() == ErrorCode::Internal);
  CHECK(contains(g.status().message(), "past the 16 bytes it requests (lower.shared_bytes)"));
}

}  // namespace explain_matches_generated_code_test
