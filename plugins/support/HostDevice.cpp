#include "plugins/support/HostDevice.h"

#include <unistd.h>

#include <cstdlib>
#include <cstring>
#include <new>
#include <string>

#include "plugins/support/HostMemory.h"
#include "plugins/support/PluginErrors.h"

namespace tegula::plugin {
namespace {

/// "cpu: queue_create: what".
tg_error* refuse(const char* plugin, const char* entry, const std::string& what) {
  return make_error(TG_ERR_INVALID_ARGUMENT, std::string(plugin) + ": " + entry + ": " + what);
}

/// The buffer's bytes for the shared host transfers, when the queue's device holds it.
HostBuffer held_bytes(const tg_queue* queue, const tg_buffer* buffer) {
  if (!queue || !host_owns(queue->device, buffer)) return {};
  return {true, buffer->data, buffer->size};
}

template <typename T>
void add(tg_device* device, std::set<T*>& set, T* object) {
  std::lock_guard<std::mutex> lock(device->mu);
  set.insert(object);
}

template <typename T>
void remove(tg_device* device, std::set<T*>& set, T* object) {
  std::lock_guard<std::mutex> lock(device->mu);
  set.erase(object);
}

}  // namespace

uint64_t host_memory_bytes() {
  long pages = sysconf(_SC_PHYS_PAGES);
  long page_size = sysconf(_SC_PAGESIZE);
  if (pages <= 0 || page_size <= 0) return 0;
  return uint64_t(pages) * uint64_t(page_size);
}

bool host_owns(tg_device* device, const tg_buffer* buffer) {
  if (!device || !buffer) return false;
  std::lock_guard<std::mutex> lock(device->mu);
  return device->buffers.count(const_cast<tg_buffer*>(buffer)) != 0;
}

void host_device_free(tg_device* device, void (*free_executable)(tg_executable*)) {
  for (tg_executable* e : device->executables) free_executable(e);
  for (tg_buffer* b : device->buffers) {
    std::free(b->data);
    delete b;
  }
  for (tg_queue* q : device->queues) delete q;
  for (tg_event* e : device->events) delete e;
  delete device;
}

void host_add_executable(tg_device* device, tg_executable* executable) { add(device, device->executables, executable); }
void host_remove_executable(tg_device* device, tg_executable* executable) {
  remove(device, device->executables, executable);
}

tg_error* host_queue_create(const char* plugin, tg_device* device, tg_queue** out_queue) {
  if (!device || !out_queue) return refuse(plugin, "queue_create", "NULL argument");
  tg_queue* queue = new tg_queue;
  queue->device = device;
  add(device, device->queues, queue);
  *out_queue = queue;
  return nullptr;
}

void host_queue_destroy(tg_queue* queue) {
  if (!queue) return;
  remove(queue->device, queue->device->queues, queue);
  delete queue;
}

// Launches and transfers finish before they return, so there is nothing to wait for.
tg_error* host_queue_synchronize(const char* plugin, tg_queue* queue) {
  if (!queue) return refuse(plugin, "queue_synchronize", "NULL queue");
  return nullptr;
}

tg_error* host_buffer_alloc(const char* plugin, tg_device* device, uint64_t size, tg_buffer** out_buffer) {
  if (!device || !out_buffer) return refuse(plugin, "buffer_alloc", "NULL argument");
  uint8_t* data = nullptr;
  if (size > 0) {
    // More than the machine has cannot succeed; say so rather than lean on overcommit.
    uint64_t limit = host_memory_bytes();
    if (size > (uint64_t(1) << 62) || (limit && size > limit))
      return make_error(TG_ERR_OUT_OF_MEMORY, std::string(plugin) + ": cannot allocate " + std::to_string(size) +
                                                  " bytes (more than the host's memory)");
    uint64_t rounded = (size + kHostBufferAlignment - 1) / kHostBufferAlignment * kHostBufferAlignment;
    data = static_cast<uint8_t*>(std::aligned_alloc(kHostBufferAlignment, size_t(rounded)));
    if (!data)
      return make_error(TG_ERR_OUT_OF_MEMORY, std::string(plugin) + ": cannot allocate " + std::to_string(size) + " bytes");
  }
  tg_buffer* buffer = new (std::nothrow) tg_buffer;
  if (!buffer) {
    std::free(data);
    return make_error(TG_ERR_OUT_OF_MEMORY, std::string(plugin) + ": buffer_alloc: out of memory");
  }
  buffer->device = device;
  buffer->data = data;
  buffer->size = size;
  add(device, device->buffers, buffer);
  *out_buffer = buffer;
  return nullptr;
}

void host_buffer_free(tg_buffer* buffer) {
  if (!buffer) return;
  remove(buffer->device, buffer->device->buffers, buffer);
  std::free(buffer->data);
  delete buffer;
}

tg_error* host_copy_h2d(const char* plugin, tg_queue* queue, tg_buffer* dst, uint64_t dst_offset, const void* src, uint64_t size) {
  return ::tegula::plugin::host_copy_h2d(plugin, held_bytes(queue, dst), dst_offset, src, size);
}

tg_error* host_copy_d2h(const char* plugin, tg_queue* queue, void* dst, tg_buffer* src, uint64_t src_offset, uint64_t size) {
  return ::tegula::plugin::host_copy_d2h(plugin, dst, held_bytes(queue, src), src_offset, size);
}

tg_error* host_copy_d2d(const char* plugin, tg_queue* queue, tg_buffer* dst, uint64_t dst_offset, tg_buffer* src, uint64_t src_offset,
                        uint64_t size) {
  return ::tegula::plugin::host_copy_d2d(plugin, held_bytes(queue, dst), dst_offset, held_bytes(queue, src), src_offset,
                               size);
}

// The checks are the shared ones; a one-byte pattern is a memset, wider ones the shared loop.
tg_error* host_buffer_fill(const char* plugin, tg_queue* queue, tg_buffer* buffer, uint64_t offset, uint64_t size, const void* pattern,
                           uint32_t pattern_size) {
  HostBuffer bytes = held_bytes(queue, buffer);
  if (tg_error* e = check_host_fill(plugin, bytes, offset, size, pattern, pattern_size)) return e;
  uint8_t* p = bytes.data + offset;
  if (pattern_size == 1) {
    if (size) std::memset(p, *static_cast<const uint8_t*>(pattern), size_t(size));
    return nullptr;
  }
  write_fill_pattern(p, size, pattern, pattern_size);
  return nullptr;
}

tg_error* host_event_create(const char* plugin, tg_device* device, tg_event** out_event) {
  if (!device || !out_event) return refuse(plugin, "event_create", "NULL argument");
  tg_event* event = new tg_event;
  event->device = device;
  add(device, device->events, event);
  *out_event = event;
  return nullptr;
}

void host_event_destroy(tg_event* event) {
  if (!event) return;
  remove(event->device, event->device->events, event);
  delete event;
}

tg_error* host_event_record(const char* plugin, tg_queue* queue, tg_event* event) {
  if (!queue || !event || event->device != queue->device)
    return refuse(plugin, "event_record", "bad argument");
  event->recorded = true;
  event->time = std::chrono::steady_clock::now();
  return nullptr;
}

tg_error* host_event_synchronize(const char* plugin, tg_event* event) {
  if (!event) return refuse(plugin, "event_synchronize", "NULL event");
  return nullptr;
}

tg_error* host_event_elapsed_ms(const char* plugin, tg_event* start, tg_event* end, double* out_ms) {
  if (!start || !end || !out_ms) return refuse(plugin, "event_elapsed_ms", "NULL argument");
  if (!start->recorded || !end->recorded) return refuse(plugin, "event_elapsed_ms", "an event was never recorded");
  *out_ms = std::chrono::duration<double, std::milli>(end->time - start->time).count();
  return nullptr;
}

}  // namespace tegula::plugin
