/// \file
/// Queues, buffers and transfers of the reference device. The queue is synchronous: every
/// transfer has finished when its call returns, so queue_synchronize has nothing to wait for.
#include <cstdint>
#include <cstdlib>
#include <cstring>

#include "plugins/reference/Reference.h"

namespace tegula::reference {
namespace {

/// A buffer handed in with a queue must be one this device made and still holds.
bool owns(const tg_queue* queue, const tg_buffer* buffer) {
  return queue && buffer && queue->device->buffers.count(const_cast<tg_buffer*>(buffer));
}

tg_error* out_of_range(const char* entry, uint64_t offset, uint64_t size, uint64_t buffer_size) {
  return make_error(TG_ERR_INVALID_ARGUMENT, std::string("reference: ") + entry + ": range [" + std::to_string(offset) +
                                                 ", +" + std::to_string(size) + ") outside a buffer of " +
                                                 std::to_string(buffer_size) + " bytes");
}

}  // namespace

tg_error* queue_create(tg_device* device, tg_queue** out_queue) {
  return guarded("queue_create", [&]() -> tg_error* {
    if (!device || !out_queue) return make_error(TG_ERR_INVALID_ARGUMENT, "reference: queue_create: NULL argument");
    tg_queue* queue = new tg_queue;
    queue->device = device;
    device->queues.insert(queue);
    *out_queue = queue;
    return nullptr;
  });
}

void queue_destroy(tg_queue* queue) {
  guarded_void([&] {
    if (!queue) return;
    queue->device->queues.erase(queue);
    delete queue;
  });
}

tg_error* queue_synchronize(tg_queue* queue) {
  if (!queue) return make_error(TG_ERR_INVALID_ARGUMENT, "reference: queue_synchronize: NULL queue");
  return nullptr;
}

tg_error* buffer_alloc(tg_device* device, uint64_t size, tg_buffer** out_buffer) {
  return guarded("buffer_alloc", [&]() -> tg_error* {
    if (!device || !out_buffer) return make_error(TG_ERR_INVALID_ARGUMENT, "reference: buffer_alloc: NULL argument");
    uint8_t* data = nullptr;
    if (size > 0) {
      // More than the machine has cannot succeed; say so rather than lean on overcommit.
      uint64_t limit = host_memory_bytes();
      if (size > SIZE_MAX || (limit && size > limit))
        return make_error(TG_ERR_OUT_OF_MEMORY, "reference: cannot allocate " + std::to_string(size) +
                                                    " bytes (more than the host's memory)");
      data = static_cast<uint8_t*>(std::malloc(size_t(size)));
      if (!data)
        return make_error(TG_ERR_OUT_OF_MEMORY, "reference: cannot allocate " + std::to_string(size) + " bytes");
    }
    tg_buffer* buffer = new (std::nothrow) tg_buffer;
    if (!buffer) {
      std::free(data);
      return make_error(TG_ERR_OUT_OF_MEMORY, "reference: buffer_alloc: out of memory");
    }
    buffer->device = device;
    buffer->data = data;
    buffer->size = size;
    device->buffers.insert(buffer);
    *out_buffer = buffer;
    return nullptr;
  });
}

void buffer_free(tg_buffer* buffer) {
  guarded_void([&] {
    if (!buffer) return;
    buffer->device->buffers.erase(buffer);
    std::free(buffer->data);
    delete buffer;
  });
}

tg_error* copy_h2d(tg_queue* queue, tg_buffer* dst, uint64_t dst_offset, const void* src, uint64_t size) {
  if (!owns(queue, dst) || (!src && size)) return make_error(TG_ERR_INVALID_ARGUMENT, "reference: copy_h2d: bad argument");
  if (!range_ok(dst->size, dst_offset, size)) return out_of_range("copy_h2d", dst_offset, size, dst->size);
  if (size) std::memcpy(dst->data + dst_offset, src, size_t(size));
  return nullptr;
}

tg_error* copy_d2h(tg_queue* queue, void* dst, tg_buffer* src, uint64_t src_offset, uint64_t size) {
  if (!owns(queue, src) || (!dst && size)) return make_error(TG_ERR_INVALID_ARGUMENT, "reference: copy_d2h: bad argument");
  if (!range_ok(src->size, src_offset, size)) return out_of_range("copy_d2h", src_offset, size, src->size);
  if (size) std::memcpy(dst, src->data + src_offset, size_t(size));
  return nullptr;
}

tg_error* copy_d2d(tg_queue* queue, tg_buffer* dst, uint64_t dst_offset, tg_buffer* src, uint64_t src_offset,
                   uint64_t size) {
  if (!owns(queue, dst) || !owns(queue, src)) return make_error(TG_ERR_INVALID_ARGUMENT, "reference: copy_d2d: bad argument");
  if (!range_ok(dst->size, dst_offset, size)) return out_of_range("copy_d2d", dst_offset, size, dst->size);
  if (!range_ok(src->size, src_offset, size)) return out_of_range("copy_d2d", src_offset, size, src->size);
  // memmove: source and destination may be the same buffer with overlapping ranges.
  if (size) std::memmove(dst->data + dst_offset, src->data + src_offset, size_t(size));
  return nullptr;
}

tg_error* buffer_fill(tg_queue* queue, tg_buffer* buffer, uint64_t offset, uint64_t size, const void* pattern,
                      uint32_t pattern_size) {
  if (!owns(queue, buffer) || !pattern) return make_error(TG_ERR_INVALID_ARGUMENT, "reference: buffer_fill: bad argument");
  if (pattern_size != 1 && pattern_size != 2 && pattern_size != 4 && pattern_size != 8)
    return make_error(TG_ERR_INVALID_ARGUMENT, "reference: buffer_fill: pattern_size must be 1, 2, 4 or 8");
  if (size % pattern_size) return make_error(TG_ERR_INVALID_ARGUMENT, "reference: buffer_fill: size is not a multiple of pattern_size");
  if (!range_ok(buffer->size, offset, size)) return out_of_range("buffer_fill", offset, size, buffer->size);
  for (uint64_t i = 0; i < size; i += pattern_size) std::memcpy(buffer->data + offset + i, pattern, pattern_size);
  return nullptr;
}

}  // namespace tegula::reference
