#include "runtime/Runtime.h"

#include <algorithm>
#include <memory>

#include "runtime/Loader.h"

#ifndef TEGULA_INSTALL_DATADIR
#define TEGULA_INSTALL_DATADIR "/usr/local/share"
#endif

// Defined (weak) by the source file the installed CMake package adds to every program that
// links tegula::runtime statically (tegula_package_hint.c): that package's <prefix>/share.
extern "C" const char* tegula_package_datadir(void) __attribute__((weak));

namespace tegula::runtime {

namespace {

Env environment_for(const tegula_runtime_options& o) {
  return (o.flags & TEGULA_RUNTIME_IGNORE_ENVIRONMENT) ? Env() : Env::process();
}

/// Load the first manifest of `candidates` (one plugin name, in search order) that loads;
/// each that fails is recorded in rt->skipped, and a later one is tried in its place.
Result<std::shared_ptr<PluginInstance>> load_first(const std::vector<Manifest>& candidates, tegula_runtime* rt) {
  Status last = error(ErrorCode::Internal, "no manifest");
  for (size_t i = 0; i < candidates.size(); ++i) {
    const Manifest& m = candidates[i];
    Result<std::shared_ptr<PluginInstance>> plugin = acquire_plugin(m, rt->log, rt);
    if (plugin.is_ok()) {
      if (i > 0) rt->log.warn("plugin '" + m.name + "': using " + m.path + " (the manifests found before it failed to load)");
      for (size_t j = i + 1; j < candidates.size(); ++j) {
        std::string reason = "duplicate plugin name '" + m.name + "': " + m.path + " wins (it loaded)";
        rt->log.warn("skipping " + candidates[j].path + ": " + reason);
        rt->skipped.push_back({candidates[j].path, m.name, reason});
      }
      return plugin;
    }
    // The loader has logged why; say what happens next.
    if (i + 1 < candidates.size()) rt->log.warn("plugin '" + m.name + "': trying " + candidates[i + 1].path + " in its place");
    rt->skipped.push_back({m.path, m.name, plugin.status().message()});
    last = plugin.status();
  }
  return last;
}

}  // namespace

Discovery discover_for_options(const tegula_runtime_options& o, const Log& log) {
  Env env = environment_for(o);
  SearchInputs in;
  in.env = env;
  in.exe_dir = executable_dir();
  // Linked statically, the library is the executable: its folder is searched once, as such.
  in.library_dir = library_dir();
  if (in.library_dir == in.exe_dir) in.library_dir.clear();
  if (tegula_package_datadir) in.package_datadir = tegula_package_datadir();
  in.install_datadir = TEGULA_INSTALL_DATADIR;
  in.has_explicit = o.use_manifest_paths || o.manifest_path_count > 0;
  for (size_t i = 0; i < o.manifest_path_count; ++i)
    if (o.manifest_paths && o.manifest_paths[i]) in.explicit_paths.push_back(o.manifest_paths[i]);
  PluginFilter filter;
  if (o.select_plugins) filter.select.push_back(o.select_plugins);
  if (o.disable_plugins) {
    filter.disable.push_back(o.disable_plugins);
    filter.disable_origins.push_back("disable_plugins (runtime options)");
  }
  if (const std::string* s = env.get("TEGULA_SELECT_PLUGINS")) filter.select.push_back(*s);
  if (const std::string* d = env.get("TEGULA_DISABLE_PLUGINS")) {
    filter.disable.push_back(*d);
    filter.disable_origins.push_back("TEGULA_DISABLE_PLUGINS");
  }
  return discover_plugins(in, filter, log);
}

Result<tegula_runtime*> open_runtime(const tegula_runtime_options& o) {
  Env env = environment_for(o);
  auto rt = std::make_unique<tegula_runtime>();
  rt->log = Log(env.flag("TEGULA_LOADER_DEBUG"), o.log, o.log_user);
  if (env.secure()) rt->log.debug("secure-execution process: every environment variable is ignored");

  Discovery found = discover_for_options(o, rt->log);
  rt->skipped = std::move(found.skipped);
  for (const Manifest& m : found.manifests) {
    std::vector<Manifest> candidates = {m};
    for (const Manifest& alt : found.alternates)
      if (alt.name == m.name) candidates.push_back(alt);
    Result<std::shared_ptr<PluginInstance>> plugin = load_first(candidates, rt.get());
    if (!plugin.is_ok()) continue;
    for (const Skipped& s : (*plugin)->skipped_devices()) {
      rt->log.warn("skipping device " + s.source + ": " + s.reason);
      rt->skipped.push_back(s);
    }
    rt->plugins.push_back(std::move(plugin).value());
  }
  std::sort(rt->plugins.begin(), rt->plugins.end(),
            [](const auto& a, const auto& b) { return a->name() < b->name(); });
  for (const auto& plugin : rt->plugins) {
    for (const DeviceInfo& info : plugin->devices()) {
      auto device = std::make_unique<tegula_device>();
      device->runtime = rt.get();
      device->plugin = plugin.get();
      device->info = &info;
      rt->log.debug("device " + info.name + ": " + info.device_name + " (target " + info.target + ")");
      rt->devices.push_back(std::move(device));
    }
  }
  rt->cache = CompileCache(resolve_cache_dir(o.cache_dir, env), rt->log, resolve_cache_limit(env, rt->log));
  rt->log.debug(rt->cache.enabled() ? "compile cache: " + rt->cache.dir() : "compile cache: off");
  return rt.release();
}

void close_runtime(tegula_runtime* rt) {
  if (!rt) return;
  // Kernels, events and buffers first: the plugin instances they point into may shut down below.
  for (tegula_kernel* k : rt->kernels) {
    for (auto& [key, v] : k->variants) k->device->plugin->executable_free(v.executable);
    k->device->plugin->executable_free(k->generic.executable);
    delete k;
  }
  for (tegula_event* e : rt->events) {
    e->device->plugin->event_destroy(e->handle);
    delete e;
  }
  for (tegula_buffer* b : rt->buffers) {
    b->device->plugin->buffer_free(b->handle);
    delete b;
  }
  rt->devices.clear();
  rt->plugins.clear();
  delete rt;
}

}  // namespace tegula::runtime
