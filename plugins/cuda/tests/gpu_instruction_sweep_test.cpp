// On a CUDA device: every matrix instruction of the device's catalogue (mma.sync in every
// dtype, wgmma from shared memory and from registers with both B layouts, ...), forced onto a
// gemm over several groups and repeats at shapes that are not multiples of the tile, matches
// the reference interpreter. Skips without a device.
#include "plugins/cuda/tests/CudaTest.h"
#include "plugins/cuda/tests/InstructionKernels.h"

using namespace tegula;
using namespace tegula::cuda::testing;

TEST_CASE("every instruction of the device's catalogue computes its gemm") {
  TG_REQUIRE_GPU(gpu);
  TargetDescription t = target(gpu->target_name);
  int ran = 0, failed = 0;
  for (const GemmCase& c : instruction_cases(t, true)) {
    auto lowered = lower_text(c.text, t);
    if (!lowered.is_ok()) continue;  // refused by the lowering (checked offline)
    // The kernel's tile: read back from the text's alloc of Acc.
    auto k = ir::parse_and_verify(c.text, "sweep.tile");
    REQUIRE(k.is_ok());
    int64_t M = 0, N = 0, K = 0;
    for (const ir::Stmt& s : k->body.stmts) {
      if (s.op != ir::OpKind::Alloc) continue;
      if (s.name == "Acc") M = s.type.shape[0], N = s.type.shape[1];
      if (s.name == "As") K = s.type.shape[1];
    }
    RunOptions o;
    o.bindings = {{"Mt", 2 * M - 3}, {"Nt", N + 5}, {"Kt", K}};
    // Sums of K products of values in [-1, 1): compare to the accumulator's rounding of a
    // sum that size.
    DType acc = k->params[2].dtype;
    o.use_default_tolerance = false;
    o.tolerance = acc == DType::I32 ? Tolerance{0, 0} : acc == DType::F16 ? Tolerance{4e-3, 4e-3 * double(K)} : Tolerance{1e-5, 1e-6 * double(K)};
    if (c.label.find("tf32") != std::string::npos) o.tolerance = Tolerance{1e-5, 2e-4 * double(K)};
    if (k->params[0].dtype == DType::E4M3 || k->params[0].dtype == DType::E5M2) o.tolerance = Tolerance{1e-3, 2e-4 * double(K)};
    CAPTURE(c.label);
    Status st = run_and_compare(*gpu, c.text, o);
    CHECK_MESSAGE(st.is_ok(), c.label << ": " << st.str());
    ++ran;
    failed += st.is_ok() ? 0 : 1;
  }
  MESSAGE("ran " << ran << " forced gemms on " << gpu->target_name << ", " << failed << " failed");
  CHECK(ran > 20);
}
