// A copy between any two dtypes (global to global, and through a shared buffer of a third
// dtype) stores exactly what the reference stores: every encoding of the 8- and 16-bit
// dtypes, and for f32, f64 and i32 every rounding boundary of every narrow dtype (the
// midpoints between neighbours and their neighbours), the overflow edges, specials and a
// dense random sample.
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>

#include "plugins/cpu/tests/CpuTestUtil.h"

namespace convert_pairs_test {

using namespace tegula;
using namespace tegula::cpu::testing;

namespace {

/// The narrow floats beyond OCP FP8, converted by the backend's generic codec.
const DType kGenericFloats[] = {DType::E4M3FNUZ, DType::E5M2FNUZ, DType::E2M3, DType::E3M2,
                                DType::E2M1,     DType::E8M0,     DType::UE4M3};

/// Doubles that probe every rounding decision of the narrow dtypes.
std::vector<double> boundary_values() {
  std::vector<double> v = {0.0, -0.0, 1.0, -1.0, 0.5, 1.5, 2.5, -2.5, 3.5, 127.5, 128.5, -128.5, 255.5, 256.0, -129.0,
                           2147483647.0, 2147483647.5, 2147483648.0, -2147483648.5, -2147483649.0, 1e10, -1e10,
                           std::numeric_limits<double>::infinity(), -std::numeric_limits<double>::infinity(),
                           std::numeric_limits<double>::quiet_NaN(), -std::numeric_limits<double>::quiet_NaN(),
                           std::numeric_limits<double>::denorm_min(), std::numeric_limits<double>::max(),
                           double(std::numeric_limits<float>::max()), double(std::numeric_limits<float>::denorm_min()),
                           464.0, 480.0, 448.0, 449.0, 57344.0, 61440.0, 61439.0, 65504.0, 65519.99, 65520.0};
  auto neighbours = [&](double mid) {
    v.push_back(mid);
    v.push_back(std::nextafter(mid, INFINITY));
    v.push_back(std::nextafter(mid, -INFINITY));
    v.push_back(double(std::nextafter(float(mid), INFINITY)));
    v.push_back(double(std::nextafter(float(mid), -INFINITY)));
  };
  // Midpoints between consecutive values of every narrow float format.
  for (uint32_t bits = 0; bits < 0x7c00; ++bits) neighbours((f16_to_double(uint16_t(bits)) + f16_to_double(uint16_t(bits + 1))) / 2);
  for (uint32_t bits = 0; bits < 0x7f80; bits += 3) neighbours((bf16_to_double(uint16_t(bits)) + bf16_to_double(uint16_t(bits + 1))) / 2);
  for (uint32_t bits = 0; bits < 0x7e; ++bits) neighbours((e4m3_to_double(uint8_t(bits)) + e4m3_to_double(uint8_t(bits + 1))) / 2);
  for (uint32_t bits = 0; bits < 0x7b; ++bits) neighbours((e5m2_to_double(uint8_t(bits)) + e5m2_to_double(uint8_t(bits + 1))) / 2);
  // The generic formats (core/DType.h's FloatFormat): their midpoints, and past their max.
  for (DType d : kGenericFloats) {
    const FloatFormat& f = *float_format(d);
    for (uint64_t bits = 0; bits <= f.max_magnitude(); ++bits) {
      double lo = float_decode(f, bits);
      double hi = bits < f.max_magnitude() ? float_decode(f, bits + 1) : (f.man_bits == 0 ? 2 * lo : lo + (lo - float_decode(f, bits - 1)));
      neighbours((lo + hi) / 2);
    }
  }
  // tf32: midpoints at a spread of exponents.
  for (int e = -140; e <= 128; e += 3) {
    for (double m : {1.0, 1.0 + std::ldexp(1.0, -10), 2.0 - std::ldexp(1.0, -10)}) neighbours(std::ldexp(m + std::ldexp(1.0, -11), e));
  }
  // Integer ties.
  for (int i = -300; i <= 300; ++i) neighbours(i + 0.5);
  size_t n = v.size();
  for (size_t i = 0; i < n; ++i) v.push_back(-v[i]);
  Rng rng(99);
  for (int i = 0; i < 20000; ++i) {
    uint64_t bits = rng.next();
    double d;
    std::memcpy(&d, &bits, 8);
    v.push_back(d);
    uint32_t b32 = uint32_t(rng.next());
    float f;
    std::memcpy(&f, &b32, 4);
    v.push_back(double(f));
    v.push_back(rng.uniform(-1000.0, 1000.0));
  }
  return v;
}

/// Source elements: every encoding for dtypes of up to 16 bits; boundary values otherwise.
std::vector<uint8_t> source_bytes(DType src, int64_t* count) {
  size_t esize = dtype_size(src);
  std::vector<uint8_t> bytes;
  if (esize <= 2 && src != DType::Bool) {
    uint32_t n = esize == 1 ? 256u : 65536u;
    bytes.resize(size_t(n) * esize);
    for (uint32_t i = 0; i < n; ++i) std::memcpy(bytes.data() + size_t(i) * esize, &i, esize);
  } else if (src == DType::Bool) {
    // Bytes other than 0 and 1 are true too.
    for (uint32_t i = 0; i < 256; ++i) bytes.push_back(uint8_t(i));
  } else {
    std::vector<double> values = boundary_values();
    bytes.resize(values.size() * esize);
    for (size_t i = 0; i < values.size(); ++i) store_element(src, values[i], bytes.data() + i * esize);
    if (src == DType::F32) {
      // Raw f32 bit patterns too: NaNs with payloads, subnormals.
      for (uint32_t b : {0x7f800001u, 0xffc00123u, 0x7fbfffffu, 0x00000001u, 0x807fffffu, 0x00400000u}) {
        size_t at = bytes.size();
        bytes.resize(at + 4);
        std::memcpy(bytes.data() + at, &b, 4);
      }
    }
  }
  *count = int64_t(bytes.size() / esize);
  return bytes;
}

const char* kDirect = R"(
kernel convert(X: {S}[N], Y: {D}[N]) grid(ceildiv(N, 1000)) threads(1) {
  copy X[bx * 1000], Y[bx * 1000], extent=[1000]
}
)";

// Through a shared buffer of the destination dtype, and back out of it.
const char* kStaged = R"(
kernel convert_staged(X: {S}[N], Y: {D}[N]) grid(ceildiv(N, 999)) threads(1) {
  alloc t: shared {D}[999]
  copy X[bx * 999], t, pad=7
  copy t, Y[bx * 999]
}
)";

