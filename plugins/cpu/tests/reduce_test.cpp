// reduce: sum, max, min and absmax along every axis of 1- to 3-dimensional tiles, with
// clear=true and clear=false, into destinations with the axis removed or kept as 1, for
// float and integer dtypes. max/min follow maxNum: a NaN loses to a number and a row of
// only NaN stays NaN. Max/min/absmax and integer sums match exactly; float sums within
// their length in f32 units.
#include "plugins/cpu/tests/CpuTestUtil.h"

#include <cstdint>

namespace reduce_test {

using namespace tegula;
using namespace tegula::cpu::testing;

namespace {

// Rows of 37 (a vector tail) and 70 (several vectors plus a tail); the second reduce
// combines with the first result (clear=false).
const char* kRows = R"(
kernel rows(X: {T}[M, {L}], Y: {D}[M], Z: {D}[M, 1]) grid(ceildiv(M, 3)) threads(32) {
  alloc x: fragment {T}[3, {L}]
  alloc y: fragment {D}[3]
  alloc z: fragment {D}[3, 1]
  copy X[bx * 3, 0], x, pad={PAD}
  reduce x, y, op={OP}, axis=1
  copy y, Y[bx * 3]
  fill z, 0.25
  reduce x, z, op={OP}, axis=1, clear=false
  copy z, Z[bx * 3, 0]
}
)";

// Reductions across rows (axis 0 of [5, 19]) and the middle axis of [2, 6, 9].
const char* kAxes = R"(
kernel axes(X: {T}[5, 19], W: {T}[2, 6, 9], Y: {D}[19], Z: {D}[2, 1, 9], V: {D}[2, 6]) grid(1) threads(32) {
  alloc x: shared {T}[5, 19]
  alloc w: fragment {T}[2, 6, 9]
  alloc y: fragment {D}[19]
  alloc z: fragment {D}[2, 1, 9]
  alloc v: shared {D}[2, 6]
  copy X, x
  copy W, w
  reduce x, y, op={OP}, axis=0
  copy y, Y
  fill z, -1.5
  reduce w, z, op={OP}, axis=1, clear=false
  copy z, Z
  reduce w, v, op={OP}, axis=2
  copy v, V
}
)";

examples::LaunchData with_nans(const std::string& text, const std::map<std::string, int64_t>& bind, uint64_t seed) {
  ir::Kernel k = parse(text);
  examples::LaunchData d = make_data(k, bind, seed);
  for (size_t p = 0; p < k.params.size(); ++p) {
    if (d.tensors[p].bytes.empty() || p >= 2 || !dtype_is_float(d.tensors[p].dtype)) continue;
    examples::HostTensor& t = d.tensors[p];
    std::vector<double> v = t.values();
    int64_t cols = t.shape.back();
    for (int64_t i = 0; i < t.numel(); ++i) {
      if (i % 11 == 3) v[size_t(i)] = NAN;
      if (i % 17 == 5) v[size_t(i)] = -0.0;
      if (i / cols == 1) v[size_t(i)] = NAN;  // a row of only NaN
    }
    fill_tensor(t, [&](int64_t i) { return v[size_t(i)]; });
  }
  return d;
}

Tolerance tolerance(const char* op, DType src, DType dst, int64_t len) {
  if (std::string(op) != "sum" || !dtype_is_float(src)) return same_value();
  return Tolerance{double(len) * 1e-7, ulps(dst, 1.01)};
}

}  // namespace

TEST_CASE("row reductions, every op, float and integer dtypes, NaN rows") {
  std::vector<std::pair<DType, DType>> types = {{DType::F32, DType::F32}, {DType::F16, DType::F32}, {DType::BF16, DType::BF16},
                                                {DType::E4M3, DType::F32}, {DType::F64, DType::F64}, {DType::F32, DType::F64},
                                                {DType::I8, DType::I32},   {DType::I32, DType::F32}, {DType::U8, DType::F16}};
  for (auto [src, dst] : types) {
    for (const char* op : {"sum", "max", "min", "absmax"}) {
      for (const char* len : {"37", "70"}) {
        CAPTURE(std::string(dtype_name(src)) + "->" + dtype_name(dst) + " " + op + " len " + len);
        std::string text = subst(kRows, {{"T", dtype_name(src)}, {"D", dtype_name(dst)}, {"OP", op}, {"L", len},
                                         {"PAD", std::string(op) == "min" ? "inf" : "-inf"}});
        for (int64_t m : {1, 3, 7}) {
          std::map<std::string, int64_t> bind = {{"M", m}};
          check_against_reference(text, with_nans(text, bind, uint64_t(m)), tolerance(op, src, dst, std::stol(len)));
        }
      }
    }
  }
}

TEST_CASE("reductions across rows and middle axes") {
  for (auto [src, dst] : std::vector<std::pair<DType, DType>>{{DType::F32, DType::F32}, {DType::BF16, DType::F32}, {DType::I32, DType::I32}}) {
    for (const char* op : {"sum", "max", "min", "absmax"}) {
      CAPTURE(std::string(dtype_name(src)) + " " + op);
      std::string text = subst(kAxes, {{"T", dtype_name(src)}, {"D", dtype_name(dst)}, {"OP", op}});
      check_against_reference(text, with_nans(text, {}, 5), tolerance(op, src, dst, 9));
    }
  }
}

}  // namespace reduce_test
