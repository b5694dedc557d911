#include "runtime/SearchPath.h"

#include <dirent.h>
#include <limits.h>
#include <stdlib.h>
#include <sys/stat.h>

#include <algorithm>
#include <set>

namespace tegula::runtime {
namespace {

const char* kSubdir = "/tegula/plugins.d";

void add_list(std::vector<SearchEntry>& out, const std::string& text, const char* origin) {
  for (std::string& p : split_list(text, ':')) out.push_back({std::move(p), origin});
}

bool ends_with(const std::string& s, const std::string& suffix) {
  return s.size() >= suffix.size() && s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

/// The canonical form of an existing path, so one folder reached two ways is searched once.
std::string canonical(const std::string& path) {
  char resolved[PATH_MAX];
  if (::realpath(path.c_str(), resolved)) return resolved;
  return path;
}

}  // namespace

std::vector<std::string> split_list(const std::string& text, char sep) {
  std::vector<std::string> out;
  size_t start = 0;
  while (start <= text.size()) {
    size_t end = text.find(sep, start);
    if (end == std::string::npos) end = text.size();
    if (end > start) out.push_back(text.substr(start, end - start));
    start = end + 1;
  }
  return out;
}

std::vector<SearchEntry> plugin_search_path(const SearchInputs& in) {
  std::vector<SearchEntry> out;
  if (const std::string* add = in.env.get("TEGULA_ADD_PLUGINS")) add_list(out, *add, "TEGULA_ADD_PLUGINS");
  if (in.has_explicit) {
    for (const std::string& p : in.explicit_paths)
      if (!p.empty()) out.push_back({p, "runtime options"});
    return out;
  }
  if (const std::string* replace = in.env.get("TEGULA_PLUGINS")) {
    add_list(out, *replace, "TEGULA_PLUGINS");
    return out;
  }
  // The library's own folder first, as the Vulkan loader does: an install moved to another
  // prefix still finds the plugins installed with it. (Linked statically, the library is
  // the executable, and the folder is searched once.)
  if (!in.library_dir.empty()) out.push_back({in.library_dir + "/../share" + kSubdir, "next to the tegula library"});
  if (!in.package_datadir.empty()) out.push_back({in.package_datadir + kSubdir, "the CMake package built against"});
  if (!in.exe_dir.empty()) out.push_back({in.exe_dir + "/../share" + kSubdir, "next to the executable"});
  if (!in.install_datadir.empty()) out.push_back({in.install_datadir + kSubdir, "install prefix"});
  if (const std::string* data_home = in.env.get("XDG_DATA_HOME")) {
    out.push_back({*data_home + kSubdir, "XDG_DATA_HOME"});
  } else if (const std::string* home = in.env.get("HOME")) {
    out.push_back({*home + "/.local/share" + kSubdir, "XDG_DATA_HOME default"});
  }
  const std::string* dirs = in.env.get("XDG_DATA_DIRS");
  for (const std::string& d : split_list(dirs ? *dirs : "/usr/local/share:/usr/share", ':')) {
    // The XDG specification makes relative entries invalid; they would depend on the cwd.
    if (d[0] != '/') continue;
    out.push_back({d + kSubdir, dirs ? "XDG_DATA_DIRS" : "XDG_DATA_DIRS default"});
  }
  return out;
}

std::vector<std::string> manifest_files(const std::vector<SearchEntry>& entries, const Log& log) {
  std::vector<std::string> out;
  std::set<std::string> seen;
  for (const SearchEntry& e : entries) {
    std::string key = canonical(e.path);
    if (!seen.insert(key).second) {
      log.debug("searching " + e.path + " (" + e.origin + "): already searched as " + key);
      continue;
    }
    struct stat st;
    if (::stat(e.path.c_str(), &st) != 0) {
      log.debug("searching " + e.path + " (" + e.origin + "): not found");
      continue;
    }
    if (!S_ISDIR(st.st_mode)) {
      log.debug("searching " + e.path + " (" + e.origin + "): a manifest file");
      out.push_back(e.path);
      continue;
    }
    log.debug("searching " + e.path + " (" + e.origin + ")");
    DIR* dir = ::opendir(e.path.c_str());
    if (!dir) {
      log.debug("cannot open folder " + e.path);
      continue;
    }
    std::vector<std::string> names;
    while (const dirent* d = ::readdir(dir)) {
      std::string name = d->d_name;
      if (name.size() > 5 && ends_with(name, ".json") && name[0] != '.') names.push_back(name);
    }
    ::closedir(dir);
    std::sort(names.begin(), names.end());
    std::string folder = key;  // canonical, so logs and plugin listings show plain paths
    if (!folder.empty() && folder.back() != '/') folder += '/';
    for (const std::string& n : names) {
      // A file also named on its own elsewhere in the path is read once.
      if (seen.insert(canonical(folder + n)).second) out.push_back(folder + n);
    }
  }
  return out;
}

}  // namespace tegula::runtime
