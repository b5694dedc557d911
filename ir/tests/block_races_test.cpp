// Writes that blocks may share: every shipped kernel is proven free of them; a missing block
// index, overlapping strides, a tile wider than its stride and an unbounded rest are each
// reported with the location of the write; atomic_add and single-block axes never are; and
// "no report" is sound: over small constant grids, brute force finds no shared element in
// any kernel the analysis clears.
#include <doctest/doctest.h>

#include <filesystem>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "core/Files.h"
#include "ir/BlockRaces.h"
#include "ir/Parser.h"

namespace block_races_test {

using namespace tegula::ir;

namespace {

Kernel parse(const std::string& text) {
  auto k = parse_and_verify(text, "races.tile");
  REQUIRE_MESSAGE(k.is_ok(), k.status().str());
  return std::move(k).value();
}

std::vector<BlockRace> races(const std::string& text) { return find_block_races(parse(text)); }

std::vector<std::string> shipped_kernels() {
  std::vector<std::string> out;
  for (const char* dir : {"/examples", "/bench"})
    for (const auto& e : std::filesystem::recursive_directory_iterator(std::string(TEGULA_SOURCE_DIR) + dir))
      if (e.path().extension() == ".tile") out.push_back(e.path().string());
  return out;
}

}  // namespace

TEST_CASE("every shipped kernel writes disjoint tiles per block") {
  std::vector<std::string> files = shipped_kernels();
  CHECK(files.size() >= 10);
  for (const std::string& f : files) {
    auto text = tegula::read_file(f);
    REQUIRE(text.is_ok());
    // A kernel with tunables: every candidate the verifier accepts (tiles differ by binding).
    auto space = parse_tune_space(*text, f);
    REQUIRE(space.is_ok());
    std::vector<Binding> bindings{Binding{}};
    if (!space->empty()) bindings = *enumerate_bindings(*space);
    for (const Binding& b : bindings) {
      auto k = parse_and_verify(*text, f, b.empty() ? nullptr : &b);
      if (!b.empty() && !k.is_ok()) continue;  // a candidate the verifier refuses is never compiled
      REQUIRE_MESSAGE(k.is_ok(), k.status().str());
      for (const BlockRace& r : find_block_races(*k))
        FAIL_CHECK(f << " " << binding_text(b) << ": " << r.loc.str() << ": " << r.message);
    }
  }
}

TEST_CASE("a write whose offsets ignore a grid axis is reported at the write") {
  auto r = races(
      "kernel k(A: f32[M, N], C: f32[M, N]) grid(ceildiv(N, 64), ceildiv(M, 64)) threads(64) {\n"
      "  alloc T: shared f32[64, 64]\n"
      "  copy A[by * 64, bx * 64], T\n"
      "  copy T, C[by * 64, 0]\n"
      "}\n");
  REQUIRE(r.size() == 1);
  CHECK(r[0].tensor == "C");
  CHECK(r[0].axis == "bx");
  CHECK(r[0].loc.line == 4);
  CHECK(r[0].loc.column > 1);
  CHECK(r[0].message.find("does not depend on bx") != std::string::npos);
  CHECK(r[0].message.find("C'[by * 64, 0]") != std::string::npos);
}

TEST_CASE("a tile wider than its block stride is reported") {
  auto r = races(
      "kernel k(A: f32[M], C: f32[M]) grid(ceildiv(M, 64)) threads(64) {\n"
      "  alloc T: shared f32[128]\n"
      "  copy A[bx * 64], T\n"
      "  copy T, C[bx * 64]\n"
      "}\n");
  REQUIRE(r.size() == 1);
  CHECK(r[0].axis == "bx");
  CHECK(r[0].message.find("may write the same elements") != std::string::npos);
  CHECK(races("kernel k(A: f32[M], C: f32[M]) grid(ceildiv(M, 128)) threads(64) {\n"
              "  alloc T: shared f32[128]\n  copy A[bx * 128], T\n  copy T, C[bx * 128]\n}\n")
            .empty());
}

TEST_CASE("two writes to one tensor with different strides are reported") {
  auto r = races(
      "kernel k(A: f32[M], C: f32[M]) grid(ceildiv(M, 128)) threads(64) {\n"
      "  alloc T: shared f32[64]\n"
      "  copy A[bx * 64], T\n"
      "  copy T, C[bx * 128]\n"
      "  copy T, C[bx * 64 + 64]\n"
      "}\n");
  REQUIRE(r.size() == 1);
  CHECK(r[0].tensor == "C");
  // The same two writes with one stride, each inside its half of the block's 128: apart.
  CHECK(races("kernel k(A: f32[M], C: f32[M]) grid(ceildiv(M, 128)) threads(64) {\n"
              "  alloc T: shared f32[64]\n  copy A[bx * 64], T\n  copy T, C[bx * 128]\n  copy T, C[bx * 128 + 64]\n}\n")
            .empty());
}

TEST_CASE("element stores in parallel loops are bounded by the loop extents") {
  std::string tmpl =
      "kernel k(C: f32[M, N]) grid(ceildiv(N, 16), ceildiv(M, 16)) threads(64) {\n"
      "  parallel (i, j) in (ROWS, 16) {\n"
      "    store C[by * 16 + i, bx * 16 + j] = 1.0\n"
      "  }\n"
      "}\n";
  auto with_rows = [&](const std::string& rows) {
    std::string t = tmpl;
    t.replace(t.find("ROWS"), 4, rows);
    return races(t);
  };
  CHECK(with_rows("16").empty());
  auto r = with_rows("17");
  REQUIRE(r.size() == 1);
  CHECK(r[0].axis == "by");
  CHECK(r[0].loc.line == 3);
}

TEST_CASE("a loop variable without a constant bound cannot be proven apart") {
  auto r = races(
      "kernel k(A: f32[M, N], C: f32[M, N]) grid(ceildiv(M, 64)) threads(64) {\n"
      "  alloc T: shared f32[1, 64]\n"
      "  for r in 0 .. M {\n"
      "    copy A[bx * 64 + r, 0], T\n"
      "    copy T, C[bx * 64 + r, 0]\n"
      "  }\n"
      "}\n");
  REQUIRE(r.size() == 1);
  CHECK(r[0].loc.line == 5);
  CHECK(races("kernel k(A: f32[M, N], C: f32[M, N]) grid(ceildiv(M, 64)) threads(64) {\n"
              "  alloc T: shared f32[1, 64]\n  for r in 0 .. 64 {\n    copy A[bx * 64 + r, 0], T\n"
              "    copy T, C[bx * 64 + r, 0]\n  }\n}\n")
            .empty());
}

TEST_CASE("atomic_add and axes of one block are never reported") {
  CHECK(races("kernel k(A: f32[M], C: f32[1]) grid(ceildiv(M, 64)) threads(64) {\n"
              "  alloc T: fragment f32[1]\n  fill T, 1.0\n  atomic_add T, C[0]\n}\n")
            .empty());
  CHECK(races("kernel k(A: f32[64], C: f32[64]) grid(1, 1) threads(64) {\n"
              "  alloc T: shared f32[64]\n  copy A[0], T\n  copy T, C[0]\n}\n")
            .empty());
  // Inputs are never written: blocks may read the same elements.
  CHECK(races("kernel k(A: f32[64], C: f32[M]) grid(ceildiv(M, 64)) threads(64) {\n"
              "  alloc T: shared f32[64]\n  copy A[0], T\n  copy T, C[bx * 64]\n}\n")
            .empty());
}

TEST_CASE("a clean verdict is sound over small grids (brute force)") {
  // copy T, C[bx * S + i * I + O] inside `for i in 0 .. L`, with T of E elements, grid(4):
  // every (S, I, O, L, E) the analysis clears must give disjoint element sets per block.
  int cleared = 0, reported = 0;
  for (int s = 1; s <= 8; ++s)
    for (int step = 0; step <= 3; ++step)
      for (int o = -2; o <= 3; ++o)
        for (int loops = 1; loops <= 3; ++loops)
          for (int e = 1; e <= 4; ++e) {
            std::string text = "kernel k(C: f32[4096]) grid(4) threads(1) {\n  alloc T: shared f32[" + std::to_string(e) +
                               "]\n  fill T, 1.0\n  for i in 0 .. " + std::to_string(loops) + " {\n    copy T, C[bx * " +
                               std::to_string(s) + " + i * " + std::to_string(step) + " + " + std::to_string(o + 8) +
                               " - 8]\n  }\n}\n";
            bool clear = races(text).empty();
            std::map<int, int> owner;
            bool shared = false;
            for (int b = 0; b < 4; ++b)
              for (int i = 0; i < loops; ++i)
                for (int x = 0; x < e; ++x) {
                  int at = b * s + i * step + o + x;
                  auto [it, fresh] = owner.emplace(at, b);
                  shared = shared || (!fresh && it->second != b);
                }
            if (clear) CHECK_MESSAGE(!shared, text);
            (clear ? cleared : reported)++;
          }
  // Both verdicts occur: the sweep exercises the proof, not only its refusals.
  CHECK(cleared > 50);
  CHECK(reported > 50);
}

TEST_CASE("a write at an offset read from a tensor, or inside a loop whose bounds read one, is reported as such") {
  // A paged write: Tbl may give two blocks the same page, which no analysis can rule out.
  auto paged = races(
      "kernel k(X: f32[M, 64], Tbl: i32[P], O: f32[R, 64]) grid(P) threads(64) {\n"
      "  alloc T: shared f32[16, 64]\n"
      "  copy X[bx * 16, 0], T\n"
      "  copy T, O[Tbl[bx] * 16, 0]\n"
      "}\n");
  REQUIRE(paged.size() == 1);
  CHECK(paged[0].loc.line == 4);
  CHECK_MESSAGE(paged[0].message.find("its offset depends on the tensor value 'Tbl[bx]'") != std::string::npos, paged[0].message);
  // Variable-length segments: the rows each block writes come from Cu.
  auto segments = races(
      "kernel k(X: f32[T, 64], Cu: i32[S], Y: f32[T, 64]) grid(S - 1) threads(64) {\n"
      "  alloc row: shared f32[1, 64]\n"
      "  for j in Cu[bx] .. Cu[bx + 1] {\n"
      "    copy X[j, 0], row\n"
      "    copy row, Y[j, 0]\n"
      "  }\n"
      "}\n");
  REQUIRE(segments.size() == 1);
  CHECK(segments[0].loc.line == 5);
  CHECK_MESSAGE(segments[0].message.find("the loop variable 'j', whose bounds read tensor values") != std::string::npos,
                segments[0].message);
  // A dimension that the block index keeps apart still proves the writes apart.
  CHECK(races("kernel k(X: f32[M, 64], Tbl: i32[P], O: f32[R, 64]) grid(P) threads(64) {\n"
              "  alloc T: shared f32[16, 16]\n"
              "  copy X[Tbl[bx] * 16, 0], T\n"
              "  copy T, O[bx * 16, Tbl[bx] % 4 * 16]\n"
              "}\n")
            .empty());
}

}  // namespace block_races_test
