/// \file
/// Where the loader looks for plugin manifests, in order (the Vulkan loader's scheme):
///
///   1. TEGULA_ADD_PLUGINS         ':'-separated manifest files or folders, searched first
///   2. the runtime options' explicit manifest list, or else TEGULA_PLUGINS (same syntax),
///      which replace 3 to 8
///   3. <library_dir>/../share/tegula/plugins.d  next to the tegula library itself (a
///      shared libtegula.so in <prefix>/lib: wherever that prefix was installed or moved)
///   4. <package datadir>/tegula/plugins.d       the installed CMake package a program
///      linking tegula statically was built against (find_package(tegula) tells it)
///   5. <exe_dir>/../share/tegula/plugins.d     the build tree, or a relocated install
///   6. <install prefix>/share/tegula/plugins.d  the prefix tegula was configured with
///   7. $XDG_DATA_HOME/tegula/plugins.d          default ~/.local/share
///   8. each $XDG_DATA_DIRS entry + /tegula/plugins.d   default /usr/local/share:/usr/share
///
/// A folder contributes its *.json files in name order. A folder reached twice (the build
/// tree is often also the prefix) is searched once.
#pragma once

#include <string>
#include <vector>

#include "runtime/Env.h"
#include "runtime/Log.h"

namespace tegula::runtime {

struct SearchEntry {
  std::string path;
  std::string origin;  ///< why it is searched: "TEGULA_PLUGINS", "XDG_DATA_DIRS", ...
};

struct SearchInputs {
  Env env;
  std::string library_dir;       ///< the folder of the binary holding the runtime; "" when unknown
  std::string package_datadir;   ///< <prefix>/share of the package a static embedder used, or ""
  std::string exe_dir;           ///< "" when unknown
  std::string install_datadir;   ///< <prefix>/share, absolute
  bool has_explicit = false;     ///< explicit_paths replaces the search
  std::vector<std::string> explicit_paths;
};

std::vector<SearchEntry> plugin_search_path(const SearchInputs& in);

/// The manifest files the entries name, in search order; every path tried is logged.
std::vector<std::string> manifest_files(const std::vector<SearchEntry>& entries, const Log& log);

/// Split on `sep`, dropping empty items.
std::vector<std::string> split_list(const std::string& text, char sep);

}  // namespace tegula::runtime
