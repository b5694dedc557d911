#include "runtime/Loader.h"

#include <dlfcn.h>
#include <limits.h>
#include <stdlib.h>
#include <sys/stat.h>

#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <string>

#include "runtime/AbiTable.h"
#include "runtime/Elf.h"
#include "runtime/PluginStrings.h"

#ifndef TEGULA_VERSION
#define TEGULA_VERSION "0.0.0"
#endif

namespace tegula::runtime {
namespace {

struct LiveInstance {
  std::unique_ptr<PluginInstance> instance;
  int users = 0;
};

/// Every live instance in the process, by canonical library path. Never destroyed: plugins
/// are not shut down from static destructors at exit, where the order is unknowable.
struct Registry {
  std::mutex mu;
  std::map<std::string, LiveInstance> live;
};

Registry& registry() {
  static Registry* r = new Registry;
  return *r;
}

std::string range(uint32_t lo, uint32_t hi) { return std::to_string(lo) + ".." + std::to_string(hi); }

Status refuse(const Manifest& m, const Log& log, const Status& why) {
  log.warn("refusing plugin '" + m.name + "' (" + m.path + "): " + why.message());
  return error(why.code() == ErrorCode::Ok ? ErrorCode::Plugin : why.code(), why.message());
}

void release(const std::string& key, const void* owner) {
  Registry& r = registry();
  std::lock_guard<std::mutex> lock(r.mu);
  auto it = r.live.find(key);
  if (it == r.live.end()) return;
  it->second.instance->remove_log_sink(owner);
  if (--it->second.users > 0) return;
  std::unique_ptr<PluginInstance> instance = std::move(it->second.instance);
  r.live.erase(it);
  instance->shutdown();
  if (instance->manifest().allow_unload) ::dlclose(instance->handle());
}

std::shared_ptr<PluginInstance> share(const std::string& key, LiveInstance& live, const Log& log, const void* owner) {
  ++live.users;
  live.instance->add_log_sink(owner, log);
  return std::shared_ptr<PluginInstance>(live.instance.get(), [key, owner](PluginInstance*) { release(key, owner); });
}

/// The loaded file's identity: a rebuild changes its inode, size or modification time.
std::string library_identity(const std::string& library) {
  struct stat st {};
  if (::stat(library.c_str(), &st) != 0) return library;
  return library + ":" + std::to_string(uint64_t(st.st_dev)) + ":" + std::to_string(uint64_t(st.st_ino)) + ":" +
         std::to_string(uint64_t(st.st_size)) + ":" + std::to_string(int64_t(st.st_mtim.tv_sec)) + "." +
         std::to_string(int64_t(st.st_mtim.tv_nsec));
}

/// dlopen through init. Runs under the registry lock.
Result<std::unique_ptr<PluginInstance>> load(const Manifest& m, const std::string& library, const Log& log,
                                             const void* owner) {
  TG_RETURN_IF_ERROR(check_elf(library));
  ::dlerror();
  void* handle = ::dlopen(library.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!handle) return error(ErrorCode::Plugin, "dlopen failed: " + plugin_message(::dlerror(), kMaxTextBytes));
  // Until init succeeds nothing of the plugin can still be running, so unloading is safe.
  auto unload_on_failure = [&](const Status& st) {
    ::dlclose(handle);
    return st;
  };
  ::dlerror();
  void* symbol = ::dlsym(handle, TG_PLUGIN_QUERY_SYMBOL);
  if (!symbol) return unload_on_failure(error(ErrorCode::Plugin, "the library does not export " TG_PLUGIN_QUERY_SYMBOL));
  auto query = reinterpret_cast<tg_plugin_query_fn>(symbol);
  const char* refusal = nullptr;
  const tg_plugin_api* api = query(TG_ABI_VERSION_MIN, TG_ABI_VERSION_CURRENT, &refusal);
  if (!api) {
    std::string reason = refusal ? one_line_text(plugin_message(refusal, kMaxTextBytes)) : "no reason given";
    return unload_on_failure(error(ErrorCode::Plugin, "the plugin refused the host's ABI versions " +
                                                          range(TG_ABI_VERSION_MIN, TG_ABI_VERSION_CURRENT) + ": " +
                                                          reason));
  }
  if (Status st = check_api_table(api, TG_ABI_VERSION_MIN, TG_ABI_VERSION_CURRENT); !st.is_ok())
    return unload_on_failure(st);
  log.debug("plugin '" + m.name + "': negotiated ABI " + std::to_string(api->abi_version) + " (table of " +
            std::to_string(api->struct_size) + " bytes)");

  Manifest resolved = m;
  resolved.library = library;
  auto instance = std::make_unique<PluginInstance>(resolved, handle, api);
  instance->set_library_identity(library_identity(library));
  if (Status st = instance->read_info(); !st.is_ok()) return unload_on_failure(st);
  instance->add_log_sink(owner, log);
  if (Status st = instance->init(TEGULA_VERSION); !st.is_ok()) return unload_on_failure(st);
  if (Status st = instance->enumerate_devices(); !st.is_ok()) {
    instance->shutdown();  // init succeeded: shut down, but keep the library loaded
    return st;
  }
  instance->remove_log_sink(owner);  // share() adds it back with the user count
  return instance;
}

}  // namespace

Result<std::shared_ptr<PluginInstance>> acquire_plugin(const Manifest& m, const Log& log, const void* owner) {
  if (!m.library_arch.empty() && !arch_matches_host(m.library_arch))
    return refuse(m, log, error(ErrorCode::Plugin, "built for " + m.library_arch + " (library_arch), the host is " +
                                                       host_arch() + "; not loaded"));
  if (m.abi_max < TG_ABI_VERSION_MIN || m.abi_min > TG_ABI_VERSION_CURRENT)
    return refuse(m, log, error(ErrorCode::Plugin, "the manifest says the library speaks ABI " + range(m.abi_min, m.abi_max) +
                                                       ", the host speaks " +
                                                       range(TG_ABI_VERSION_MIN, TG_ABI_VERSION_CURRENT) + "; not loaded"));
  char resolved[PATH_MAX];
  if (!::realpath(m.library.c_str(), resolved))
    return refuse(m, log, error(ErrorCode::NotFound, "library " + m.library + " not found"));
  std::string key = resolved;

  Registry& r = registry();
  std::lock_guard<std::mutex> lock(r.mu);
  auto it = r.live.find(key);
  if (it != r.live.end()) {
    if (it->second.instance->name() != m.name)
      return refuse(m, log, error(ErrorCode::Plugin, "library " + key + " is already loaded as plugin '" +
                                                         it->second.instance->name() + "'"));
    log.debug("plugin '" + m.name + "': sharing the instance already running from " + key);
    return share(key, it->second, log, owner);
  }
  log.debug("loading plugin '" + m.name + "' from " + key);
  Result<std::unique_ptr<PluginInstance>> loaded = load(m, key, log, owner);
  if (!loaded.is_ok()) return refuse(m, log, loaded.status());
  LiveInstance& live = r.live[key];
  live.instance = std::move(loaded).value();
  log.debug("plugin '" + m.name + "' " + live.instance->version() + ": " +
            std::to_string(live.instance->devices().size()) + " device(s)");
  return share(key, live, log, owner);
}

}  // namespace tegula::runtime
