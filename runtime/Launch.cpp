#include "runtime/Launch.h"

#include <cstdint>
#include <map>
#include <mutex>

#include "plugins/support/LaunchCheck.h"
#include "runtime/Compile.h"
#include "runtime/Tune.h"

namespace tegula::runtime {
namespace {

const char* kind_name(uint32_t kind) {
  switch (kind) {
    case TEGULA_ARG_TENSOR: return "a tensor";
    case TEGULA_ARG_INT: return "an integer";
    case TEGULA_ARG_FLOAT: return "a float";
    default: return "an unknown kind";
  }
}

/// The runtime's buffer behind argument `arg`, for validate_launch: the public API checked
/// that it is the kernel device's. No address: the runtime picks the variant by offsets.
plugin::LaunchBuffer buffer_of(const void* context, size_t arg, const tg_buffer*) {
  const tegula_arg* args = static_cast<const tegula_arg*>(context);
  return {true, args[arg].buffer->size, 0};
}

const char* short_kind_name(uint32_t kind) {
  switch (kind) {
    case TEGULA_ARG_TENSOR: return "tensor";
    case TEGULA_ARG_INT: return "int";
    default: return "float";
  }
}

/// The shape class of a launch of a tunable kernel (runtime/Tune.h) and its variant key:
/// alignment, then per shape symbol its divisor and size bucket.
struct LaunchClass {
  std::vector<int64_t> key;
  std::map<std::string, int64_t> shape, divisibility;
  bool aligned = true;
  std::string text;
};

LaunchClass launch_class(const tegula_kernel* k, const tegula_arg* args, size_t count) {
  const ir::Kernel& kernel = k->kernel;
  LaunchClass c;
  for (size_t i = 0; i < kernel.params.size() && i < count; ++i)
    if (kernel.params[i].is_tensor) c.aligned = c.aligned && args[i].offset % 16 == 0;
  c.key.push_back(c.aligned ? 16 : 1);
  std::vector<std::string> symbols;
  std::vector<int64_t> values;
  for (size_t i = kernel.params.size(); i < count; ++i) {
    int64_t v = args[i].i, div = 1;
    while (c.aligned && div < 16 && (v == 0 || v % (div * 2) == 0)) div *= 2;
    c.key.push_back(div);
    c.key.push_back(size_bucket(v));
    symbols.push_back(k->arg_names[i]);
    values.push_back(v);
    c.shape[k->arg_names[i]] = v;
    if (div > 1) c.divisibility[k->arg_names[i]] = div;
  }
  c.text = shape_class_text(symbols, values, c.aligned);
  return c;
}

/// A launch of a kernel with tunables and no binding given: the variant of the launch's
/// shape class, whose grid comes from its own binding. The arguments were checked against
/// the generic binding's signature already, which differs only in the grid.
Result<tegula_kernel::Variant*> tunable_class_variant(tegula_kernel* k, const tegula_arg* args, size_t count) {
  LaunchClass c = launch_class(k, args, count);
  {
    std::lock_guard<std::mutex> lock(k->variants_mu);
    auto it = k->variants.find(c.key);
    if (it != k->variants.end()) return &it->second;
  }
  return tunable_variant(k, c.shape, c.divisibility, c.aligned, c.key, c.text);
}

Status launch_tunable(tegula_kernel* k, const tegula_arg* args, size_t count, const tg_launch_params& params,
                      std::vector<tg_launch_arg>& targs) {
  TG_ASSIGN_OR_RETURN(tegula_kernel::Variant* variant, tunable_class_variant(k, args, count));
  TG_ASSIGN_OR_RETURN(auto g, plugin::validate_launch(*variant->signature, params, buffer_of, args, plugin::GridCheck::Computed));
  k->launched.store(variant, std::memory_order_release);
  return k->device->plugin->launch(k->device->info->index, variant->executable, g.data(), targs);
}

/// Distinct shapes one kernel is specialised for before its launches fall back to the
/// symbolic variants: a server that sees every sequence length must not compile forever.
constexpr size_t kMaxShapeVariants = 16;

/// The variant compiled for this launch's exact shapes (the kernel specialises: the device's
/// description has shape_specialization), or nullptr: past kMaxShapeVariants, or this
/// shape's build failed (logged once; the shape is not tried again).
tegula_kernel::Variant* shape_variant(tegula_kernel* k, const tegula_arg* args, size_t count) {
  const ir::Kernel& kernel = k->kernel;
  std::vector<int64_t> key{-1};
  bool aligned = true;
  for (size_t i = 0; i < kernel.params.size() && i < count; ++i)
    if (kernel.params[i].is_tensor) aligned = aligned && args[i].offset % 16 == 0;
  key.push_back(aligned ? 16 : 1);
  for (size_t i = kernel.params.size(); i < count; ++i) key.push_back(args[i].i);
  std::lock_guard<std::mutex> lock(k->variants_mu);
  auto it = k->variants.find(key);
  if (it != k->variants.end()) return &it->second;
  if (k->shape_variants >= kMaxShapeVariants || k->shape_failures.count(key)) return nullptr;
  ir::Binding values;
  for (size_t i = kernel.params.size(); i < count; ++i) values.push_back({k->arg_names[i], args[i].i});
  ir::Binding binding = k->generic.binding;
  std::string chosen_by = k->generic.chosen_by;
  Result<tegula_kernel::Variant*> v = [&]() -> Result<tegula_kernel::Variant*> {
    if (k->tune) {  // the class's choice, as the symbolic variant of this class would take
      LaunchClass c = launch_class(k, args, count);
      TG_ASSIGN_OR_RETURN(TuneChoice choice,
                          choose_binding(k, c.shape, variant_lower_options(c.divisibility, c.aligned, k->raster_group), c.text));
      binding = std::move(choice.binding);
      chosen_by = std::move(choice.chosen_by);
    }
    return specialized_variant(k, values, aligned, key, &binding, chosen_by);
  }();
  if (v.is_ok()) return *v;
  k->shape_failures.insert(std::move(key));
  ++k->shape_variants;
  k->device->runtime->log.debug("kernel " + kernel.name + ": no variant for " + ir::binding_text(values) + " (" +
                                v.status().message() + "); launches of this shape run the symbolic variants");
  return nullptr;
}

/// The variant of a kernel without tunables for what a launch guarantees: each shape
/// symbol's power-of-two divisor (vector widths depend on it), provided every tensor starts
/// 16-byte aligned.
Result<tegula_kernel::Variant*> divisibility_variant(tegula_kernel* k, const tegula_arg* args, size_t count) {
  const ir::Kernel& kernel = k->kernel;
  std::vector<int64_t> key;
  key.reserve(1 + count - kernel.params.size());
  bool aligned = true;
  for (size_t i = 0; i < kernel.params.size(); ++i)
    if (kernel.params[i].is_tensor) aligned = aligned && args[i].offset % 16 == 0;
  key.push_back(aligned ? 16 : 1);
  bool any_divisor = false;
  for (size_t i = kernel.params.size(); i < count; ++i) {
    int64_t v = args[i].i, div = 1;
    while (aligned && div < 16 && (v == 0 || v % (div * 2) == 0)) div *= 2;
    key.push_back(div);
    any_divisor = any_divisor || div > 1;
  }
  // A variant compiled before is found by its key alone; the symbol-name map that
  // compiling one needs is built only on a miss (no string copies on the common path).
  if (aligned && !any_divisor) {
    TG_RETURN_IF_ERROR(ensure_generic(k));
    return &k->generic;
  }
  {
    std::lock_guard<std::mutex> lock(k->variants_mu);
    auto it = k->variants.find(key);
    if (it != k->variants.end()) return &it->second;
  }
  std::map<std::string, int64_t> divisibility;
  for (size_t i = kernel.params.size(); i < count; ++i)
    if (key[1 + i - kernel.params.size()] > 1) divisibility[k->arg_names[i]] = key[1 + i - kernel.params.size()];
  return kernel_variant(k, divisibility, aligned, key);
}

/// A launch of a variant compiled for its shapes: the plugin sees the parameters only.
Status launch_shape_variant(tegula_kernel* k, tegula_kernel::Variant* v, const tegula_arg* args, tg_launch_params params,
                            std::vector<tg_launch_arg>& targs) {
  params.arg_count = k->kernel.params.size();
  TG_ASSIGN_OR_RETURN(auto g, plugin::validate_launch(*v->signature, params, buffer_of, args, plugin::GridCheck::Computed));
  targs.resize(params.arg_count);
  k->launched.store(v, std::memory_order_release);
  return k->device->plugin->launch(k->device->info->index, v->executable, g.data(), targs);
}

}  // namespace

Status launch_kernel(tegula_kernel* k, const tegula_arg* args, size_t count) {
  const ir::Kernel& kernel = k->kernel;
  size_t expected = k->arg_kinds.size();
  if (count != expected) {
    std::string sig;
    for (size_t i = 0; i < expected; ++i)
      sig += (i ? ", " : "") + k->arg_names[i] + ": " + short_kind_name(k->arg_kinds[i]);
    return error(ErrorCode::InvalidArgument, "kernel '" + kernel.name + "' takes " + std::to_string(expected) +
                                                 " arguments (" + sig + "), given " + std::to_string(count));
  }
  if (count && !args) return error(ErrorCode::InvalidArgument, "args is NULL");

  // The public API's own checks (kinds, with integers taken for floats; buffers of this
  // kernel's device); the plugin-ABI view of the launch for the rest.
  std::vector<tg_launch_arg> targs(count);
  for (size_t i = 0; i < count; ++i) {
    const tegula_arg& a = args[i];
    // Built only for an error: a launch that is fine allocates no strings.
    auto where = [&] { return "argument " + std::to_string(i) + " (" + k->arg_names[i] + ")"; };
    tegula_arg_kind want = k->arg_kinds[i];
    bool ok = a.kind == uint32_t(want) || (want == TEGULA_ARG_FLOAT && a.kind == TEGULA_ARG_INT);
    if (!ok)
      return error(ErrorCode::InvalidArgument, where() + " must be " + kind_name(want) + ", given " + kind_name(a.kind));
    tg_launch_arg& t = targs[i];
    t.struct_size = sizeof(tg_launch_arg);
    if (a.kind == TEGULA_ARG_TENSOR) {
      if (!a.buffer) return error(ErrorCode::InvalidArgument, where() + ": the buffer is NULL");
      if (a.buffer->device != k->device)
        return error(ErrorCode::InvalidArgument, where() + ": the buffer is on " + a.buffer->device->info->name +
                                                     ", the kernel on " + k->device->info->name);
      t.kind = TG_ARG_BUFFER;
      t.buffer = a.buffer->handle;
      t.offset = a.offset;
    } else if (a.kind == TEGULA_ARG_INT) {
      t.kind = want == TEGULA_ARG_FLOAT ? TG_ARG_F64 : TG_ARG_I64;
      t.i64 = a.i;
      t.f64 = double(a.i);
    } else {
      t.kind = TG_ARG_F64;
      t.f64 = a.f;
    }
  }
  // Offsets, shape symbols, tensor sizes and the grid, as every plugin checks them
  // (plugins/support/LaunchCheck.h); the grid comes from the kernel's grid expressions.
  tg_launch_params params{};
  params.struct_size = sizeof params;
  params.args = targs.data();
  params.arg_count = count;
  TG_ASSIGN_OR_RETURN(auto g, plugin::validate_launch(k->launch_signature, params, buffer_of, args, plugin::GridCheck::Computed));
  if (g[0] == 0 || g[1] == 0 || g[2] == 0) return Status::ok();  // nothing to run
  if (k->specialize_shapes)
    if (tegula_kernel::Variant* v = shape_variant(k, args, count)) return launch_shape_variant(k, v, args, params, targs);
  if (k->tune) return launch_tunable(k, args, count, params, targs);
  TG_ASSIGN_OR_RETURN(tegula_kernel::Variant* variant, divisibility_variant(k, args, count));
  k->launched.store(variant, std::memory_order_release);  // what tegula_kernel_describe shows
  return k->device->plugin->launch(k->device->info->index, variant->executable, g.data(), targs);
}

Status warm_up_kernel(tegula_kernel* k, const uint32_t* masks) {
  if (k->tune)
    return error(ErrorCode::Unsupported, "kernel " + k->kernel.name +
                                              " has tunables, chosen per shape class at its first launch of each; "
                                              "launch it once per class to warm it up, or compile it with its tunables given");
  size_t first = k->kernel.params.size(), symbols = k->arg_names.size() - first;
  // Odometer over the divisor choices; the key and map are built as launch_kernel builds them.
  std::vector<std::vector<int64_t>> choices(symbols);
  for (size_t s = 0; s < symbols; ++s) {
    uint32_t mask = masks && masks[s] ? masks[s] : 0x10;
    for (int b = 0; b < 5; ++b)
      if (mask & (1u << b)) choices[s].push_back(int64_t(1) << b);
  }
  std::vector<size_t> at(symbols, 0);
  for (;;) {
    std::vector<int64_t> key{16};
    std::map<std::string, int64_t> divisibility;
    for (size_t s = 0; s < symbols; ++s) {
      int64_t div = choices[s][at[s]];
      key.push_back(div);
      if (div > 1) divisibility[k->arg_names[first + s]] = div;
    }
    TG_RETURN_IF_ERROR(kernel_variant(k, divisibility, true, key).status());
    size_t s = 0;
    while (s < symbols && ++at[s] == choices[s].size()) at[s++] = 0;
    if (s == symbols) return Status::ok();
  }
}

Status warm_up_shape(tegula_kernel* k, const int64_t* values, size_t count) {
  size_t first = k->kernel.params.size(), symbols = k->arg_names.size() - first;
  if (count != symbols)
    return error(ErrorCode::InvalidArgument, "kernel '" + k->kernel.name + "' has " + std::to_string(symbols) +
                                                 " shape symbols, given " + std::to_string(count) + " values");
  if (count && !values) return error(ErrorCode::InvalidArgument, "symbol_values is NULL");
  // The arguments a launch at these shapes would pass, as far as choosing its variant reads
  // them: tensors at offset 0 (aligned), the symbols; scalar parameters are not read.
  std::vector<tegula_arg> args(k->arg_names.size());
  for (size_t i = 0; i < first; ++i) args[i] = k->kernel.params[i].is_tensor ? tegula_arg_tensor(nullptr, 0) : tegula_arg_int(0);
  for (size_t s = 0; s < symbols; ++s) {
    if (values[s] < 0)
      return error(ErrorCode::InvalidArgument, "shape symbol " + k->arg_names[first + s] + " = " + std::to_string(values[s]) +
                                                   " is negative");
    args[first + s] = tegula_arg_int(values[s]);
  }
  if (k->specialize_shapes && shape_variant(k, args.data(), args.size())) return Status::ok();
  if (k->tune) return tunable_class_variant(k, args.data(), args.size()).status();
  return divisibility_variant(k, args.data(), args.size()).status();
}

}  // namespace tegula::runtime

