#include "core/Sha256.h"

#include <algorithm>
#include <cstdint>
#include <cstring>

#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#include <immintrin.h>
#define TEGULA_SHA256_X86 1
#endif

namespace tegula {

namespace {

// FIPS 180-4, 4.2.2: the first 32 bits of the fractional parts of the cube roots of the
// first 64 primes.
constexpr uint32_t kRound[64] = {
    0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4,
    0xab1c5ed5, 0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe,
    0x9bdc06a7, 0xc19bf174, 0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f,
    0x4a7484aa, 0x5cb0a9dc, 0x76f988da, 0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7,
    0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967, 0x27b70a85, 0x2e1b2138, 0x4d2c6dfc,
    0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85, 0xa2bfe8a1, 0xa81a664b,
    0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070, 0x19a4c116,
    0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
    0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7,
    0xc67178f2,
};

// FIPS 180-4, 5.3.3: the first 32 bits of the fractional parts of the square roots of the
// first 8 primes.
constexpr uint32_t kInitial[8] = {
    0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
    0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19,
};

inline uint32_t rotr(uint32_t x, int n) { return (x >> n) | (x << (32 - n)); }

inline uint32_t load_be32(const uint8_t* p) {
  return (uint32_t(p[0]) << 24) | (uint32_t(p[1]) << 16) | (uint32_t(p[2]) << 8) | uint32_t(p[3]);
}

inline void store_be32(uint8_t* p, uint32_t v) {
  p[0] = uint8_t(v >> 24);
  p[1] = uint8_t(v >> 16);
  p[2] = uint8_t(v >> 8);
  p[3] = uint8_t(v);
}

void portable_block(uint32_t* state, const uint8_t* p) {
  uint32_t w[64];
  for (int t = 0; t < 16; ++t) w[t] = load_be32(p + 4 * t);
  for (int t = 16; t < 64; ++t) {
    uint32_t s0 = rotr(w[t - 15], 7) ^ rotr(w[t - 15], 18) ^ (w[t - 15] >> 3);
    uint32_t s1 = rotr(w[t - 2], 17) ^ rotr(w[t - 2], 19) ^ (w[t - 2] >> 10);
    w[t] = w[t - 16] + s0 + w[t - 7] + s1;
  }

  uint32_t a = state[0], b = state[1], c = state[2], d = state[3];
  uint32_t e = state[4], f = state[5], g = state[6], h = state[7];
  for (int t = 0; t < 64; ++t) {
    uint32_t big_s1 = rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25);
    uint32_t ch = (e & f) ^ (~e & g);
    uint32_t t1 = h + big_s1 + ch + kRound[t] + w[t];
    uint32_t big_s0 = rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22);
    uint32_t maj = (a & b) ^ (a & c) ^ (b & c);
    uint32_t t2 = big_s0 + maj;
    h = g;
    g = f;
    f = e;
    e = d + t1;
    d = c;
    c = b;
    b = a;
    a = t1 + t2;
  }
  state[0] += a;
  state[1] += b;
  state[2] += c;
  state[3] += d;
  state[4] += e;
  state[5] += f;
  state[6] += g;
  state[7] += h;
}

#if TEGULA_SHA256_X86
/// The SHA extensions (sha256rnds2 does two rounds, sha256msg1/msg2 the message schedule)
/// keep the state as two vectors, ABEF and CDGH, rather than A..H.
__attribute__((target("sha,sse4.1,ssse3"))) void x86_blocks(uint32_t* state, const uint8_t* p, size_t count) {
  const __m128i byte_swap = _mm_set_epi64x(0x0c0d0e0f08090a0bULL, 0x0405060700010203ULL);
  __m128i dcba = _mm_loadu_si128(reinterpret_cast<const __m128i*>(state));
  __m128i hgfe = _mm_loadu_si128(reinterpret_cast<const __m128i*>(state + 4));
  __m128i cdab = _mm_shuffle_epi32(dcba, 0xB1);
  __m128i efgh = _mm_shuffle_epi32(hgfe, 0x1B);
  __m128i abef = _mm_alignr_epi8(cdab, efgh, 8);
  __m128i cdgh = _mm_blend_epi16(efgh, cdab, 0xF0);
  for (; count > 0; --count, p += 64) {
    const __m128i abef_in = abef, cdgh_in = cdgh;
    __m128i w[16];
    for (int i = 0; i < 4; ++i)
      w[i] = _mm_shuffle_epi8(_mm_loadu_si128(reinterpret_cast<const __m128i*>(p + 16 * i)), byte_swap);
    for (int i = 4; i < 16; ++i) {
      // w[t] = w[t-16] + s0(w[t-15]) + w[t-7] + s1(w[t-2]), four words at a time.
      __m128i x = _mm_sha256msg1_epu32(w[i - 4], w[i - 3]);
      x = _mm_add_epi32(x, _mm_alignr_epi8(w[i - 1], w[i - 2], 4));
      w[i] = _mm_sha256msg2_epu32(x, w[i - 1]);
    }
    for (int i = 0; i < 16; ++i) {
      __m128i wk = _mm_add_epi32(w[i], _mm_loadu_si128(reinterpret_cast<const __m128i*>(kRound + 4 * i)));
      cdgh = _mm_sha256rnds2_epu32(cdgh, abef, wk);
      abef = _mm_sha256rnds2_epu32(abef, cdgh, _mm_shuffle_epi32(wk, 0x0E));
    }
    abef = _mm_add_epi32(abef, abef_in);
    cdgh = _mm_add_epi32(cdgh, cdgh_in);
  }
  __m128i feba = _mm_shuffle_epi32(abef, 0x1B);
  __m128i dchg = _mm_shuffle_epi32(cdgh, 0xB1);
  _mm_storeu_si128(reinterpret_cast<__m128i*>(state), _mm_blend_epi16(feba, dchg, 0xF0));
  _mm_storeu_si128(reinterpret_cast<__m128i*>(state + 4), _mm_alignr_epi8(dchg, feba, 8));
}

