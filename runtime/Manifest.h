/// \file
/// Plugin manifests: the JSON file that tells the loader a plugin exists, before any of its
/// code runs (the Vulkan loader's ICD manifests are the model).
///
///   {
///     "file_format_version": "1.0.0",
///     "plugin": {
///       "name": "cuda",                        [a-z0-9_]{1,64}; names devices "cuda:0", ...
///       "library_path": "libtegula_cuda.so",   relative paths resolve against this file's folder
///       "abi_min": 1, "abi_max": 1,            the plugin ABI versions the library speaks
///       "library_arch": "x86_64",              (optional) refused before dlopen on another host
///       "allow_unload": false                  (optional) the loader may dlclose after shutdown
///     }
///   }
///
/// Validation is strict and every error names the file, the JSON path and the cause. A file
/// of format 1.0.x may hold no other keys (a misspelt "libary_path" is an error, not a
/// silently missing field); a later 1.N writer may add keys, which this reader ignores.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "core/Status.h"

namespace tegula::runtime {

struct Manifest {
  std::string path;          ///< the manifest file
  std::string name;
  std::string library_path;  ///< as written in the file
  std::string library;       ///< resolved: absolute, or relative to the current directory
  uint32_t abi_min = 0;
  uint32_t abi_max = 0;
  std::string library_arch;  ///< "" when the manifest does not say
  bool allow_unload = false;
  std::vector<std::string> ignored_keys;  ///< keys a newer 1.N format added
};

Result<Manifest> parse_manifest(std::string_view text, const std::string& path);
Result<Manifest> read_manifest(const std::string& path);

/// [a-z0-9_]{1,64}: what plugin names, and so device-name prefixes, may be.
bool is_plugin_name(std::string_view name);

}  // namespace tegula::runtime
