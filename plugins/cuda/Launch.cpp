/// \file
/// Launching: check the arguments against the executable's signature and the lowering's
/// assumptions (lower.assume: symbol divisibility; address alignment of vector and bulk
/// accesses), round scalars to their dtypes, build the bulk-copy tensor maps
/// (cuTensorMapEncodeTiled, reused while the tensors' addresses and shapes stay the same)
/// and call cuLaunchKernel with the dynamic shared memory the kernel needs.
#include <cstdint>
#include <cstring>

#include "core/DType.h"
#include "plugins/cuda/Cuda.h"

namespace tegula::cuda {
namespace {

tg_error* bad(size_t i, const std::string& what) {
  return make_error(TG_ERR_INVALID_ARGUMENT, "cuda: launch: argument " + std::to_string(i) + ": " + what);
}

int64_t dim_value(const DimSpec& d, const tg_launch_params* p) { return d.arg >= 0 ? p->args[d.arg].i64 : d.value; }

}  // namespace

tg_error* launch(tg_queue* queue, tg_executable* exe, const tg_launch_params* params) {
  return guarded("launch", [&]() -> tg_error* {
    if (!queue || !exe || !params || params->struct_size < sizeof(tg_launch_params) || (!params->args && params->arg_count) ||
        exe->device != queue->device)
      return make_error(TG_ERR_INVALID_ARGUMENT, "cuda: launch: bad argument");
    const KernelInfo& k = exe->info;
    if (params->arg_count != k.arg_count)
      return make_error(TG_ERR_INVALID_ARGUMENT, "cuda: launch: kernel " + k.name + " takes " + std::to_string(k.arg_count) + " arguments, given " +
                                                     std::to_string(params->arg_count));
    for (size_t i = 0; i < params->arg_count; ++i) {
      const tg_launch_arg& a = params->args[i];
      if (k.arg_is_tensor[i]) {
        if (a.kind != TG_ARG_BUFFER || !a.buffer || !queue->device->buffers.count(a.buffer)) return bad(i, "not a buffer of this device");
        if (a.offset > a.buffer->size) return bad(i, "offset past the end of the buffer");
      } else if (a.kind != TG_ARG_I64 && a.kind != TG_ARG_F64) {
        return bad(i, "a scalar argument needs kind i64 or f64");
      }
    }
    for (const KernelInfo::Tensor& t : k.tensors) {
      uint64_t need = t.elem_bytes;
      for (const DimSpec& d : t.dims) {
        int64_t v = dim_value(d, params);
        if (v < 0) return bad(t.arg, "negative dimension");
        if (v && need > (uint64_t(1) << 62) / uint64_t(v)) return bad(t.arg, "tensor too large");
        need *= uint64_t(v);
      }
      const tg_launch_arg& a = params->args[t.arg];
      if (a.buffer->size - a.offset < need)
        return bad(t.arg, "the tensor needs " + std::to_string(need) + " bytes, the buffer holds " + std::to_string(a.buffer->size - a.offset) +
                              " past the offset");
    }
    for (const auto& [arg, div] : k.assume)
      if (params->args[arg].i64 % div != 0)
        return bad(arg, "the kernel was lowered assuming this shape symbol is a multiple of " + std::to_string(div) + ", it is " +
                            std::to_string(params->args[arg].i64));
    for (const auto& [arg, bytes] : k.align) {
      const tg_launch_arg& a = params->args[arg];
      if ((a.buffer->ptr + a.offset) % bytes != 0)
        return bad(arg, "vector and bulk accesses need the tensor's address aligned to " + std::to_string(bytes) + " bytes (offset " +
                            std::to_string(a.offset) + ")");
    }
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
