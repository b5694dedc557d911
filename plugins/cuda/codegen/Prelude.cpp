/// \file
/// The device helpers every generated kernel starts with. They use no CUDA header (NVRTC's
/// built-in declarations only), so the generated source is self-contained. Conversions follow
/// core/DType.h exactly: f16/bf16 round to nearest even; fp8 saturates (OCP "satfinite"),
/// with a software path on sm_80, which has no fp8 conversion instruction; integers round to
/// nearest even and saturate, NaN -> 0; conversions from double first round to float "to
/// odd" so that the second rounding is exact.
#include "plugins/cuda/codegen/Emitter.h"
#include "plugins/cuda/codegen/ConversionsText.h"  // kConversions: Conversions.inc as text (generated)

namespace tegula::cuda::gen {

static const char* kCommon = R"cuda(
typedef unsigned long long tg_u64;
struct __align__(64) tg_tmap { unsigned long long q[16]; };
struct __align__(16) tg_v16 { unsigned x, y, z, w; };
struct __align__(8) tg_v8 { unsigned x, y; };

static __device__ __forceinline__ unsigned tg_smem_u32(const void* p) {
  unsigned r;
  asm("{ .reg .u64 a; cvta.to.shared.u64 a, %1; cvt.u32.u64 %0, a; }" : "=r"(r) : "l"(p));
  return r;
}
static __device__ __forceinline__ long long tg_floordiv(long long a, long long b) {
  if (b == 0) return 0;
  long long q = a / b;
  if ((a % b != 0) && ((a < 0) != (b < 0))) --q;
  return q;
}
static __device__ __forceinline__ long long tg_floormod(long long a, long long b) { return b == 0 ? 0 : a - b * tg_floordiv(a, b); }
static __device__ __forceinline__ long long tg_ceildiv(long long a, long long b) { return b == 0 ? 0 : -tg_floordiv(-a, b); }
static __device__ __forceinline__ long long tg_maxi(long long a, long long b) { return a > b ? a : b; }
static __device__ __forceinline__ long long tg_mini(long long a, long long b) { return a < b ? a : b; }
static __device__ __forceinline__ long long tg_absi(long long a) { return a < 0 ? -a : a; }
// Bit operators on 32-bit words (ir/OpList.h): operands modulo 2^32, shift counts modulo 32
// (so no shift is undefined), the result the i32 with those bits.
static __device__ __forceinline__ long long tg_word(unsigned w) { return (long long)(int)w; }
static __device__ __forceinline__ long long tg_band(long long a, long long b) { return tg_word((unsigned)a & (unsigned)b); }
static __device__ __forceinline__ long long tg_bor(long long a, long long b) { return tg_word((unsigned)a | (unsigned)b); }
static __device__ __forceinline__ long long tg_bxor(long long a, long long b) { return tg_word((unsigned)a ^ (unsigned)b); }
static __device__ __forceinline__ long long tg_bnot(long long a) { return tg_word(~(unsigned)a); }
static __device__ __forceinline__ long long tg_shl(long long a, long long n) { return tg_word((unsigned)a << ((unsigned)n & 31u)); }
static __device__ __forceinline__ long long tg_shru(long long a, long long n) { return tg_word((unsigned)a >> ((unsigned)n & 31u)); }
// sigmoid with t = e^-|x|, which never overflows: 1 / (1 + t) for x >= 0, t / (1 + t) below.
static __device__ __forceinline__ float tg_sigmoidf(float x) { float t = expf(-fabsf(x)); return (x >= 0.0f ? 1.0f : t) / (1.0f + t); }
static __device__ __forceinline__ double tg_sigmoid(double x) { double t = exp(-fabs(x)); return (x >= 0.0 ? 1.0 : t) / (1.0 + t); }
// bitcast: a NaN has its dtype's canonical bits with its sign (no conversion keeps a payload).
static __device__ __forceinline__ unsigned tg_fbits(float x) { return x != x ? (__float_as_uint(x) & 0x80000000u) | 0x7fc00000u : __float_as_uint(x); }
static __device__ __forceinline__ unsigned long long tg_dbits(double x) {
  unsigned long long b = (unsigned long long)__double_as_longlong(x);
  return x != x ? (b & 0x8000000000000000ull) | 0x7ff8000000000000ull : b;
}
static __device__ __forceinline__ long long tg_shr(long long a, long long n) {
  unsigned c = (unsigned)n & 31u, w = (unsigned)a;
  unsigned fill = ((int)w < 0 && c != 0u) ? ~(~0u >> c) : 0u;
  return tg_word((w >> c) | fill);
}
// max and min of floats as ir/OpList.h defines them (IEEE 754-2019 maximumNumber and
// minimumNumber: a NaN loses, -0 < +0). For f32 this is what the hardware's min/max
// (FMNMX) already does: the conformance suite's signed_zeros cases pass on the H200 with
// plain fmaxf/fminf, and an explicit zero-sign fix-up (compare, select, AND/OR per max) cost
// the row softmax 5 to 13% (bench/results/h200-2026-12-01.md). The f64 forms keep the fix-up.
static __device__ __forceinline__ float tg_maxf(float a, float b) { return fmaxf(a, b); }
static __device__ __forceinline__ float tg_minf(float a, float b) { return fminf(a, b); }
static __device__ __forceinline__ double tg_maxd(double a, double b) {
  return a == b ? __longlong_as_double(__double_as_longlong(a) & __double_as_longlong(b)) : fmax(a, b);
}
static __device__ __forceinline__ double tg_mind(double a, double b) {
  return a == b ? __longlong_as_double(__double_as_longlong(a) | __double_as_longlong(b)) : fmin(a, b);
}

static __device__ __forceinline__ void tg_dec2_f16(unsigned w, float& a, float& b) {
  asm("{ .reg .f16 l, h; mov.b32 {l, h}, %2; cvt.f32.f16 %0, l; cvt.f32.f16 %1, h; }" : "=f"(a), "=f"(b) : "r"(w));
  a = __uint_as_float(__float_as_uint(a) | ((w & 0x8000u) << 16));  // the NaN's sign (see tg_dec_f16)
  b = __uint_as_float(__float_as_uint(b) | (w & 0x80000000u));
}
static __device__ __forceinline__ void tg_dec2_bf16(unsigned w, float& a, float& b) {
  a = __uint_as_float(w << 16);
  b = __uint_as_float(w & 0xffff0000u);
}
// exp and exp2 in float: the ex2 unit (relative error about 2^-22 (1 + 1.2 |x|)), as
// --use_fast_math and Triton compute them; subnormal results are kept.
static __device__ __forceinline__ float tg_exp2(float x) { float r; asm("ex2.approx.f32 %0, %1;" : "=f"(r) : "f"(x)); return r; }
static __device__ __forceinline__ float tg_exp(float x) { return tg_exp2(x * 1.4426950408889634f); }
static __device__ __forceinline__ unsigned tg_pack_f16x2(float lo, float hi) { unsigned r; asm("cvt.rn.f16x2.f32 %0, %1, %2;" : "=r"(r) : "f"(hi), "f"(lo)); return r; }
static __device__ __forceinline__ unsigned tg_pack_bf16x2(float lo, float hi) { unsigned r; asm("cvt.rn.bf16x2.f32 %0, %1, %2;" : "=r"(r) : "f"(hi), "f"(lo)); return r; }

// Atomic adds the hardware lacks (or rounds differently): compare-and-swap loops that round
// the sum to the tensor's dtype.
static __device__ __forceinline__ void tg_atomic_add_f16(unsigned char* p, float v, bool bf) {
  unsigned* w = (unsigned*)((unsigned long long)p & ~3ull);
  unsigned sh = (unsigned)((unsigned long long)p & 2ull) * 8u;
  unsigned old = *w, assumed;
  do {
    assumed = old;
    unsigned short h = (unsigned short)((assumed >> sh) & 0xffffu);
    float sum = (bf ? tg_dec_bf16(h) : tg_dec_f16(h)) + v;
    unsigned short r = bf ? tg_enc_bf16(sum) : tg_enc_f16(sum);
    old = atomicCAS(w, assumed, (assumed & ~(0xffffu << sh)) | ((unsigned)r << sh));
  } while (old != assumed);
}
static __device__ __forceinline__ void tg_atomic_add_i32(unsigned char* p, double v) {
  int* a = (int*)p;
  int old = *a, assumed;
  do {
    assumed = old;
    old = atomicCAS(a, assumed, tg_d2i((double)assumed + v, (int)0x80000000, 0x7fffffff));
  } while (old != assumed);
}
)cuda";

