#include "runtime/Discovery.h"

#include <fnmatch.h>

#include <map>

namespace tegula::runtime {

bool matches_glob_list(const std::string& globs, const std::string& name) {
  for (const std::string& g : split_list(globs, ','))
    if (::fnmatch(g.c_str(), name.c_str(), 0) == 0) return true;
  return false;
}

namespace {

/// The reason a filter drops `name`, or "" when it keeps it.
std::string filtered_out(const PluginFilter& filter, const std::string& name) {
  for (const std::string& s : filter.select)
    if (!matches_glob_list(s, name)) return "not selected (select globs \"" + s + "\")";
  for (const std::string& d : filter.disable)
    if (matches_glob_list(d, name)) return "disabled (disable globs \"" + d + "\")";
  return "";
}

/// The skipped entry for a disable glob that matches none of `names`, or nothing.
void note_unmatched_disables(const PluginFilter& filter, const std::vector<std::string>& names, Discovery& out,
                             const Log& log) {
  std::string known;
  for (const std::string& n : names) known += (known.empty() ? "" : ", ") + n;
  for (size_t i = 0; i < filter.disable.size(); ++i) {
    std::string origin = i < filter.disable_origins.size() ? filter.disable_origins[i] : "disable globs";
    for (const std::string& glob : split_list(filter.disable[i], ',')) {
      bool matched = false;
      for (const std::string& n : names) matched = matched || ::fnmatch(glob.c_str(), n.c_str(), 0) == 0;
      if (matched) continue;
      std::string reason = "'" + glob + "' matches no plugin, so it disables nothing (plugins found: " +
                           (known.empty() ? "none" : known) + ")";
      log.warn(origin + ": " + reason);
      out.skipped.push_back({origin, "", reason});
    }
  }
}

}  // namespace

Discovery discover_plugins(const SearchInputs& in, const PluginFilter& filter, const Log& log) {
  Discovery out;
  auto skip = [&](const std::string& source, const std::string& plugin, const std::string& reason) {
    // Manifest errors already begin with the file name.
    log.warn("skipping " + (reason.rfind(source, 0) == 0 ? reason : source + ": " + reason));
    out.skipped.push_back({source, plugin, reason});
  };
  std::map<std::string, std::string> first_by_name;
  std::vector<std::string> names;  // every plugin a manifest names, for the disable check
  std::vector<SearchEntry> search = plugin_search_path(in);
  std::vector<std::string> files = manifest_files(search, log);
  if (files.empty()) {
    std::string where;
    for (const SearchEntry& e : search) where += (where.empty() ? "" : ", ") + e.path + " (" + e.origin + ")";
    std::string reason = "no plugin manifests found; searched " + (where.empty() ? "nothing" : where) +
                         "; set TEGULA_PLUGINS (or TEGULA_ADD_PLUGINS) to a manifest file or folder";
    log.warn(reason);
    out.skipped.push_back({"search path", "", reason});
  }
  for (const std::string& file : files) {
    Result<Manifest> m = read_manifest(file);
    if (!m.is_ok()) {
      skip(file, "", m.status().message());
      continue;
    }
    log.debug("found manifest " + file + ": plugin '" + m->name + "', library " + m->library + ", ABI " +
              std::to_string(m->abi_min) + ".." + std::to_string(m->abi_max));
    for (const std::string& key : m->ignored_keys) log.debug(file + ": ignoring key " + key + " (newer file format)");
    names.push_back(m->name);
    std::string reason = filtered_out(filter, m->name);
    if (!reason.empty()) {
      skip(file, m->name, "plugin '" + m->name + "' " + reason);
      continue;
    }
    auto [it, inserted] = first_by_name.emplace(m->name, file);
    if (!inserted) {
      log.debug("duplicate plugin name '" + m->name + "' in " + file + ": ranked after " + it->second +
                ", loaded only if the ones before it fail to load");
      out.alternates.push_back(std::move(m).value());
      continue;
    }
    out.manifests.push_back(std::move(m).value());
  }
  note_unmatched_disables(filter, names, out, log);
  return out;
}

}  // namespace tegula::runtime
