/*
 * null_plugin.h: the null plugin's private declarations.
 *
 * The null plugin is the skeleton a new backend starts from (see README.md): it loads,
 * negotiates the ABI, answers get_info, init, shutdown and device_count (0 devices), and
 * answers every other entry with TG_ERR_UNIMPLEMENTED. Each stub is marked TODO(null).
 */
#ifndef TEGULA_PLUGINS_NULL_NULL_PLUGIN_H_
#define TEGULA_PLUGINS_NULL_NULL_PLUGIN_H_

#include "plugins/abi/tegula_plugin.h"

#ifdef __cplusplus
extern "C" { /* compile.cpp is C++ */
#endif

/* The plugin instance: what init makes and shutdown frees. */
struct tg_plugin {
  uint32_t abi_version;
  void (*log)(void* log_user, tg_log_level level, const char* message);
  void* log_user;
  /* TODO(null): driver handles, the device list, allocators. */
};

/* error.c: errors made here are released by null_error_destroy. Never returns NULL. */
tg_error* null_error(tg_status_code code, const char* format, ...)
    __attribute__((format(printf, 2, 3)));
tg_error* null_unimplemented(const char* entry);
tg_status_code null_error_code(const tg_error* error);
const char* null_error_message(const tg_error* error);
void null_error_destroy(tg_error* error);

/* plugin.c */
tg_error* null_get_info(tg_plugin_info* out_info);
tg_error* null_init(const tg_host_info* host, tg_plugin** out_plugin);
void null_shutdown(tg_plugin* plugin);

/* device.c */
tg_error* null_device_count(tg_plugin* plugin, uint32_t* out_count);
tg_error* null_device_properties(tg_plugin* plugin, uint32_t index,
                                 tg_device_properties* out_properties);
tg_error* null_device_target(tg_plugin* plugin, uint32_t index, tg_target_description* out_target);
tg_error* null_device_open(tg_plugin* plugin, uint32_t index, tg_device** out_device);
void null_device_close(tg_device* device);

/* queue.c */
tg_error* null_queue_create(tg_device* device, tg_queue** out_queue);
void null_queue_destroy(tg_queue* queue);
tg_error* null_queue_synchronize(tg_queue* queue);

/* memory.c */
tg_error* null_buffer_alloc(tg_device* device, uint64_t size, tg_buffer** out_buffer);
void null_buffer_free(tg_buffer* buffer);
tg_error* null_copy_h2d(tg_queue* queue, tg_buffer* dst, uint64_t dst_offset, const void* src,
                        uint64_t size);
tg_error* null_copy_d2h(tg_queue* queue, void* dst, tg_buffer* src, uint64_t src_offset,
                        uint64_t size);
tg_error* null_copy_d2d(tg_queue* queue, tg_buffer* dst, uint64_t dst_offset, tg_buffer* src,
                        uint64_t src_offset, uint64_t size);
tg_error* null_buffer_fill(tg_queue* queue, tg_buffer* buffer, uint64_t offset, uint64_t size,
                           const void* pattern, uint32_t pattern_size);

/* compile.cpp */
tg_error* null_compile(tg_device* device, const tg_compile_request* request, tg_blob* out_blob);

/* executable.c */
void null_blob_release(tg_blob* blob);
tg_error* null_executable_load(tg_device* device, const void* data, size_t size,
                               tg_executable** out_executable);
void null_executable_free(tg_executable* executable);
tg_error* null_launch(tg_queue* queue, tg_executable* executable, const tg_launch_params* params);
tg_error* null_compile_offline(tg_plugin* plugin, const tg_target_description* target,
                               const tg_compile_request* request, tg_blob* out_blob);
tg_error* null_executable_describe(tg_plugin* plugin, const void* data, size_t size, tg_blob* out_text);

/* event.c */
tg_error* null_event_create(tg_device* device, tg_event** out_event);
void null_event_destroy(tg_event* event);
tg_error* null_event_record(tg_queue* queue, tg_event* event);
tg_error* null_event_synchronize(tg_event* event);
tg_error* null_event_elapsed_ms(tg_event* start, tg_event* end, double* out_ms);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* TEGULA_PLUGINS_NULL_NULL_PLUGIN_H_ */
