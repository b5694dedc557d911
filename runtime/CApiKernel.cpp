/// \file
/// The C API: kernels and launches.
#include <cstring>
#include <string>
#include <vector>

#include "runtime/CApiSupport.h"
#include "runtime/Compile.h"
#include "runtime/Launch.h"

using namespace tegula;
using namespace tegula::runtime;

namespace {

tegula_error* invalid(const std::string& message) { return to_c_error(error(ErrorCode::InvalidArgument, message)); }

}  // namespace

static tegula_error* compile(tegula_device* d, const char* ir_text, size_t ir_size,
                             const tegula_compile_options* options, tegula_kernel** out);

extern "C" {

void tegula_compile_options_init(tegula_compile_options* options) {
  if (!options) return;
  std::memset(options, 0, sizeof(*options));
  options->struct_size = sizeof(*options);
}

tegula_error* tegula_kernel_compile(tegula_device* d, const char* ir_text, size_t ir_size,
                                    const tegula_compile_options* options, tegula_kernel** out) {
  if (!d || (!ir_text && ir_size) || !out) return invalid("tegula_kernel_compile: bad argument");
  if (options && options->struct_size < sizeof(size_t)) return invalid("tegula_kernel_compile: options->struct_size is not set");
  return c_guard([&]() -> tegula_error* { return compile(d, ir_text, ir_size, options, out); });
}

}  // extern "C"

static tegula_error* compile(tegula_device* d, const char* ir_text, size_t ir_size,
                             const tegula_compile_options* options, tegula_kernel** out) {
  tegula_compile_options o = read_input_struct(options);
  CompileRequest request;
  if (o.source_name) request.source_name = o.source_name;
  if (o.plugin_options) request.plugin_options = o.plugin_options;
  request.use_cache = !(o.flags & TEGULA_COMPILE_NO_CACHE);
  request.raster_group = o.raster_group;
  if (o.tunables) request.tunables = o.tunables;
  Result<tegula_kernel*> k = compile_kernel(d, std::string_view(ir_text ? ir_text : "", ir_size), request);
  if (!k.is_ok()) return to_c_error(k.status());
  tegula_runtime* rt = d->runtime;
  std::lock_guard<std::mutex> lock(rt->objects_mu);
  rt->kernels.insert(*k);
  *out = *k;
  return nullptr;
}

