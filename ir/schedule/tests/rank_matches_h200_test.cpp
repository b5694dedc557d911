// The ranking against what the H200 measured (data/h200_gemm_tuned_2026-12-03.txt: the
// candidates `tegula tune` timed for the 13 GEMM shapes of the auto-scheduling issue in bf16
// and f16). For each shape the ranking's first candidate must have been measured, and it must
// be within 10% of the measured best on at least 80% of the shapes (the issue's bar). The
// ranking that chose what to measure got 23 of 26; with the trips' cost outside the overlap
// (Rank.cpp) it gets 25. A change to the model that loses that fails here, with each shape's
// first and its time against the best in the message. The measurements predate the raster
// tunable (R, a permutation of the blocks that changes DRAM traffic, not the time at these
// short bursts), so a first is looked up by its other tunables.
#include <doctest/doctest.h>

#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "core/Files.h"
#include "ir/schedule/Rank.h"
#include "targets/Target.h"

namespace rank_matches_h200_test {

using namespace tegula;
using namespace tegula::ir;

namespace {

struct MeasuredShape {
  std::string dtype;
  int64_t m = 0, n = 0, k = 0;
  std::map<std::string, double> ms;  ///< binding text -> ms per launch
};

std::vector<MeasuredShape> read_measurements() {
  std::ifstream in(std::string(TEGULA_SOURCE_DIR) + "/ir/schedule/tests/data/h200_gemm_tuned_2026-12-03.txt");
  std::vector<MeasuredShape> out;
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') continue;
    MeasuredShape s;
    std::stringstream head(line.substr(0, line.find('|')));
    head >> s.dtype >> s.m >> s.n >> s.k;
    for (size_t at = line.find('|'); at != std::string::npos;) {
      size_t next = line.find('|', at + 1);
      std::string item = line.substr(at + 1, next == std::string::npos ? std::string::npos : next - at - 1);
      size_t colon = item.find(':');
      if (colon != std::string::npos) {
        std::string binding = item.substr(1, colon - 1);
        s.ms[binding] = std::stod(item.substr(colon + 1));
      }
      at = next;
    }
    out.push_back(s);
  }
  return out;
}

std::map<std::string, int64_t> divisors(const std::map<std::string, int64_t>& shape) {
  std::map<std::string, int64_t> d;
  for (const auto& [name, v] : shape) {
    int64_t div = 1;
    while (div < 16 && v % (div * 2) == 0) div *= 2;
    if (div > 1) d[name] = div;
  }
  return d;
}

}  // namespace

TEST_CASE("the ranking's first is within 10% of the H200's measured best on 80% of the shapes") {
  std::vector<MeasuredShape> data = read_measurements();
  REQUIRE(data.size() == 26);
  Result<TargetDescription> t = builtin_target("sm_90a");
  REQUIRE(t.is_ok());
  std::map<std::string, std::string> texts;
  for (const char* dt : {"bf16", "f16"}) {
    auto text = read_file(std::string(TEGULA_SOURCE_DIR) + "/examples/gemm/gemm_tuned_" + dt + ".tile");
    REQUIRE(text.is_ok());
    texts[dt] = *text;
  }
  int within = 0;
  std::string report;
  for (const MeasuredShape& s : data) {
    RankRequest r;
    r.shape = {{"M", s.m}, {"N", s.n}, {"K", s.k}};
    r.lower.tensors_aligned = true;
    r.lower.divisibility = divisors(r.shape);
    Result<Ranking> ranking = rank_candidates(texts.at(s.dtype), "gemm_tuned_" + s.dtype + ".tile", *t, r);
    REQUIRE_MESSAGE(ranking.is_ok(), ranking.status().str());
    REQUIRE_FALSE(ranking->legal.empty());
    Binding tiling;
    for (const auto& [name, v] : ranking->legal.front().binding)
      if (name != "R") tiling.emplace_back(name, v);
    std::string first = binding_text(tiling);
    double best = 1e300;
    for (const auto& [b, ms] : s.ms) best = std::min(best, ms);
    auto it = s.ms.find(first);
    std::string what = s.dtype + " " + std::to_string(s.m) + "x" + std::to_string(s.n) + "x" + std::to_string(s.k) + ": " + first;
    if (it == s.ms.end()) {
      report += what + " was not measured\n";
      continue;
    }
    double ratio = it->second / best;
    if (ratio <= 1.10) ++within;
    report += what + " " + std::to_string(ratio) + "x the best\n";
  }
  CHECK_MESSAGE(within * 10 >= int(data.size()) * 8, report);
  // And no worse than the model does now (25 of 26: it misses bf16 8192x8192x28672 by 12%),
  // so a change that trades one shape for another shows here.
  CHECK_MESSAGE(within >= 25, report);
}

}  // namespace rank_matches_h200_test
