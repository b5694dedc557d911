/// \file
/// Loading a plugin library and starting its instance:
///
///   library_arch check -> ABI range check (both from the manifest, before any code runs)
///   -> ELF check -> dlopen(RTLD_NOW | RTLD_LOCAL) -> dlsym(tg_plugin_query)
///   -> negotiate: the host offers [TG_ABI_VERSION_MIN, TG_ABI_VERSION_CURRENT]
///   -> check the table (version offered, size, required entries) -> get_info (the name must
///   match the manifest's) -> init -> device_count and device_properties.
///
/// Any failing step is logged with its reason and the plugin is refused; nothing a plugin
/// answers can make the host abort. Instances are per library and per process: a second
/// runtime opening the same library shares the running instance, and the last runtime to
/// close it calls shutdown.
///
/// Unloading: a library is dlclose'd when it is refused before or during init. A library
/// whose init succeeded is never dlclose'd, even after shutdown, unless its manifest opts in
/// with "allow_unload": true: a plugin's threads, atexit handlers or thread-local
/// destructors may still point into it (the ggml and OpenCL loaders learnt this the hard
/// way). Because the library stays loaded, a later runtime may call init again on it after
/// shutdown returned; its static state is not re-initialised in between.
#pragma once

#include <memory>

#include "core/Status.h"
#include "runtime/Log.h"
#include "runtime/Manifest.h"
#include "runtime/Plugin.h"

namespace tegula::runtime {

/// The running instance for `manifest`'s library, loading and initialising it if no runtime
/// in the process has. `owner` identifies the runtime (its log receives the plugin's log
/// lines). Releasing the last reference shuts the instance down. On refusal the Status's
/// message is the reason, already logged.
Result<std::shared_ptr<PluginInstance>> acquire_plugin(const Manifest& manifest, const Log& log, const void* owner);

}  // namespace tegula::runtime