static const char* kFp8Hw = R"cuda(
static __device__ __forceinline__ unsigned char tg_enc_e4m3(float x) {
  unsigned short r; asm("cvt.rn.satfinite.e4m3x2.f32 %0, %1, %2;" : "=h"(r) : "f"(0.0f), "f"(x)); return (unsigned char)(r & 0xffu);
}
static __device__ __forceinline__ unsigned char tg_enc_e5m2(float x) {
  unsigned short r; asm("cvt.rn.satfinite.e5m2x2.f32 %0, %1, %2;" : "=h"(r) : "f"(0.0f), "f"(x)); return (unsigned char)(r & 0xffu);
}
)cuda";

static const char* kFp8Sw = R"cuda(
static __device__ __forceinline__ unsigned char tg_enc_e4m3(float x) { return tg_enc_e4m3_sw(x); }
static __device__ __forceinline__ unsigned char tg_enc_e5m2(float x) { return tg_enc_e5m2_sw(x); }
)cuda";

// Asynchronous copies (sm_80+): cp.async with zero fill past the tensor's edge.
static const char* kCpAsync = R"cuda(
static __device__ __forceinline__ void tg_cp_async(unsigned dst, const void* src, int bytes, int src_bytes) {
  if (bytes == 16) asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;" :: "r"(dst), "l"(src), "r"(src_bytes) : "memory");
  else if (bytes == 8) asm volatile("cp.async.ca.shared.global [%0], [%1], 8, %2;" :: "r"(dst), "l"(src), "r"(src_bytes) : "memory");
  else asm volatile("cp.async.ca.shared.global [%0], [%1], 4, %2;" :: "r"(dst), "l"(src), "r"(src_bytes) : "memory");
}
static __device__ __forceinline__ void tg_cp_async_commit() { asm volatile("cp.async.commit_group;" ::: "memory"); }
template <int N> static __device__ __forceinline__ void tg_cp_async_wait() { asm volatile("cp.async.wait_group %0;" :: "n"(N) : "memory"); }
)cuda";

