/// \file
/// Shared-memory matrix descriptors (wgmma on sm_90a, tcgen05 on sm_100a) built from a
/// buffer's SharedLayout (ir/lower/SharedLayout.h). A descriptor names a canonical layout
/// (CUTLASS's GmmaDescriptor/UMMA::SmemDescriptor conventions, /work/shared/research/mma.md):
///
///   K-major, swizzled S bytes:  x -> (x % 8) * S + (x / 8) * SBO,  k -> 16-byte chunks in the row
///   K-major, interleaved:       x -> (x % 8) * 16 + (x / 8) * SBO,  k chunks of 16 B at LBO
///   MN-major, swizzled S bytes: x -> bytes in an S-byte row, (x / (S/es)) * LBO;  k -> (k % 8) * S + (k / 8) * SBO
///   MN-major, interleaved:      x -> 16-byte chunks at SBO;  k -> (k % 8) * 16 + (k / 8) * LBO
///
/// then the XOR swizzle of the mode on the absolute address. The generator checks, element
/// by element, that this reproduces the SharedLayout offsets of every atom it issues.
#pragma once

#include <cstdint>
#include <string>

#include "core/Status.h"
#include "plugins/cuda/codegen/Emitter.h"

namespace tegula::cuda::gen {

struct SmemDescriptor {
  bool k_major = true;
  int64_t swizzle_bytes = 0;  ///< 0 (interleaved), 32, 64 or 128
  int64_t lbo = 16, sbo = 0;  ///< bytes
  int64_t block = 0;          ///< elements per column block of the SharedLayout
  int64_t rows = 0;           ///< rows of the stored tile
  int64_t es = 2;
};

/// The descriptor for a shared operand stored as [rows, cols] (K-major: cols = K).
Result<SmemDescriptor> make_descriptor(const Buffer& b, bool k_major);

/// Byte offset (within a stage, before adding the stage base) where the descriptor of the
/// atom starting at operand element (x0, k0) must point; x0 may be a run-time expression.
std::string descriptor_start(const SmemDescriptor& d, const std::string& x0, int64_t k0);
int64_t descriptor_start_value(const SmemDescriptor& d, int64_t x0, int64_t k0);

/// Check that an atom of `xs` x `ks` elements at (x0, k0) addressed through the descriptor
/// lands exactly on the SharedLayout's bytes.
Status check_descriptor(const SmemDescriptor& d, const Buffer& b, int64_t x0, int64_t k0, int64_t xs, int64_t ks);

/// The constant high bits of a Hopper (wgmma) descriptor, to OR with (address >> 4).
uint64_t wgmma_descriptor_bits(const SmemDescriptor& d);
/// The same for a Blackwell (tcgen05) descriptor.
uint64_t tcgen05_descriptor_bits(const SmemDescriptor& d);

}  // namespace tegula::cuda::gen
