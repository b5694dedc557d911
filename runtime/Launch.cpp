#include "runtime/Launch.h"

#include <cstdint>
#include <map>
#include <mutex>

#include "plugins/support/LaunchCheck.h"
#include "runtime/Compile.h"

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
  // Specialise on what this launch guarantees: each shape symbol's power-of-two divisor
  // (vector widths depend on it), provided every tensor starts 16-byte aligned.
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
  tegula_kernel::Variant* variant = aligned && !any_divisor ? &k->generic : nullptr;
  if (!variant) {
    std::lock_guard<std::mutex> lock(k->variants_mu);
    auto it = k->variants.find(key);
    if (it != k->variants.end()) variant = &it->second;
  }
  if (!variant) {
    std::map<std::string, int64_t> divisibility;
    for (size_t i = kernel.params.size(); i < count; ++i)
      if (key[1 + i - kernel.params.size()] > 1) divisibility[k->arg_names[i]] = key[1 + i - kernel.params.size()];
    TG_ASSIGN_OR_RETURN(variant, kernel_variant(k, divisibility, aligned, key));
  }
  k->launched.store(variant, std::memory_order_release);  // what tegula_kernel_describe shows
  return k->device->plugin->launch(k->device->info->index, variant->executable, g.data(), targs);
}

Status warm_up_kernel(tegula_kernel* k, const uint32_t* masks) {
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

}  // namespace tegula::runtime
