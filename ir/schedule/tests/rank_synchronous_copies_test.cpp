// A copy that lowering leaves synchronous inside a pipeline (rows not on 16-byte boundaries:
// no tensor copy engine, no asynchronous copy unit) waits for its loads on every trip, and
// the ranking prices that: the same binding costs at least a load latency (1 us) more per
// trip at K = 999 than at K = 1000, which has the same trip count and aligned rows; and
// among 64-row tiles, the one with more threads to issue those loads ranks ahead.
#include <doctest/doctest.h>

#include <string>

#include "core/Files.h"
#include "ir/schedule/Rank.h"
#include "targets/Target.h"

namespace rank_synchronous_copies_test {

using namespace tegula;
using namespace tegula::ir;

namespace {

Ranking rank_at(const TargetDescription& t, int64_t k, const std::map<std::string, int64_t>& divisors) {
  auto text = read_file(std::string(TEGULA_SOURCE_DIR) + "/examples/gemm/gemm_tuned_bf16.tile");
  REQUIRE(text.is_ok());
  RankRequest r;
  r.shape = {{"M", 1024}, {"N", 1024}, {"K", k}};
  r.lower.divisibility = divisors;
  Result<Ranking> out = rank_candidates(*text, "gemm_tuned_bf16.tile", t, r);
  REQUIRE_MESSAGE(out.is_ok(), out.status().str());
  return std::move(out).value();
}

const Candidate* find(const Ranking& r, const std::string& binding) {
  for (const Candidate& c : r.legal)
    if (binding_text(c.binding) == binding) return &c;
  return nullptr;
}

}  // namespace

TEST_CASE("a synchronous copy in a pipeline costs a load latency on every trip") {
  Result<TargetDescription> t = builtin_target("sm_90a");
  REQUIRE(t.is_ok());
  Ranking aligned = rank_at(*t, 1000, {{"M", 16}, {"N", 16}, {"K", 8}});
  Ranking unaligned = rank_at(*t, 999, {{"M", 16}, {"N", 16}});
  const std::string binding = "BM=128 BN=128 BK=64 S=4 T=256 R=1";
  const Candidate* a = find(aligned, binding);
  const Candidate* u = find(unaligned, binding);
  REQUIRE(a);
  REQUIRE(u);
  double trips = 16;  // ceildiv(999, 64) == ceildiv(1000, 64)
  CHECK_MESSAGE(u->estimate.predicted_us >= a->estimate.predicted_us + trips * 1.0,
                ranking_table(unaligned, 5, 0));
  // With the copy synchronous, twice the threads issue the same loads in half the turns.
  const Candidate* few = find(unaligned, "BM=64 BN=128 BK=64 S=4 T=128 R=1");
  const Candidate* many = find(unaligned, "BM=64 BN=128 BK=64 S=4 T=256 R=1");
  REQUIRE(few);
  REQUIRE(many);
  CHECK(many->estimate.predicted_us < few->estimate.predicted_us);
}

}  // namespace rank_synchronous_copies_test
