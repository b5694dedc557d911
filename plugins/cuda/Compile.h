/// \file
/// Lowered IR text -> executable: read the lowered form, generate CUDA C++, compile it with
/// NVRTC for the exact architecture. Shared by compile (a device's target) and
/// compile_offline (any CUDA target description, no device needed).
#pragma once

#include <string>
#include <string_view>

#include "plugins/cuda/Blob.h"
#include "targets/Target.h"

namespace tegula::cuda {

struct CompileOutput {
  Executable executable;
  std::string source;  ///< the generated CUDA C++
  std::string log;     ///< NVRTC's messages (ptxas warnings, resource usage)
};

Result<CompileOutput> compile_lowered(std::string_view lowered_text, const TargetDescription& target, const std::string& arch,
                                      const std::string& options = "");

}  // namespace tegula::cuda
