// Ranking and legality on every built-in target description: every binding of the tunable
// gemm example is either ranked or dropped with its reason, the ranked ones come best
// first, what a target cannot hold (a tile larger than its shared memory) is dropped with
// lowering's reason rather than ranked, and a copy is priced near the memory bandwidth.
#include <doctest/doctest.h>

#include <string>

#include "core/Files.h"
#include "ir/Parser.h"
#include "ir/schedule/Rank.h"
#include "targets/Target.h"

namespace rank_every_description_test {

using namespace tegula;
using namespace tegula::ir;

namespace {

std::string example(const char* name) {
  auto text = read_file(std::string(TEGULA_SOURCE_DIR) + "/examples/gemm/" + name);
  return text.is_ok() ? *text : std::string();
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
  // A 1024-row f32 tile needs 512 KiB of shared memory, more than any target offers.
  const char* text =
      "kernel big(X: f32[N, 128], Y: f32[N, 128]) tune(R in [8, 1024]) grid(ceildiv(N, R)) threads(128) {\n"
      "  alloc S: shared f32[R, 128]\n"
      "  copy X[bx * R, 0], S\n"
      "  copy S, Y[bx * R, 0]\n"
      "}\n";
  for (const std::string& name : builtin_target_names()) {
    CAPTURE(name);
    Result<TargetDescription> t = builtin_target(name);
    REQUIRE(t.is_ok());
    RankRequest q;
    q.shape = {{"N", 4096}};
    Result<Ranking> r = rank_candidates(text, "big.tile", *t, q);
    REQUIRE(r.is_ok());
    REQUIRE(r->legal.size() == 1);
    CHECK(binding_text(r->legal[0].binding) == "R=8");
    CHECK(r->legal[0].estimate.shared_bytes <= t->shared_memory_per_block);
    REQUIRE(r->dropped.size() == 1);
    CHECK(r->dropped[0].reason.find("lowering: kernel 'big' needs") != std::string::npos);
    CHECK(r->dropped[0].reason.find("bytes of shared memory") != std::string::npos);
  }
  // The conditions are reasons too.
  Result<TargetDescription> vk = builtin_target("vulkan_generic");
  Result<Ranking> gemm = rank_candidates(example("gemm_tuned_bf16.tile"), "gemm_tuned_bf16.tile", *vk, at(1024, 1024, 1024));
  REQUIRE(gemm.is_ok());
  bool condition = false;
  for (const Candidate& c : gemm->dropped) condition = condition || c.reason.find("breaks where(") != std::string::npos;
  CHECK(condition);
}

TEST_CASE("a copy kernel is priced at the memory bandwidth") {
  const char* text =
      "kernel cp(X: f32[N, 128], Y: f32[N, 128]) tune(R in [8, 16, 32]) grid(ceildiv(N, R)) threads(128) {\n"
      "  alloc S: shared f32[R, 128]\n"
      "  copy X[bx * R, 0], S\n"
      "  copy S, Y[bx * R, 0]\n"
      "}\n";
  Result<TargetDescription> t = builtin_target("sm_90a");
  REQUIRE(t.is_ok());
  RankRequest q;
  q.shape = {{"N", 1 << 16}};
  Result<Ranking> r = rank_candidates(text, "cp.tile", *t, q);
  REQUIRE(r.is_ok());
  REQUIRE(!r->legal.empty());
  double bytes = 2.0 * double(1 << 16) * 128 * 4;  // read once, written once
  double dram_us = bytes / (*t->peak.memory_gbps * 1e9) * 1e6;
  for (const Candidate& c : r->legal) {
    CAPTURE(binding_text(c.binding));
    CHECK(c.estimate.predicted_us >= dram_us);
    CHECK(c.estimate.predicted_us <= 3 * dram_us + 5);  // within a few times the bandwidth bound
  }
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

}  // namespace rank_every_description_test
