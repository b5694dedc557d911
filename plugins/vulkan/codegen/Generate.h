/// \file
/// From a lowered tile kernel to a SPIR-V compute shader, and the launch interface the
/// executable header records.
///
/// Launch ABI: descriptor set 0, one storage buffer per tensor parameter (binding = the
/// tensor's position among the tensor parameters), bound whole; a push-constant block with,
/// per tensor, its element offset (u32), then per scalar parameter its value (i32, f32 or
/// f64) and per shape symbol its value (i32), then the block index the dispatch starts at
/// along x, y, z (u32 each; the launch splits a grid larger than the device's group counts
/// into several dispatches) and, for a rasterised 2-D grid, the whole grid along x and y
/// (u32; the dispatch's own group count is one piece's), each at the offset the interface
/// lists. The workgroup is the kernel's threads along x; a dispatch is one piece of the grid.
///
/// A kernel with element loads or stores of tensors (`X[i]`, `store Y[i] = ...`) also binds,
/// after the tensors, a fault word (a storage buffer of u32s, the launch's own slot): an
/// access outside its tensor is not made (a load reads 0) and writes the access's site
/// number (1-based, into ShaderInterface::fault_sites) there, which the queue reads when the
/// batch completes and reports at synchronize. The interpreter, the oracle, refuses such
/// accesses; with the word the device detects them too (tg_out_of_range DETECTED).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/Status.h"
#include "ir/IR.h"
#include "plugins/vulkan/codegen/CodegenTarget.h"

namespace tegula::vulkan {

/// PushBlockBase and PushGridCount describe the dispatch, not a launch argument: their
/// PushEntry::arg is the grid dimension (0 to 2).
enum PushKind : uint32_t { PushTensorOffset = 0, PushI32 = 1, PushF32 = 2, PushF64 = 3, PushBlockBase = 4, PushGridCount = 5 };
constexpr uint32_t kLastPushKind = PushGridCount;

/// Whether an entry of this kind names a grid dimension rather than a launch argument.
inline bool push_entry_is_grid(uint32_t kind) { return kind == PushBlockBase || kind == PushGridCount; }

/// The bytes a push-constant entry of this kind occupies (8 for f64, else 4).
inline uint32_t push_entry_bytes(uint32_t kind) { return kind == PushF64 ? 8 : 4; }

struct PushEntry {
  uint32_t arg = 0;     ///< launch argument index (a grid dimension for PushBlockBase, PushGridCount)
  uint32_t kind = 0;    ///< PushKind
  uint32_t offset = 0;  ///< bytes into the push-constant block
};

struct ShaderInterface {
  uint32_t spirv_version = 0x00010300;
  uint32_t workgroup_size = 0;
  uint32_t shared_bytes = 0;
  uint32_t push_bytes = 0;
  /// The subgroup width the code assumes (reductions shuffle by it); 0 when it uses none.
  uint32_t subgroup_size = 0;
  std::vector<uint32_t> bindings;  ///< binding -> launch argument index
  std::vector<PushEntry> push;
  /// Whether the shader binds the fault word (binding = bindings.size()).
  bool fault_word = false;
  /// What each fault number means, the access as the program writes it ("store to
  /// Y[i + N]"), one per access however often its code is emitted.
  std::vector<std::string> fault_sites;
};

struct GeneratedShader {
  std::vector<uint32_t> words;
  ShaderInterface iface;
};

/// Generate the shader for a lowered kernel (ir::read_lowered output) and a target. The
/// generator decides nothing the lowered form records: register prefetching and double
/// buffering included (ir/lower/PlanRegisterPrefetch.cpp), it emits what the plan says.
Result<GeneratedShader> generate_shader(const ir::Kernel& kernel, const CodegenTarget& target);

}  // namespace tegula::vulkan
