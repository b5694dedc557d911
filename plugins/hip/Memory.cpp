/// \file
/// Queues (non-blocking HIP streams), device memory, transfers and events (HIP events on a queue's stream). copy_h2d waits until the
/// driver has read the source (the ABI promises the caller can reuse it at once); the other
/// transfers are asynchronous on the queue.
#include "plugins/hip/Hip.h"

#include <algorithm>
#include <cstdint>

namespace tegula::hip {
namespace {

void* ptr(uintptr_t p) { return reinterpret_cast<void*>(p); }
void* at(void* base, uint64_t offset) { return static_cast<char*>(base) + offset; }

bool owns(const tg_queue* queue, const tg_buffer* buffer) {
  return queue && buffer && queue->device->buffers.count(const_cast<tg_buffer*>(buffer));
}

tg_error* out_of_range(const char* entry, uint64_t offset, uint64_t size, uint64_t buffer_size) {
  return make_error(TG_ERR_INVALID_ARGUMENT, std::string("hip: ") + entry + ": range [" + std::to_string(offset) +
                                                 ", +" + std::to_string(size) + ") outside a buffer of " +
                                                 std::to_string(buffer_size) + " bytes");
}

}  // namespace

tg_error* queue_create(tg_device* device, tg_queue** out_queue) {
  return guarded("queue_create", [&]() -> tg_error* {
    if (!device || !out_queue) return make_error(TG_ERR_INVALID_ARGUMENT, "hip: queue_create: NULL argument");
    if (tg_error* e = activate(device)) return e;
    const Runtime& d = *device->plugin->runtime;
    hipStream_t stream = nullptr;
    hipError_t r = d.hipStreamCreateWithFlags(&stream, kStreamNonBlocking);
    if (r != kHipSuccess) return runtime_error(d, r, "hipStreamCreateWithFlags");
    tg_queue* queue = new tg_queue;
    queue->device = device;
    queue->stream = stream;
    device->queues.insert(queue);
    *out_queue = queue;
    return nullptr;
  });
}

void queue_destroy(tg_queue* queue) {
  guarded_void([&] {
    if (!queue) return;
    const Runtime& d = *queue->device->plugin->runtime;
    d.hipSetDevice(queue->device->info.ordinal);
    d.hipStreamSynchronize(queue->stream);
    d.hipStreamDestroy(queue->stream);
    queue->device->queues.erase(queue);
    delete queue;
  });
}

tg_error* queue_synchronize(tg_queue* queue) {
  if (!queue) return make_error(TG_ERR_INVALID_ARGUMENT, "hip: queue_synchronize: NULL queue");
  if (tg_error* e = activate(queue->device)) return e;
  const Runtime& d = *queue->device->plugin->runtime;
  hipError_t r = d.hipStreamSynchronize(queue->stream);
  return r == kHipSuccess ? nullptr : runtime_error(d, r, "queue_synchronize (a kernel or copy on this queue failed)");
}

tg_error* buffer_alloc(tg_device* device, uint64_t size, tg_buffer** out_buffer) {
  return guarded("buffer_alloc", [&]() -> tg_error* {
    if (!device || !out_buffer) return make_error(TG_ERR_INVALID_ARGUMENT, "hip: buffer_alloc: NULL argument");
    void* ptr = nullptr;
    if (size > 0) {
      if (tg_error* e = activate(device)) return e;
      const Runtime& d = *device->plugin->runtime;
      hipError_t r = d.hipMalloc(&ptr, size_t(size));
      if (r != kHipSuccess) return runtime_error(d, r, "hipMalloc of " + std::to_string(size) + " bytes");
    }
    tg_buffer* buffer = new tg_buffer;
    buffer->device = device;
    buffer->ptr = ptr;
    buffer->size = size;
    device->buffers.insert(buffer);
    *out_buffer = buffer;
    return nullptr;
  });
}

void buffer_free(tg_buffer* buffer) {
  guarded_void([&] {
    if (!buffer) return;
    const Runtime& d = *buffer->device->plugin->runtime;
    if (buffer->ptr) {
      d.hipSetDevice(buffer->device->info.ordinal);
      d.hipFree(buffer->ptr);
    }
    buffer->device->buffers.erase(buffer);
    delete buffer;
  });
}

tg_error* copy_h2d(tg_queue* queue, tg_buffer* dst, uint64_t dst_offset, const void* src, uint64_t size) {
  if (!owns(queue, dst) || (!src && size)) return make_error(TG_ERR_INVALID_ARGUMENT, "hip: copy_h2d: bad argument");
  if (!range_ok(dst->size, dst_offset, size)) return out_of_range("copy_h2d", dst_offset, size, dst->size);
  if (!size) return nullptr;
  if (tg_error* e = activate(queue->device)) return e;
  const Runtime& d = *queue->device->plugin->runtime;
  hipError_t r = d.hipMemcpyHtoDAsync(at(dst->ptr, dst_offset), const_cast<void*>(src), size_t(size), queue->stream);
  if (r == kHipSuccess) r = d.hipStreamSynchronize(queue->stream);
  return r == kHipSuccess ? nullptr : runtime_error(d, r, "copy_h2d");
}

tg_error* copy_d2h(tg_queue* queue, void* dst, tg_buffer* src, uint64_t src_offset, uint64_t size) {
  if (!owns(queue, src) || (!dst && size)) return make_error(TG_ERR_INVALID_ARGUMENT, "hip: copy_d2h: bad argument");
  if (!range_ok(src->size, src_offset, size)) return out_of_range("copy_d2h", src_offset, size, src->size);
  if (!size) return nullptr;
  if (tg_error* e = activate(queue->device)) return e;
  const Runtime& d = *queue->device->plugin->runtime;
  hipError_t r = d.hipMemcpyDtoHAsync(dst, at(src->ptr, src_offset), size_t(size), queue->stream);
  return r == kHipSuccess ? nullptr : runtime_error(d, r, "copy_d2h");
}

tg_error* copy_d2d(tg_queue* queue, tg_buffer* dst, uint64_t dst_offset, tg_buffer* src, uint64_t src_offset,
                   uint64_t size) {
  if (!owns(queue, dst) || !owns(queue, src)) return make_error(TG_ERR_INVALID_ARGUMENT, "hip: copy_d2d: bad argument");
  if (!range_ok(dst->size, dst_offset, size)) return out_of_range("copy_d2d", dst_offset, size, dst->size);
  if (!range_ok(src->size, src_offset, size)) return out_of_range("copy_d2d", src_offset, size, src->size);
  if (!size) return nullptr;
  if (tg_error* e = activate(queue->device)) return e;
  const Runtime& d = *queue->device->plugin->runtime;
  // Overlapping ranges of one buffer: copy through a disjoint order of chunks (memmove).
  uintptr_t s = uintptr_t(src->ptr) + src_offset, t = uintptr_t(dst->ptr) + dst_offset;
  hipError_t r = kHipSuccess;
  bool overlap = s < t + size && t < s + size && s != t;
  if (!overlap) {
    r = d.hipMemcpyDtoDAsync(ptr(t), ptr(s), size_t(size), queue->stream);
  } else {
    uint64_t step = s > t ? s - t : t - s;  // chunks this big never overlap their source
    if (t < s) {
      for (uint64_t o = 0; o < size && r == kHipSuccess; o += step)
        r = d.hipMemcpyDtoDAsync(ptr(t + o), ptr(s + o), size_t(std::min(step, size - o)), queue->stream);
    } else {
      for (uint64_t end = size; end > 0 && r == kHipSuccess;) {
        uint64_t n = std::min(step, end);
        end -= n;
        r = d.hipMemcpyDtoDAsync(ptr(t + end), ptr(s + end), size_t(n), queue->stream);
      }
    }
  }
  return r == kHipSuccess ? nullptr : runtime_error(d, r, "copy_d2d");
}

tg_error* buffer_fill(tg_queue* queue, tg_buffer* buffer, uint64_t offset, uint64_t size, const void* pattern,
                      uint32_t pattern_size) {
  if (!owns(queue, buffer) || !pattern) return make_error(TG_ERR_INVALID_ARGUMENT, "hip: buffer_fill: bad argument");
  if (pattern_size != 1 && pattern_size != 2 && pattern_size != 4 && pattern_size != 8)
    return make_error(TG_ERR_INVALID_ARGUMENT, "hip: buffer_fill: pattern_size must be 1, 2, 4 or 8");
  if (size % pattern_size)
    return make_error(TG_ERR_INVALID_ARGUMENT, "hip: buffer_fill: size is not a multiple of pattern_size");
  if (!range_ok(buffer->size, offset, size)) return out_of_range("buffer_fill", offset, size, buffer->size);
  if (!size) return nullptr;
  if (tg_error* e = activate(queue->device)) return e;
  const Runtime& d = *queue->device->plugin->runtime;
  uintptr_t p = uintptr_t(buffer->ptr) + offset;
  hipError_t r = kHipSuccess;
  const auto* b = static_cast<const uint8_t*>(pattern);
  if (pattern_size == 1) {
    r = d.hipMemsetD8Async(ptr(p), b[0], size_t(size), queue->stream);
  } else if (pattern_size == 2 && p % 2 == 0) {
    r = d.hipMemsetD16Async(ptr(p), uint16_t(b[0] | (b[1] << 8)), size_t(size / 2), queue->stream);
  } else if (pattern_size == 4 && p % 4 == 0) {
    r = d.hipMemsetD32Async(ptr(p),
                            int(uint32_t(b[0]) | uint32_t(b[1]) << 8 | uint32_t(b[2]) << 16 | uint32_t(b[3]) << 24),
                            size_t(size / 4), queue->stream);
  } else {
    // 8-byte (or misaligned) patterns: write one copy, then double it with device copies.
    r = d.hipMemcpyHtoDAsync(ptr(p), const_cast<void*>(pattern), pattern_size, queue->stream);
    if (r == kHipSuccess) r = d.hipStreamSynchronize(queue->stream);
    for (uint64_t done = pattern_size; done < size && r == kHipSuccess;) {
      uint64_t n = std::min(done, size - done);
      r = d.hipMemcpyDtoDAsync(ptr(p + done), ptr(p), size_t(n), queue->stream);
      done += n;
    }
  }
  return r == kHipSuccess ? nullptr : runtime_error(d, r, "buffer_fill");
}

tg_error* event_create(tg_device* device, tg_event** out_event) {
  return guarded("event_create", [&]() -> tg_error* {
    if (!device || !out_event) return make_error(TG_ERR_INVALID_ARGUMENT, "hip: event_create: NULL argument");
    if (tg_error* e = activate(device)) return e;
    const Runtime& d = *device->plugin->runtime;
    hipEvent_t ev = nullptr;
    hipError_t r = d.hipEventCreate(&ev);
    if (r != kHipSuccess) return runtime_error(d, r, "hipEventCreate");
    tg_event* event = new tg_event;
    event->device = device;
    event->event = ev;
    device->events.insert(event);
    *out_event = event;
    return nullptr;
  });
}

void event_destroy(tg_event* event) {
  guarded_void([&] {
    if (!event) return;
    const Runtime& d = *event->device->plugin->runtime;
    d.hipSetDevice(event->device->info.ordinal);
    d.hipEventDestroy(event->event);
    event->device->events.erase(event);
    delete event;
  });
}

tg_error* event_record(tg_queue* queue, tg_event* event) {
  if (!queue || !event || event->device != queue->device)
    return make_error(TG_ERR_INVALID_ARGUMENT, "hip: event_record: bad argument");
  if (tg_error* e = activate(queue->device)) return e;
  const Runtime& d = *queue->device->plugin->runtime;
  hipError_t r = d.hipEventRecord(event->event, queue->stream);
  if (r != kHipSuccess) return runtime_error(d, r, "hipEventRecord");
  event->recorded = true;
  return nullptr;
}

tg_error* event_synchronize(tg_event* event) {
  if (!event) return make_error(TG_ERR_INVALID_ARGUMENT, "hip: event_synchronize: NULL event");
  if (!event->recorded) return nullptr;
  if (tg_error* e = activate(event->device)) return e;
  const Runtime& d = *event->device->plugin->runtime;
  hipError_t r = d.hipEventSynchronize(event->event);
  return r == kHipSuccess ? nullptr : runtime_error(d, r, "hipEventSynchronize");
}

tg_error* event_elapsed_ms(tg_event* start, tg_event* end, double* out_ms) {
  if (!start || !end || !out_ms) return make_error(TG_ERR_INVALID_ARGUMENT, "hip: event_elapsed_ms: NULL argument");
  if (!start->recorded || !end->recorded)
    return make_error(TG_ERR_INVALID_ARGUMENT, "hip: event_elapsed_ms: an event was never recorded");
  if (tg_error* e = activate(start->device)) return e;
  const Runtime& d = *start->device->plugin->runtime;
  float ms = 0;
  hipError_t r = d.hipEventElapsedTime(&ms, start->event, end->event);
  if (r != kHipSuccess) return runtime_error(d, r, "hipEventElapsedTime");
  *out_ms = ms;
  return nullptr;
}

}  // namespace tegula::hip
