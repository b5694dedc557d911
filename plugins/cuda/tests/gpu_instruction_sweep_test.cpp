// On a CUDA device: every matrix instruction of the device's catalogue (mma.sync in every
// dtype, wgmma from shared memory and from registers with both B layouts, ...), forced onto a
// gemm over several groups and repeats at shapes that are not multiples of the tile, matches
// the reference interpreter. Skips without a device.
#include <algorithm>
#include <atomic>
#include <cstdint>
#include <thread>

#include "plugins/cuda/Compile.h"
#include "plugins/cuda/tests/CudaTest.h"
#include "plugins/cuda/tests/InstructionKernels.h"

namespace gpu_instruction_sweep_test {

using namespace tegula;
using namespace tegula::cuda::testing;

TEST_CASE("every instruction of the device's catalogue computes its gemm") {
  TG_REQUIRE_GPU(gpu);
  TargetDescription t = target(gpu->target_name);
  // Compile every case first, on every core (the code generator and NVRTC are thread-safe).
  std::vector<GemmCase> cases = instruction_cases(t, true);
  std::vector<std::string> lowered_text(cases.size()), blobs(cases.size());
  for (size_t i = 0; i < cases.size(); ++i) {
    auto l = lower_text(cases[i].text, t);
    if (l.is_ok()) lowered_text[i] = *l;
  }
  auto device_arch = cuda::arch_for_target(t);
  REQUIRE(device_arch.is_ok());
  std::string compile_arch = gpu->device ? gpu->arch : *device_arch;
  std::atomic<size_t> next{0};
  std::vector<std::thread> pool;
  for (unsigned w = 0; w < std::max(2u, std::thread::hardware_concurrency()); ++w)
    pool.emplace_back([&] {
      for (size_t i = next++; i < cases.size(); i = next++) {
        if (lowered_text[i].empty()) continue;
        auto c = cuda::compile_lowered(lowered_text[i], t, compile_arch);
        if (c.is_ok()) blobs[i] = cuda::encode_executable(c->executable);
      }
    });
  for (std::thread& th : pool) th.join();
  int ran = 0, failed = 0;
  for (size_t ci = 0; ci < cases.size(); ++ci) {
    const GemmCase& c = cases[ci];
    if (lowered_text[ci].empty()) continue;  // refused by the lowering (checked offline)
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
    o.tolerance = acc == DType::I32   ? Tolerance{}
                  : acc == DType::F16 ? Tolerance{.abs = 4e-3 * double(K), .rel = 4e-3}
                                      : Tolerance{.abs = 1e-6 * double(K), .rel = 1e-5};
    if (c.label.find("tf32") != std::string::npos) o.tolerance = Tolerance{.abs = 2e-4 * double(K), .rel = 1e-5};
    if (k->params[0].dtype == DType::E4M3 || k->params[0].dtype == DType::E5M2) o.tolerance = Tolerance{.abs = 2e-4 * double(K), .rel = 1e-3};
    o.blob = blobs[ci];
    CAPTURE(c.label);
    REQUIRE_MESSAGE(!o.blob.empty(), c.label << " did not compile");
    Status st = run_and_compare(*gpu, c.text, o);
    CHECK_MESSAGE(st.is_ok(), c.label << ": " << st.str());
    ++ran;
    failed += st.is_ok() ? 0 : 1;
  }
  MESSAGE("ran " << ran << " forced gemms on " << gpu->target_name << ", " << failed << " failed");
  CHECK(ran > 20);
}

}  // namespace gpu_instruction_sweep_test
