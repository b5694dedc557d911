/// \file
/// Queues, buffers and transfers of the reference device. The queue is synchronous: every
/// transfer (the shared host ones, plugins/support/HostMemory.h) has finished when its call
/// returns, so queue_synchronize has nothing to wait for.
#include <cstdint>
#include <cstdlib>

#include "plugins/reference/Reference.h"
#include "plugins/support/HostMemory.h"

namespace tegula::reference {
namespace {

/// A buffer handed in with a queue must be one this device made and still holds.
bool owns(const tg_queue* queue, const tg_buffer* buffer) {
  return queue && buffer && queue->device->buffers.count(const_cast<tg_buffer*>(buffer));
}

/// The buffer's bytes for the shared host transfers, when the queue's device holds it.
plugin::HostBuffer held_bytes(const tg_queue* queue, const tg_buffer* buffer) {
  if (!owns(queue, buffer)) return {};
  return {true, buffer->data, buffer->size};
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
  return plugin::host_copy_h2d("reference", held_bytes(queue, dst), dst_offset, src, size);
}

tg_error* copy_d2h(tg_queue* queue, void* dst, tg_buffer* src, uint64_t src_offset, uint64_t size) {
  return plugin::host_copy_d2h("reference", dst, held_bytes(queue, src), src_offset, size);
}

tg_error* copy_d2d(tg_queue* queue, tg_buffer* dst, uint64_t dst_offset, tg_buffer* src, uint64_t src_offset,
                   uint64_t size) {
  return plugin::host_copy_d2d("reference", held_bytes(queue, dst), dst_offset, held_bytes(queue, src), src_offset,
                               size);
}

tg_error* buffer_fill(tg_queue* queue, tg_buffer* buffer, uint64_t offset, uint64_t size, const void* pattern,
                      uint32_t pattern_size) {
  return plugin::host_buffer_fill("reference", held_bytes(queue, buffer), offset, size, pattern, pattern_size);
}

}  // namespace tegula::reference
