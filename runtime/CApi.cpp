/// \file
/// The C API: errors, the runtime, plugins and devices.
#include <cstdint>
#include <cstring>

#include "runtime/CApiSupport.h"
#include "runtime/Compile.h"
#include "runtime/Runtime.h"

using namespace tegula;
using namespace tegula::runtime;

#ifndef TEGULA_VERSION
#define TEGULA_VERSION "0.0.0"
#endif

namespace tegula::runtime {

namespace {
tegula_error oom_error{error(ErrorCode::OutOfMemory, "out of memory"), "out of memory"};
}  // namespace

tegula_error* out_of_memory_error() { return &oom_error; }

tegula_error* to_c_error(Status status) {
  if (status.is_ok()) return nullptr;
  tegula_error* e = new (std::nothrow) tegula_error{std::move(status), ""};
  if (!e) return out_of_memory_error();
  const SourceLoc& loc = e->status.loc();
  e->text = loc.known() ? loc.str() + ": " + e->status.message() : e->status.message();
  return e;
}

static_assert(int(TEGULA_ERROR_INVALID_ARGUMENT) == int(ErrorCode::InvalidArgument));
static_assert(int(TEGULA_ERROR_NOT_FOUND) == int(ErrorCode::NotFound));
static_assert(int(TEGULA_ERROR_CORRUPT) == int(ErrorCode::Corrupt));
static_assert(int(TEGULA_ERROR_PLUGIN) == int(ErrorCode::Plugin));
static_assert(int(TEGULA_ERROR_INTERNAL) == int(ErrorCode::Internal));
static_assert(int(TEGULA_ERROR_OUT_OF_MEMORY) == int(ErrorCode::OutOfMemory));

}  // namespace tegula::runtime

namespace {

tegula_error* invalid(const char* message) { return to_c_error(error(ErrorCode::InvalidArgument, message)); }

bool has_room(size_t struct_size) { return struct_size >= sizeof(size_t); }

tegula_error* find_device(tegula_runtime* rt, const char* name, tegula_device** out) {
  std::string wanted = name;
  bool plugin_only = wanted.find(':') == std::string::npos;
  for (const auto& d : rt->devices) {
    if (d->info->name == wanted || (plugin_only && d->plugin->name() == wanted)) {
      *out = d.get();
      return nullptr;
    }
  }
  std::string available;
  for (const auto& d : rt->devices) available += (available.empty() ? "" : ", ") + d->info->name;
  if (available.empty()) available = "none (see TEGULA_LOADER_DEBUG=1)";
  return to_c_error(error(ErrorCode::NotFound, "no device '" + wanted + "'; available: " + available));
}

}  // namespace

