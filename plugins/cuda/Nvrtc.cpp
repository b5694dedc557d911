/// \file
/// NVRTC loaded with dlopen; see Nvrtc.h.
#include "plugins/cuda/Nvrtc.h"

#include <dlfcn.h>
#include <link.h>

#include <cstdlib>
#include <mutex>

namespace tegula::cuda {
namespace {

using nvrtcResult = int;
using nvrtcProgram = struct nvrtc_program_st*;

#define TG_NVRTC_SYMBOLS(X)                                                                                      \
  X(nvrtcVersion, nvrtcResult, (int* major, int* minor))                                                         \
  X(nvrtcGetErrorString, const char*, (nvrtcResult r))                                                           \
  X(nvrtcCreateProgram, nvrtcResult,                                                                             \
    (nvrtcProgram * prog, const char* src, const char* name, int num_headers, const char* const* headers,       \
     const char* const* include_names))                                                                          \
  X(nvrtcDestroyProgram, nvrtcResult, (nvrtcProgram * prog))                                                     \
  X(nvrtcCompileProgram, nvrtcResult, (nvrtcProgram prog, int num_options, const char* const* options))          \
  X(nvrtcGetProgramLogSize, nvrtcResult, (nvrtcProgram prog, size_t * size))                                     \
  X(nvrtcGetProgramLog, nvrtcResult, (nvrtcProgram prog, char* log))                                             \
  X(nvrtcGetPTXSize, nvrtcResult, (nvrtcProgram prog, size_t * size))                                            \
  X(nvrtcGetPTX, nvrtcResult, (nvrtcProgram prog, char* ptx))                                                    \
  X(nvrtcGetCUBINSize, nvrtcResult, (nvrtcProgram prog, size_t * size))                                          \
  X(nvrtcGetCUBIN, nvrtcResult, (nvrtcProgram prog, char* cubin))

struct Nvrtc {
#define TG_NVRTC_FIELD(name, ret, params) ret(*name) params = nullptr;
  TG_NVRTC_SYMBOLS(TG_NVRTC_FIELD)
#undef TG_NVRTC_FIELD
  int major = 0, minor = 0;
  std::string why;
  bool ok = false;
};

/// NVRTC opens libnvrtc-builtins.so.<major>.<minor> by name when it first compiles, so a
/// machine whose loader path lacks the toolkit's folder (no ld.so.conf entry, no
/// LD_LIBRARY_PATH) fails there even though libnvrtc itself was found by full path. Loading
/// the builtins from libnvrtc's own folder first makes NVRTC's later open find them loaded.
/// A failure here is left for NVRTC to report, in its own words.
void preload_builtins(void* nvrtc_lib, int major, int minor) {
  link_map* map = nullptr;
  if (dlinfo(nvrtc_lib, RTLD_DI_LINKMAP, &map) != 0 || !map || !map->l_name) return;
  std::string path = map->l_name;
  size_t slash = path.rfind('/');
  if (slash == std::string::npos) return;
  std::string builtins = path.substr(0, slash + 1) + "libnvrtc-builtins.so." + std::to_string(major) + "." + std::to_string(minor);
  if (!dlopen(builtins.c_str(), RTLD_NOW | RTLD_LOCAL)) (void)dlerror();
}

Nvrtc load() {
  Nvrtc n;
  std::vector<std::string> candidates;
  if (const char* p = std::getenv("TEGULA_CUDA_NVRTC"); p && *p) candidates.push_back(p);
  candidates.push_back("libnvrtc.so.13");
  candidates.push_back("/usr/local/cuda/lib64/libnvrtc.so.13");
  candidates.push_back("/usr/local/cuda/targets/x86_64-linux/lib/libnvrtc.so.13");
  void* lib = nullptr;
  std::string errors;
  for (const std::string& c : candidates) {
    lib = dlopen(c.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (lib) break;
    const char* e = dlerror();
    errors += (errors.empty() ? "" : "; ") + c + (e ? std::string(": ") + e : std::string());
  }
  if (!lib) {
    n.why = "cannot load NVRTC (" + errors + ")";
    return n;
  }
#define TG_NVRTC_LOAD(name, ret, params)                                     \
  n.name = reinterpret_cast<ret(*) params>(dlsym(lib, #name));               \
  if (!n.name) {                                                             \
    n.why = std::string("NVRTC lacks ") + #name;                             \
    return n;                                                                \
  }
  TG_NVRTC_SYMBOLS(TG_NVRTC_LOAD)
#undef TG_NVRTC_LOAD
  if (n.nvrtcVersion(&n.major, &n.minor) != 0) {
    n.why = "nvrtcVersion failed";
    return n;
  }
  preload_builtins(lib, n.major, n.minor);
  n.ok = true;
  return n;
}

const Nvrtc& nvrtc() {
  static std::once_flag once;
  static Nvrtc* loaded = nullptr;
  std::call_once(once, [] { loaded = new Nvrtc(load()); });
  return *loaded;
}

}  // namespace

std::string nvrtc_version(std::string* why) {
  const Nvrtc& n = nvrtc();
  if (!n.ok) {
    if (why) *why = n.why;
    return "";
  }
  return std::to_string(n.major) + "." + std::to_string(n.minor);
}

Result<NvrtcOutput> nvrtc_compile(const std::string& source, const std::string& file_name, const std::string& arch,
                                  const std::vector<std::string>& extra_options) {
  const Nvrtc& n = nvrtc();
  if (!n.ok) return error(ErrorCode::Unsupported, n.why);
  nvrtcProgram prog = nullptr;
  nvrtcResult r = n.nvrtcCreateProgram(&prog, source.c_str(), file_name.c_str(), 0, nullptr, nullptr);
  if (r != 0) return error(ErrorCode::Internal, std::string("nvrtcCreateProgram: ") + n.nvrtcGetErrorString(r));
  std::vector<std::string> options = {"--gpu-architecture=" + arch, "-std=c++17", "-lineinfo", "-default-device", "--disable-warnings"};
  for (const std::string& o : extra_options) options.push_back(o);
  // Developer aid: extra NVRTC options, whitespace-separated (e.g. "--ptxas-options=-v").
  if (const char* env = std::getenv("TEGULA_CUDA_NVRTC_OPTIONS"); env && *env) {
    std::string word;
    for (const char* c = env;; ++c) {
      if (*c == ' ' || *c == '\0') {
        if (!word.empty()) options.push_back(word);
        word.clear();
        if (!*c) break;
      } else {
        word += *c;
      }
    }
  }
  std::vector<const char*> argv;
  for (const std::string& o : options) argv.push_back(o.c_str());
  r = n.nvrtcCompileProgram(prog, int(argv.size()), argv.data());
  NvrtcOutput out;
  size_t size = 0;
  if (n.nvrtcGetProgramLogSize(prog, &size) == 0 && size > 1) {
    out.log.resize(size);
    n.nvrtcGetProgramLog(prog, out.log.data());
    out.log.resize(size - 1);
  }
  if (r != 0) {
    n.nvrtcDestroyProgram(&prog);
    return error(ErrorCode::Internal, "NVRTC failed to compile the generated CUDA C++ for " + arch + " (" +
                                          n.nvrtcGetErrorString(r) + "); this is a bug in the cuda plugin's code generator:\n" +
                                          out.log);
  }
  if (n.nvrtcGetPTXSize(prog, &size) == 0 && size > 0) {
    out.ptx.resize(size);
    n.nvrtcGetPTX(prog, out.ptx.data());
    while (!out.ptx.empty() && out.ptx.back() == '\0') out.ptx.pop_back();
  }
  if (n.nvrtcGetCUBINSize(prog, &size) == 0 && size > 0) {
    out.cubin.resize(size);
    n.nvrtcGetCUBIN(prog, out.cubin.data());
  }
  n.nvrtcDestroyProgram(&prog);
  if (out.cubin.empty()) return error(ErrorCode::Internal, "NVRTC produced no cubin for " + arch);
  return out;
}

}  // namespace tegula::cuda
