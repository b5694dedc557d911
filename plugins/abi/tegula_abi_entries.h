/*
 * tegula_abi_entries.h: the entries of tg_plugin_api as one list, for code that must handle
 * every entry (the host's table check, the SDK's guarded thunks and table builder, a plugin's
 * declarations, the layout test). tegula_plugin.h stays the documented contract; this list is
 * checked against it below, so an entry added there and not here (or in another order, or
 * with another signature) fails to compile.
 *
 * X(name, return_type, (parameters), (arguments), since, optional)
 *   since:    the ABI version that added the entry
 *   optional: 1 when the header marks it (optional), i.e. it may be NULL
 *
 * The error entries come first and apart: the SDK makes the error objects, so an SDK-based
 * plugin defines only TG_ABI_PLUGIN_ENTRIES.
 *
 * Plain C11 (and valid C++), like tegula_plugin.h.
 */
#ifndef TEGULA_ABI_ENTRIES_H_
#define TEGULA_ABI_ENTRIES_H_

#include "plugins/abi/tegula_plugin.h"

#define TG_ABI_ERROR_ENTRIES(X)                                                         \
  X(error_code, tg_status_code, (const tg_error* error), (error), 1, 0)                \
  X(error_message, const char*, (const tg_error* error), (error), 1, 0)                \
  X(error_destroy, void, (tg_error* error), (error), 1, 0)

#define TG_ABI_PLUGIN_ENTRIES(X)                                                                   \
  X(get_info, tg_error*, (tg_plugin_info* out_info), (out_info), 1, 0)                             \
  X(init, tg_error*, (const tg_host_info* host, tg_plugin** out_plugin), (host, out_plugin), 1, 0) \
  X(shutdown, void, (tg_plugin* plugin), (plugin), 1, 0)                                           \
  X(device_count, tg_error*, (tg_plugin* plugin, uint32_t* out_count), (plugin, out_count), 1, 0)  \
  X(device_properties, tg_error*, (tg_plugin* plugin, uint32_t index, tg_device_properties* out),  \
    (plugin, index, out), 1, 0)                                                                    \
  X(device_target, tg_error*, (tg_plugin* plugin, uint32_t index, tg_target_description* out),     \
    (plugin, index, out), 1, 1)                                                                    \
  X(device_open, tg_error*, (tg_plugin* plugin, uint32_t index, tg_device** out_device),            \
    (plugin, index, out_device), 1, 0)                                                             \
  X(device_close, void, (tg_device* device), (device), 1, 0)                                       \
  X(queue_create, tg_error*, (tg_device* device, tg_queue** out_queue), (device, out_queue), 1, 0) \
  X(queue_destroy, void, (tg_queue* queue), (queue), 1, 0)                                         \
  X(queue_synchronize, tg_error*, (tg_queue* queue), (queue), 1, 0)                                \
  X(buffer_alloc, tg_error*, (tg_device* device, uint64_t size, tg_buffer** out_buffer),           \
    (device, size, out_buffer), 1, 0)                                                              \
  X(buffer_free, void, (tg_buffer* buffer), (buffer), 1, 0)                                        \
  X(copy_h2d, tg_error*,                                                                           \
    (tg_queue* queue, tg_buffer* dst, uint64_t dst_offset, const void* src, uint64_t size),        \
    (queue, dst, dst_offset, src, size), 1, 0)                                                     \
  X(copy_d2h, tg_error*,                                                                           \
    (tg_queue* queue, void* dst, tg_buffer* src, uint64_t src_offset, uint64_t size),              \
    (queue, dst, src, src_offset, size), 1, 0)                                                     \
  X(copy_d2d, tg_error*,                                                                           \
    (tg_queue* queue, tg_buffer* dst, uint64_t dst_offset, tg_buffer* src, uint64_t src_offset,    \
     uint64_t size),                                                                               \
    (queue, dst, dst_offset, src, src_offset, size), 1, 0)                                         \
  X(buffer_fill, tg_error*,                                                                        \
    (tg_queue* queue, tg_buffer* buffer, uint64_t offset, uint64_t size, const void* pattern,      \
     uint32_t pattern_size),                                                                       \
    (queue, buffer, offset, size, pattern, pattern_size), 1, 0)                                    \
  X(compile, tg_error*, (tg_device* device, const tg_compile_request* request, tg_blob* out_blob), \
    (device, request, out_blob), 1, 0)                                                             \
  X(blob_release, void, (tg_blob* blob), (blob), 1, 0)                                             \
  X(executable_load, tg_error*,                                                                    \
    (tg_device* device, const void* data, size_t size, tg_executable** out_executable),            \
    (device, data, size, out_executable), 1, 0)                                                    \
  X(executable_free, void, (tg_executable* executable), (executable), 1, 0)                        \
  X(launch, tg_error*, (tg_queue* queue, tg_executable* executable, const tg_launch_params* params), \
    (queue, executable, params), 1, 0)                                                             \
  X(event_create, tg_error*, (tg_device* device, tg_event** out_event), (device, out_event), 1, 0) \
  X(event_destroy, void, (tg_event* event), (event), 1, 0)                                         \
  X(event_record, tg_error*, (tg_queue* queue, tg_event* event), (queue, event), 1, 0)             \
  X(event_synchronize, tg_error*, (tg_event* event), (event), 1, 0)                                \
  X(event_elapsed_ms, tg_error*, (tg_event* start, tg_event* end, double* out_ms),                 \
    (start, end, out_ms), 1, 1)                                                                    \
  X(compile_offline, tg_error*,                                                                    \
    (tg_plugin* plugin, const tg_target_description* target, const tg_compile_request* request,    \
     tg_blob* out_blob),                                                                           \
    (plugin, target, request, out_blob), 1, 1)                                                     \
  X(executable_describe, tg_error*,                                                                \
    (tg_plugin* plugin, const void* data, size_t size, tg_blob* out_text),                         \
    (plugin, data, size, out_text), 1, 1)

