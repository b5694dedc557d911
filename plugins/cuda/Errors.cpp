/// \file
/// Driver failures as the cuda plugin's error objects (plugins/support/PluginErrors.h makes
/// the objects).
#include "plugins/cuda/Cuda.h"

namespace tegula::cuda {

tg_error* driver_error(const Driver& d, CUresult r, const std::string& what) {
  tg_status_code code = TG_ERR_DEVICE;
  if (r == 2 /* CUDA_ERROR_OUT_OF_MEMORY */) code = TG_ERR_OUT_OF_MEMORY;
  return make_error(code, "cuda: " + what + ": " + driver_error_text(d, r));
}

}  // namespace tegula::cuda