// mbarriers and the bulk tensor copy engine (sm_90+).
static const char* kBulk = R"cuda(
static __device__ __forceinline__ void tg_mbar_init(unsigned bar, unsigned count) {
  asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" :: "r"(bar), "r"(count) : "memory");
}
static __device__ __forceinline__ void tg_mbar_init_fence() { asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory"); }
static __device__ __forceinline__ void tg_mbar_expect_tx(unsigned bar, unsigned bytes) {
  asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" :: "r"(bar), "r"(bytes) : "memory");
}
static __device__ __forceinline__ void tg_mbar_wait(unsigned bar, unsigned parity) {
  unsigned done;
  do {
    asm volatile("{ .reg .pred p; mbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2; selp.u32 %0, 1, 0, p; }"
                 : "=r"(done) : "r"(bar), "r"(parity) : "memory");
  } while (!done);
}
static __device__ __forceinline__ void tg_tma_load_2d(unsigned dst, const tg_tmap* map, int c0, int c1, unsigned bar) {
  asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1, {%2, %3}], [%4];"
               :: "r"(dst), "l"((unsigned long long)map), "r"(c0), "r"(c1), "r"(bar) : "memory");
}
static __device__ __forceinline__ void tg_fence_proxy_async() { asm volatile("fence.proxy.async.shared::cta;" ::: "memory"); }
)cuda";

static const char* kWgmma = R"cuda(
static __device__ __forceinline__ void tg_wgmma_fence() { asm volatile("wgmma.fence.sync.aligned;" ::: "memory"); }
static __device__ __forceinline__ void tg_wgmma_commit() { asm volatile("wgmma.commit_group.sync.aligned;" ::: "memory"); }
template <int N> static __device__ __forceinline__ void tg_wgmma_wait() { asm volatile("wgmma.wait_group.sync.aligned %0;" :: "n"(N) : "memory"); }
)cuda";

