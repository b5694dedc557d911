// Ranking and legality on every built-in target description: every binding of the tunable
// gemm example is either ranked or dropped with its reason, the ranked ones come best
// first, and what a target cannot hold (Vulkan's 48 KiB of shared memory, its 256-thread
// blocks on the host) is dropped for that reason rather than ranked.
#include <doctest/doctest.h>

#include <string>

#include "core/Files.h"
#include "ir/Parser.h"
#include "ir/schedule/Rank.h"
#include "targets/Target.h"

using namespace tegula;
using namespace tegula::ir;

namespace {

std::string example(const char* name) {
  auto text = read_file(std::string(TEGULA_SOURCE_DIR) + "/examples/gemm/" + name);
  return text.is_ok() ? *text : std::string();
}

int64_t value(const Binding& b, const char* name) {
  for (const auto& [n, v] : b)
    if (n == name) return v;
  return 0;
}

RankRequest at(int64_t m, int64_t n, int64_t k) {
  RankRequest r;
  r.shape = {{"M", m}, {"N", n}, {"K", k}};
  return r;
}

}  // namespace

TEST_CASE("every description ranks or drops every candidate, best first") {
  std::string text = example("gemm_tuned_bf16.tile");
  REQUIRE(!text.empty());
  Result<TuneSpace> space = parse_tune_space(text, "gemm_tuned_bf16.tile");
  REQUIRE(space.is_ok());
  size_t bindings = size_t(space->size());
  for (const std::string& name : builtin_target_names()) {
    CAPTURE(name);
    Result<TargetDescription> t = builtin_target(name);
    REQUIRE(t.is_ok());
    Result<Ranking> r = rank_candidates(text, "gemm_tuned_bf16.tile", *t, at(1024, 1024, 1024));
    REQUIRE_MESSAGE(r.is_ok(), r.status().str());
    CHECK(r->legal.size() + r->dropped.size() == bindings);
    for (const Candidate& c : r->dropped) {
      CHECK_FALSE(c.legal);
      CHECK_MESSAGE(!c.reason.empty(), binding_text(c.binding));
    }
    for (size_t i = 0; i < r->legal.size(); ++i) {
      const CandidateEstimate& e = r->legal[i].estimate;
      CHECK(e.predicted_us > 0);
      CHECK(e.resident >= 1);
      CHECK(e.blocks > 0);
      CHECK(e.wave_efficiency > 0);
      CHECK(e.wave_efficiency <= 1.0 + 1e-9);
      if (i) CHECK(r->legal[i - 1].estimate.predicted_us <= e.predicted_us);
    }
    // The gemm has an instruction or the FMA fallback on every target but gfx950, which
    // LLVM 19 cannot compile for but whose description still lowers.
    CHECK_MESSAGE(!r->legal.empty(), ranking_table(*r, 3, 5));
  }
}

TEST_CASE("what a target cannot hold is dropped with that reason") {
  std::string text = example("gemm_tuned_bf16.tile");
  Result<TargetDescription> vk = builtin_target("vulkan_generic");
  REQUIRE(vk.is_ok());
  Result<Ranking> r = rank_candidates(text, "gemm_tuned_bf16.tile", *vk, at(1024, 1024, 1024));
  REQUIRE(r.is_ok());
  bool shared_reason = false;
  for (const Candidate& c : r->dropped) {
    int64_t bm = value(c.binding, "BM"), bn = value(c.binding, "BN"), bk = value(c.binding, "BK"), s = value(c.binding, "S");
    if (s * (bm * bk + bk * bn) * 2 > vk->shared_memory_per_block)
      shared_reason = shared_reason || c.reason.find("shared") != std::string::npos;
  }
  CHECK_MESSAGE(shared_reason, ranking_table(*r, 0, 20));
  for (const Candidate& c : r->legal) {
    const CandidateEstimate& e = c.estimate;
    CHECK(e.shared_bytes <= vk->shared_memory_per_block);
  }
  // The conditions are reasons too.
  bool condition = false;
  for (const Candidate& c : r->dropped) condition = condition || c.reason.find("breaks where(") != std::string::npos;
  CHECK(condition);
}

TEST_CASE("a kernel without tunables, or a shape without a symbol, is an error") {
  Result<TargetDescription> t = builtin_target("sm_90a");
  REQUIRE(t.is_ok());
  Result<Ranking> none = rank_candidates(example("gemm_bf16.tile"), "gemm_bf16.tile", *t, at(64, 64, 64));
  REQUIRE(!none.is_ok());
  CHECK(none.status().message().find("no tunables") != std::string::npos);
  RankRequest missing;
  missing.shape = {{"M", 64}, {"N", 64}};
  Result<Ranking> r = rank_candidates(example("gemm_tuned_bf16.tile"), "g.tile", *t, missing);
  REQUIRE(!r.is_ok());
  CHECK(r.status().message().find("shape symbol K") != std::string::npos);
}
