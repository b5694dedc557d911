/// \file
/// The C API: buffers.
#include <cstdint>
#include <vector>

#include "runtime/CApiSupport.h"
#include "runtime/Objects.h"

using namespace tegula;
using namespace tegula::runtime;

namespace {

tegula_error* invalid(const std::string& message) { return to_c_error(error(ErrorCode::InvalidArgument, message)); }

/// [offset, offset + size) inside the buffer, without overflow.
Status check_range(const tegula_buffer* b, uint64_t offset, uint64_t size, const char* call) {
  if (offset <= b->size && size <= b->size - offset) return Status::ok();
  return error(ErrorCode::OutOfRange, std::string(call) + ": range [" + std::to_string(offset) + ", +" +
                                          std::to_string(size) + ") is outside a buffer of " + std::to_string(b->size) +
                                          " bytes");
}

}  // namespace

static tegula_error* copy_buffer(tegula_buffer* dst, uint64_t dst_offset, tegula_buffer* src, uint64_t src_offset,
                                 uint64_t size);

extern "C" {

tegula_error* tegula_buffer_alloc(tegula_device* d, uint64_t size, tegula_buffer** out) {
  if (!d || !out) return invalid("tegula_buffer_alloc: bad argument");
  return c_guard([&]() -> tegula_error* {
    Result<tg_buffer*> handle = d->plugin->buffer_alloc(d->info->index, size);
    if (!handle.is_ok()) return to_c_error(handle.status());
    auto* b = new (std::nothrow) tegula_buffer{d, *handle, size};
    if (!b) {
      d->plugin->buffer_free(*handle);
      return out_of_memory_error();
    }
    tegula_runtime* rt = d->runtime;
    std::lock_guard<std::mutex> lock(rt->objects_mu);
    rt->buffers.insert(b);
    *out = b;
    return nullptr;
  });
}

void tegula_buffer_free(tegula_buffer* b) {
  if (!b) return;
  tegula_runtime* rt = b->device->runtime;
  {
    std::lock_guard<std::mutex> lock(rt->objects_mu);
    rt->buffers.erase(b);
  }
  b->device->plugin->buffer_free(b->handle);
  delete b;
}

uint64_t tegula_buffer_size(const tegula_buffer* b) { return b ? b->size : 0; }

tegula_device* tegula_buffer_device(const tegula_buffer* b) { return b ? b->device : nullptr; }

tegula_error* tegula_buffer_write(tegula_buffer* dst, uint64_t offset, const void* src, uint64_t size) {
  if (!dst || (!src && size)) return invalid("tegula_buffer_write: bad argument");
  if (Status st = check_range(dst, offset, size, "tegula_buffer_write"); !st.is_ok()) return to_c_error(st);
  if (!size) return nullptr;
  return to_c_error(dst->device->plugin->copy_h2d(dst->device->info->index, dst->handle, offset, src, size));
}

tegula_error* tegula_buffer_read(tegula_buffer* src, uint64_t offset, void* dst, uint64_t size) {
  if (!src || (!dst && size)) return invalid("tegula_buffer_read: bad argument");
  if (Status st = check_range(src, offset, size, "tegula_buffer_read"); !st.is_ok()) return to_c_error(st);
  if (!size) return nullptr;
  return to_c_error(src->device->plugin->copy_d2h(src->device->info->index, dst, src->handle, offset, size));
}

tegula_error* tegula_buffer_copy(tegula_buffer* dst, uint64_t dst_offset, tegula_buffer* src, uint64_t src_offset,
                                 uint64_t size) {
  if (!dst || !src) return invalid("tegula_buffer_copy: bad argument");
  return c_guard([&]() -> tegula_error* { return copy_buffer(dst, dst_offset, src, src_offset, size); });
}

}  // extern "C"

static tegula_error* copy_buffer(tegula_buffer* dst, uint64_t dst_offset, tegula_buffer* src, uint64_t src_offset,
                                 uint64_t size) {
  if (Status st = check_range(dst, dst_offset, size, "tegula_buffer_copy"); !st.is_ok()) return to_c_error(st);
  if (Status st = check_range(src, src_offset, size, "tegula_buffer_copy"); !st.is_ok()) return to_c_error(st);
  if (!size) return nullptr;
  if (dst->device == src->device)
    return to_c_error(dst->device->plugin->copy_d2d(dst->device->info->index, dst->handle, dst_offset, src->handle,
                                                    src_offset, size));
  // Different devices (perhaps different plugins): stage through host memory.
  if (size > SIZE_MAX) return to_c_error(error(ErrorCode::OutOfRange, "tegula_buffer_copy: size too large"));
  std::vector<uint8_t> staging(static_cast<size_t>(size));
  Status st = src->device->plugin->copy_d2h(src->device->info->index, staging.data(), src->handle, src_offset, size);
  if (st.is_ok())
    st = dst->device->plugin->copy_h2d(dst->device->info->index, dst->handle, dst_offset, staging.data(), size);
  return to_c_error(st);
}

extern "C" {

tegula_error* tegula_buffer_fill(tegula_buffer* b, uint64_t offset, uint64_t size, const void* pattern,
                                 uint32_t pattern_size) {
  if (!b || !pattern) return invalid("tegula_buffer_fill: bad argument");
  if (pattern_size != 1 && pattern_size != 2 && pattern_size != 4 && pattern_size != 8)
    return invalid("tegula_buffer_fill: pattern_size must be 1, 2, 4 or 8, given " + std::to_string(pattern_size));
  if (size % pattern_size)
    return invalid("tegula_buffer_fill: size " + std::to_string(size) + " is not a multiple of the pattern size " +
                   std::to_string(pattern_size));
  if (Status st = check_range(b, offset, size, "tegula_buffer_fill"); !st.is_ok()) return to_c_error(st);
  if (!size) return nullptr;
  return to_c_error(b->device->plugin->fill(b->device->info->index, b->handle, offset, size, pattern, pattern_size));
}

}  // extern "C"
