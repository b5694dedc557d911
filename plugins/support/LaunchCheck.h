/// \file
/// Launch validation, written once for every plugin and the runtime: a launch's arguments
/// against the kernel's launch signature (count; tensor, scalar or shape symbol; buffer and
/// offset; the bytes each tensor needs), its grid (the kernel's grid expressions, the 2^48
/// block limit) and what the kernel was lowered assuming (lower.assume: a shape symbol's
/// divisibility; lower.tensor_align, or a backend's own per-tensor alignment: a tensor's
/// address). A refused launch gets a Status whose message names the argument
/// ("argument 3 (N): ..."); launch_error() turns it into the plugin's error object.
///
/// The signature is built once per executable (at load), so a launch that is fine allocates
/// nothing but, where the grid is checked, the argument view the grid expressions read.
/// Checks only one backend has (a device's largest grid, 32-bit indices) stay in that backend.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "core/DType.h"
#include "core/Status.h"
#include "ir/IR.h"
#include "plugins/abi/tegula_plugin.h"

namespace tegula::plugin {

/// One dimension of a tensor parameter: a constant, or the value of launch argument `arg`
/// (a shape symbol).
struct LaunchDim {
  int64_t value = 0;
  int32_t arg = -1;  ///< >= 0: the dimension is launch argument `arg`
};

/// One launch argument as the kernel declares it.
struct LaunchParam {
  enum class Kind : uint8_t { Tensor, Scalar, Symbol };
  Kind kind = Kind::Scalar;
  std::string name;
  uint32_t elem_bytes = 0;       ///< Tensor: bytes per element
  std::vector<LaunchDim> dims;   ///< Tensor: outermost first
  uint64_t align = 1;            ///< Tensor: its address must be a multiple of this
  int64_t divisor = 1;           ///< Symbol: its value must be a multiple of this (lower.assume)
};

struct LaunchSignature {
  std::string kernel;               ///< the kernel's name, for messages
  std::vector<LaunchParam> params;  ///< every launch argument: parameters, then shape symbols
  /// The kernel whose grid expressions give the launch's grid (it must outlive the
  /// signature); nullptr when the plugin keeps no IR (cuda), and only the grid's block count
  /// is checked.
  const ir::Kernel* grid_of = nullptr;
};

/// The signature of a kernel's launches: parameters, shape symbols (Kernel::symbols()) and
/// the kernel's grid. No lowering assumptions: a caller that picks the variant (the
/// runtime) checks only what every variant needs.
LaunchSignature launch_signature(const ir::Kernel& k);
/// launch_signature() plus the lowered kernel's lower.assume and lower.tensor_align, which
/// the code it was compiled to relies on. An error when those attributes do not read.
Result<LaunchSignature> lowered_launch_signature(const ir::Kernel& k);

/// What the plugin knows of a buffer handle: whether it is one of this device's, its size,
/// and the address its offset 0 has as far as alignment goes (a device pointer, a host
/// pointer, or 0 where the backend's buffers start suitably aligned).
struct LaunchBuffer {
  bool held = false;
  uint64_t size = 0;
  uint64_t address = 0;
};
/// `context` is the caller's (a device, or the runtime's arguments); `arg` the argument index;
/// `buffer` the handle as given, NULL included.
using BufferLookup = LaunchBuffer (*)(const void* context, size_t arg, const tg_buffer* buffer);

/// How the launch's grid is checked.
enum class GridCheck : uint8_t {
  Given,     ///< params.grid must be the grid the kernel's grid expressions give
  Computed,  ///< params.grid is ignored: the grid is computed (the runtime)
};

/// The blocks the launch runs along x, y, z (a 0 anywhere: it runs nothing), or the reason
/// the launch is refused: InvalidArgument, or OutOfRange for a buffer too small.
Result<std::array<uint32_t, 3>> validate_launch(const LaunchSignature& sig, const tg_launch_params& params,
                                                BufferLookup lookup, const void* context,
                                                GridCheck grid = GridCheck::Given);

/// The bytes tensor parameter `p` needs, for arguments validate_launch accepted (so the
/// dimensions are known to be non-negative and the product to fit).
uint64_t checked_tensor_bytes(const LaunchParam& p, const tg_launch_params& params);

/// "<plugin>: launch: <message>" with the status's code.
tg_error* launch_error(const char* plugin, const Status& status);

}  // namespace tegula::plugin