static const char* kCvtHw = R"cuda(
// cvt.f32.f16 gives a positive NaN for every NaN; the sign is OR-ed back (a no-op for the
// other values), because bitcast reads a NaN's sign back (tegula.map.bitcast.*.bits).
static __device__ __forceinline__ float tg_dec_f16(unsigned short h) {
  float f;
  asm("cvt.f32.f16 %0, %1;" : "=f"(f) : "h"(h));
  return __uint_as_float(__float_as_uint(f) | (((unsigned)h & 0x8000u) << 16));
}
static __device__ __forceinline__ unsigned short tg_enc_f16(float f) { unsigned short h; asm("cvt.rn.f16.f32 %0, %1;" : "=h"(h) : "f"(f)); return h; }
static __device__ __forceinline__ unsigned short tg_enc_bf16(float f) { unsigned short h; asm("cvt.rn.bf16.f32 %0, %1;" : "=h"(h) : "f"(f)); return h; }
// Two elements per 32-bit word (the low half is the first element).
static __device__ __forceinline__ unsigned tg_enc2_f16(float a, float b) { unsigned r; asm("cvt.rn.f16x2.f32 %0, %1, %2;" : "=r"(r) : "f"(b), "f"(a)); return r; }
static __device__ __forceinline__ unsigned tg_enc2_bf16(float a, float b) { unsigned r; asm("cvt.rn.bf16x2.f32 %0, %1, %2;" : "=r"(r) : "f"(b), "f"(a)); return r; }
)cuda";

static const char* kCvtC = R"cuda(
// cvt.f32.f16 gives a positive NaN for every NaN; the sign is OR-ed back (a no-op for the
// other values), because bitcast reads a NaN's sign back (tegula.map.bitcast.*.bits).
static __device__ __forceinline__ float tg_dec_f16(unsigned short h) {
  float f;
  asm("cvt.f32.f16 %0, %1;" : "=f"(f) : "h"(h));
  return __uint_as_float(__float_as_uint(f) | (((unsigned)h & 0x8000u) << 16));
}
static __device__ __forceinline__ unsigned short tg_enc_f16(float f) { return tg_enc_f16_c(f); }
static __device__ __forceinline__ unsigned short tg_enc_bf16(float f) { return tg_enc_bf16_c(f); }
static __device__ __forceinline__ unsigned tg_enc2_f16(float a, float b) { return (unsigned)tg_enc_f16_c(a) | ((unsigned)tg_enc_f16_c(b) << 16); }
static __device__ __forceinline__ unsigned tg_enc2_bf16(float a, float b) { return (unsigned)tg_enc_bf16_c(a) | ((unsigned)tg_enc_bf16_c(b) << 16); }
)cuda";

// Rounding an f32 value to a narrow float, held as f32 again. A NaN stays the NaN it is: the
// encoders give the positive canonical NaN for any NaN (cvt does), and bitcast reads a NaN's
// sign back (tegula.map.bitcast.*.bits), as the reference keeps it.
static const char* kRound = R"cuda(
static __device__ __forceinline__ float tg_rnd_f16(float v) { float r = tg_dec_f16(tg_enc_f16(v)); return v != v ? v : r; }
static __device__ __forceinline__ float tg_rnd_bf16(float v) { float r = tg_dec_bf16(tg_enc_bf16(v)); return v != v ? v : r; }
static __device__ __forceinline__ float tg_rnd_e4m3(float v) { float r = tg_dec_e4m3(tg_enc_e4m3(v)); return v != v ? v : r; }
static __device__ __forceinline__ float tg_rnd_e5m2(float v) { float r = tg_dec_e5m2(tg_enc_e5m2(v)); return v != v ? v : r; }
)cuda";

std::string prelude(int sm, bool c_encoders) {
  std::string s = "// Generated by the tegula cuda plugin.\n";
  s += "#define TG_FN static __device__ __forceinline__\n";
  s += kConversions;
  s += c_encoders ? kCvtC : kCvtHw;
  s += kCommon;
  s += sm >= 89 ? kFp8Hw : kFp8Sw;
  s += kRound;
  s += kCpAsync;
  if (sm >= 90) s += kBulk;
  if (sm == 90) s += kWgmma;
  return s;
}

}  // namespace tegula::cuda::gen
