/// \file
/// What the SPIR-V generator may use, read from a target description alone, so that
/// compile() on a device and compile_offline() for that device's description produce the
/// same bytes.
///
/// Most facts come from the schema's fields (subgroup_width, dtypes, the coopmat entries of
/// the catalogue). Facts the schema has no field for travel in one line of the description's
/// `notes`, written by the plugin when it describes a device:
///
///   "vulkan.caps: atomic_float32_add atomic_float64_add int64_atomics push_constants=128
///    workgroup_matrix_shared=8192 denorm_preserve=16,32,64 signed_zero_inf_nan_preserve=16,32,64"
///
/// A description without that line (vulkan_generic) gets the conservative defaults: CAS
/// loops for float atomics and 128 bytes of push constants (the Vulkan minimum).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/DType.h"
#include "core/Status.h"
#include "targets/Target.h"

namespace tegula::vulkan {

/// One cooperative-matrix shape of the target (a coopmat catalogue entry, expanded).
struct CoopmatShape {
  std::string id;
  int m = 0, n = 0, k = 0;
  DType a = DType::F16, b = DType::F16, c = DType::F32;
  /// Workgroup scope (a cta-scope entry): one matrix of the whole block, for exactly
  /// `threads` invocations, loading A and B from their tensors.
  bool workgroup = false;
  int threads = 0;
};

/// A cta-scope coopmat entry: sizes are any its dimensions allow.
struct WorkgroupCoopmat {
  std::string id;
  Dim m, n, k;
  DType a = DType::F16, b = DType::F16, c = DType::F32;
  int threads = 0;
};

struct CodegenTarget {
  std::string name;
  std::string hash;
  int subgroup_width = 1;
  int64_t shared_memory_per_block = 0;  ///< 0: unknown (no limit checked here)
  bool int8 = false;     ///< 8-bit storage and Int8 (i8, u8, e4m3, e5m2, bool)
  bool int16 = false;    ///< 16-bit storage and Int16 (f16, bf16)
  bool float64 = false;  ///< Float64 and Int64 (f64)
  bool subgroup_ops = false;
  bool atomic_float32_add = false;
  bool atomic_float64_add = false;
  bool int64_atomics = false;
  uint32_t push_constant_bytes = 128;
  /// Float widths (16, 32, 64) the shader declares DenormPreserve for: drivers that flush
  /// subnormals by default (NVIDIA) then keep them, as the IR's arithmetic does.
  std::vector<uint32_t> denorm_preserve;
  /// Float widths the shader declares SignedZeroInfNanPreserve for.
  std::vector<uint32_t> signed_zero_preserve;
  std::vector<CoopmatShape> coopmat;
  std::vector<WorkgroupCoopmat> workgroup_coopmat;
};

/// The prefix of the notes line that carries plugin-private capabilities.
inline constexpr const char* kCapsNotePrefix = "vulkan.caps:";

Result<CodegenTarget> codegen_target(const TargetDescription& description);

}  // namespace tegula::vulkan