bool x86_has_sha() {
  unsigned a = 0, b = 0, c = 0, d = 0;
  if (!__get_cpuid(1, &a, &b, &c, &d)) return false;
  bool ssse3 = c & (1u << 9), sse41 = c & (1u << 19);
  if (!__get_cpuid_count(7, 0, &a, &b, &c, &d)) return false;
  return ssse3 && sse41 && (b & (1u << 29));
}
#endif

bool use_x86_sha() {
#if TEGULA_SHA256_X86
  static const bool has = x86_has_sha();
  return has;
#else
  return false;
#endif
}

}  // namespace

const char* sha256_implementation() { return use_x86_sha() ? "x86 sha extensions" : "portable"; }

Sha256::Sha256() { std::memcpy(h_, kInitial, sizeof h_); }
Sha256::Sha256(PortableOnly) : portable_only_(true) { std::memcpy(h_, kInitial, sizeof h_); }

void Sha256::blocks(const uint8_t* p, size_t count) {
  if (count == 0) return;
#if TEGULA_SHA256_X86
  if (!portable_only_ && use_x86_sha()) {
    x86_blocks(h_, p, count);
    return;
  }
#endif
  for (; count > 0; --count, p += 64) portable_block(h_, p);
}

Sha256& Sha256::update(const void* data, size_t size) {
  const uint8_t* p = static_cast<const uint8_t*>(data);
  total_ += size;
  // Top up a partial block first, then hash whole blocks straight from the input.
  if (buf_len_ > 0) {
    size_t take = std::min(size, sizeof buf_ - buf_len_);
    std::memcpy(buf_ + buf_len_, p, take);
    buf_len_ += take;
    p += take;
    size -= take;
    if (buf_len_ < sizeof buf_) return *this;
    blocks(buf_, 1);
    buf_len_ = 0;
  }
  size_t whole = size / sizeof buf_;
  blocks(p, whole);
  p += whole * sizeof buf_;
  size -= whole * sizeof buf_;
  if (size > 0) std::memcpy(buf_, p, size);
  buf_len_ = size;
  return *this;
}

std::array<uint8_t, 32> Sha256::digest() {
  // FIPS 180-4, 5.1.1: a 1 bit, zeros up to 56 mod 64 bytes, then the length in bits.
  uint64_t bit_length = total_ * 8;
  uint8_t pad[72] = {0x80};
  size_t pad_len = (buf_len_ < 56 ? 56 : 120) - buf_len_;
  for (int i = 0; i < 8; ++i) pad[pad_len + size_t(i)] = uint8_t(bit_length >> (56 - 8 * i));
  update(pad, pad_len + 8);

  std::array<uint8_t, 32> out;
  for (int i = 0; i < 8; ++i) store_be32(out.data() + 4 * i, h_[i]);
  return out;
}

std::string Sha256::hex() {
  static const char kDigits[] = "0123456789abcdef";
  std::array<uint8_t, 32> d = digest();
  std::string out;
  out.reserve(64);
  for (uint8_t b : d) {
    out += kDigits[b >> 4];
    out += kDigits[b & 15];
  }
  return out;
}

std::string sha256_hex(std::string_view data) { return Sha256().update(data).hex(); }

}  // namespace tegula