namespace tegula::runtime {

Status record_tuning(tegula_kernel* k, const tegula_arg* args, size_t count, const std::string& binding,
                     double measured_ms) {
  if (!k->tune)
    return error(ErrorCode::InvalidArgument, "kernel " + k->kernel.name +
                                                 (k->generic.binding.empty() ? " has no tunables"
                                                                             : " was compiled with its tunables given") +
                                                 ": there is no choice to record");
  if (count != k->arg_kinds.size())
    return error(ErrorCode::InvalidArgument, "kernel '" + k->kernel.name + "' takes " + std::to_string(k->arg_kinds.size()) +
                                                 " arguments, given " + std::to_string(count));
  for (size_t i = k->kernel.params.size(); i < count; ++i)
    if (args[i].kind != TEGULA_ARG_INT || args[i].i < 0)
      return error(ErrorCode::InvalidArgument, "argument " + std::to_string(i) + " (" + k->arg_names[i] +
                                                   ") must be a non-negative integer");
  if (!(measured_ms >= 0)) return error(ErrorCode::InvalidArgument, "measured_ms must be a non-negative time");
  TG_ASSIGN_OR_RETURN(ir::Binding b, ir::parse_binding(binding, *k->tune));
  return record_choice(k, launch_class(k, args, count).text, {std::move(b), "measured", measured_ms * 1000});
}

}  // namespace tegula::runtime
