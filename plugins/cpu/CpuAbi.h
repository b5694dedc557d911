/// \file
/// The calling convention between the launcher (Executable.cpp) and the code the generator
/// emits (codegen/): one entry function per kernel that runs a range of blocks.
///
///   void entry(const TgCpuLaunch* launch, int64_t begin, int64_t end, uint8_t* arena)
///
/// runs the blocks with flattened index begin..end-1 (x fastest, then y, then z) one after
/// another on the calling thread. `arena` is that thread's scratch memory (at least
/// arena_bytes, 64-byte aligned): shared and fragment buffers, large local buffers and gemm
/// packing panels live there, so a block's buffers are per core and reused by the next block.
#pragma once

#include <cstdint>

namespace tegula::cpu {

/// What a launch hands the generated code. Indexed like the kernel's launch signature.
struct TgCpuLaunch {
  void* const* ptrs;     ///< per parameter: the tensor's first byte (nullptr for scalars)
  const int64_t* ints;   ///< per parameter, then per shape symbol: integer scalars and symbols
  const double* floats;  ///< per parameter: float scalars, already rounded to their dtype
  int64_t grid[3];       ///< blocks along x, y, z
  int32_t* status;       ///< first runtime error (RuntimeError), 0 while there is none
};

using TgCpuEntry = void (*)(const TgCpuLaunch* launch, int64_t begin, int64_t end, uint8_t* arena);

/// Errors the generated code reports through TgCpuLaunch::status (the first one wins). The
/// reference interpreter reports the same conditions as errors.
enum RuntimeError : int32_t {
  kRuntimeOk = 0,
  kRuntimeIndexOutOfRange = 1,  ///< an element load or store outside its buffer
  kRuntimeDivisionByZero = 2,   ///< integer `/`, `%` or ceildiv by zero
  kRuntimeTileOutOfRange = 3,   ///< a shared/fragment tile with offsets outside its buffer
};

/// Byte alignment of every arena region and host buffer.
inline constexpr uint64_t kAlignment = 64;

}  // namespace tegula::cpu
