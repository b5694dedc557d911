#include "runtime/Manifest.h"

#include <sys/stat.h>

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstring>

#include "core/Files.h"
#include "core/Json.h"

namespace tegula::runtime {
namespace {

const char* kind_name(const Json& v) {
  switch (v.kind()) {
    case Json::Kind::Null: return "null";
    case Json::Kind::Bool: return "a boolean";
    case Json::Kind::Number: return "a number";
    case Json::Kind::String: return "a string";
    case Json::Kind::Array: return "an array";
    case Json::Kind::Object: return "an object";
  }
  return "a value";
}

/// Builds "file: json.path: cause" errors.
struct Where {
  const std::string& file;
  Status fail(const std::string& path, const std::string& cause) const {
    return error(ErrorCode::Parse, file + ": " + path + ": " + cause);
  }
};

struct Version {
  int major = 0, minor = 0, patch = 0;
};

bool parse_version(const std::string& text, Version& v) {
  int n = 0;
  char trailing = 0;
  if (std::sscanf(text.c_str(), "%d.%d.%d%n%c", &v.major, &v.minor, &v.patch, &n, &trailing) != 3) return false;
  return size_t(n) == text.size() && v.major >= 0 && v.minor >= 0 && v.patch >= 0 &&
         text.find_first_not_of("0123456789.") == std::string::npos;
}

Status check_keys(const Json& object, const std::string& path, std::initializer_list<std::string_view> known,
                  bool strict, const Where& where, std::vector<std::string>& ignored) {
  for (const auto& [key, value] : object.members()) {
    if (std::find(known.begin(), known.end(), key) != known.end()) continue;
    std::string full = path.empty() ? key : path + "." + key;
    if (strict) return where.fail(full, "unknown key (file format 1.0 defines no such field)");
    ignored.push_back(full);
  }
  return Status::ok();
}

Result<std::string> get_string(const Json& object, const std::string& path, const char* key, bool required,
                               const Where& where) {
  const Json* v = object.find(key);
  std::string full = path.empty() ? std::string(key) : path + "." + key;
  if (!v) {
    if (required) return where.fail(full, "missing (required)");
    return std::string();
  }
  if (!v->is_string()) return where.fail(full, std::string("expected a string, got ") + kind_name(*v));
  if (v->as_string().find('\0') != std::string::npos) return where.fail(full, "contains a NUL character");
  return v->as_string();
}

Result<uint32_t> get_abi(const Json& object, const std::string& path, const char* key, const Where& where) {
  const Json* v = object.find(key);
  std::string full = path + "." + key;
  if (!v) return where.fail(full, "missing (required)");
  if (!v->is_int()) return where.fail(full, std::string("expected an integer, got ") + kind_name(*v));
  if (v->as_int() < 0 || v->as_int() > int64_t(UINT32_MAX))
    return where.fail(full, "must be from 0 to 4294967295, got " + std::to_string(v->as_int()));
  return uint32_t(v->as_int());
}

std::string resolve_library(const std::string& manifest_path, const std::string& library_path) {
  if (!library_path.empty() && library_path[0] == '/') return library_path;
  size_t slash = manifest_path.rfind('/');
  if (slash == std::string::npos) return library_path;
  return manifest_path.substr(0, slash + 1) + library_path;
}

}  // namespace

bool is_plugin_name(std::string_view name) {
  if (name.empty() || name.size() > 64) return false;
  return std::all_of(name.begin(), name.end(),
                     [](char c) { return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_'; });
}

Result<Manifest> parse_manifest(std::string_view text, const std::string& path) {
  Where where{path};
  Result<Json> parsed = Json::parse(text, path);
  if (!parsed.is_ok()) {
    const SourceLoc& loc = parsed.status().loc();
    return error(ErrorCode::Parse, (loc.known() ? loc.str() : path) + ": invalid JSON: " + parsed.status().message());
  }
  const Json& root = *parsed;
  if (!root.is_object()) return where.fail("(root)", std::string("expected an object, got ") + kind_name(root));

  Manifest m;
  m.path = path;
  TG_ASSIGN_OR_RETURN(std::string format, get_string(root, "", "file_format_version", true, where));
  Version version;
  if (!parse_version(format, version))
    return where.fail("file_format_version", "expected \"MAJOR.MINOR.PATCH\", got \"" + format + "\"");
  if (version.major != 1)
    return where.fail("file_format_version", "unsupported version " + format + " (this loader reads 1.x.y)");
  bool strict = version.minor == 0;

  TG_RETURN_IF_ERROR(check_keys(root, "", {"file_format_version", "plugin"}, strict, where, m.ignored_keys));
  const Json* plugin = root.find("plugin");
  if (!plugin) return where.fail("plugin", "missing (required)");
  if (!plugin->is_object()) return where.fail("plugin", std::string("expected an object, got ") + kind_name(*plugin));
  TG_RETURN_IF_ERROR(check_keys(*plugin, "plugin",
                                {"name", "library_path", "abi_min", "abi_max", "library_arch", "allow_unload"},
                                strict, where, m.ignored_keys));

  TG_ASSIGN_OR_RETURN(m.name, get_string(*plugin, "plugin", "name", true, where));
  if (!is_plugin_name(m.name))
    return where.fail("plugin.name", "\"" + m.name + "\" is not a plugin name ([a-z0-9_], 1 to 64 characters)");
  TG_ASSIGN_OR_RETURN(m.library_path, get_string(*plugin, "plugin", "library_path", true, where));
  if (m.library_path.empty()) return where.fail("plugin.library_path", "is empty");
  TG_ASSIGN_OR_RETURN(m.abi_min, get_abi(*plugin, "plugin", "abi_min", where));
  TG_ASSIGN_OR_RETURN(m.abi_max, get_abi(*plugin, "plugin", "abi_max", where));
  if (m.abi_min > m.abi_max)
    return where.fail("plugin.abi_min", "is greater than plugin.abi_max (" + std::to_string(m.abi_min) + " > " +
                                            std::to_string(m.abi_max) + ")");
  TG_ASSIGN_OR_RETURN(m.library_arch, get_string(*plugin, "plugin", "library_arch", false, where));
  if (plugin->find("library_arch") && m.library_arch.empty()) return where.fail("plugin.library_arch", "is empty");
  if (const Json* unload = plugin->find("allow_unload")) {
    if (!unload->is_bool())
      return where.fail("plugin.allow_unload", std::string("expected a boolean, got ") + kind_name(*unload));
    m.allow_unload = unload->as_bool();
  }
  m.library = resolve_library(path, m.library_path);
  return m;
}

Result<Manifest> read_manifest(const std::string& path) {
  // A manifest is a few hundred bytes; refuse anything else before reading it.
  struct stat st;
  if (::stat(path.c_str(), &st) != 0) return error(ErrorCode::Io, path + ": cannot read: " + std::strerror(errno));
  if (!S_ISREG(st.st_mode)) return error(ErrorCode::Parse, path + ": not a regular file");
  if (st.st_size > (1 << 20)) return error(ErrorCode::Parse, path + ": larger than 1 MiB, not a manifest");
  Result<std::string> text = read_file(path);
  if (!text.is_ok()) return error(ErrorCode::Io, path + ": cannot read: " + text.status().message());
  return parse_manifest(*text, path);
}

}  // namespace tegula::runtime
