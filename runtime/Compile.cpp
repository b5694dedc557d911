#include "runtime/Compile.h"

#include <algorithm>
#include <cstdint>
#include <memory>

#include "ir/Analysis.h"
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
  std::vector<std::string> symbols = k->kernel.symbols();
  std::vector<size_t> written = ir::written_params(k->kernel);
  for (size_t i = 0; i < k->kernel.params.size(); ++i) {
    const ir::Param& p = k->kernel.params[i];
    k->arg_names.push_back(p.name);
    if (p.is_tensor) k->arg_kinds.push_back(TEGULA_ARG_TENSOR);
    else k->arg_kinds.push_back(dtype_is_float(p.dtype) ? TEGULA_ARG_FLOAT : TEGULA_ARG_INT);
    tegula_kernel::ArgDetail d;
    d.dtype = dtype_name(p.dtype);
    d.written = std::find(written.begin(), written.end(), i) != written.end();
    for (const ir::Expr& dim : p.shape) {
      bool fixed = dim->kind == ir::ExprKind::IntImm;
      size_t symbol = fixed ? 0 : size_t(std::find(symbols.begin(), symbols.end(), dim->name) - symbols.begin());
      d.dims.push_back(fixed ? dim->int_value : -1);
      d.dim_args.push_back(fixed ? -1 : int64_t(k->kernel.params.size() + symbol));
    }
    k->arg_details.push_back(std::move(d));
  }
  for (const std::string& s : symbols) {
    k->arg_names.push_back(s);
    k->arg_kinds.push_back(TEGULA_ARG_INT);
    k->arg_details.push_back({"i64", false, {}, {}});
  }
  // No lowering assumptions: the launch picks the variant that keeps them.
  k->launch_signature = plugin::launch_signature(k->kernel);
}

}  // namespace

ir::LowerOptions variant_lower_options(const std::map<std::string, int64_t>& divisibility, bool aligned, uint32_t raster_group) {
  ir::LowerOptions options;
  options.divisibility = divisibility;
  options.tensors_aligned = aligned;
  options.raster_group = raster_group;
  return options;
}

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

namespace {

struct Built {
  ir::Kernel lowered;
  tg_executable* executable = nullptr;
  std::string bytes;
  tegula_cache_result cache = TEGULA_CACHE_DISABLED;
};

/// Lower `kernel` for the device with `divisibility`, then cache lookup, plugin compile,
/// cache store and load.
Result<Built> build(tegula_device* d, const ir::Kernel& kernel, const std::map<std::string, int64_t>& divisibility, bool aligned,
                    uint32_t raster_group, const std::string& plugin_options, bool want_cache) {
  tegula_runtime* rt = d->runtime;
  PluginInstance& plugin = *d->plugin;
  uint32_t index = d->info->index;
  TG_ASSIGN_OR_RETURN(const TargetDescription* target, device_target(d));
  TG_ASSIGN_OR_RETURN(ir::LowerResult lowered, ir::lower(kernel, *target, variant_lower_options(divisibility, aligned, raster_group)));
  for (const std::string& line : lowered.log) rt->log.debug("lower " + kernel.name + ": " + line);
  std::string lowered_text = ir::print_kernel(lowered.kernel);

  CacheKeyParts parts;
  parts.lowered_ir = lowered_text;
  parts.target_hash = target_hash(*target);
  parts.plugin_name = plugin.name();
  parts.plugin_version = plugin.version();
  parts.plugin_build = plugin.library_identity();
  parts.abi_version = plugin.abi_version();
  parts.options = plugin_options;
  std::string key = cache_key(parts);
  std::string binding = cache_binding(parts);
  const CompileCache& cache = rt->cache;
  bool use_cache = want_cache && cache.enabled();

  Built b;
  b.lowered = std::move(lowered.kernel);
  b.cache = use_cache ? TEGULA_CACHE_MISS : TEGULA_CACHE_DISABLED;
  if (use_cache) {
    std::string payload;
    CompileCache::Lookup found = cache.lookup(key, &payload, binding);
    if (found == CompileCache::Lookup::Hit) {
      Result<tg_executable*> exe = plugin.executable_load(index, payload);
      if (exe.is_ok()) {
        ++rt->cache_hits;
        b.executable = *exe;
        b.bytes = std::move(payload);
        b.cache = TEGULA_CACHE_HIT;
        return b;
      }
      if (exe.status().code() != ErrorCode::Corrupt) return exe.status();
      cache.remove(key, "the plugin refused it: " + exe.status().message());
      found = CompileCache::Lookup::Rejected;
    }
    if (found == CompileCache::Lookup::Rejected) {
      ++rt->cache_rejected;
      b.cache = TEGULA_CACHE_REBUILT;
    } else {
      ++rt->cache_misses;
    }
  }

  ++rt->plugin_compiles;
  TG_ASSIGN_OR_RETURN(std::string bytes, plugin.compile(index, lowered_text, plugin_options));
  if (use_cache) cache.store(key, bytes, binding);
  TG_ASSIGN_OR_RETURN(b.executable, plugin.executable_load(index, bytes));
  b.bytes = std::move(bytes);
  return b;
}

}  // namespace

Result<tegula_kernel*> compile_kernel(tegula_device* d, std::string_view ir_text, const CompileRequest& request) {
  TG_ASSIGN_OR_RETURN(ir::Kernel kernel, ir::parse_and_verify(ir_text, request.source_name));
  // The common variant (aligned tensors, nothing known about shapes) is compiled now, so that
  // a kernel the device cannot run fails here.
  TG_ASSIGN_OR_RETURN(Built generic, build(d, kernel, {}, true, request.raster_group, request.plugin_options, request.use_cache));
  auto k = std::make_unique<tegula_kernel>();
  k->device = d;
  k->source = std::move(kernel);
  k->kernel = std::move(generic.lowered);
  k->plugin_options = request.plugin_options;
  k->use_cache = request.use_cache;
  k->raster_group = request.raster_group;
  k->generic.executable = generic.executable;
  k->generic.bytes = std::move(generic.bytes);
  k->cache = generic.cache;
  fill_signature(k.get());
  return k.release();
}

Result<tegula_kernel::Variant*> kernel_variant(tegula_kernel* k, const std::map<std::string, int64_t>& divisibility,
                                               bool aligned, const std::vector<int64_t>& key) {
  if (aligned && divisibility.empty()) return &k->generic;
  std::lock_guard<std::mutex> lock(k->variants_mu);
  auto it = k->variants.find(key);
  if (it != k->variants.end()) return &it->second;
  TG_ASSIGN_OR_RETURN(Built b, build(k->device, k->source, divisibility, aligned, k->raster_group, k->plugin_options, k->use_cache));
  std::string what = aligned ? "" : "unaligned tensors";
  for (const auto& [sym, div] : divisibility) what += (what.empty() ? "" : ", ") + sym + " % " + std::to_string(div) + " == 0";
  // A launch that stalls here compiles; serving code calls tegula_kernel_warm_up first.
  k->device->runtime->log.debug("kernel " + k->source.name + ": compiled the variant for " + what +
                                " at its first use (tegula_kernel_warm_up compiles variants ahead)");
  auto& v = k->variants[key];
  v.executable = b.executable;
  v.bytes = std::move(b.bytes);
  return &v;
}

}  // namespace tegula::runtime
