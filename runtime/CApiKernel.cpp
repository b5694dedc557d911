/// \file
/// The C API: kernels and launches.
#include <cstring>

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

tegula_error* tegula_launch(tegula_kernel* k, const tegula_arg* args, size_t arg_count) {
  if (!k) return invalid("tegula_launch: kernel is NULL");
  return c_guard([&]() -> tegula_error* { return to_c_error(launch_kernel(k, args, arg_count)); });
}

}  // extern "C"