/* Every entry of tg_plugin_api, in table order. */
#define TG_FOR_EACH_ABI_ENTRY(X) TG_ABI_ERROR_ENTRIES(X) TG_ABI_PLUGIN_ENTRIES(X)

/* The list matches the header: entry i sits i pointers after error_code, and the table ends
 * after the last one. (The signatures are checked where C++ can compare types:
 * plugins/support/EntryTable.h.) */
#define TG_ABI_ENTRY_INDEX_(name, ret, params, args, since, optional) TG_ABI_ENTRY_INDEX_##name,
enum tg_abi_entry_index_ { TG_FOR_EACH_ABI_ENTRY(TG_ABI_ENTRY_INDEX_) TG_ABI_ENTRY_COUNT };
#undef TG_ABI_ENTRY_INDEX_

#ifdef __cplusplus
#define TG_ABI_STATIC_ASSERT_ static_assert
#else
#define TG_ABI_STATIC_ASSERT_ _Static_assert
#endif
#define TG_ABI_ENTRY_AT_ITS_INDEX_(name, ret, params, args, since, optional)                   \
  TG_ABI_STATIC_ASSERT_(offsetof(tg_plugin_api, name) ==                                       \
                            offsetof(tg_plugin_api, error_code) +                              \
                                TG_ABI_ENTRY_INDEX_##name * sizeof(void (*)(void)),            \
                        "tegula_abi_entries.h: " #name " is not where tg_plugin_api has it");
TG_FOR_EACH_ABI_ENTRY(TG_ABI_ENTRY_AT_ITS_INDEX_)
TG_ABI_STATIC_ASSERT_(sizeof(tg_plugin_api) ==
                          offsetof(tg_plugin_api, error_code) + TG_ABI_ENTRY_COUNT * sizeof(void (*)(void)),
                      "tegula_abi_entries.h: tg_plugin_api has entries this list lacks");
#undef TG_ABI_ENTRY_AT_ITS_INDEX_
#undef TG_ABI_STATIC_ASSERT_

#endif /* TEGULA_ABI_ENTRIES_H_ */
