/// \file
/// Discovery: from the search path to the manifests worth loading. Reads every manifest the
/// search path names, applies the select and disable filters (comma-separated fnmatch globs
/// over plugin names, from TEGULA_SELECT_PLUGINS / TEGULA_DISABLE_PLUGINS and the runtime
/// options) and ranks duplicate names (the first found wins; the others are fallbacks,
/// loaded only if it fails, and logged as such). Nothing is dlopen'ed here, so
/// a disabled plugin's code never runs. Each manifest passed over is logged and recorded
/// with its reason. Two mistakes that would otherwise pass silently are recorded as skipped
/// entries too: a search that finds no manifest at all (the entry names the folders searched
/// and TEGULA_PLUGINS), and a disable glob that matches no plugin found (a misspelt name in
/// TEGULA_DISABLE_PLUGINS disables nothing; the entry names the plugins there are).
#pragma once

#include <string>
#include <vector>

#include "runtime/Log.h"
#include "runtime/Manifest.h"
#include "runtime/SearchPath.h"

namespace tegula::runtime {

/// A plugin (or one of its devices) that was passed over, and why.
struct Skipped {
  std::string source;  ///< the manifest file, or "<plugin>:<index>" for a device
  std::string plugin;  ///< "" when the manifest could not be read
  std::string reason;
};

struct PluginFilter {
  /// Each entry is one comma-separated glob list. A plugin is kept if it matches every
  /// select list and no disable list.
  std::vector<std::string> select;
  std::vector<std::string> disable;
  /// Where each disable list came from ("TEGULA_DISABLE_PLUGINS", "runtime options"),
  /// parallel to `disable`; named when a glob in it matches no plugin found.
  std::vector<std::string> disable_origins;
};

struct Discovery {
  std::vector<Manifest> manifests;  ///< in search order, one per plugin name: the first found
  /// Later manifests of a name in `manifests`, in search order: each is loaded only if every
  /// one before it fails to load (a broken copy does not hide a working one).
  std::vector<Manifest> alternates;
  std::vector<Skipped> skipped;
};

Discovery discover_plugins(const SearchInputs& in, const PluginFilter& filter, const Log& log);

/// Whether `name` matches any glob of the comma-separated `globs`.
bool matches_glob_list(const std::string& globs, const std::string& name);

}  // namespace tegula::runtime
