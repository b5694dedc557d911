/// \file
/// The environment variables the runtime reads, captured once when a runtime opens. In a
/// setuid or setgid process (getauxval(AT_SECURE)) none of them is read: they would let the
/// invoking user make a privileged process load a library of their choosing, or write its
/// cache where they like. Tests build an Env by hand instead of changing the process's.
#pragma once

#include <map>
#include <string>
#include <string_view>

namespace tegula::runtime {

class Env {
public:
  /// The process environment, or an empty one (marked secure) in a setuid/setgid process.
  static Env process();
  /// The process environment as if the process were setuid: every variable ignored.
  static Env secure_process() { Env e; e.secure_ = true; return e; }

  Env& set(std::string name, std::string value) {
    vars_[std::move(name)] = std::move(value);
    return *this;
  }
  /// The value, or nullptr when the variable is unset or empty (an empty XDG variable means
  /// "use the default", and an empty TEGULA_ variable means nothing either).
  const std::string* get(std::string_view name) const;
  bool flag(std::string_view name) const;  ///< set to something other than "0"
  bool secure() const { return secure_; }

private:
  std::map<std::string, std::string, std::less<>> vars_;
  bool secure_ = false;
};

/// The names Env::process() captures.
inline constexpr const char* kEnvNames[] = {
    "TEGULA_PLUGINS",        "TEGULA_ADD_PLUGINS", "TEGULA_SELECT_PLUGINS", "TEGULA_DISABLE_PLUGINS",
    "TEGULA_LOADER_DEBUG",   "TEGULA_CACHE_DIR",   "TEGULA_CACHE_MAX_BYTES",   "XDG_DATA_HOME",         "XDG_DATA_DIRS",
    "XDG_CACHE_HOME",        "HOME",
};

/// Whether the kernel marked this process for secure execution (setuid, setgid, caps).
bool process_is_secure();

/// The folder holding the running executable (from /proc/self/exe), "" if unknown.
std::string executable_dir();
/// The folder holding the binary this code is in (dladdr): libtegula.so's folder when the
/// runtime is a shared library, the executable's when it is linked in; "" if unknown.
std::string library_dir();

}  // namespace tegula::runtime
