/// \file
/// Code generation: a lowered tile kernel (ir/lower/README.md) becomes one CUDA C++ kernel,
/// with inline PTX for what C++ does not expose (mma.sync, ldmatrix, wgmma, tcgen05,
/// cp.async, the bulk tensor copy engine, mbarriers, exact conversions).
///
/// Why C++ and not PTX directly: NVVM and ptxas then do the register allocation,
/// scheduling, loop unrolling, constant folding and address arithmetic, which a PTX emitter
/// would have to re-implement (and get worse); the generator stays a readable text template
/// over the lowered form, and every instruction that matters is still pinned by inline PTX,
/// which executable_describe shows and the tests check.
///
/// The result carries everything a launch needs besides the cubin (KernelInfo): the kernel's
/// parameter list, its dynamic shared memory, the tensor maps to build at launch, and the
/// guarantees the lowering assumed about the launch arguments.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/Status.h"
#include "ir/IR.h"
#include "targets/Target.h"

namespace tegula::cuda {

/// One dimension of a global tensor: a constant, or the launch argument holding a symbol.
struct DimSpec {
  int64_t value = 0;
  int32_t arg = -1;  ///< >= 0: the value is launch argument `arg` (a shape symbol)
};

/// A bulk-copy tensor map the launch must encode (cuTensorMapEncodeTiled) and pass by value.
struct TensorMapSpec {
  uint32_t arg = 0;          ///< the tensor's launch argument
  uint32_t dtype = 0;        ///< CUtensorMapDataType
  uint32_t elem_bytes = 0;
  std::vector<DimSpec> dims;  ///< outermost first, as in the IR
  std::vector<uint32_t> box;  ///< outermost first
  uint32_t swizzle = 0;       ///< CUtensorMapSwizzle
  uint32_t oob_fill = 0;      ///< CUtensorMapFloatOOBfill
};

/// One kernel parameter, in the kernel's C++ parameter order.
struct ParamSlot {
  enum class Kind : uint8_t { Pointer, I64, F32, F64, TensorMap };
  Kind kind = Kind::Pointer;
  uint32_t arg = 0;    ///< launch argument (Pointer, I64, F32, F64) or tensor map index
  uint8_t dtype = 0;   ///< the scalar parameter's DType (rounding of F32/F64/I64 values), or kSymbolDType
};

/// ParamSlot::dtype of a shape symbol (taken as given, never rounded).
constexpr uint8_t kSymbolDType = 0xff;

struct KernelInfo {
  std::string name;  ///< the extern "C" entry point
  int64_t threads = 0;
  int64_t shared_bytes = 0;  ///< dynamic shared memory to request at launch
  uint32_t arg_count = 0;    ///< launch arguments the kernel takes
  std::vector<uint8_t> arg_is_tensor;  ///< per launch argument
  std::vector<ParamSlot> params;
  std::vector<TensorMapSpec> tensor_maps;
  /// lower.assume: launch argument `first` (a symbol) must be a multiple of `second`.
  std::vector<std::pair<uint32_t, int64_t>> assume;
  /// Each tensor argument's element size and dimensions (to check buffer sizes at launch).
  struct Tensor {
    uint32_t arg = 0;
    uint32_t elem_bytes = 0;
    std::vector<DimSpec> dims;
  };
  std::vector<Tensor> tensors;
  /// Byte alignment each tensor argument's address must have (vector and bulk accesses).
  std::vector<std::pair<uint32_t, uint32_t>> align;
};

struct Generated {
  std::string source;
  KernelInfo info;
};

/// The NVRTC architecture for a target ("sm_90a"), from its name; Unsupported for targets
/// that are not CUDA ones.
Result<std::string> arch_for_target(const TargetDescription& target);

/// Code generation choices that do not change results (plugin compile options).
struct GenOptions {
  /// __launch_bounds__'s minimum resident blocks per SM (caps registers per thread); 1 lets
  /// each thread use up to 255 registers. Option "min_blocks_per_sm=N".
  int min_blocks_per_sm = 1;
};

/// Parse the plugin's compile options ("key=value" lines); unknown keys are errors.
Result<GenOptions> parse_gen_options(const std::string& text);

/// Generate the CUDA C++ for a lowered kernel. `arch` is the exact architecture compiled for
/// ("sm_80", "sm_86", "sm_89", "sm_90a", "sm_100a", ...). Anything the generator cannot
/// produce exactly is an Unsupported error naming the statement.
Result<Generated> generate_cuda(const ir::Kernel& kernel, const TargetDescription& target, const std::string& arch,
                                const GenOptions& options = {});

}  // namespace tegula::cuda
