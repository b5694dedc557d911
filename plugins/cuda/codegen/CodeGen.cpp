/// \file
/// The code generator's entry points.
#include "plugins/cuda/codegen/CodeGen.h"

#include <cstdlib>

#include "ir/lower/Lowered.h"
#include "plugins/cuda/codegen/Emitter.h"

namespace tegula::cuda {

Result<std::string> arch_for_target(const TargetDescription& target) {
  if (target.backend != Backend::Cuda)
    return error(ErrorCode::Unsupported, "target '" + target.name + "' is not a CUDA target (backend '" + backend_name(target.backend) + "')");
  const std::string& n = target.name;
  if (n.rfind("sm_", 0) == 0 && n.size() > 3) return n;
  return error(ErrorCode::Unsupported, "target '" + n + "': the cuda plugin compiles for targets named sm_<arch> (sm_80, sm_89, sm_90a, sm_100a)");
}

Result<GenOptions> parse_gen_options(const std::string& text) {
  GenOptions o;
  size_t start = 0;
  while (start < text.size()) {
    size_t end = text.find('\n', start);
    if (end == std::string::npos) end = text.size();
    std::string line = text.substr(start, end - start);
    start = end + 1;
    if (line.empty()) continue;
    size_t eq = line.find('=');
    std::string key = line.substr(0, eq), value = eq == std::string::npos ? "" : line.substr(eq + 1);
    if (key == "min_blocks_per_sm") {
      char* endp = nullptr;
      long v = std::strtol(value.c_str(), &endp, 10);
      if (value.empty() || *endp || v < 1 || v > 32)
        return error(ErrorCode::InvalidArgument, "cuda: compile option min_blocks_per_sm needs an integer 1..32, got '" + value + "'");
      o.min_blocks_per_sm = int(v);
      continue;
    }
    return error(ErrorCode::InvalidArgument, "cuda: unknown compile option '" + line + "' (known: min_blocks_per_sm=N)");
  }
  return o;
}

Result<Generated> generate_cuda(const ir::Kernel& kernel, const TargetDescription& target, const std::string& arch, const GenOptions& options) {
  TG_ASSIGN_OR_RETURN(ir::KernelPlan plan, ir::get_kernel_plan(kernel));
  if (plan.target.empty())
    return error(ErrorCode::InvalidArgument, "cuda: kernel '" + kernel.name + "' is not lowered (no lower.target attribute)");
  gen::Emitter e(kernel, target, arch);
  e.options = options;
  return e.run();
}

}  // namespace tegula::cuda
