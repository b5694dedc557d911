/// \file
/// NVRTC, the runtime CUDA C++ compiler, loaded with dlopen (libnvrtc.so.13, or
/// $TEGULA_CUDA_NVRTC) through an X-macro symbol table like the driver's. It is what turns
/// generated CUDA C++ into PTX and a cubin for one exact architecture; it needs no GPU, so
/// compile_offline works on machines without one.
#pragma once

#include <string>
#include <vector>

#include "core/Status.h"

namespace tegula::cuda {

struct NvrtcOutput {
  std::string ptx;
  std::string cubin;
  std::string log;
};

/// Compile `source` for `arch` ("sm_90a", ...). Compile errors carry NVRTC's log.
Result<NvrtcOutput> nvrtc_compile(const std::string& source, const std::string& file_name, const std::string& arch,
                                  const std::vector<std::string>& extra_options = {});

/// "13.0", or "" when NVRTC cannot be loaded (`why` then says so).
std::string nvrtc_version(std::string* why = nullptr);

}  // namespace tegula::cuda
