/// \file
/// The synchronous host device: queues, buffers, transfers and events of a plugin whose
/// memory is host memory and whose work is done when its call returns (cpu, reference, the
/// conformance suite's test plugins), written once.
///
/// - A buffer is 64-byte aligned host memory, at most the host's physical memory.
/// - A queue has nothing in flight: queue_synchronize has nothing to wait for.
/// - An event is complete when it is recorded; its time is the wall clock then.
/// - The device keeps every object it made (for device_close and shutdown, and to refuse
///   handles it does not hold), under a mutex, since queues may be used from several threads.
///
/// The header defines the handle types tg_device, tg_queue, tg_buffer and tg_event, so a
/// plugin that uses it defines only tg_plugin and tg_executable. The entries go into the
/// plugin's namespace, beside its others, with one line:
///
///     namespace acme { TG_SDK_HOST_DEVICE_ENTRIES("acme") }
///
/// and device_open makes the device with `new tg_device(plugin)`. Messages name the plugin
/// ("acme: buffer_alloc: NULL argument").
#pragma once

#include <chrono>
#include <cstdint>
#include <mutex>
#include <set>

#include "plugins/abi/tegula_plugin.h"

struct tg_device {
  explicit tg_device(tg_plugin* owner) : plugin(owner) {}
  tg_plugin* plugin;   ///< the plugin's own instance
  std::mutex mu;       ///< guards the sets
  std::set<tg_queue*> queues;
  std::set<tg_buffer*> buffers;
  std::set<tg_executable*> executables;
  std::set<tg_event*> events;
};

struct tg_queue {
  tg_device* device = nullptr;
};

struct tg_buffer {
  tg_device* device = nullptr;
  uint8_t* data = nullptr;  ///< 64-byte aligned; nullptr when size is 0
  uint64_t size = 0;
};

struct tg_event {
  tg_device* device = nullptr;
  bool recorded = false;
  std::chrono::steady_clock::time_point time;
};

namespace tegula::plugin {

/// The alignment of every host buffer.
inline constexpr uint64_t kHostBufferAlignment = 64;

/// The host's physical memory in bytes (0 when it cannot be told): the device's memory size
/// and its largest buffer.
uint64_t host_memory_bytes();

/// The buffer is one this device made and still holds (false for NULL).
bool host_owns(tg_device* device, const tg_buffer* buffer);
/// Free every queue, buffer and event of the device and the device itself; its executables
/// go to `free_executable` first (the plugin's type).
void host_device_free(tg_device* device, void (*free_executable)(tg_executable*));
/// Record a plugin's executable with its device, or forget it (executable_load and _free).
void host_add_executable(tg_device* device, tg_executable* executable);
void host_remove_executable(tg_device* device, tg_executable* executable);

// The entries, as the ABI declares them (tegula_plugin.h), after the plugin's name.
tg_error* host_queue_create(const char* plugin, tg_device* device, tg_queue** out_queue);
void host_queue_destroy(tg_queue* queue);
tg_error* host_queue_synchronize(const char* plugin, tg_queue* queue);
tg_error* host_buffer_alloc(const char* plugin, tg_device* device, uint64_t size, tg_buffer** out_buffer);
void host_buffer_free(tg_buffer* buffer);
tg_error* host_copy_h2d(const char* plugin, tg_queue* queue, tg_buffer* dst, uint64_t dst_offset, const void* src, uint64_t size);
tg_error* host_copy_d2h(const char* plugin, tg_queue* queue, void* dst, tg_buffer* src, uint64_t src_offset, uint64_t size);
tg_error* host_copy_d2d(const char* plugin, tg_queue* queue, tg_buffer* dst, uint64_t dst_offset, tg_buffer* src, uint64_t src_offset,
                        uint64_t size);
tg_error* host_buffer_fill(const char* plugin, tg_queue* queue, tg_buffer* buffer, uint64_t offset, uint64_t size, const void* pattern,
                           uint32_t pattern_size);
tg_error* host_event_create(const char* plugin, tg_device* device, tg_event** out_event);
void host_event_destroy(tg_event* event);
tg_error* host_event_record(const char* plugin, tg_queue* queue, tg_event* event);
tg_error* host_event_synchronize(const char* plugin, tg_event* event);
tg_error* host_event_elapsed_ms(const char* plugin, tg_event* start, tg_event* end, double* out_ms);

}  // namespace tegula::plugin

/// The host device's entries as the plugin's own, in the plugin's namespace (where
/// TG_SDK_DECLARE_ENTRIES() declared them), for TG_SDK_PLUGIN_TABLE.
#define TG_SDK_HOST_DEVICE_ENTRIES(NAME)                                                                                   \
  tg_error* queue_create(tg_device* d, tg_queue** q) { return ::tegula::plugin::host_queue_create(NAME, d, q); }             \
  void queue_destroy(tg_queue* q) { ::tegula::plugin::host_queue_destroy(q); }                                         \
  tg_error* queue_synchronize(tg_queue* q) { return ::tegula::plugin::host_queue_synchronize(NAME, q); }                     \
  tg_error* buffer_alloc(tg_device* d, uint64_t n, tg_buffer** b) { return ::tegula::plugin::host_buffer_alloc(NAME, d, n, b); } \
  void buffer_free(tg_buffer* b) { ::tegula::plugin::host_buffer_free(b); }                                            \
  tg_error* copy_h2d(tg_queue* q, tg_buffer* dst, uint64_t at, const void* src, uint64_t n) {                          \
    return ::tegula::plugin::host_copy_h2d(NAME, q, dst, at, src, n);                                                        \
  }                                                                                                                    \
  tg_error* copy_d2h(tg_queue* q, void* dst, tg_buffer* src, uint64_t at, uint64_t n) {                                \
    return ::tegula::plugin::host_copy_d2h(NAME, q, dst, src, at, n);                                                        \
  }                                                                                                                    \
  tg_error* copy_d2d(tg_queue* q, tg_buffer* dst, uint64_t dst_at, tg_buffer* src, uint64_t src_at, uint64_t n) {      \
    return ::tegula::plugin::host_copy_d2d(NAME, q, dst, dst_at, src, src_at, n);                                            \
  }                                                                                                                    \
  tg_error* buffer_fill(tg_queue* q, tg_buffer* b, uint64_t at, uint64_t n, const void* pattern, uint32_t pattern_size) { \
    return ::tegula::plugin::host_buffer_fill(NAME, q, b, at, n, pattern, pattern_size);                                     \
  }                                                                                                                    \
  tg_error* event_create(tg_device* d, tg_event** e) { return ::tegula::plugin::host_event_create(NAME, d, e); }             \
  void event_destroy(tg_event* e) { ::tegula::plugin::host_event_destroy(e); }                                         \
  tg_error* event_record(tg_queue* q, tg_event* e) { return ::tegula::plugin::host_event_record(NAME, q, e); }               \
  tg_error* event_synchronize(tg_event* e) { return ::tegula::plugin::host_event_synchronize(NAME, e); }                     \
  tg_error* event_elapsed_ms(tg_event* a, tg_event* b, double* ms) { return ::tegula::plugin::host_event_elapsed_ms(NAME, a, b, ms); }
