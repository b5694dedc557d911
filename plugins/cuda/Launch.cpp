/// \file
/// Launching: check the arguments against the executable's signature and the lowering's
/// assumptions (lower.assume: symbol divisibility; address alignment of vector and bulk
/// accesses) with the SDK's validate_launch, round scalars to their dtypes, build the bulk-copy tensor maps
/// (cuTensorMapEncodeTiled, reused while the tensors' addresses and shapes stay the same)
/// and call cuLaunchKernel with the dynamic shared memory the kernel needs.
#include <array>
#include <cstdint>
#include <cstring>

#include "core/DType.h"
#include "plugins/cuda/Cuda.h"
#include "plugins/support/LaunchCheck.h"

namespace tegula::cuda {
namespace {

tg_error* bad(size_t i, const std::string& what) {
  return make_error(TG_ERR_INVALID_ARGUMENT, "cuda: launch: argument " + std::to_string(i) + ": " + what);
}

/// A buffer of this device, for validate_launch; its address is the device pointer.
plugin::LaunchBuffer buffer_of(const void* device, size_t, const tg_buffer* buffer) {
  const tg_device* d = static_cast<const tg_device*>(device);
  if (!d->buffers.count(const_cast<tg_buffer*>(buffer))) return {};
  return {true, buffer->size, uint64_t(buffer->ptr)};
}

int64_t dim_value(const DimSpec& d, const tg_launch_params* p) { return d.arg >= 0 ? p->args[d.arg].i64 : d.value; }

}  // namespace

plugin::LaunchSignature launch_signature_of(const KernelInfo& info) {
  using Kind = plugin::LaunchParam::Kind;
  plugin::LaunchSignature sig;
  sig.kernel = info.name;
  sig.params.resize(info.arg_count);
  for (uint32_t i = 0; i < info.arg_count; ++i)
    if (i < info.arg_is_tensor.size() && info.arg_is_tensor[i]) sig.params[i].kind = Kind::Tensor;
  // Shape symbols: what the kernel takes as given (never rounded), what dimensions read and
  // what lower.assume speaks of; the other numbers are scalars.
  for (const ParamSlot& p : info.params)
    if (p.kind == ParamSlot::Kind::I64 && p.dtype == kSymbolDType && p.arg < info.arg_count) sig.params[p.arg].kind = Kind::Symbol;
  for (const KernelInfo::Tensor& t : info.tensors) {
    if (t.arg >= info.arg_count) continue;
    plugin::LaunchParam& p = sig.params[t.arg];
    p.elem_bytes = t.elem_bytes;
    for (const DimSpec& d : t.dims) {
      p.dims.push_back({d.value, d.arg});
      if (d.arg >= 0 && uint32_t(d.arg) < info.arg_count) sig.params[d.arg].kind = Kind::Symbol;
    }
  }
  for (const auto& [arg, divisor] : info.assume)
    if (arg < info.arg_count) {
      sig.params[arg].kind = Kind::Symbol;
      sig.params[arg].divisor = divisor;
    }
  for (const auto& [arg, bytes] : info.align)
    if (arg < info.arg_count) sig.params[arg].align = bytes;
  return sig;
}

tg_error* launch(tg_queue* queue, tg_executable* exe, const tg_launch_params* params) {
  return guarded("launch", [&]() -> tg_error* {
    if (!queue || !exe || !params || params->struct_size < sizeof(tg_launch_params) || (!params->args && params->arg_count) ||
        exe->device != queue->device)
      return make_error(TG_ERR_INVALID_ARGUMENT, "cuda: launch: bad argument");
    const KernelInfo& k = exe->info;
    // The executable keeps no IR, so the grid is the caller's (only its block count is
    // checked); the runtime computes it from the kernel's grid expressions.
    Result<std::array<uint32_t, 3>> grid = plugin::validate_launch(exe->signature, *params, buffer_of, queue->device);
    if (!grid.is_ok()) return plugin::launch_error("cuda", grid.status());
    for (int d = 0; d < 3; ++d)
      if (params->grid[d] == 0) return nullptr;  // an empty grid runs nothing
    if (tg_error* e = activate(queue->device)) return e;
    const Driver& drv = *queue->device->plugin->driver;

    // Tensor maps, rebuilt only when a tensor's address or shape changed.
    exe->maps.resize(k.tensor_maps.size());
    exe->map_keys.resize(k.tensor_maps.size());
    for (size_t m = 0; m < k.tensor_maps.size(); ++m) {
      const TensorMapSpec& spec = k.tensor_maps[m];
      const tg_launch_arg& a = params->args[spec.arg];
      uint64_t address = a.buffer->ptr + a.offset;
      size_t rank = spec.dims.size();
      std::vector<uint64_t> key = {address};
      for (const DimSpec& d : spec.dims) key.push_back(uint64_t(dim_value(d, params)));
      if (exe->map_keys[m] == key) continue;
      if (!drv.cuTensorMapEncodeTiled) return make_error(TG_ERR_UNSUPPORTED, "cuda: the driver has no cuTensorMapEncodeTiled");
      uint64_t dims[5], strides[4];
      unsigned box[5], estrides[5];
      for (size_t i = 0; i < rank; ++i) {
        dims[i] = key[rank - i];  // innermost first
        box[i] = spec.box[rank - 1 - i];
        estrides[i] = 1;
      }
      uint64_t stride = spec.elem_bytes;
      for (size_t i = 0; i + 1 < rank; ++i) {
        stride *= dims[i];
        strides[i] = stride;
        if (stride % 16) return bad(spec.arg, "bulk copies need the tensor's rows to be multiples of 16 bytes");
      }
      for (size_t i = 0; i < rank; ++i)
        if (dims[i] == 0) dims[i] = 1;  // an empty tensor: nothing is in bounds anyway
      CUresult r = drv.cuTensorMapEncodeTiled(&exe->maps[m], int(spec.dtype), unsigned(rank), reinterpret_cast<void*>(address), dims, strides, box,
                                              estrides, kTensorMapInterleaveNone, int(spec.swizzle), kTensorMapL2Promotion128B, int(spec.oob_fill));
      if (r != kCudaSuccess) return driver_error(drv, r, "cuTensorMapEncodeTiled for argument " + std::to_string(spec.arg));
      exe->map_keys[m] = key;
    }

    // Parameter values, in the kernel's order.
    std::vector<uint64_t> values(k.params.size(), 0);
    std::vector<void*> pointers(k.params.size(), nullptr);
    for (size_t i = 0; i < k.params.size(); ++i) {
      const ParamSlot& p = k.params[i];
      if (p.kind == ParamSlot::Kind::TensorMap) {
        pointers[i] = &exe->maps[p.arg];
        continue;
      }
      const tg_launch_arg& a = params->args[p.arg];
      double x = a.kind == TG_ARG_I64 ? double(a.i64) : a.f64;
      switch (p.kind) {
        case ParamSlot::Kind::Pointer: values[i] = a.buffer->ptr + a.offset; break;
        case ParamSlot::Kind::I64: {
          // Shape symbols pass through; integer and bool scalars round and saturate to their dtype.
          int64_t v = p.dtype == kSymbolDType ? a.i64 : int64_t(round_to_dtype(DType(p.dtype), x));
          std::memcpy(&values[i], &v, 8);
          break;
        }
        case ParamSlot::Kind::F32: {
          float f = float(round_to_dtype(DType(p.dtype), x));
          std::memcpy(&values[i], &f, 4);
          break;
        }
        case ParamSlot::Kind::F64: {
          double v = round_to_dtype(DType::F64, x);
          std::memcpy(&values[i], &v, 8);
          break;
        }
        case ParamSlot::Kind::TensorMap: break;
      }
      pointers[i] = &values[i];
    }
    CUresult r = drv.cuLaunchKernel(exe->function, params->grid[0], params->grid[1], params->grid[2], unsigned(k.threads), 1, 1,
                                    unsigned(k.shared_bytes), queue->stream, pointers.data(), nullptr);
    return r == kCudaSuccess ? nullptr : driver_error(drv, r, "cuLaunchKernel " + k.name);
  });
}

}  // namespace tegula::cuda
