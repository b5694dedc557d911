// Every pass preserves results: each example, lowered for each built-in target and stopped
// after each pass, runs on the reference interpreter to exactly the bytes the original
// kernel produces, at edge shapes (single elements, primes, sizes off the tile).
#include "ir/lower/tests/LowerTestUtil.h"

namespace lowering_preserves_results_test {

using namespace tegula;
using namespace tegula::ir;

namespace {

struct Case {
  const char* file;
  const char* bindings;
};

const Case kCases[] = {
    {"gemm/gemm_bf16.tile", "M=131,N=257,K=67"}, {"gemm/gemm_f16.tile", "M=1,N=1,K=1"},
    {"softmax/softmax_rows.tile", "M=7,N=1031"},  {"reduce/row_sum.tile", "M=5,N=1537"},
    {"elementwise/silu_mul.tile", "N=4099"},      {"elementwise/silu_mul_parallel.tile", "N=1031"},
};

}  // namespace

TEST_CASE("lowering after every pass gives the original bytes, on every built-in target") {
  for (const std::string& tname : builtin_target_names()) {
    TargetDescription t = testing::target(tname);
    for (const Case& c : kCases) {
      CAPTURE(tname);
      CAPTURE(c.file);
      auto k = parse_and_verify(testing::example_text(c.file), c.file);
      REQUIRE_MESSAGE(k.is_ok(), k.status().str());
      auto want = testing::run_bytes(*k, c.bindings, 5);
      REQUIRE_MESSAGE(want.is_ok(), want.status().str());
      for (const std::string& pass : pass_names()) {
        CAPTURE(pass);
        LowerOptions o;
        o.stop_after = pass;
        auto lowered = lower(*k, t, o);
        if (!lowered.is_ok()) {
          // A kernel a target cannot run (too many threads, too much shared memory) is
          // refused with a reason, never lowered wrongly.
          INFO(lowered.status().str());
          CHECK(lowered.status().code() == ErrorCode::Unsupported);
          break;
        }
        // The lowered text is what crosses to a backend: read it back, as a backend does.
        std::string text = print_kernel(lowered->kernel);
        auto back = read_lowered(text, "lowered");
        REQUIRE_MESSAGE(back.is_ok(), back.status().str());
        CHECK(print_kernel(*back) == text);
        auto got = testing::run_bytes(*back, c.bindings, 5);
        REQUIRE_MESSAGE(got.is_ok(), got.status().str());
        CHECK(*got == *want);
      }
    }
  }
}

TEST_CASE("blocks whose thread count is not a power of two lower and compute the same") {
  for (const char* file : {"softmax/softmax_rows.tile", "reduce/row_sum.tile", "gemm/gemm_f16.tile"}) {
    for (const char* threads : {"threads(96)", "threads(100)"}) {
      CAPTURE(file);
      CAPTURE(threads);
      std::string text = testing::example_text(file);
      for (const char* from : {"threads(128)", "threads(256)"}) {
        auto pos = text.find(from);
        if (pos != std::string::npos) text.replace(pos, std::string(from).size(), threads);
      }
      auto k = parse_and_verify(text, file);
      REQUIRE_MESSAGE(k.is_ok(), k.status().str());
      const char* shape = std::string(file).find("gemm") != std::string::npos ? "M=70,N=33,K=40" : "M=9,N=700";
      auto want = testing::run_bytes(*k, shape, 6);
      REQUIRE(want.is_ok());
      for (const char* t : {"sm_90a", "gfx942", "host_cpu"}) {
        CAPTURE(t);
        auto lowered = lower(*k, testing::target(t));
        REQUIRE_MESSAGE(lowered.is_ok(), lowered.status().str());
        auto got = testing::run_bytes(lowered->kernel, shape, 6);
        REQUIRE_MESSAGE(got.is_ok(), got.status().str());
        CHECK(*got == *want);
      }
    }
  }
}

}  // namespace lowering_preserves_results_test
