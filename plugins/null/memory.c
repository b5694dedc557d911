/*
 * memory.c: device buffers and transfers.
 */
#include "null_plugin.h"

tg_error* null_buffer_alloc(tg_device* device, uint64_t size, tg_buffer** out_buffer) {
  (void)device;
  (void)size;
  (void)out_buffer;
  /* TODO(null): allocate device memory (size 0 is valid); TG_ERR_OUT_OF_MEMORY when full. */
  return null_unimplemented("buffer_alloc");
}

void null_buffer_free(tg_buffer* buffer) {
  (void)buffer;
  /* TODO(null): free device memory. */
}

tg_error* null_copy_h2d(tg_queue* queue, tg_buffer* dst, uint64_t dst_offset, const void* src,
                        uint64_t size) {
  (void)queue;
  (void)dst;
  (void)dst_offset;
  (void)src;
  (void)size;
  /* TODO(null): copy host to device; src must have been read when this returns. */
  return null_unimplemented("copy_h2d");
}

tg_error* null_copy_d2h(tg_queue* queue, void* dst, tg_buffer* src, uint64_t src_offset,
                        uint64_t size) {
  (void)queue;
  (void)dst;
  (void)src;
  (void)src_offset;
  (void)size;
  /* TODO(null): copy device to host; dst is written by the time queue_synchronize returns. */
  return null_unimplemented("copy_d2h");
}

tg_error* null_copy_d2d(tg_queue* queue, tg_buffer* dst, uint64_t dst_offset, tg_buffer* src,
                        uint64_t src_offset, uint64_t size) {
  (void)queue;
  (void)dst;
  (void)dst_offset;
  (void)src;
  (void)src_offset;
  (void)size;
  /* TODO(null): copy between buffers of this device. */
  return null_unimplemented("copy_d2d");
}

tg_error* null_buffer_fill(tg_queue* queue, tg_buffer* buffer, uint64_t offset, uint64_t size,
                           const void* pattern, uint32_t pattern_size) {
  (void)queue;
  (void)buffer;
  (void)offset;
  (void)size;
  (void)pattern;
  (void)pattern_size;
  /* TODO(null): fill with a 1, 2, 4 or 8 byte pattern. */
  return null_unimplemented("buffer_fill");
}
