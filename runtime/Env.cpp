#include "runtime/Env.h"

#include <dlfcn.h>
#include <limits.h>
#include <sys/auxv.h>
#include <unistd.h>

#include <cstdlib>
#include <memory>

namespace tegula::runtime {

bool process_is_secure() { return getauxval(AT_SECURE) != 0; }

Env Env::process() {
  if (process_is_secure()) return secure_process();
  Env env;
  for (const char* name : kEnvNames)
    if (const char* value = std::getenv(name)) env.set(name, value);
  return env;
}

const std::string* Env::get(std::string_view name) const {
  auto it = vars_.find(name);
  if (it == vars_.end() || it->second.empty()) return nullptr;
  return &it->second;
}

bool Env::flag(std::string_view name) const {
  const std::string* v = get(name);
  return v && *v != "0";
}

std::string executable_dir() {
  char path[PATH_MAX];
  ssize_t n = readlink("/proc/self/exe", path, sizeof(path) - 1);
  if (n <= 0) return "";
  std::string exe(path, size_t(n));
  size_t slash = exe.rfind('/');
  if (slash == std::string::npos) return "";
  return exe.substr(0, slash);
}

std::string library_dir() {
  Dl_info info;
  if (!::dladdr(reinterpret_cast<void*>(&library_dir), &info) || !info.dli_fname || !*info.dli_fname) return "";
  // dli_fname is the path the binary was loaded by, possibly relative: resolve it now.
  std::unique_ptr<char, decltype(&std::free)> real(::realpath(info.dli_fname, nullptr), &std::free);
  if (!real) return "";
  std::string path = real.get();
  size_t slash = path.rfind('/');
  return slash == std::string::npos ? "" : path.substr(0, slash);
}

}  // namespace tegula::runtime
