/// \file
/// Loading the HIP runtime with dlopen through the symbol table in HipApi.h. The library is
/// opened once per process and never closed (it keeps threads that outlive a plugin instance).
#include <dlfcn.h>

#include <cstdlib>
#include <mutex>
#include <vector>

#include "plugins/hip/HipApi.h"

namespace tegula::hip {
namespace {

struct Loaded {
  Runtime runtime;
  bool ok = false;
  std::string why;
};

void* open_library(std::string* path, std::string* why) {
  const char* override_path = std::getenv("TEGULA_HIP_RUNTIME");
  std::vector<std::string> names;
  if (override_path && *override_path)
    names.push_back(override_path);
  else
    names = {"libamdhip64.so.6", "libamdhip64.so.5", "libamdhip64.so"};
  std::string tried;
  for (const std::string& name : names) {
    if (void* lib = dlopen(name.c_str(), RTLD_NOW | RTLD_LOCAL)) {
      *path = name;
      return lib;
    }
    const char* e = dlerror();
    tried += (tried.empty() ? "" : "; ") + name + (e ? std::string(": ") + e : std::string());
  }
  *why = "no HIP runtime (" + tried + ")";
  return nullptr;
}

Loaded load() {
  Loaded out;
  Runtime& r = out.runtime;
  r.library = open_library(&r.path, &out.why);
  if (!r.library) return out;
#define TG_HIP_LOAD(name, symbol, ret, params, required)              \
  r.name = reinterpret_cast<ret(*) params>(dlsym(r.library, symbol)); \
  if (!r.name && required) {                                          \
    out.why = r.path + " lacks " + symbol + " (runtime too old?)";    \
    return out;                                                       \
  }
  TG_HIP_SYMBOLS(TG_HIP_LOAD)
#undef TG_HIP_LOAD
  hipError_t e = r.hipInit(0);
  if (e == kHipErrorNoDevice || e == kHipErrorInvalidDevice) {
    out.why = r.path + " found no GPU (hipInit: " + runtime_error_text(r, e) + ")";
    return out;
  }
  if (e != kHipSuccess) {
    out.why = "hipInit failed: " + runtime_error_text(r, e);
    return out;
  }
  if (r.hipRuntimeGetVersion(&r.version) != kHipSuccess) r.version = 0;
  out.ok = true;
  return out;
}

}  // namespace

const Runtime* load_runtime(std::string* why) {
  static std::once_flag once;
  static Loaded* loaded = nullptr;
  std::call_once(once, [] { loaded = new Loaded(load()); });
  if (!loaded->ok) {
    if (why) *why = loaded->why;
    return nullptr;
  }
  return &loaded->runtime;
}

std::string runtime_error_text(const Runtime& r, hipError_t e) {
  const char* name = r.hipGetErrorName ? r.hipGetErrorName(e) : nullptr;
  const char* text = r.hipGetErrorString ? r.hipGetErrorString(e) : nullptr;
  std::string s = name ? name : "HIP error " + std::to_string(e);
  if (text) s += std::string(": ") + text;
  return s;
}

std::string target_for_gfx(int major, int minor) {
  if (major == 9 && minor == 4) return "gfx942";  // MI300 (gfx940/941/942 all report 9.4)
  if (major == 9 && minor == 5) return "gfx950";  // MI350: described, not compiled for (LLVM 19)
  return "";
}

}  // namespace tegula::hip
