/// \file
/// Queues, buffers and transfers of the CPU device. Buffers are 64-byte aligned host
/// memory; the transfers are the shared host ones (plugins/support/HostMemory.h), which
/// have finished when their call returns, with this device's ownership check under its lock.
#include <cstdint>
#include <cstdlib>
#include <cstring>

#include "plugins/cpu/Cpu.h"
#include "plugins/support/HostMemory.h"

namespace tegula::cpu {
namespace {

bool queue_owns(const tg_queue* queue, const tg_buffer* buffer) { return queue && owns(queue->device, buffer); }

/// The buffer's bytes for the shared host transfers, when the queue's device holds it.
plugin::HostBuffer held_bytes(const tg_queue* queue, const tg_buffer* buffer) {
  if (!queue_owns(queue, buffer)) return {};
  return {true, buffer->data, buffer->size};
}

}  // namespace

bool owns(tg_device* device, const tg_buffer* buffer) {
  if (!device || !buffer) return false;
  std::lock_guard<std::mutex> lock(device->mu);
  return device->buffers.count(const_cast<tg_buffer*>(buffer)) != 0;
}

tg_error* queue_create(tg_device* device, tg_queue** out_queue) {
  return guarded("queue_create", [&]() -> tg_error* {
    if (!device || !out_queue) return make_error(TG_ERR_INVALID_ARGUMENT, "cpu: queue_create: NULL argument");
    tg_queue* queue = new tg_queue;
    queue->device = device;
    std::lock_guard<std::mutex> lock(device->mu);
    device->queues.insert(queue);
    *out_queue = queue;
    return nullptr;
  });
}

void queue_destroy(tg_queue* queue) {
  guarded_void([&] {
    if (!queue) return;
    {
      std::lock_guard<std::mutex> lock(queue->device->mu);
      queue->device->queues.erase(queue);
    }
    delete queue;
  });
}

// Launches and transfers finish before they return, so there is nothing to wait for.
tg_error* queue_synchronize(tg_queue* queue) {
  if (!queue) return make_error(TG_ERR_INVALID_ARGUMENT, "cpu: queue_synchronize: NULL queue");
  return nullptr;
}

tg_error* buffer_alloc(tg_device* device, uint64_t size, tg_buffer** out_buffer) {
  return guarded("buffer_alloc", [&]() -> tg_error* {
    if (!device || !out_buffer) return make_error(TG_ERR_INVALID_ARGUMENT, "cpu: buffer_alloc: NULL argument");
    uint8_t* data = nullptr;
    if (size > 0) {
      if (size > (uint64_t(1) << 62)) return make_error(TG_ERR_OUT_OF_MEMORY, "cpu: buffer_alloc: size too large");
      uint64_t rounded = (size + kAlignment - 1) / kAlignment * kAlignment;
      data = static_cast<uint8_t*>(std::aligned_alloc(kAlignment, size_t(rounded)));
      if (!data) return make_error(TG_ERR_OUT_OF_MEMORY, "cpu: cannot allocate " + std::to_string(size) + " bytes");
    }
    tg_buffer* buffer = new (std::nothrow) tg_buffer;
    if (!buffer) {
      std::free(data);
      return make_error(TG_ERR_OUT_OF_MEMORY, "cpu: buffer_alloc: out of memory");
    }
    buffer->device = device;
    buffer->data = data;
    buffer->size = size;
    std::lock_guard<std::mutex> lock(device->mu);
    device->buffers.insert(buffer);
    *out_buffer = buffer;
    return nullptr;
  });
}

void buffer_free(tg_buffer* buffer) {
  guarded_void([&] {
    if (!buffer) return;
    {
      std::lock_guard<std::mutex> lock(buffer->device->mu);
      buffer->device->buffers.erase(buffer);
    }
    std::free(buffer->data);
    delete buffer;
  });
}

tg_error* copy_h2d(tg_queue* queue, tg_buffer* dst, uint64_t dst_offset, const void* src, uint64_t size) {
  return plugin::host_copy_h2d("cpu", held_bytes(queue, dst), dst_offset, src, size);
}

tg_error* copy_d2h(tg_queue* queue, void* dst, tg_buffer* src, uint64_t src_offset, uint64_t size) {
  return plugin::host_copy_d2h("cpu", dst, held_bytes(queue, src), src_offset, size);
}

tg_error* copy_d2d(tg_queue* queue, tg_buffer* dst, uint64_t dst_offset, tg_buffer* src, uint64_t src_offset,
                   uint64_t size) {
  return plugin::host_copy_d2d("cpu", held_bytes(queue, dst), dst_offset, held_bytes(queue, src), src_offset, size);
}

// The checks are the shared ones; a one-byte pattern is a memset, wider ones the shared loop.
tg_error* buffer_fill(tg_queue* queue, tg_buffer* buffer, uint64_t offset, uint64_t size, const void* pattern,
                      uint32_t pattern_size) {
  plugin::HostBuffer bytes = held_bytes(queue, buffer);
  if (tg_error* e = plugin::check_host_fill("cpu", bytes, offset, size, pattern, pattern_size)) return e;
  uint8_t* p = bytes.data + offset;
  if (pattern_size == 1) {
    if (size) std::memset(p, *static_cast<const uint8_t*>(pattern), size_t(size));
    return nullptr;
  }
  plugin::write_fill_pattern(p, size, pattern, pattern_size);
  return nullptr;
}

}  // namespace tegula::cpu