extern "C" {

const char* tegula_version(void) { return TEGULA_VERSION; }

tegula_error_code tegula_error_get_code(const tegula_error* e) {
  return e ? tegula_error_code(e->status.code()) : TEGULA_OK;
}

const char* tegula_error_message(const tegula_error* e) { return e ? e->text.c_str() : ""; }

int tegula_error_get_location(const tegula_error* e, tegula_error_location* out) {
  if (!e || !out || !has_room(out->struct_size)) return 0;
  const SourceLoc& loc = e->status.loc();
  tegula_error_location l;
  std::memset(&l, 0, sizeof(l));
  l.struct_size = sizeof(l);
  l.file = loc.file.c_str();
  l.line = uint32_t(loc.known() ? loc.line : 0);
  l.column = uint32_t(loc.known() ? loc.column : 0);
  l.message = e->status.message().c_str();
  write_output_struct(out, l);
  return loc.known() ? 1 : 0;
}

void tegula_error_free(tegula_error* e) {
  if (e != out_of_memory_error()) delete e;
}

const char* tegula_error_code_name(tegula_error_code code) {
  if (int(code) < 0 || int(code) > int(ErrorCode::OutOfMemory)) return "unknown error";
  return error_code_name(ErrorCode(code));
}

void tegula_runtime_options_init(tegula_runtime_options* options) {
  if (!options) return;
  std::memset(options, 0, sizeof(*options));
  options->struct_size = sizeof(*options);
}

tegula_error* tegula_runtime_open(const tegula_runtime_options* options, tegula_runtime** out_runtime) {
  if (!out_runtime) return invalid("tegula_runtime_open: out_runtime is NULL");
  if (options && !has_room(options->struct_size)) return invalid("tegula_runtime_open: options->struct_size is not set");
  return c_guard([&]() -> tegula_error* {
    tegula_runtime_options o = read_input_struct(options);
    Result<tegula_runtime*> rt = open_runtime(o);
    if (!rt.is_ok()) return to_c_error(rt.status());
    *out_runtime = *rt;
    return nullptr;
  });
}

void tegula_runtime_close(tegula_runtime* runtime) { close_runtime(runtime); }

size_t tegula_runtime_plugin_count(const tegula_runtime* rt) { return rt ? rt->plugins.size() : 0; }

tegula_error* tegula_runtime_get_plugin(const tegula_runtime* rt, size_t index, tegula_plugin_info* out) {
  if (!rt || !out || !has_room(out->struct_size)) return invalid("tegula_runtime_get_plugin: bad argument");
  if (index >= rt->plugins.size())
    return to_c_error(error(ErrorCode::OutOfRange, "plugin index " + std::to_string(index) + " out of range"));
  const PluginInstance& p = *rt->plugins[index];
  tegula_plugin_info info;
  std::memset(&info, 0, sizeof(info));
  info.struct_size = sizeof(info);
  info.name = p.name().c_str();
  info.vendor = p.vendor().c_str();
  info.version = p.version().c_str();
  info.description = p.description().c_str();
  info.library_path = p.manifest().library.c_str();
  info.manifest_path = p.manifest().path.c_str();
  info.abi_version = p.abi_version();
  info.device_count = uint32_t(p.devices().size());
  info.concurrent_compile = p.concurrent_compile() ? 1u : 0u;
  write_output_struct(out, info);
  return nullptr;
}

size_t tegula_runtime_skipped_count(const tegula_runtime* rt) { return rt ? rt->skipped.size() : 0; }

tegula_error* tegula_runtime_get_skipped(const tegula_runtime* rt, size_t index, tegula_skipped_info* out) {
  if (!rt || !out || !has_room(out->struct_size)) return invalid("tegula_runtime_get_skipped: bad argument");
  if (index >= rt->skipped.size())
    return to_c_error(error(ErrorCode::OutOfRange, "skipped index " + std::to_string(index) + " out of range"));
  const Skipped& s = rt->skipped[index];
  tegula_skipped_info info;
  info.struct_size = sizeof(info);
  info.source = s.source.c_str();
  info.plugin = s.plugin.c_str();
  info.reason = s.reason.c_str();
  write_output_struct(out, info);
  return nullptr;
}

tegula_error* tegula_runtime_get_stats(const tegula_runtime* rt, tegula_runtime_stats* out) {
  if (!rt || !out || !has_room(out->struct_size)) return invalid("tegula_runtime_get_stats: bad argument");
  tegula_runtime_stats stats;
  stats.struct_size = sizeof(stats);
  stats.plugin_compiles = rt->plugin_compiles;
  stats.cache_hits = rt->cache_hits;
  stats.cache_misses = rt->cache_misses;
  stats.cache_rejected = rt->cache_rejected;
  stats.ir_parses = rt->ir_parses;
  stats.ir_lowerings = rt->ir_lowerings;
  write_output_struct(out, stats);
  return nullptr;
}

const char* tegula_runtime_cache_dir(const tegula_runtime* rt) {
  return rt && rt->cache.enabled() ? rt->cache.dir().c_str() : nullptr;
}

size_t tegula_device_count(const tegula_runtime* rt) { return rt ? rt->devices.size() : 0; }

tegula_device* tegula_device_get(tegula_runtime* rt, size_t index) {
  if (!rt || index >= rt->devices.size()) return nullptr;
  return rt->devices[index].get();
}

tegula_error* tegula_device_find(tegula_runtime* rt, const char* name, tegula_device** out) {
  if (!rt || !name || !out) return invalid("tegula_device_find: bad argument");
  return c_guard([&]() -> tegula_error* { return find_device(rt, name, out); });
}

tegula_error* tegula_device_get_info(const tegula_device* d, tegula_device_info* out) {
  if (!d || !out || !has_room(out->struct_size)) return invalid("tegula_device_get_info: bad argument");
  const DeviceInfo& i = *d->info;
  tegula_device_info info;
  std::memset(&info, 0, sizeof(info));
  info.struct_size = sizeof(info);
  info.name = i.name.c_str();
  info.plugin = d->plugin->name().c_str();
  info.plugin_version = d->plugin->version().c_str();
  info.target = i.target.c_str();
  info.device_name = i.device_name.c_str();
  info.vendor = i.vendor.c_str();
  info.driver_version = i.driver_version.c_str();
  info.toolkit_version = i.toolkit_version.c_str();
  info.memory_bytes = i.memory_bytes;
  info.compute_units = i.compute_units;
  info.device_type = i.device_type;
  info.out_of_range = i.out_of_range;
  write_output_struct(out, info);
  return nullptr;
}

tegula_error* tegula_device_get_target(tegula_device* d, const char** out_json) {
  if (!d || !out_json) return invalid("tegula_device_get_target: bad argument");
  return c_guard([&]() -> tegula_error* {
    Result<const TargetDescription*> t = device_target(d);
    if (!t.is_ok()) return to_c_error(t.status());
    *out_json = (*t)->canonical_json.c_str();
    return nullptr;
  });
}

tegula_error* tegula_device_synchronize(tegula_device* d) {
  if (!d) return invalid("tegula_device_synchronize: device is NULL");
  return to_c_error(d->plugin->synchronize(d->info->index));
}

}  // extern "C"
