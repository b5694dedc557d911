/// \file
/// Loading the CUDA driver with dlopen through the symbol table in DriverApi.h. The library
/// is opened once per process and never closed (the driver keeps threads and state that
/// outlive any one plugin instance).
#include <dlfcn.h>

#include <cstdlib>
#include <mutex>

#include "plugins/cuda/DriverApi.h"

namespace tegula::cuda {
namespace {

struct Loaded {
  Driver driver;
  bool ok = false;
  std::string why;
};

Loaded load() {
  Loaded out;
  const char* override_path = std::getenv("TEGULA_CUDA_DRIVER");
  const char* path = override_path && *override_path ? override_path : "libcuda.so.1";
  void* lib = dlopen(path, RTLD_NOW | RTLD_LOCAL);
  if (!lib) {
    const char* e = dlerror();
    out.why = std::string("cannot load ") + path + (e ? std::string(": ") + e : std::string());
    return out;
  }
  Driver& d = out.driver;
  d.library = lib;
#define TG_CUDA_DRIVER_LOAD(name, symbol, ret, params, required)                 \
  d.name = reinterpret_cast<ret(*) params>(dlsym(lib, symbol));                  \
  if (!d.name && required) {                                                     \
    out.why = std::string(path) + " lacks " + symbol + " (driver too old?)";     \
    return out;                                                                  \
  }
  TG_CUDA_DRIVER_SYMBOLS(TG_CUDA_DRIVER_LOAD)
#undef TG_CUDA_DRIVER_LOAD
  CUresult r = d.cuInit(0);
  if (r == kCudaErrorNoDevice) {
    out.why = "the CUDA driver found no device";
    return out;
  }
  if (r != kCudaSuccess) {
    out.why = "cuInit failed: " + driver_error_text(d, r);
    return out;
  }
  if (d.cuDriverGetVersion(&d.version) != kCudaSuccess) d.version = 0;
  out.ok = true;
  return out;
}

}  // namespace

const Driver* load_driver(std::string* why) {
  static std::once_flag once;
  static Loaded* loaded = nullptr;
  std::call_once(once, [] { loaded = new Loaded(load()); });
  if (!loaded->ok) {
    if (why) *why = loaded->why;
    return nullptr;
  }
  return &loaded->driver;
}

std::string driver_error_text(const Driver& d, CUresult r) {
  const char* name = nullptr;
  const char* text = nullptr;
  if (d.cuGetErrorName) d.cuGetErrorName(r, &name);
  if (d.cuGetErrorString) d.cuGetErrorString(r, &text);
  std::string s = name ? name : "CUDA error " + std::to_string(r);
  if (text) s += std::string(": ") + text;
  return s;
}

}  // namespace tegula::cuda
