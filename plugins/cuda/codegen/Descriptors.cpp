/// \file
/// Shared-memory matrix descriptors; see Descriptors.h.
#include "plugins/cuda/codegen/Descriptors.h"

#include <cstdint>

namespace tegula::cuda::gen {

Result<SmemDescriptor> make_descriptor(const Buffer& b, bool k_major) {
  const ir::SharedLayout& l = b.layout;
  SmemDescriptor d;
  d.k_major = k_major;
  d.es = int64_t(dtype_size(b.dtype));
  if (b.shape.size() != 2) return error(ErrorCode::Unsupported, "a matrix descriptor over a tile of rank " + itos(int64_t(b.shape.size())));
  d.rows = b.shape[0];
  if (l.pad || !l.block) return error(ErrorCode::Unsupported, "shared buffer '" + b.name + "' is not laid out in column blocks for a matrix descriptor");
  int64_t S = l.block * d.es;
  d.block = l.block;
  if (S == 16 && l.swizzle_bits == 0) {
    d.swizzle_bytes = 0;
  } else if ((S == 32 && l.swizzle_bits == 1) || (S == 64 && l.swizzle_bits == 2) || (S == 128 && l.swizzle_bits == 3)) {
    if (l.swizzle_base != 4 || l.swizzle_shift != 3) return error(ErrorCode::Unsupported, "shared buffer '" + b.name + "' has a swizzle no descriptor encodes");
    d.swizzle_bytes = S;
  } else {
    return error(ErrorCode::Unsupported, "shared buffer '" + b.name + "' has column blocks of " + itos(S) + " bytes with a " + itos(l.swizzle_bits) +
                                             "-bit swizzle, which no descriptor mode encodes");
  }
  if (d.rows % 8) return error(ErrorCode::Unsupported, "shared buffer '" + b.name + "' has rows not in groups of 8");
  if (k_major) {
    d.sbo = 8 * (d.swizzle_bytes ? d.swizzle_bytes : 16);
    d.lbo = d.swizzle_bytes ? 16 : d.rows * 16;
  } else if (d.swizzle_bytes) {
    d.lbo = d.rows * d.swizzle_bytes;  // next MN atom: the next column block
    d.sbo = 8 * d.swizzle_bytes;       // next 8 K rows
  } else {
    d.lbo = 8 * 16;          // next 8 K rows
    d.sbo = d.rows * 16;     // next 8 MN elements: the next column block
  }
  return d;
}

int64_t descriptor_start_value(const SmemDescriptor& d, int64_t x0, int64_t k0) {
  int64_t S = d.swizzle_bytes ? d.swizzle_bytes : 16;
  if (d.k_major) return (k0 / d.block) * d.rows * S + x0 * S + (k0 % d.block) * d.es;
  return (x0 / d.block) * d.rows * S + k0 * S + (x0 % d.block) * d.es;
}

std::string descriptor_start(const SmemDescriptor& d, const std::string& x0, int64_t k0) {
  int64_t S = d.swizzle_bytes ? d.swizzle_bytes : 16;
  if (d.k_major) return "(" + itos((k0 / d.block) * d.rows * S + (k0 % d.block) * d.es) + " + (" + x0 + ") * " + itos(S) + ")";
  return "(((" + x0 + ") / " + itos(d.block) + ") * " + itos(d.rows * S) + " + " + itos(k0 * S) + ")";
}

static int64_t swizzle(const SmemDescriptor& d, int64_t b) {
  int bits = d.swizzle_bytes == 128 ? 3 : d.swizzle_bytes == 64 ? 2 : d.swizzle_bytes == 32 ? 1 : 0;
  if (!bits) return b;
  return b ^ (((b >> 7) & ((int64_t(1) << bits) - 1)) << 4);
}

Status check_descriptor(const SmemDescriptor& d, const Buffer& b, int64_t x0, int64_t k0, int64_t xs, int64_t ks) {
  if (!d.k_major && x0 % d.block)
    return error(ErrorCode::Unsupported, "an atom of '" + b.name + "' starts inside a swizzle atom (at " + itos(x0) + " along M/N, blocks of " +
                                             itos(d.block) + ")");
  int64_t start = descriptor_start_value(d, x0, k0);
  int64_t T = 16 / d.es;
  int64_t S = d.swizzle_bytes;
  for (int64_t x = 0; x < xs; ++x) {
    for (int64_t k = 0; k < ks; ++k) {
      int64_t off;
      if (d.k_major)
        off = S ? (x % 8) * S + (x / 8) * d.sbo + (k / T) * 16 + (k % T) * d.es : (x % 8) * 16 + (x / 8) * d.sbo + (k % T) * d.es + (k / T) * d.lbo;
      else if (S)
        off = (x % (S / d.es)) * d.es + (x / (S / d.es)) * d.lbo + (k % 8) * S + (k / 8) * d.sbo;
      else
        off = (x % T) * d.es + (x / T) * d.sbo + (k % 8) * 16 + (k / 8) * d.lbo;
      int64_t hw = swizzle(d, start + off);
      std::vector<int64_t> c = d.k_major ? std::vector<int64_t>{x0 + x, k0 + k} : std::vector<int64_t>{k0 + k, x0 + x};
      if (c[0] >= b.shape[0] || c[1] >= b.shape[1])
        return error(ErrorCode::Unsupported, "an atom reaches past shared buffer '" + b.name + "'");
      int64_t want = ir::shared_offset(b.layout, b.shape, b.dtype, c);
      if (hw != want)
        return error(ErrorCode::Internal, "cuda codegen: the matrix descriptor of '" + b.name + "' addresses element (" + itos(c[0]) + ", " +
                                              itos(c[1]) + ") at byte " + itos(hw) + ", its layout puts it at " + itos(want));
    }
  }
  return Status::ok();
}

uint64_t wgmma_descriptor_bits(const SmemDescriptor& d) {
  uint64_t mode = d.swizzle_bytes == 128 ? 1 : d.swizzle_bytes == 64 ? 2 : d.swizzle_bytes == 32 ? 3 : 0;
  return (uint64_t((d.lbo >> 4) & 0x3fff) << 16) | (uint64_t((d.sbo >> 4) & 0x3fff) << 32) | (mode << 62);
}

uint64_t tcgen05_descriptor_bits(const SmemDescriptor& d) {
  uint64_t mode = d.swizzle_bytes == 128 ? 2 : d.swizzle_bytes == 64 ? 4 : d.swizzle_bytes == 32 ? 6 : 0;
  return (uint64_t((d.lbo >> 4) & 0x3fff) << 16) | (uint64_t((d.sbo >> 4) & 0x3fff) << 32) | (uint64_t(1) << 46) | (mode << 61);
}

}  // namespace tegula::cuda::gen