extern "C" {

void tegula_kernel_free(tegula_kernel* k) {
  if (!k) return;
  tegula_runtime* rt = k->device->runtime;
  {
    std::lock_guard<std::mutex> lock(rt->objects_mu);
    rt->kernels.erase(k);
  }
  for (auto& [key, v] : k->variants) k->device->plugin->executable_free(v.executable);
  k->device->plugin->executable_free(k->generic.executable);
  delete k;
}

const char* tegula_kernel_name(const tegula_kernel* k) { return k ? k->kernel.name.c_str() : ""; }

tegula_device* tegula_kernel_device(const tegula_kernel* k) { return k ? k->device : nullptr; }

tegula_cache_result tegula_kernel_cache_result(const tegula_kernel* k) { return k ? k->cache : TEGULA_CACHE_DISABLED; }

tegula_error* tegula_kernel_describe(tegula_kernel* k, const char** out_text) {
  if (!k || !out_text) return invalid("tegula_kernel_describe: bad argument");
  return c_guard([&]() -> tegula_error* {
    tegula_kernel::Variant* v = k->launched.load(std::memory_order_acquire);
    if (v == &k->generic) {
      Status built = ensure_generic(k);
      if (!built.is_ok()) return to_c_error(built);
    }
    std::lock_guard<std::mutex> lock(k->variants_mu);
    if (!v->description) {
      Result<std::string> text = k->device->plugin->describe_executable(v->bytes);
      if (!text.is_ok()) return to_c_error(text.status());
      v->description = std::move(text).value();
    }
    *out_text = v->description->c_str();
    return nullptr;
  });
}

size_t tegula_kernel_arg_count(const tegula_kernel* k) { return k ? k->arg_kinds.size() : 0; }

tegula_error* tegula_kernel_arg(const tegula_kernel* k, size_t index, tegula_arg_kind* out_kind, const char** out_name) {
  if (!k) return invalid("tegula_kernel_arg: kernel is NULL");
  if (index >= k->arg_kinds.size())
    return to_c_error(error(ErrorCode::OutOfRange, "kernel '" + k->kernel.name + "' has " +
                                                       std::to_string(k->arg_kinds.size()) + " arguments, asked for " +
                                                       std::to_string(index)));
  if (out_kind) *out_kind = k->arg_kinds[index];
  if (out_name) *out_name = k->arg_names[index].c_str();
  return nullptr;
}

tegula_error* tegula_kernel_tunables(const tegula_kernel* k, const char** out_binding, const char** out_chosen_by) {
  if (!k || !out_binding || !out_chosen_by) return invalid("tegula_kernel_tunables: bad argument");
  const tegula_kernel::Variant* v = k->launched.load(std::memory_order_acquire);
  // Written once when the variant is made, before any launch can select it.
  std::lock_guard<std::mutex> lock(const_cast<tegula_kernel*>(k)->variants_mu);
  if (!v->description_binding) const_cast<tegula_kernel::Variant*>(v)->description_binding = ir::binding_text(v->binding);
  *out_binding = v->description_binding->c_str();
  *out_chosen_by = v->chosen_by.c_str();
  return nullptr;
}

tegula_error* tegula_kernel_record_tuning(tegula_kernel* k, const tegula_arg* args, size_t arg_count,
                                          const char* binding, double measured_ms) {
  if (!k || (!args && arg_count) || !binding) return invalid("tegula_kernel_record_tuning: bad argument");
  return c_guard([&]() -> tegula_error* { return to_c_error(record_tuning(k, args, arg_count, binding, measured_ms)); });
}

tegula_error* tegula_launch(tegula_kernel* k, const tegula_arg* args, size_t arg_count) {
  if (!k) return invalid("tegula_launch: kernel is NULL");
  return c_guard([&]() -> tegula_error* { return to_c_error(launch_kernel(k, args, arg_count)); });
}

tegula_error* tegula_kernel_get_arg_info(const tegula_kernel* k, size_t index, tegula_kernel_arg_info* out) {
  if (!k || !out) return invalid("tegula_kernel_get_arg_info: bad argument");
  if (out->struct_size < sizeof(size_t)) return invalid("tegula_kernel_get_arg_info: out->struct_size is not set");
  if (index >= k->arg_kinds.size())
    return to_c_error(error(ErrorCode::OutOfRange, "kernel '" + k->kernel.name + "' has " +
                                                       std::to_string(k->arg_kinds.size()) + " arguments, asked for " +
                                                       std::to_string(index)));
  const tegula_kernel::ArgDetail& d = k->arg_details[index];
  tegula_kernel_arg_info info;
  std::memset(&info, 0, sizeof(info));
  info.struct_size = sizeof(info);
  info.name = k->arg_names[index].c_str();
  info.kind = k->arg_kinds[index];
  info.is_shape_symbol = index >= k->kernel.params.size();
  info.dtype = d.dtype.c_str();
  info.written = d.written;
  info.rank = uint32_t(d.dims.size());
  info.dims = d.dims.data();
  info.dim_args = d.dim_args.data();
  write_output_struct(out, info);
  return nullptr;
}

tegula_error* tegula_launch_named(tegula_kernel* k, const tegula_named_arg* args, size_t arg_count) {
  if (!k) return invalid("tegula_launch_named: kernel is NULL");
  if (arg_count && !args) return invalid("tegula_launch_named: args is NULL");
  return c_guard([&]() -> tegula_error* {
    size_t n = k->arg_names.size();
    std::vector<tegula_arg> ordered(n);
    std::vector<bool> given(n, false);
    for (size_t i = 0; i < arg_count; ++i) {
      std::string name = args[i].name ? args[i].name : "";
      size_t at = 0;
      while (at < n && k->arg_names[at] != name) ++at;
      if (at == n) {
        std::string known;
        for (const std::string& a : k->arg_names) known += (known.empty() ? "" : ", ") + a;
        return invalid("tegula_launch_named: kernel '" + k->kernel.name + "' has no argument '" + name +
                       "' (its arguments: " + known + ")");
      }
      if (given[at]) return invalid("tegula_launch_named: argument '" + name + "' given twice");
      given[at] = true;
      ordered[at] = args[i].value;
    }
    std::string missing;
    for (size_t i = 0; i < n; ++i)
      if (!given[i]) missing += (missing.empty() ? "" : ", ") + k->arg_names[i];
    if (!missing.empty())
      return invalid("tegula_launch_named: kernel '" + k->kernel.name + "' needs " + missing + " too");
    return to_c_error(launch_kernel(k, ordered.data(), n));
  });
}

tegula_error* tegula_kernel_warm_up(tegula_kernel* k, const uint32_t* divisors, size_t symbol_count) {
  if (!k) return invalid("tegula_kernel_warm_up: kernel is NULL");
  size_t symbols = k->arg_names.size() - k->kernel.params.size();
  if (divisors ? symbol_count != symbols : symbol_count != 0)
    return invalid("tegula_kernel_warm_up: kernel '" + k->kernel.name + "' has " + std::to_string(symbols) +
                   " shape symbols, given " + std::to_string(symbol_count) + " divisor masks");
  for (size_t i = 0; divisors && i < symbol_count; ++i)
    if (divisors[i] > 0x1f)
      return invalid("tegula_kernel_warm_up: mask " + std::to_string(divisors[i]) + " for " +
                     k->arg_names[k->kernel.params.size() + i] + " has bits above 16 (0x1f: 1, 2, 4, 8 and 16)");
  return c_guard([&]() -> tegula_error* { return to_c_error(warm_up_kernel(k, divisors)); });
}

tegula_error* tegula_kernel_warm_up_shape(tegula_kernel* k, const int64_t* symbol_values, size_t symbol_count) {
  if (!k) return invalid("tegula_kernel_warm_up_shape: kernel is NULL");
  return c_guard([&]() -> tegula_error* {
    Status st = warm_up_shape(k, symbol_values, symbol_count);
    return to_c_error(st.is_ok() ? st : st.with_context("tegula_kernel_warm_up_shape"));
  });
}

}  // extern "C"
