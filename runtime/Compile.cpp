#include "runtime/Compile.h"

#include "ir/Lower.h"
#include "ir/Parser.h"
#include "ir/Printer.h"

namespace tegula::runtime {
namespace {

Result<TargetDescription> resolve_target(const tegula_device* d) {
  const DeviceInfo& info = *d->info;
  if (!info.target_error.empty())
    return error(ErrorCode::Plugin, "device " + info.name + ": cannot get its target description: " + info.target_error);
  if (info.has_target_json) {
    Result<TargetDescription> t = parse_target(info.target_json, info.name + " device_target");
    if (!t.is_ok())
      return error(ErrorCode::Plugin, "device " + info.name + ": its plugin's target description is invalid: " +
                                          t.status().message());
    return t;
  }
  Result<TargetDescription> t = builtin_target(info.target);
  if (t.is_ok()) return t;
  std::string known;
  for (const std::string& n : builtin_target_names()) known += (known.empty() ? "" : ", ") + n;
  return error(ErrorCode::NotFound, "device " + info.name + " reports target '" + info.target +
                                        "', which is not built in (" + known + ") and its plugin does not describe it");
}

/// The launch signature: parameters, then shape symbols.
void fill_signature(tegula_kernel* k) {
  for (const ir::Param& p : k->kernel.params) {
    k->arg_names.push_back(p.name);
    if (p.is_tensor) k->arg_kinds.push_back(TEGULA_ARG_TENSOR);
    else k->arg_kinds.push_back(dtype_is_float(p.dtype) ? TEGULA_ARG_FLOAT : TEGULA_ARG_INT);
  }
  for (const std::string& s : k->kernel.symbols()) {
    k->arg_names.push_back(s);
    k->arg_kinds.push_back(TEGULA_ARG_INT);
  }
}

}  // namespace

Result<const TargetDescription*> device_target(tegula_device* d) {
  std::lock_guard<std::mutex> lock(d->target_mu);
  if (!d->target_resolved) {
    Result<TargetDescription> t = resolve_target(d);
    if (t.is_ok()) d->target = std::move(t).value();
    else d->target_status = t.status();
    d->target_resolved = true;
  }
  if (!d->target) return d->target_status;
  return &*d->target;
}

Result<tegula_kernel*> compile_kernel(tegula_device* d, std::string_view ir_text, const CompileRequest& request) {
  tegula_runtime* rt = d->runtime;
  PluginInstance& plugin = *d->plugin;
  uint32_t index = d->info->index;

  TG_ASSIGN_OR_RETURN(ir::Kernel kernel, ir::parse_and_verify(ir_text, request.source_name));
  TG_ASSIGN_OR_RETURN(const TargetDescription* target, device_target(d));
  TG_ASSIGN_OR_RETURN(ir::LowerResult lowered, ir::lower(kernel, *target));
  for (const std::string& line : lowered.log) rt->log.debug("lower " + kernel.name + ": " + line);
  std::string lowered_text = ir::print_kernel(lowered.kernel);

  CacheKeyParts parts;
  parts.lowered_ir = lowered_text;
  parts.target_hash = target_hash(*target);
  parts.plugin_name = plugin.name();
  parts.plugin_version = plugin.version();
  parts.abi_version = plugin.abi_version();
  parts.options = request.plugin_options;
  std::string key = cache_key(parts);
  const CompileCache& cache = rt->cache;
  bool use_cache = request.use_cache && cache.enabled();

  auto k = std::make_unique<tegula_kernel>();
  k->device = d;
  k->kernel = std::move(lowered.kernel);
  k->cache = use_cache ? TEGULA_CACHE_MISS : TEGULA_CACHE_DISABLED;
  fill_signature(k.get());

  if (use_cache) {
    std::string payload;
    CompileCache::Lookup found = cache.lookup(key, &payload);
    if (found == CompileCache::Lookup::Hit) {
      Result<tg_executable*> exe = plugin.executable_load(index, payload);
      if (exe.is_ok()) {
        ++rt->cache_hits;
        k->executable = *exe;
        k->executable_bytes = std::move(payload);
        k->cache = TEGULA_CACHE_HIT;
        return k.release();
      }
      if (exe.status().code() != ErrorCode::Corrupt) return exe.status();
      cache.remove(key, "the plugin refused it: " + exe.status().message());
      found = CompileCache::Lookup::Rejected;
    }
    if (found == CompileCache::Lookup::Rejected) {
      ++rt->cache_rejected;
      k->cache = TEGULA_CACHE_REBUILT;
    } else {
      ++rt->cache_misses;
    }
  }

  ++rt->plugin_compiles;
  TG_ASSIGN_OR_RETURN(std::string bytes, plugin.compile(index, lowered_text, request.plugin_options));
  if (use_cache) cache.store(key, bytes);
  TG_ASSIGN_OR_RETURN(k->executable, plugin.executable_load(index, bytes));
  k->executable_bytes = std::move(bytes);
  return k.release();
}

}  // namespace tegula::runtime
