/*
 * common.c: the working base plugin the test plugins start from.
 */
#include "runtime/tests/plugins/common.h"

#include <stdlib.h>
#include <string.h>

struct tg_error {
  tg_status_code code;
  char* message;
};
struct tg_plugin {
  void (*log)(void*, tg_log_level, const char*);
  void* log_user;
};
struct tg_device {
  int unused;
};
struct tg_queue {
  int unused;
};
struct tg_buffer {
  unsigned char* data;
  uint64_t size;
};
struct tg_event {
  int unused;
};

static tg_error tp_oom = {TG_ERR_OUT_OF_MEMORY, "test plugin: out of memory"};

tg_error* tp_error(tg_status_code code, const char* message) {
  tg_error* e = (tg_error*)malloc(sizeof(tg_error));
  if (!e) return &tp_oom;
  e->code = code;
  e->message = message ? strdup(message) : NULL;
  return e;
}

static tg_status_code tp_error_code(const tg_error* e) { return e->code; }
static const char* tp_error_message(const tg_error* e) { return e->message; }
static void tp_error_destroy(tg_error* e) {
  if (!e || e == &tp_oom) return;
  free(e->message);
  free(e);
}

tg_error* tp_get_info(tg_plugin_info* out) {
  out->struct_size = sizeof(*out);
  out->name = TP_NAME;
  out->vendor = "tegula tests";
  out->version = "1.0.0";
  out->description = "a test plugin";
  return NULL;
}

static tg_error* tp_init(const tg_host_info* host, tg_plugin** out) {
  tg_plugin* p = (tg_plugin*)calloc(1, sizeof(tg_plugin));
  if (!p) return tp_error(TG_ERR_OUT_OF_MEMORY, "init");
  p->log = host->log;
  p->log_user = host->log_user;
  if (p->log) p->log(p->log_user, TG_LOG_INFO, "hello from " TP_NAME);
  *out = p;
  return NULL;
}

static void tp_shutdown(tg_plugin* p) { free(p); }

static tg_error* tp_device_count(tg_plugin* p, uint32_t* out) {
  (void)p;
  *out = 1;
  return NULL;
}

tg_error* tp_device_properties(tg_plugin* p, uint32_t index, tg_device_properties* out) {
  (void)p;
  if (index != 0) return tp_error(TG_ERR_NOT_FOUND, "no such device");
  /* As a plugin built before out_of_range was appended: it answers the first release's size
   * and leaves the field alone (device_properties_size_test). */
  out->struct_size = TG_DEVICE_PROPERTIES_SIZE_1;
  out->name = "test device";
  out->vendor = "tegula tests";
  out->target = "host_cpu";
  out->driver_version = "";
  out->toolkit_version = "";
  out->memory_bytes = 1 << 20;
  out->compute_units = 1;
  return NULL;
}

