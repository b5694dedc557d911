#include "runtime/Compile.h"

#include <algorithm>
#include <cstdint>
#include <memory>

#include "ir/FirstInstance.h"
#include "ir/Lower.h"
#include "ir/Parser.h"
#include "ir/Printer.h"
#include "runtime/KernelFacts.h"
#include "runtime/Tune.h"

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

/// The launch signature, parameters then shape symbols, from the lowered kernel's facts.
void fill_signature(tegula_kernel* k, const std::vector<bool>& written) {
  std::vector<std::string> symbols = k->kernel.symbols();
  for (size_t i = 0; i < k->kernel.params.size(); ++i) {
    const ir::Param& p = k->kernel.params[i];
    k->arg_names.push_back(p.name);
    if (p.is_tensor) k->arg_kinds.push_back(TEGULA_ARG_TENSOR);
    else k->arg_kinds.push_back(dtype_is_float(p.dtype) ? TEGULA_ARG_FLOAT : TEGULA_ARG_INT);
    tegula_kernel::ArgDetail d;
    d.dtype = dtype_name(p.dtype);
    d.written = i < written.size() && written[i];
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

std::string lowering_key(const ir::LowerOptions& o) {
  // The fields variant_lower_options sets; the others keep their defaults for every variant.
  std::string key = "aligned " + std::to_string(int(o.tensors_aligned)) + " raster " + std::to_string(o.raster_group) + " divisibility";
  for (const auto& [symbol, divisor] : o.divisibility) key += " " + symbol + "=" + std::to_string(divisor);
  return key;
}

Result<const TargetDescription*> device_target(tegula_device* d) {
  std::lock_guard<std::mutex> lock(d->target_mu);
  if (!d->target_resolved) {
    Result<TargetDescription> t = resolve_target(d);
    if (t.is_ok()) {
      d->target = std::move(t).value();
      d->target_hash = target_hash(*d->target);
    } else {
      d->target_status = t.status();
    }
    d->target_resolved = true;
  }
  if (!d->target) return d->target_status;
  return &*d->target;
}

namespace {

/// What a variant is built from: the IR text and, parsed once when a build needs it, the
/// verified kernel.
struct VariantSource {
  std::string_view text;
  const std::string& name;
  std::optional<ir::Kernel>& parsed;
  const ir::Binding* binding = nullptr;  ///< a tunable kernel's instance (ir/Tunables.h)
  const ir::Binding* shape_values = nullptr;  ///< a variant for these exact shapes
};

struct Built {
  KernelFacts facts;
  tg_executable* executable = nullptr;
  std::string bytes;
  tegula_cache_result cache = TEGULA_CACHE_DISABLED;
};

/// The cache entry of this request, when there is one that the plugin loads: no parse, no
/// lowering. Corrupt entries (the cache's checks, facts that do not decode, an executable
/// the plugin refuses as TG_ERR_CORRUPT) are removed and counted, and *rejected set.
Result<std::optional<Built>> load_cached(tegula_device* d, const std::string& key, const std::string& binding,
                                         const std::string& source_name, bool* rejected) {
  tegula_runtime* rt = d->runtime;
  std::string payload;
  CompileCache::Lookup found = rt->cache.lookup(key, &payload, binding);
  *rejected = found == CompileCache::Lookup::Rejected;
  if (found != CompileCache::Lookup::Hit) return std::optional<Built>();
  Result<CachedKernel> cached = unpack_cached_kernel(std::move(payload), source_name);
  if (!cached.is_ok()) {
    rt->cache.remove(key, cached.status().message());
    *rejected = true;
    return std::optional<Built>();
  }
  Result<tg_executable*> exe = d->plugin->executable_load(d->info->index, cached->executable);
  if (!exe.is_ok()) {
    if (exe.status().code() != ErrorCode::Corrupt) return exe.status();
    rt->cache.remove(key, "the plugin refused it: " + exe.status().message());
    *rejected = true;
    return std::optional<Built>();
  }
  Built b;
  b.facts = std::move(cached->facts);
  b.executable = *exe;
  b.bytes = std::move(cached->executable);
  b.cache = TEGULA_CACHE_HIT;
  return std::optional<Built>(std::move(b));
}

/// Parse + verify, once per kernel (source.parsed keeps it).
Status parse_source(tegula_device* d, const VariantSource& source) {
  if (source.parsed) return Status::ok();
  ++d->runtime->ir_parses;
  TG_ASSIGN_OR_RETURN(ir::Kernel parsed, source.shape_values ? ir::parse_and_verify_specialized(source.text, source.name,
                                                                                                 source.binding, *source.shape_values)
                                                             : ir::parse_and_verify(source.text, source.name, source.binding));
  source.parsed = std::move(parsed);
  return Status::ok();
}

/// Parse + verify (once per kernel) and lower one variant, logging lowering's notes.
Result<ir::LowerResult> lower_source(tegula_device* d, const TargetDescription& target, const VariantSource& source,
                                     const ir::LowerOptions& lower_options) {
  tegula_runtime* rt = d->runtime;
  TG_RETURN_IF_ERROR(parse_source(d, source));
  ++rt->ir_lowerings;
  TG_ASSIGN_OR_RETURN(ir::LowerResult lowered, ir::lower(*source.parsed, target, lower_options));
  for (const std::string& line : lowered.log) rt->log.debug("lower " + lowered.kernel.name + ": " + line);
  return lowered;
}

/// One variant: the cache lookup (keyed by the request, so a hit needs no parse or
/// lowering); on a miss, parse + verify (once per kernel), lower, plugin compile, store, load.
Result<Built> build(tegula_device* d, const VariantSource& source, const ir::LowerOptions& lower_options,
                    const std::string& plugin_options, bool want_cache) {
  tegula_runtime* rt = d->runtime;
  PluginInstance& plugin = *d->plugin;
  TG_ASSIGN_OR_RETURN(const TargetDescription* target, device_target(d));
  const CompileCache& cache = rt->cache;
  bool use_cache = want_cache && cache.enabled();

  CacheKeyParts parts;
  std::string key, binding;
  tegula_cache_result outcome = TEGULA_CACHE_DISABLED;
  if (use_cache) {
    parts.ir = std::string(source.text);
    if (source.binding) parts.ir += "\n// tunables: " + ir::binding_text(*source.binding);
    if (source.shape_values) parts.ir += "\n// shapes: " + ir::binding_text(*source.shape_values);
    parts.lowering = lowering_key(lower_options);
    parts.runtime_build = runtime_build_identity();
    parts.target_hash = d->target_hash;
    parts.plugin_name = plugin.name();
    parts.plugin_version = plugin.version();
    parts.plugin_build = plugin.library_identity();
    parts.abi_version = plugin.abi_version();
    parts.options = plugin_options;
    key = cache_key(parts);
    binding = cache_binding(parts);
    bool rejected = false;
    TG_ASSIGN_OR_RETURN(std::optional<Built> hit, load_cached(d, key, binding, source.name, &rejected));
    if (hit) {
      ++rt->cache_hits;
      return std::move(*hit);
    }
    if (rejected) ++rt->cache_rejected;
    else ++rt->cache_misses;
    outcome = rejected ? TEGULA_CACHE_REBUILT : TEGULA_CACHE_MISS;
  }

  TG_ASSIGN_OR_RETURN(ir::LowerResult lowered, lower_source(d, *target, source, lower_options));
  std::string lowered_text = ir::print_kernel(lowered.kernel);

  Built b;
  b.facts = kernel_facts(lowered.kernel);
  b.cache = outcome;
  ++rt->plugin_compiles;
  TG_ASSIGN_OR_RETURN(std::string bytes, plugin.compile(d->info->index, lowered_text, plugin_options));
  if (use_cache) {
    Result<std::string> payload = pack_cached_kernel(b.facts, bytes);
    if (payload.is_ok()) cache.store(key, *payload, binding);
    else rt->log.warn("compile cache: not storing kernel " + b.facts.header.name + ": " + payload.status().message());
  }
  TG_ASSIGN_OR_RETURN(b.executable, plugin.executable_load(d->info->index, bytes));
  b.bytes = std::move(bytes);
  return b;
}

}  // namespace

namespace {

/// The symbols of a tunable kernel, from its first candidate (they cannot depend on it).
Result<std::vector<std::string>> tunable_symbols(std::string_view text, const std::string& name, const ir::TuneSpace& space) {
  TG_ASSIGN_OR_RETURN(ir::Kernel k, ir::parse_first_instance(text, name, space, /*verify=*/false));
  return k.symbols();
}

/// The binding a tunable kernel's generic variant is compiled with: the one the request
/// gives, else the choice for a large shape (every symbol 4096) launched with nothing known.
Status choose_generic_binding(tegula_kernel* k, const ir::TuneSpace& space, const CompileRequest& request) {
  if (!request.tunables.empty()) {
    TG_ASSIGN_OR_RETURN(k->generic.binding, ir::parse_binding(request.tunables, space));
    k->generic.chosen_by = "given";
    return Status::ok();
  }
  k->tune = space;
  TG_ASSIGN_OR_RETURN(std::vector<std::string> symbols, tunable_symbols(k->source_text, k->source_name, space));
  std::map<std::string, int64_t> shape;
  for (const std::string& s : symbols) shape[s] = 4096;
  k->kernel.name = k->source_name;  // for messages until the header is known
  TG_ASSIGN_OR_RETURN(TuneChoice c, choose_binding(k, shape, variant_lower_options({}, true, request.raster_group), "generic"));
  k->generic.binding = std::move(c.binding);
  k->generic.chosen_by = c.chosen_by;
  return Status::ok();
}

/// Whether the device's description asks for variants compiled per exact shape.
bool target_specializes(tegula_device* d) {
  Result<const TargetDescription*> t = device_target(d);
  return t.is_ok() && (*t)->has_feature(Feature::ShapeSpecialization);
}

}  // namespace

Result<tegula_kernel*> compile_kernel(tegula_device* d, std::string_view ir_text, const CompileRequest& request) {
  auto k = std::make_unique<tegula_kernel>();
  k->device = d;
  k->source_text = std::string(ir_text);
  k->source_name = request.source_name;
  k->plugin_options = request.plugin_options;
  k->use_cache = request.use_cache;
  k->raster_group = request.raster_group;
  // Only a text that spells `tune` can have tunables: others are not tokenised here, so a
  // cache hit still reads nothing but the request.
  ir::TuneSpace space;
  if (k->source_text.find("tune") != std::string::npos) {
    TG_ASSIGN_OR_RETURN(space, ir::parse_tune_space(k->source_text, k->source_name));
  }
  if (space.empty() && !request.tunables.empty())
    return error(ErrorCode::InvalidArgument, k->source_name + ": tunables were given (" + request.tunables +
                                                 "), but the kernel declares none");
  if (!space.empty()) TG_RETURN_IF_ERROR(choose_generic_binding(k.get(), space, request));
  // The common variant (aligned tensors, nothing known about shapes) is compiled now, so that
  // a kernel the device cannot run fails here. Where launches run per-shape variants, it is
  // lowered now (lowering's refusals still come here) and compiled only when a launch needs
  // it: past kMaxShapeVariants or a shape that did not specialise (on the H200's Vulkan
  // driver its pipeline was 7x the size of a specialised one, and the slowest to compile).
  VariantSource source{k->source_text, k->source_name, k->source,
                       k->generic.binding.empty() ? nullptr : &k->generic.binding};
  ir::LowerOptions generic_options = variant_lower_options({}, true, request.raster_group);
  // (There the text is parsed before the cache lookup, to see whether it has shape symbols.)
  if (target_specializes(d)) {
    TG_RETURN_IF_ERROR(parse_source(d, source));
    if (!source.parsed->symbols().empty()) {
      TG_ASSIGN_OR_RETURN(const TargetDescription* target, device_target(d));
      TG_ASSIGN_OR_RETURN(ir::LowerResult lowered, lower_source(d, *target, source, generic_options));
      KernelFacts facts = kernel_facts(lowered.kernel);
      k->kernel = std::move(facts.header);
      k->specialize_shapes = true;
      k->generic_deferred.store(true, std::memory_order_release);
      fill_signature(k.get(), facts.written);
      return k.release();
    }
  }
  TG_ASSIGN_OR_RETURN(Built generic, build(d, source, generic_options, request.plugin_options, request.use_cache));
  k->kernel = std::move(generic.facts.header);
  k->generic.executable = generic.executable;
  k->generic.bytes = std::move(generic.bytes);
  k->cache = generic.cache;
  fill_signature(k.get(), generic.facts.written);
  return k.release();
}

Status ensure_generic(tegula_kernel* k) {
  if (!k->generic_deferred.load(std::memory_order_acquire)) return Status::ok();
  std::lock_guard<std::mutex> lock(k->variants_mu);
  if (!k->generic_deferred.load(std::memory_order_relaxed)) return Status::ok();
  VariantSource source{k->source_text, k->source_name, k->source,
                       k->generic.binding.empty() ? nullptr : &k->generic.binding};
  TG_ASSIGN_OR_RETURN(Built b, build(k->device, source, variant_lower_options({}, true, k->raster_group), k->plugin_options,
                                     k->use_cache));
  k->device->runtime->log.debug("kernel " + k->kernel.name + ": " + (b.cache == TEGULA_CACHE_HIT ? "loaded" : "compiled") +
                                " the symbolic variant at its first use (launches on this device run per-shape variants "
                                "until a kernel has 16, or a shape's does not build)");
  k->generic.executable = b.executable;
  k->generic.bytes = std::move(b.bytes);
  k->generic_deferred.store(false, std::memory_order_release);
  return Status::ok();
}

Result<tegula_kernel::Variant*> kernel_variant(tegula_kernel* k, const std::map<std::string, int64_t>& divisibility,
                                               bool aligned, const std::vector<int64_t>& key) {
  if (aligned && divisibility.empty()) {
    TG_RETURN_IF_ERROR(ensure_generic(k));
    return &k->generic;
  }
  std::lock_guard<std::mutex> lock(k->variants_mu);
  auto it = k->variants.find(key);
  if (it != k->variants.end()) return &it->second;
  // A tunable kernel compiled with a given binding keeps it in every variant.
  VariantSource source{k->source_text, k->source_name, k->source,
                       k->generic.binding.empty() ? nullptr : &k->generic.binding};
  TG_ASSIGN_OR_RETURN(Built b, build(k->device, source, variant_lower_options(divisibility, aligned, k->raster_group),
                                     k->plugin_options, k->use_cache));
  std::string what = aligned ? "" : "unaligned tensors";
  for (const auto& [sym, div] : divisibility) what += (what.empty() ? "" : ", ") + sym + " % " + std::to_string(div) + " == 0";
  // A launch that stalls here compiles; serving code calls tegula_kernel_warm_up first.
  k->device->runtime->log.debug("kernel " + k->kernel.name + ": " + (b.cache == TEGULA_CACHE_HIT ? "loaded" : "compiled") +
                                " the variant for " + what + (b.cache == TEGULA_CACHE_HIT ? " from the compile cache" : "") +
                                " at its first use (tegula_kernel_warm_up compiles variants ahead)");
  auto& v = k->variants[key];
  v.executable = b.executable;
  v.bytes = std::move(b.bytes);
  v.binding = k->generic.binding;
  v.chosen_by = k->generic.chosen_by;
  return &v;
}

Result<tegula_kernel::Variant*> tunable_variant(tegula_kernel* k, const std::map<std::string, int64_t>& shape,
                                                const std::map<std::string, int64_t>& divisibility, bool aligned,
                                                const std::vector<int64_t>& key, const std::string& class_text) {
  std::lock_guard<std::mutex> lock(k->variants_mu);
  auto it = k->variants.find(key);
  if (it != k->variants.end()) return &it->second;
  ir::LowerOptions lower = variant_lower_options(divisibility, aligned, k->raster_group);
  TG_ASSIGN_OR_RETURN(TuneChoice choice, choose_binding(k, shape, lower, class_text));
  std::optional<ir::Kernel> instance;
  VariantSource source{k->source_text, k->source_name, instance, &choice.binding};
  TG_ASSIGN_OR_RETURN(Built b, build(k->device, source, lower, k->plugin_options, k->use_cache));
  k->device->runtime->log.debug("kernel " + k->kernel.name + ": " + class_text + " runs " +
                                ir::binding_text(choice.binding) + " (" + choice.chosen_by + ")" +
                                (b.cache == TEGULA_CACHE_HIT ? ", loaded from the compile cache" : ", compiled now"));
  auto& v = k->variants[key];
  v.executable = b.executable;
  v.bytes = std::move(b.bytes);
  v.binding = std::move(choice.binding);
  v.chosen_by = std::move(choice.chosen_by);
  // The signature points at the header for the grid: both live in the map's node.
  v.header = std::move(b.facts.header);
  v.signature = plugin::launch_signature(*v.header);
  return &v;
}

Result<tegula_kernel::Variant*> specialized_variant(tegula_kernel* k, const ir::Binding& shape_values, bool aligned,
                                                    const std::vector<int64_t>& key, const ir::Binding* binding,
                                                    const std::string& chosen_by) {
  std::optional<ir::Kernel> instance;
  VariantSource source{k->source_text, k->source_name, instance, binding && !binding->empty() ? binding : nullptr,
                       &shape_values};
  TG_ASSIGN_OR_RETURN(Built b, build(k->device, source, variant_lower_options({}, aligned, k->raster_group), k->plugin_options,
                                     k->use_cache));
  k->device->runtime->log.debug("kernel " + k->kernel.name + ": " + (b.cache == TEGULA_CACHE_HIT ? "loaded" : "compiled") +
                                " the variant for " + ir::binding_text(shape_values) + (aligned ? "" : ", unaligned tensors") +
                                " (the device's description asks for shape specialisation)");
  auto& v = k->variants[key];
  v.executable = b.executable;
  v.bytes = std::move(b.bytes);
  if (binding) v.binding = *binding;
  v.chosen_by = chosen_by;
  v.header = std::move(b.facts.header);
  v.signature = plugin::launch_signature(*v.header);
  v.specialized = true;
  ++k->shape_variants;
  return &v;
}

}  // namespace tegula::runtime
