// Every matrix instruction of the sm_80, sm_89, sm_90a and sm_100a catalogues, forced onto a
// gemm (inst="<id>"), compiles through NVRTC and ptxas for its target, and the PTX issues
// exactly that instruction (mma.sync.aligned..., wgmma.mma_async..., tcgen05.mma...). Scalar
// fma (inst=fma) compiles everywhere.
#include <algorithm>
#include <atomic>
#include <thread>

#include "plugins/cuda/tests/CudaTest.h"
#include "plugins/cuda/tests/InstructionKernels.h"

namespace instruction_sweep_compiles_test {

using namespace tegula;
using namespace tegula::cuda::testing;

TEST_CASE("every catalogue instruction compiles to itself") {
  TG_REQUIRE_NVRTC();
  struct Job {
    GemmCase c;
    std::string target;
    std::string lowered;
    Status status;
    std::string ptx;
  };
  std::vector<Job> jobs;
  int refused = 0;
  for (const char* tname : {"sm_80", "sm_89", "sm_90a", "sm_100a"}) {
    TargetDescription t = target(tname);
    for (const GemmCase& c : instruction_cases(t, false)) {
      CAPTURE(c.label);
      CAPTURE(c.text);
      auto lowered = lower_text(c.text, t);
      if (!lowered.is_ok()) {
        // The lowering refuses, with a reason, what the description cannot place (tcgen05
        // M=64 has no read-back layout; some [K, N] operands fit no descriptor).
        CHECK(lowered.status().code() == ErrorCode::Unsupported);
        ++refused;
        continue;
      }
      jobs.push_back({c, tname, *lowered, Status::ok(), ""});
    }
  }
  // NVRTC is thread-safe: compile on every core.
  CudaPlugin::get();
  std::map<std::string, std::string> json;
  for (const Job& j : jobs) json[j.target] = target_json(j.target);
  std::atomic<size_t> next{0};
  std::vector<std::thread> pool;
  unsigned n = std::max(2u, std::thread::hardware_concurrency());
  for (unsigned i = 0; i < n; ++i)
    pool.emplace_back([&] {
      for (size_t j = next++; j < jobs.size(); j = next++) {
        auto blob = compile_offline_json(jobs[j].lowered, json.at(jobs[j].target));
        if (!blob.is_ok()) {
          jobs[j].status = blob.status();
          continue;
        }
        auto ptx = describe(*blob);
        if (!ptx.is_ok()) jobs[j].status = ptx.status();
        else jobs[j].ptx = *ptx;
      }
    });
  for (std::thread& t : pool) t.join();
  for (const Job& j : jobs) {
    CAPTURE(j.c.label);
    REQUIRE_MESSAGE(j.status.is_ok(), j.status.str());
    CHECK_MESSAGE(contains(j.ptx, j.c.needle), "PTX lacks " << j.c.needle);
  }
  MESSAGE("compiled " << jobs.size() << " forced gemms, " << refused << " refused by the lowering");
  CHECK(jobs.size() > 100);
}

TEST_CASE("the fma fallback compiles for every dtype pair it takes") {
  TG_REQUIRE_NVRTC();
  for (const char* tname : {"sm_80", "sm_90a", "sm_100a"}) {
    for (const char* dt : {"f32", "f16", "bf16", "e4m3", "i8", "f64"}) {
      std::string acc = std::string(dt) == "i8" ? "i32" : std::string(dt) == "f64" ? "f64" : "f32";
      std::string text = "kernel g(A: " + std::string(dt) + "[M, K], B: " + dt + "[K, N], C: " + acc + "[M, N]) grid(1) threads(64) {\n"
                         "  alloc As: shared " + dt + "[16, 8]\n  alloc Bs: shared " + dt + "[8, 16]\n  alloc Acc: fragment " + acc + "[16, 16]\n"
                         "  copy A, As\n  copy B, Bs\n  gemm As, Bs, Acc, inst=fma\n  copy Acc, C\n}\n";
      CAPTURE(tname);
      CAPTURE(dt);
      auto ptx = ptx_for(text, tname);
      REQUIRE_MESSAGE(ptx.is_ok(), ptx.status().str());
    }
  }
}

}  // namespace instruction_sweep_compiles_test
