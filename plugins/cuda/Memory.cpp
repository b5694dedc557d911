/// \file
/// Queues (non-blocking streams), device memory and transfers. copy_h2d waits until the
/// driver has read the source (the ABI promises the caller can reuse it at once); the other
/// transfers are asynchronous on the queue.
#include "plugins/cuda/Cuda.h"

#include <algorithm>
#include <cstdint>

namespace tegula::cuda {
namespace {

bool owns(const tg_queue* queue, const tg_buffer* buffer) {
  return queue && buffer && queue->device->buffers.count(const_cast<tg_buffer*>(buffer));
}

tg_error* out_of_range(const char* entry, uint64_t offset, uint64_t size, uint64_t buffer_size) {
  return make_error(TG_ERR_INVALID_ARGUMENT, std::string("cuda: ") + entry + ": range [" + std::to_string(offset) + ", +" +
                                                 std::to_string(size) + ") outside a buffer of " + std::to_string(buffer_size) + " bytes");
}

}  // namespace

tg_error* queue_create(tg_device* device, tg_queue** out_queue) {
  return guarded("queue_create", [&]() -> tg_error* {
    if (!device || !out_queue) return make_error(TG_ERR_INVALID_ARGUMENT, "cuda: queue_create: NULL argument");
    if (tg_error* e = activate(device)) return e;
    const Driver& d = *device->plugin->driver;
    CUstream stream = nullptr;
    CUresult r = d.cuStreamCreate(&stream, kStreamNonBlocking);
    if (r != kCudaSuccess) return driver_error(d, r, "cuStreamCreate");
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
    const Driver& d = *queue->device->plugin->driver;
    d.cuCtxSetCurrent(queue->device->context);
    d.cuStreamSynchronize(queue->stream);
    d.cuStreamDestroy(queue->stream);
    queue->device->queues.erase(queue);
    delete queue;
  });
}

tg_error* queue_synchronize(tg_queue* queue) {
  if (!queue) return make_error(TG_ERR_INVALID_ARGUMENT, "cuda: queue_synchronize: NULL queue");
  if (tg_error* e = activate(queue->device)) return e;
  const Driver& d = *queue->device->plugin->driver;
  CUresult r = d.cuStreamSynchronize(queue->stream);
  return r == kCudaSuccess ? nullptr : driver_error(d, r, "queue_synchronize (a kernel or copy on this queue failed)");
}

tg_error* buffer_alloc(tg_device* device, uint64_t size, tg_buffer** out_buffer) {
  return guarded("buffer_alloc", [&]() -> tg_error* {
    if (!device || !out_buffer) return make_error(TG_ERR_INVALID_ARGUMENT, "cuda: buffer_alloc: NULL argument");
    CUdeviceptr ptr = 0;
    if (size > 0) {
      if (tg_error* e = activate(device)) return e;
      const Driver& d = *device->plugin->driver;
      CUresult r = d.cuMemAlloc(&ptr, size_t(size));
      if (r != kCudaSuccess) return driver_error(d, r, "cuMemAlloc of " + std::to_string(size) + " bytes");
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
    const Driver& d = *buffer->device->plugin->driver;
    if (buffer->ptr) {
      d.cuCtxSetCurrent(buffer->device->context);
      d.cuMemFree(buffer->ptr);
    }
    buffer->device->buffers.erase(buffer);
    delete buffer;
  });
}

tg_error* copy_h2d(tg_queue* queue, tg_buffer* dst, uint64_t dst_offset, const void* src, uint64_t size) {
  if (!owns(queue, dst) || (!src && size)) return make_error(TG_ERR_INVALID_ARGUMENT, "cuda: copy_h2d: bad argument");
  if (!range_ok(dst->size, dst_offset, size)) return out_of_range("copy_h2d", dst_offset, size, dst->size);
  if (!size) return nullptr;
  if (tg_error* e = activate(queue->device)) return e;
  const Driver& d = *queue->device->plugin->driver;
  CUresult r = d.cuMemcpyHtoDAsync(dst->ptr + dst_offset, src, size_t(size), queue->stream);
  if (r == kCudaSuccess) r = d.cuStreamSynchronize(queue->stream);
  return r == kCudaSuccess ? nullptr : driver_error(d, r, "copy_h2d");
}

tg_error* copy_d2h(tg_queue* queue, void* dst, tg_buffer* src, uint64_t src_offset, uint64_t size) {
  if (!owns(queue, src) || (!dst && size)) return make_error(TG_ERR_INVALID_ARGUMENT, "cuda: copy_d2h: bad argument");
  if (!range_ok(src->size, src_offset, size)) return out_of_range("copy_d2h", src_offset, size, src->size);
  if (!size) return nullptr;
  if (tg_error* e = activate(queue->device)) return e;
  const Driver& d = *queue->device->plugin->driver;
  CUresult r = d.cuMemcpyDtoHAsync(dst, src->ptr + src_offset, size_t(size), queue->stream);
  return r == kCudaSuccess ? nullptr : driver_error(d, r, "copy_d2h");
}

tg_error* copy_d2d(tg_queue* queue, tg_buffer* dst, uint64_t dst_offset, tg_buffer* src, uint64_t src_offset, uint64_t size) {
  if (!owns(queue, dst) || !owns(queue, src)) return make_error(TG_ERR_INVALID_ARGUMENT, "cuda: copy_d2d: bad argument");
  if (!range_ok(dst->size, dst_offset, size)) return out_of_range("copy_d2d", dst_offset, size, dst->size);
  if (!range_ok(src->size, src_offset, size)) return out_of_range("copy_d2d", src_offset, size, src->size);
  if (!size) return nullptr;
  if (tg_error* e = activate(queue->device)) return e;
  const Driver& d = *queue->device->plugin->driver;
  // Overlapping ranges of one buffer: copy through a disjoint order of chunks (memmove).
  CUdeviceptr s = src->ptr + src_offset, t = dst->ptr + dst_offset;
  CUresult r = kCudaSuccess;
  bool overlap = s < t + size && t < s + size && s != t;
  if (!overlap) {
    r = d.cuMemcpyDtoDAsync(t, s, size_t(size), queue->stream);
  } else {
    uint64_t step = s > t ? s - t : t - s;  // chunks this big never overlap their source
    if (t < s) {
      for (uint64_t o = 0; o < size && r == kCudaSuccess; o += step) r = d.cuMemcpyDtoDAsync(t + o, s + o, size_t(std::min(step, size - o)), queue->stream);
    } else {
      for (uint64_t end = size; end > 0 && r == kCudaSuccess;) {
        uint64_t n = std::min(step, end);
        end -= n;
        r = d.cuMemcpyDtoDAsync(t + end, s + end, size_t(n), queue->stream);
      }
    }
  }
  return r == kCudaSuccess ? nullptr : driver_error(d, r, "copy_d2d");
}

tg_error* buffer_fill(tg_queue* queue, tg_buffer* buffer, uint64_t offset, uint64_t size, const void* pattern, uint32_t pattern_size) {
  if (!owns(queue, buffer) || !pattern) return make_error(TG_ERR_INVALID_ARGUMENT, "cuda: buffer_fill: bad argument");
  if (pattern_size != 1 && pattern_size != 2 && pattern_size != 4 && pattern_size != 8)
    return make_error(TG_ERR_INVALID_ARGUMENT, "cuda: buffer_fill: pattern_size must be 1, 2, 4 or 8");
  if (size % pattern_size) return make_error(TG_ERR_INVALID_ARGUMENT, "cuda: buffer_fill: size is not a multiple of pattern_size");
  if (!range_ok(buffer->size, offset, size)) return out_of_range("buffer_fill", offset, size, buffer->size);
  if (!size) return nullptr;
  if (tg_error* e = activate(queue->device)) return e;
  const Driver& d = *queue->device->plugin->driver;
  CUdeviceptr p = buffer->ptr + offset;
  CUresult r = kCudaSuccess;
  const auto* b = static_cast<const uint8_t*>(pattern);
  if (pattern_size == 1) {
    r = d.cuMemsetD8Async(p, b[0], size_t(size), queue->stream);
  } else if (pattern_size == 2 && p % 2 == 0) {
    r = d.cuMemsetD16Async(p, uint16_t(b[0] | (b[1] << 8)), size_t(size / 2), queue->stream);
  } else if (pattern_size == 4 && p % 4 == 0) {
    r = d.cuMemsetD32Async(p, uint32_t(b[0]) | uint32_t(b[1]) << 8 | uint32_t(b[2]) << 16 | uint32_t(b[3]) << 24, size_t(size / 4), queue->stream);
  } else {
    // 8-byte (or misaligned) patterns: write one copy, then double it with device copies.
    r = d.cuMemcpyHtoDAsync(p, pattern, pattern_size, queue->stream);
    if (r == kCudaSuccess) r = d.cuStreamSynchronize(queue->stream);
    for (uint64_t done = pattern_size; done < size && r == kCudaSuccess;) {
      uint64_t n = std::min(done, size - done);
      r = d.cuMemcpyDtoDAsync(p + done, p, size_t(n), queue->stream);
      done += n;
    }
  }
  return r == kCudaSuccess ? nullptr : driver_error(d, r, "buffer_fill");
}

}  // namespace tegula::cuda
