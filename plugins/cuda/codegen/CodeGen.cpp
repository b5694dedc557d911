/// \file
/// The code generator's entry points.
#include "plugins/cuda/codegen/CodeGen.h"

#include "plugins/cuda/codegen/Emitter.h"

namespace tegula::cuda {

Result<std::string> arch_for_target(const TargetDescription& target) {
  if (target.backend != Backend::Cuda)
    return error(ErrorCode::Unsupported, "target '" + target.name + "' is not a CUDA target (backend '" + backend_name(target.backend) + "')");
  const std::string& n = target.name;
  if (n.rfind("sm_", 0) == 0 && n.size() > 3) return n;
  return error(ErrorCode::Unsupported, "target '" + n + "': the cuda plugin compiles for targets named sm_<arch> (sm_80, sm_89, sm_90a, sm_100a)");
}

Result<Generated> generate_cuda(const ir::Kernel& kernel, const TargetDescription& target, const std::string& arch) {
  if (!find_attr(kernel.attrs, "lower.target"))
    return error(ErrorCode::InvalidArgument, "cuda: kernel '" + kernel.name + "' is not lowered (no lower.target attribute)");
  gen::Emitter e(kernel, target, arch);
  return e.run();
}

}  // namespace tegula::cuda
