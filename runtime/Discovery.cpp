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

}  // namespace

Discovery discover_plugins(const SearchInputs& in, const PluginFilter& filter, const Log& log) {
  Discovery out;
  auto skip = [&](const std::string& source, const std::string& plugin, const std::string& reason) {
    // Manifest errors already begin with the file name.
    log.warn("skipping " + (reason.rfind(source, 0) == 0 ? reason : source + ": " + reason));
    out.skipped.push_back({source, plugin, reason});
  };
  std::map<std::string, std::string> first_by_name;
  for (const std::string& file : manifest_files(plugin_search_path(in), log)) {
    Result<Manifest> m = read_manifest(file);
    if (!m.is_ok()) {
      skip(file, "", m.status().message());
      continue;
    }
    log.debug("found manifest " + file + ": plugin '" + m->name + "', library " + m->library + ", ABI " +
              std::to_string(m->abi_min) + ".." + std::to_string(m->abi_max));
    for (const std::string& key : m->ignored_keys) log.debug(file + ": ignoring key " + key + " (newer file format)");
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
  return out;
}

}  // namespace tegula::runtime