static tg_error* tp_device_open(tg_plugin* p, uint32_t index, tg_device** out) {
  (void)p;
  (void)index;
  *out = (tg_device*)calloc(1, sizeof(tg_device));
  return *out ? NULL : tp_error(TG_ERR_OUT_OF_MEMORY, "device_open");
}
static void tp_device_close(tg_device* d) { free(d); }
static tg_error* tp_queue_create(tg_device* d, tg_queue** out) {
  (void)d;
  *out = (tg_queue*)calloc(1, sizeof(tg_queue));
  return *out ? NULL : tp_error(TG_ERR_OUT_OF_MEMORY, "queue_create");
}
static void tp_queue_destroy(tg_queue* q) { free(q); }
static tg_error* tp_queue_synchronize(tg_queue* q) {
  (void)q;
  return NULL;
}
static tg_error* tp_buffer_alloc(tg_device* d, uint64_t size, tg_buffer** out) {
  (void)d;
  tg_buffer* b = (tg_buffer*)calloc(1, sizeof(tg_buffer));
  if (!b) return tp_error(TG_ERR_OUT_OF_MEMORY, "buffer_alloc");
  b->data = (unsigned char*)calloc(1, size ? (size_t)size : 1);
  b->size = size;
  *out = b;
  return NULL;
}
static void tp_buffer_free(tg_buffer* b) {
  if (!b) return;
  free(b->data);
  free(b);
}
static tg_error* tp_copy_h2d(tg_queue* q, tg_buffer* dst, uint64_t off, const void* src, uint64_t size) {
  (void)q;
  if (off > dst->size || size > dst->size - off) return tp_error(TG_ERR_INVALID_ARGUMENT, "range");
  memcpy(dst->data + off, src, (size_t)size);
  return NULL;
}
static tg_error* tp_copy_d2h(tg_queue* q, void* dst, tg_buffer* src, uint64_t off, uint64_t size) {
  (void)q;
  if (off > src->size || size > src->size - off) return tp_error(TG_ERR_INVALID_ARGUMENT, "range");
  memcpy(dst, src->data + off, (size_t)size);
  return NULL;
}
static tg_error* tp_copy_d2d(tg_queue* q, tg_buffer* dst, uint64_t doff, tg_buffer* src, uint64_t soff, uint64_t size) {
  (void)q;
  memmove(dst->data + doff, src->data + soff, (size_t)size);
  return NULL;
}
static tg_error* tp_buffer_fill(tg_queue* q, tg_buffer* b, uint64_t off, uint64_t size, const void* pattern,
                                uint32_t pattern_size) {
  (void)q;
  for (uint64_t i = 0; i < size; i += pattern_size) memcpy(b->data + off + i, pattern, pattern_size);
  return NULL;
}
static tg_error* tp_compile(tg_device* d, const tg_compile_request* r, tg_blob* out) {
  (void)d;
  (void)r;
  (void)out;
  return tp_error(TG_ERR_UNIMPLEMENTED, "test plugins do not compile");
}
static void tp_blob_release(tg_blob* b) { (void)b; }
static tg_error* tp_executable_load(tg_device* d, const void* data, size_t size, tg_executable** out) {
  (void)d;
  (void)data;
  (void)size;
  (void)out;
  return tp_error(TG_ERR_UNIMPLEMENTED, "test plugins do not load executables");
}
static void tp_executable_free(tg_executable* e) { (void)e; }
static tg_error* tp_launch(tg_queue* q, tg_executable* e, const tg_launch_params* p) {
  (void)q;
  (void)e;
  (void)p;
  return tp_error(TG_ERR_UNIMPLEMENTED, "launch");
}
static tg_error* tp_event_create(tg_device* d, tg_event** out) {
  (void)d;
  *out = (tg_event*)calloc(1, sizeof(tg_event));
  return *out ? NULL : tp_error(TG_ERR_OUT_OF_MEMORY, "event_create");
}
static void tp_event_destroy(tg_event* e) { free(e); }
static tg_error* tp_event_record(tg_queue* q, tg_event* e) {
  (void)q;
  (void)e;
  return NULL;
}
static tg_error* tp_event_synchronize(tg_event* e) {
  (void)e;
  return NULL;
}

tg_plugin_api tp_base_api(void) {
  tg_plugin_api api = {
      /* .struct_size       = */ sizeof(tg_plugin_api),
      /* .next              = */ NULL,
      /* .abi_version       = */ TG_ABI_VERSION_1,
      /* .reserved          = */ 0,
      /* .error_code        = */ tp_error_code,
      /* .error_message     = */ tp_error_message,
      /* .error_destroy     = */ tp_error_destroy,
      /* .get_info          = */ tp_get_info,
      /* .init              = */ tp_init,
      /* .shutdown          = */ tp_shutdown,
      /* .device_count      = */ tp_device_count,
      /* .device_properties = */ tp_device_properties,
      /* .device_target     = */ NULL,
      /* .device_open       = */ tp_device_open,
      /* .device_close      = */ tp_device_close,
      /* .queue_create      = */ tp_queue_create,
      /* .queue_destroy     = */ tp_queue_destroy,
      /* .queue_synchronize = */ tp_queue_synchronize,
      /* .buffer_alloc      = */ tp_buffer_alloc,
      /* .buffer_free       = */ tp_buffer_free,
      /* .copy_h2d          = */ tp_copy_h2d,
      /* .copy_d2h          = */ tp_copy_d2h,
      /* .copy_d2d          = */ tp_copy_d2d,
      /* .buffer_fill       = */ tp_buffer_fill,
      /* .compile           = */ tp_compile,
      /* .blob_release      = */ tp_blob_release,
      /* .executable_load   = */ tp_executable_load,
      /* .executable_free   = */ tp_executable_free,
      /* .launch            = */ tp_launch,
      /* .event_create      = */ tp_event_create,
      /* .event_destroy     = */ tp_event_destroy,
      /* .event_record      = */ tp_event_record,
      /* .event_synchronize = */ tp_event_synchronize,
      /* .event_elapsed_ms  = */ NULL,
      /* .compile_offline   = */ NULL,
      /* .executable_describe = */ NULL,
  };
  return api;
}
