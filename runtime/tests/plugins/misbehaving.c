/* One source, many broken plugins: TP_MODE picks how this one misbehaves. Each is the
 * working base plugin (common.c) with one thing wrong. */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/tests/plugins/common.h"

#define MODE_INIT_FAILS 1     /* init returns an error */
#define MODE_COUNT_FAILS 2    /* init works, device_count fails */
#define MODE_DEVICE_FAILS 3   /* device 0's properties fail; device 1's open fails */
#define MODE_NULL_NAME 4      /* get_info gives a NULL name */
#define MODE_HUGE_COUNT 5     /* a million devices */
#define MODE_BAD_DEVICES 6    /* devices answering nonsense, and one good one with bad calls */
#define MODE_NULL_ENTRY 7     /* a required entry (launch) is NULL */
#define MODE_BAD_ABI 8        /* answers ABI version 7 */
#define MODE_SMALL_TABLE 9    /* struct_size too small for ABI 1 */
#define MODE_NAME_MISMATCH 10 /* get_info's name differs from the manifest's */
#define MODE_UNLOADABLE 11    /* works; its manifest opts in to unloading */
#define MODE_NO_REASON 12     /* refuses without saying why */
#define MODE_SHORT_TABLE 13   /* a table ending before the optional trailing entries */
#define MODE_SHORT_INFO 14    /* get_info answers a tg_plugin_info ending before description */

#ifndef TP_MODE
#error "define TP_MODE"
#endif

/* Each mode uses a few of the broken entries below. */
#define TP_ENTRY static __attribute__((unused))

TP_ENTRY tg_error* init_fails(const tg_host_info* host, tg_plugin** out) {
  (void)host;
  (void)out;
  return tp_error(TG_ERR_DEVICE, "no license for the test accelerator");
}

TP_ENTRY tg_error* count_fails(tg_plugin* p, uint32_t* out) {
  (void)p;
  (void)out;
  return tp_error(TG_ERR_DEVICE, "driver lost");
}

TP_ENTRY tg_error* count_two(tg_plugin* p, uint32_t* out) {
  (void)p;
  *out = 2;
  return NULL;
}

TP_ENTRY tg_error* count_huge(tg_plugin* p, uint32_t* out) {
  (void)p;
  *out = 1000000;
  return NULL;
}

TP_ENTRY tg_error* properties_device_fails(tg_plugin* p, uint32_t index, tg_device_properties* out) {
  if (index == 0) return tp_error(TG_ERR_DEVICE, "device 0 fell off the bus");
  return tp_device_properties(p, 0, out);
}

TP_ENTRY tg_error* open_fails(tg_plugin* p, uint32_t index, tg_device** out) {
  (void)p;
  (void)index;
  (void)out;
  return tp_error(TG_ERR_DEVICE, "cannot open the device");
}

/* --- MODE_BAD_DEVICES: 7 devices --------------------------------------------------------- */
static char long_name[100000];
static const char bad_utf8[] = {'v', 'e', 'n', (char)0xc3, (char)0x28, 0};

TP_ENTRY tg_error* count_seven(tg_plugin* p, uint32_t* out) {
  (void)p;
  *out = 7;
  return NULL;
}

TP_ENTRY tg_error* bad_properties(tg_plugin* p, uint32_t index, tg_device_properties* out) {
  tg_error* e = tp_device_properties(p, 0, out);
  if (e) return e;
  switch (index) {
    case 0: out->name = NULL; break;                          /* NULL string */
    case 1:                                                   /* no NUL within the limit */
      memset(long_name, 'x', sizeof(long_name) - 1);
      out->name = long_name;
      break;
    case 2: out->vendor = bad_utf8; break;                    /* not UTF-8 */
    case 3: out->struct_size = 8; break;                      /* too small */
    case 4: memset((char*)out + sizeof(*out), 0x5a, 32); break; /* writes past the struct */
    case 5:                                                   /* an out_of_range past the enum */
      out->struct_size = sizeof(*out);
      out->out_of_range = 77;
      break;
    default: break;                                           /* 6: fine */
  }
  return NULL;
}

TP_ENTRY tg_error* open_null(tg_plugin* p, uint32_t index, tg_device** out) {
  (void)p;
  static int dummy;
  if (index == 6) {
    *out = NULL; /* success, but no device */
    return NULL;
  }
  *out = (tg_device*)&dummy;
  return NULL;
}

TP_ENTRY void close_nothing(tg_device* d) { (void)d; }

TP_ENTRY tg_error* alloc_weird_error(tg_device* d, uint64_t size, tg_buffer** out) {
  (void)d;
  (void)size;
  (void)out;
  return tp_error((tg_status_code)999, NULL); /* an unknown code and no message */
}

/* Lies beyond the short table's struct_size: the host must never call it. */
TP_ENTRY tg_error* elapsed_trap(tg_event* a, tg_event* b, double* out) {
  (void)a;
  (void)b;
  (void)out;
  abort();
}

TG_PLUGIN_EXPORT const tg_plugin_api* tg_plugin_query(uint32_t host_min_abi, uint32_t host_max_abi,
                                                      const char** out_refusal) {
  (void)host_min_abi;
  (void)host_max_abi;
  static tg_plugin_api api;
  api = tp_base_api();
#if TP_MODE == MODE_INIT_FAILS
  api.init = init_fails;
#elif TP_MODE == MODE_COUNT_FAILS
  api.device_count = count_fails;
#elif TP_MODE == MODE_DEVICE_FAILS
  api.device_count = count_two;
  api.device_properties = properties_device_fails;
  api.device_open = open_fails;
#elif TP_MODE == MODE_NULL_NAME || TP_MODE == MODE_NAME_MISMATCH
  /* see get_info below */
#elif TP_MODE == MODE_HUGE_COUNT
  api.device_count = count_huge;
#elif TP_MODE == MODE_BAD_DEVICES
  api.device_count = count_seven;
  api.device_properties = bad_properties;
  api.device_open = open_null;
  api.device_close = close_nothing;
  api.buffer_alloc = alloc_weird_error;
#elif TP_MODE == MODE_NULL_ENTRY
  api.launch = NULL;
#elif TP_MODE == MODE_BAD_ABI
  api.abi_version = 7;
#elif TP_MODE == MODE_SMALL_TABLE
  api.struct_size = 16;
#elif TP_MODE == MODE_UNLOADABLE
  /* nothing wrong */
#elif TP_MODE == MODE_SHORT_TABLE
  api.struct_size = offsetof(tg_plugin_api, event_elapsed_ms);
  api.event_elapsed_ms = elapsed_trap;
#elif TP_MODE == MODE_NO_REASON
  (void)out_refusal;
  return NULL;
#endif
#if TP_MODE == MODE_NULL_NAME || TP_MODE == MODE_NAME_MISMATCH || TP_MODE == MODE_SHORT_INFO
  extern tg_error* tp_odd_info(tg_plugin_info*);
  api.get_info = tp_odd_info;
#endif
  (void)out_refusal;
  return &api;
}

#if TP_MODE == MODE_NULL_NAME || TP_MODE == MODE_NAME_MISMATCH || TP_MODE == MODE_SHORT_INFO
tg_error* tp_odd_info(tg_plugin_info* out) {
  tp_get_info(out);
#if TP_MODE == MODE_NULL_NAME
  out->name = NULL;
#elif TP_MODE == MODE_SHORT_INFO
  out->struct_size = offsetof(tg_plugin_info, description);
#else
  out->name = "someone_else";
#endif
  return NULL;
}
#endif
