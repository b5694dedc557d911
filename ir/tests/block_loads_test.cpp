// Block-level loads (ir/OpList.h): an integer element of a global tensor read as one value
// for the whole block, in loop bounds (variable-length segments: empty, of one row, long;
// pipelined loops too), tile offsets (a paged gather through a block table), if conditions
// (a flag per block), fill values, and nested in each other's indices. The reference
// interpreter computes each as the direct loops below do; an index outside the tensor is a
// located error, as for element loads; the text prints and parses back as written.
#include <doctest/doctest.h>

#include "ir/Printer.h"
#include "ir/tests/RunUtil.h"

namespace block_loads_test {

using namespace tegula;
using namespace tegula::ir;
using testing::Value;

namespace {

// Seven segments of 40 rows: empty, one row, five, empty, thirteen, one, twenty.
const std::vector<double> kOffsets = {0, 0, 1, 6, 6, 19, 20, 40};
constexpr int kRows = 40, kCols = 8, kSegments = 7;

std::vector<double> rows_input() {
  std::vector<double> x(kRows * kCols);
  for (int r = 0; r < kRows; ++r)
    for (int c = 0; c < kCols; ++c) x[size_t(r * kCols + c)] = 0.5 * r - c;
  return x;
}

}  // namespace

TEST_CASE("a serial loop over [Cu[bx], Cu[bx + 1]) sums each segment, empty ones and one-row ones included") {
  std::vector<Value> args = {Value::tensor(rows_input()), Value::tensor(kOffsets),
                             Value::tensor(std::vector<double>(kSegments * kCols, -99)), Value::scalar(kRows),
                             Value::scalar(double(kOffsets.size())), Value::scalar(kSegments)};
  Status st = testing::run_kernel(
      "kernel seg_sum(X: f32[T, 8], Cu: i32[S], Y: f32[B, 8]) grid(B) threads(32) {\n"
      "  alloc acc: fragment f32[1, 8]\n"
      "  alloc row: fragment f32[1, 8]\n"
      "  fill acc, 0.0\n"
      "  for j in Cu[bx] .. Cu[bx + 1] {\n"
      "    copy X[j, 0], row\n"
      "    map acc = acc + row\n"
      "  }\n"
      "  copy acc, Y[bx, 0]\n"
      "}\n",
      args);
  REQUIRE_MESSAGE(st.is_ok(), st.str());
  for (int s = 0; s < kSegments; ++s)
    for (int c = 0; c < kCols; ++c) {
      double want = 0;
      for (int r = int(kOffsets[size_t(s)]); r < int(kOffsets[size_t(s) + 1]); ++r) want += 0.5 * r - c;
      CHECK(args[2].values[size_t(s * kCols + c)] == want);
    }
}

TEST_CASE("a pipelined loop with loaded bounds copies each segment's rows and leaves the rest alone") {
  // Rows 0 and 1 belong to no segment; the segments are [2, 2), [2, 3), [3, 9).
  const std::vector<double> cu = {2, 2, 3, 9};
  for (int stages : {1, 2, 3}) {
    CAPTURE(stages);
    std::vector<Value> args = {Value::tensor(rows_input()), Value::tensor(cu),
                               Value::tensor(std::vector<double>(kRows * kCols, -7)), Value::scalar(kRows),
                               Value::scalar(double(cu.size()))};
    Status st = testing::run_kernel(
        "kernel seg_copy(X: f32[T, 8], Cu: i32[S], Y: f32[T, 8]) grid(S - 1) threads(32) {\n"
        "  alloc row: shared f32[1, 8]\n"
        "  pipelined j in Cu[bx] .. Cu[bx + 1], stages=" + std::to_string(stages) + " {\n"
        "    copy X[j, 0], row\n"
        "    copy row, Y[j, 0]\n"
        "  }\n"
        "}\n",
        args);
    REQUIRE_MESSAGE(st.is_ok(), st.str());
    for (int r = 0; r < kRows; ++r)
      for (int c = 0; c < kCols; ++c) CHECK(args[2].values[size_t(r * kCols + c)] == (r >= 2 && r < 9 ? 0.5 * r - c : -7));
  }
}

TEST_CASE("a block table gives the block of K each output block copies (a paged gather)") {
  const std::vector<double> table = {3, 0, 4, 4, 1};
  const int page = 4, pages = 5;
  std::vector<double> kv(pages * page * kCols);
  for (size_t i = 0; i < kv.size(); ++i) kv[i] = double(i) * 0.25;
  std::vector<Value> args = {Value::tensor(kv), Value::tensor(table), Value::tensor(std::vector<double>(table.size() * page * kCols, 0)),
                             Value::scalar(pages * page), Value::scalar(double(table.size())),
                             Value::scalar(double(table.size() * page))};
  Status st = testing::run_kernel(
      "kernel paged(K: f16[R, 8], Tbl: i32[P], O: f16[Q, 8]) grid(P) threads(32) {\n"
      "  alloc t: shared f16[4, 8]\n"
      "  copy K[Tbl[bx] * 4, 0], t\n"
      "  copy t, O[bx * 4, 0]\n"
      "}\n",
      args);
  REQUIRE_MESSAGE(st.is_ok(), st.str());
  for (size_t b = 0; b < table.size(); ++b)
    for (int r = 0; r < page; ++r)
      for (int c = 0; c < kCols; ++c)
        CHECK(args[2].values[(b * page + size_t(r)) * kCols + size_t(c)] == kv[(size_t(table[b]) * page + size_t(r)) * kCols + size_t(c)]);
}

TEST_CASE("an if on a loaded flag picks each block's branch") {
  const std::vector<double> flags = {0, 1, 7, 0};
  const int n = 4 * 4;
  std::vector<double> x(n * kCols);
  for (size_t i = 0; i < x.size(); ++i) x[i] = double(i);
  std::vector<Value> args = {Value::tensor(x), Value::tensor(flags), Value::tensor(std::vector<double>(n * kCols, 0)),
                             Value::scalar(n), Value::scalar(double(flags.size()))};
  Status st = testing::run_kernel(
      "kernel flag(X: f32[N, 8], F: i32[G], Y: f32[N, 8]) grid(ceildiv(N, 4)) threads(32) {\n"
      "  alloc t: fragment f32[4, 8]\n"
      "  copy X[bx * 4, 0], t\n"
      "  if F[bx] != 0 {\n"
      "    map t = t * 2.0\n"
      "  } else {\n"
      "    fill t, -1.0\n"
      "  }\n"
      "  copy t, Y[bx * 4, 0]\n"
      "}\n",
      args);
  REQUIRE_MESSAGE(st.is_ok(), st.str());
  for (int r = 0; r < n; ++r)
    for (int c = 0; c < kCols; ++c) {
      size_t i = size_t(r * kCols + c);
      CHECK(args[2].values[i] == (flags[size_t(r / 4)] != 0 ? 2 * x[i] : -1));
    }
}

TEST_CASE("loads nest in each other's indices, and a fill takes a loaded value") {
  // Block b sums segment Perm[b] and adds 1000 * Cu[Perm[b]] through a fill.
  const std::vector<double> perm = {6, 0, 4, 1, 5, 3, 2};
  std::vector<Value> args = {Value::tensor(rows_input()), Value::tensor(kOffsets), Value::tensor(perm),
                             Value::tensor(std::vector<double>(kSegments * kCols, -99)), Value::scalar(kRows),
                             Value::scalar(double(kOffsets.size())), Value::scalar(kSegments)};
  Status st = testing::run_kernel(
      "kernel nested(X: f32[T, 8], Cu: i32[S], Perm: i32[B], Y: f32[B, 8]) grid(B) threads(32) {\n"
      "  alloc acc: fragment f32[1, 8]\n"
      "  alloc row: fragment f32[1, 8]\n"
      "  fill acc, 1000 * Cu[Perm[bx]]\n"
      "  for j in Cu[Perm[bx]] .. Cu[Perm[bx] + 1] {\n"
      "    copy X[j, 0], row\n"
      "    map acc = acc + row\n"
      "  }\n"
      "  copy acc, Y[bx, 0]\n"
      "}\n",
      args);
  REQUIRE_MESSAGE(st.is_ok(), st.str());
  for (int b = 0; b < kSegments; ++b) {
    size_t s = size_t(perm[size_t(b)]);
    for (int c = 0; c < kCols; ++c) {
      double want = 1000 * kOffsets[s];
      for (int r = int(kOffsets[s]); r < int(kOffsets[s + 1]); ++r) want += 0.5 * r - c;
      CHECK(args[3].values[size_t(b * kCols + c)] == want);
    }
  }
}

TEST_CASE("a block-level load outside its tensor is an error at the load, as an element load is") {
  // Four blocks, three flags: block 3 reads F[3].
  std::vector<Value> args = {Value::tensor(std::vector<double>(16 * kCols, 1)), Value::tensor({1, 0, 1}),
                             Value::tensor(std::vector<double>(16 * kCols, 0)), Value::scalar(16), Value::scalar(3)};
  Status st = testing::run_kernel(
      "kernel flag(X: f32[N, 8], F: i32[G], Y: f32[N, 8]) grid(ceildiv(N, 4)) threads(32) {\n"
      "  alloc t: fragment f32[4, 8]\n"
      "  copy X[bx * 4, 0], t\n"
      "  if F[bx] != 0 {\n"
      "    copy t, Y[bx * 4, 0]\n"
      "  }\n"
      "}\n",
      args);
  REQUIRE(!st.is_ok());
  CHECK(st.code() == ErrorCode::OutOfRange);
  CHECK(st.loc().line == 4);
  CHECK(st.loc().column == 6);
  CHECK_MESSAGE(st.message().find("index 3 is outside 'F' (dimension 0 has size 3)") != std::string::npos, st.str());
}

TEST_CASE("block-level loads print and parse back as written") {
  const std::string text =
      "kernel k(X: f32[T, 8], Cu: i32[S], Y: f32[T, 8]) grid(S - 1) threads(32) {\n"
      "  alloc row: shared f32[1, 8]\n"
      "  for j in Cu[bx] .. Cu[bx + 1] {\n"
      "    if Cu[j % 2] > 0 {\n"
      "      copy X[Cu[bx] + j, 0], row\n"
      "      copy row, Y[j, 0]\n"
      "    }\n"
      "  }\n"
      "}\n";
  auto k = parse_and_verify(text, "k.tile");
  REQUIRE_MESSAGE(k.is_ok(), k.status().str());
  std::string printed = print_kernel(*k);
  CHECK(printed.find("for j in Cu[bx] .. Cu[bx + 1] {") != std::string::npos);
  CHECK(printed.find("if Cu[j % 2] > 0 {") != std::string::npos);
  CHECK(printed.find("copy X[Cu[bx] + j, 0], row") != std::string::npos);
  auto again = parse_and_verify(printed, "printed.tile");
  REQUIRE_MESSAGE(again.is_ok(), again.status().str());
  CHECK(print_kernel(*again) == printed);
}

}  // namespace block_loads_test