void check_pair(DType src, DType dst, const char* tmpl) {
  std::string pair = std::string(dtype_name(src)) + " -> " + dtype_name(dst) + (tmpl == kStaged ? " (staged)" : "");
  CAPTURE(pair);
  std::string text = subst(tmpl, {{"S", dtype_name(src)}, {"D", dtype_name(dst)}});
  ir::Kernel k = parse(text);
  int64_t n = 0;
  std::vector<uint8_t> bytes = source_bytes(src, &n);
  examples::LaunchData data = make_data(k, {{"N", n}}, 1);
  data.tensors[0].bytes = bytes;
  // The expected result, straight from core's converters (what the reference's copy does).
  examples::HostTensor want = data.tensors[1];
  for (int64_t i = 0; i < n; ++i)
    store_element(dst, load_element(src, bytes.data() + size_t(i) * dtype_size(src)),
                  want.bytes.data() + size_t(i) * dtype_size(dst));
  Status st = run_cpu(text, k, data);
  REQUIRE_MESSAGE(st.is_ok(), st.str());
  examples::OutputComparison c = compare_tensor("Y", data.tensors[1], want, Tolerance{});
  CHECK_MESSAGE(c.mismatches == 0, c.mismatches, " of ", n, " wrong; ", c.first_mismatch);
  CHECK(data.tensors[0].bytes == bytes);
}

}  // namespace

TEST_CASE("every dtype pair, global to global") {
  for (DType src : all_dtypes())
    for (DType dst : all_dtypes()) check_pair(src, dst, kDirect);
}

TEST_CASE("the generic narrow floats to and from f32, f64, i32, e4m3 and themselves") {
  // Not every pair of all 18 dtypes (that is 324 kernels a layout): each generic format
  // meets the sources that reach every rounding decision (f32 and f64 boundary values, i32)
  // and the destinations that show every decoded value exactly.
  for (DType d : kGenericFloats) {
    for (DType other : {DType::F32, DType::F64, DType::I32}) {
      check_pair(other, d, kDirect);
      check_pair(d, other, kDirect);
    }
    check_pair(d, d, kDirect);
    check_pair(d, DType::E4M3, kDirect);
    check_pair(DType::F32, d, kStaged);
    check_pair(d, DType::F32, kStaged);
  }
}

TEST_CASE("every dtype pair, through a shared buffer") {
  for (DType src : all_dtypes())
    for (DType dst : all_dtypes()) check_pair(src, dst, kStaged);
}

}  // namespace convert_pairs_test
