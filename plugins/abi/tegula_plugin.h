/*
 * tegula_plugin.h: the tegula backend plugin ABI.
 *
 * This is the only file a vendor includes to write a backend. It is plain C11 (and valid
 * C++), depends only on <stddef.h> and <stdint.h>, and is stable:
 *
 *  - A plugin is a shared library exporting ONE symbol, tg_plugin_query, that negotiates the
 *    ABI version: the host offers the range of versions it speaks, the plugin answers with the
 *    function table of the version it will use, or refuses.
 *  - Every struct starts with its size (struct_size) and an extension pointer (next). Fields
 *    are only ever appended; a reader checks struct_size before touching a later field, so an
 *    old host can read a new plugin's table and the reverse. Extension structs chained through
 *    next start with struct_size, next and a type id (tg_extension).
 *  - Errors are opaque objects made by the plugin and released through it (error_destroy).
 *    Success is a NULL error and allocates nothing. No call may abort, throw, or exit the
 *    host process: a plugin that cannot do something returns an error.
 *  - An optional entry may be NULL; the host then treats the call as TG_ERR_UNIMPLEMENTED.
 *    Optional entries are marked (optional) below; all others are required.
 *  - No C++ type crosses this boundary. Kernels cross as a format id plus bytes (the lowered
 *    tile IR text, read with tegula's lowered-IR reader), executables as plugin-defined bytes.
 *
 * Lifetimes (who owns what, and until when) are written beside each entry. "plugin lifetime"
 * means: until shutdown() of the tg_plugin that produced it returns.
 *
 * Threads: the host serialises all calls into one tg_plugin instance and everything it made,
 * except that different tg_queue objects may be used from different threads at once, and
 * that a plugin declaring TG_CONCURRENT_COMPILE (tg_plugin_info.concurrency) has its
 * compiles and loads called from several threads at once (see there).
 */
#ifndef TEGULA_PLUGIN_H_
#define TEGULA_PLUGIN_H_

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ABI versions. Version N's function table is a prefix of version N+1's. */
#define TG_ABI_VERSION_1 1u
#define TG_ABI_VERSION_MIN TG_ABI_VERSION_1    /* oldest version this header can describe */
#define TG_ABI_VERSION_CURRENT TG_ABI_VERSION_1 /* newest version this header describes */

/* The name of the one exported symbol, for dlsym. */
#define TG_PLUGIN_QUERY_SYMBOL "tg_plugin_query"

/* The format ids that cross compile(). */
#define TG_IR_FORMAT_LOWERED_V1 "tegula.lowered.v1"     /* lowered tile IR, text */
#define TG_TARGET_FORMAT_JSON_V1 "tegula.target.json.v1" /* a target description, JSON */

#if defined(__GNUC__) || defined(__clang__)
#define TG_PLUGIN_EXPORT __attribute__((visibility("default")))
#else
#define TG_PLUGIN_EXPORT
#endif

/* ---------------------------------------------------------------------------------------- */
/* Errors                                                                                   */

typedef enum tg_status_code {
  TG_OK = 0,
  TG_ERR_INVALID_ARGUMENT = 1, /* the host passed something malformed */
  TG_ERR_UNIMPLEMENTED = 2,    /* this plugin does not provide the call */
  TG_ERR_UNSUPPORTED = 3,      /* valid, but this device cannot do it (e.g. a dtype) */
  TG_ERR_OUT_OF_MEMORY = 4,
  TG_ERR_DEVICE = 5,           /* the driver or device failed */
  TG_ERR_NOT_FOUND = 6,
  TG_ERR_COMPILE = 7,          /* code generation or the vendor compiler failed */
  TG_ERR_CORRUPT = 8,          /* bytes handed in (an executable) failed validation */
  TG_ERR_TIMEOUT = 9,
  TG_ERR_INTERNAL = 10         /* a bug in the plugin */
} tg_status_code;

/* An error made by the plugin. NULL means success. Owned by the host once returned; release
 * it with tg_plugin_api.error_destroy. */
typedef struct tg_error tg_error;

/* ---------------------------------------------------------------------------------------- */
/* Opaque handles, all made and owned by the plugin                                        */

typedef struct tg_plugin tg_plugin;         /* one initialised instance of the plugin */
typedef struct tg_device tg_device;         /* an opened device */
typedef struct tg_buffer tg_buffer;         /* device memory */
typedef struct tg_queue tg_queue;           /* an in-order stream of work on one device */
typedef struct tg_event tg_event;           /* a point in a queue */
typedef struct tg_executable tg_executable; /* a loaded kernel */

/* ---------------------------------------------------------------------------------------- */
/* Structs. Each starts with struct_size (set by whoever fills it: the writer for outputs is  */
/* the plugin, which must not write past the struct_size the host put there) and next.      */

/* The head of every extension struct chained through a next pointer. Readers skip types they
 * do not know. */
typedef struct tg_extension {
  size_t struct_size;
  const void* next;
  uint32_t type; /* an extension id; none are defined in ABI 1 */
  uint32_t reserved;
} tg_extension;

typedef enum tg_log_level {
  TG_LOG_ERROR = 0,
  TG_LOG_WARN = 1,
  TG_LOG_INFO = 2,
  TG_LOG_DEBUG = 3
} tg_log_level;

/* What the host tells a plugin at init. All pointers are valid until init returns, except
 * log/log_user, valid for the plugin lifetime. */
typedef struct tg_host_info {
  size_t struct_size;
  const void* next;
  uint32_t abi_version;     /* the negotiated ABI version */
  uint32_t reserved;
  const char* host_version; /* tegula's version, e.g. "0.1.0" */
  /* (optional, may be NULL) where the plugin may log; thread-safe. */
  void (*log)(void* log_user, tg_log_level level, const char* message);
  void* log_user;
} tg_host_info;

/* What a plugin lets the host call at once (tg_plugin_info.concurrency), as bits.
 *
 * TG_CONCURRENT_COMPILE: compile, compile_offline, executable_load, blob_release of a blob that
 * compile or compile_offline answered, and the error entries on an error one of them returned,
 * may be called from several threads at once, with each other and beside every other call
 * except shutdown and device_close of the device they name; the plugin guards whatever these share with its other entries (for example the list of
 * executables that executable_free and device_close walk). The host still serialises every
 * other call. A code generator that keeps no state between compiles, or a vendor compiler that
 * is itself thread-safe (NVRTC, a Vulkan driver's pipeline compiler), should declare it: the
 * host compiles many kernels at once (an auto-tuner's candidates, a conformance run), and
 * without it they queue behind one lock. */
#define TG_CONCURRENT_COMPILE 0x1u

/* Identity of a plugin. Filled by get_info; the strings are static (library lifetime).
 * concurrency was appended after the first release: a host passes struct_size of at least
 * TG_PLUGIN_INFO_SIZE_1 and a plugin writes only the fields that struct_size covers, answering
 * the size it filled; a host that gets an answer ending before concurrency reads 0 (every call
 * serialised). */
typedef struct tg_plugin_info {
  size_t struct_size;
  const void* next;
  const char* name;        /* short, [a-z0-9_]+: names its devices "<name>:<index>" */
  const char* vendor;
  const char* version;     /* the plugin's own version, e.g. "1.4.0" (part of cache keys) */
  const char* description; /* one line */
  uint32_t concurrency;    /* TG_CONCURRENT_* bits; unknown bits are ignored (appended) */
  uint32_t reserved;       /* 0 */
} tg_plugin_info;

/* The size of tg_plugin_info before concurrency was appended. */
#define TG_PLUGIN_INFO_SIZE_1 offsetof(tg_plugin_info, concurrency)

/* What kind of device: hosts pick accelerators first, then CPUs, then software models. */
typedef enum tg_device_type {
  TG_DEVICE_TYPE_UNKNOWN = 0,
  TG_DEVICE_TYPE_GPU = 1,      /* an accelerator: GPU, NPU, ... */
  TG_DEVICE_TYPE_CPU = 2,      /* runs on the host's cores (a JIT, a CPU Vulkan driver) */
  TG_DEVICE_TYPE_REFERENCE = 3 /* a model for checking, not for speed */
} tg_device_type;

/* What a device does when a kernel accesses an element outside its tensor (an erroneous
 * program: a store or load past a tensor's extent, which the reference model refuses). */
typedef enum tg_out_of_range {
  TG_OUT_OF_RANGE_UNDECLARED = 0, /* the plugin does not say (one built before this field) */
  TG_OUT_OF_RANGE_DETECTED = 1,   /* the launch, or the synchronize after it, fails with an error */
  TG_OUT_OF_RANGE_SILENT = 2,     /* memory-safe but silent: stores outside are dropped, loads
                                     outside read 0, and the launch succeeds */
  TG_OUT_OF_RANGE_UNDEFINED = 3   /* anything: other memory may be read or written, the device
                                     may fault */
} tg_out_of_range;

/* One device. Filled by device_properties; strings valid for the plugin lifetime.
 * out_of_range was appended after the first release: a host passes struct_size of at least
 * TG_DEVICE_PROPERTIES_SIZE_1 and a plugin writes only the fields that struct_size covers,
 * answering the size it filled; a host that gets an answer ending before out_of_range reads
 * TG_OUT_OF_RANGE_UNDECLARED. */
typedef struct tg_device_properties {
  size_t struct_size;
  const void* next;
  const char* name;            /* e.g. "NVIDIA H200" */
  const char* vendor;          /* e.g. "NVIDIA" */
  const char* target;          /* the target description's name, e.g. "sm_90a" */
  const char* driver_version;  /* "" when none */
  const char* toolkit_version; /* "" when none */
  uint64_t memory_bytes;       /* device memory, 0 if unknown */
  uint32_t compute_units;      /* SMs, CUs, cores; 0 if unknown */
  uint32_t device_type;        /* tg_device_type; hosts prefer accelerators by default */
  uint32_t out_of_range;       /* tg_out_of_range: what the device does with accesses outside a
                                  tensor (appended; see above) */
} tg_device_properties;

/* The size of tg_device_properties before out_of_range was appended. */
#define TG_DEVICE_PROPERTIES_SIZE_1 offsetof(tg_device_properties, out_of_range)

/* A target description handed over by the plugin (how a new accelerator describes itself).
 * data is valid for the plugin lifetime. */
typedef struct tg_target_description {
  size_t struct_size;
  const void* next;
  const char* format; /* TG_TARGET_FORMAT_JSON_V1 */
  const char* data;   /* UTF-8 JSON text, not necessarily NUL-terminated */
  size_t size;
} tg_target_description;

/* What to compile. All pointers valid until compile returns. */
typedef struct tg_compile_request {
  size_t struct_size;
  const void* next;
  const char* ir_format; /* TG_IR_FORMAT_LOWERED_V1 */
  const void* ir_data;
  size_t ir_size;
  const char* options; /* NUL-terminated "key=value" lines; "" for none */
} tg_compile_request;

/* Bytes owned by the plugin, e.g. a compiled executable. Valid until blob_release. */
typedef struct tg_blob {
  size_t struct_size;
  const void* next;
  const void* data;
  size_t size;
  void* opaque; /* the plugin's own bookkeeping; the host never touches it */
} tg_blob;

typedef enum tg_arg_kind {
  TG_ARG_BUFFER = 0, /* buffer + offset: a tensor parameter */
  TG_ARG_I64 = 1,    /* an integer scalar or a shape symbol */
  TG_ARG_F64 = 2     /* a floating-point scalar (the plugin converts to the parameter's dtype) */
} tg_arg_kind;

/* One kernel argument, in the order of the kernel's launch signature: tensor and scalar
 * parameters in declaration order, then the shape symbols in order of first appearance. */
typedef struct tg_launch_arg {
  size_t struct_size;
  const void* next;
  uint32_t kind; /* tg_arg_kind */
  uint32_t reserved;
  tg_buffer* buffer;
  uint64_t offset; /* bytes, for TG_ARG_BUFFER */
  int64_t i64;
  double f64;
} tg_launch_arg;

/* A launch. Pointers valid until launch returns (the plugin copies what it keeps). */
typedef struct tg_launch_params {
  size_t struct_size;
  const void* next;
  uint32_t grid[3]; /* blocks along x, y, z; each >= 1 */
  uint32_t reserved;
  const tg_launch_arg* args;
  size_t arg_count;
} tg_launch_params;

/* ---------------------------------------------------------------------------------------- */
/* The function table. Version 1 holds everything up to executable_describe.                */

typedef struct tg_plugin_api {
  size_t struct_size;
  const void* next;
  uint32_t abi_version; /* the version this table was negotiated at */
  uint32_t reserved;

  /* Errors. error_message's string is valid until error_destroy. */
  tg_status_code (*error_code)(const tg_error* error);
  const char* (*error_message)(const tg_error* error);
  void (*error_destroy)(tg_error* error);

  /* Identity; callable before init. */
  tg_error* (*get_info)(tg_plugin_info* out_info);

  /* Lifecycle. At most one instance per loaded library is alive at a time, but init may be
   * called again after shutdown returned: the host does not unload a library whose init
   * succeeded (unless its manifest says "allow_unload": true), so a process that opens and
   * closes tegula twice initialises the same loaded library twice, without its static
   * initialisers running in between. shutdown frees everything the instance made (devices,
   * buffers, queues, executables) that the host has not freed, and stops its threads. */
  tg_error* (*init)(const tg_host_info* host, tg_plugin** out_plugin);
  void (*shutdown)(tg_plugin* plugin);

  /* Devices. A plugin that finds no hardware reports 0 devices; that is not an error. */
  tg_error* (*device_count)(tg_plugin* plugin, uint32_t* out_count);
  tg_error* (*device_properties)(tg_plugin* plugin, uint32_t index,
                                 tg_device_properties* out_properties);
  /* (optional) The device's own target description. When NULL, or when it answers
   * TG_ERR_UNIMPLEMENTED, the host uses its built-in description named by
   * tg_device_properties.target. */
  tg_error* (*device_target)(tg_plugin* plugin, uint32_t index, tg_target_description* out_target);
  tg_error* (*device_open)(tg_plugin* plugin, uint32_t index, tg_device** out_device);
  void (*device_close)(tg_device* device);

  /* Queues: in-order; work runs asynchronously until queue_synchronize. */
  tg_error* (*queue_create)(tg_device* device, tg_queue** out_queue);
  void (*queue_destroy)(tg_queue* queue);
  tg_error* (*queue_synchronize)(tg_queue* queue);

  /* Memory. buffer_alloc of size 0 is valid. copy_h2d has finished reading src when it
   * returns; copy_d2h has written dst once queue_synchronize returns. Ranges outside a buffer
   * are TG_ERR_INVALID_ARGUMENT. */
  tg_error* (*buffer_alloc)(tg_device* device, uint64_t size, tg_buffer** out_buffer);
  void (*buffer_free)(tg_buffer* buffer);
  tg_error* (*copy_h2d)(tg_queue* queue, tg_buffer* dst, uint64_t dst_offset, const void* src,
                        uint64_t size);
  tg_error* (*copy_d2h)(tg_queue* queue, void* dst, tg_buffer* src, uint64_t src_offset,
                        uint64_t size);
  tg_error* (*copy_d2d)(tg_queue* queue, tg_buffer* dst, uint64_t dst_offset, tg_buffer* src,
                        uint64_t src_offset, uint64_t size);
  /* Fill [offset, offset+size) with a repeated pattern of 1, 2, 4 or 8 bytes; size must be a
   * multiple of pattern_size. */
  tg_error* (*buffer_fill)(tg_queue* queue, tg_buffer* buffer, uint64_t offset, uint64_t size,
                           const void* pattern, uint32_t pattern_size);

  /* Compile lowered IR into an executable blob that the host may store and later hand back to
   * executable_load, in this or another process, on a device with the same target. */
  tg_error* (*compile)(tg_device* device, const tg_compile_request* request, tg_blob* out_blob);
  void (*blob_release)(tg_blob* blob);
  /* data is copied or parsed before the call returns. Bytes that fail validation are
   * TG_ERR_CORRUPT. */
  tg_error* (*executable_load)(tg_device* device, const void* data, size_t size,
                               tg_executable** out_executable);
  void (*executable_free)(tg_executable* executable);
  tg_error* (*launch)(tg_queue* queue, tg_executable* executable, const tg_launch_params* params);

  /* Events. */
  tg_error* (*event_create)(tg_device* device, tg_event** out_event);
  void (*event_destroy)(tg_event* event);
  tg_error* (*event_record)(tg_queue* queue, tg_event* event);
  tg_error* (*event_synchronize)(tg_event* event);
  /* (optional) milliseconds between two recorded, completed events. */
  tg_error* (*event_elapsed_ms)(tg_event* start, tg_event* end, double* out_ms);

  /* (optional) Compile for a target with no device present (cross-compilation: code
   * generation checked on a machine without the hardware). `target` is a description the
   * host resolved (its data is valid until the call returns). The blob is what compile
   * would return on a device of that target. */
  tg_error* (*compile_offline)(tg_plugin* plugin, const tg_target_description* target,
                               const tg_compile_request* request, tg_blob* out_blob);
  /* (optional) A human-readable form of an executable blob (PTX, SPIR-V assembly, LLVM IR,
   * ...), so tools can check which instructions were emitted. Released with blob_release. */
  tg_error* (*executable_describe)(tg_plugin* plugin, const void* data, size_t size,
                                   tg_blob* out_text);
} tg_plugin_api;

/* ---------------------------------------------------------------------------------------- */
/* The exported entry point.                                                                */

/* The host speaks ABI versions host_min_abi..host_max_abi. The plugin returns its function
 * table for one version v in that range that it also speaks (normally the highest), with
 * abi_version = v and struct_size covering at least every required entry of version v;
 * optional entries past struct_size count as NULL (absent). To refuse, it returns
 * NULL and may point *out_refusal at a static string saying why. The table is static: valid
 * for the library lifetime. This function must not allocate or start threads. */
typedef const tg_plugin_api* (*tg_plugin_query_fn)(uint32_t host_min_abi, uint32_t host_max_abi,
                                                   const char** out_refusal);

TG_PLUGIN_EXPORT const tg_plugin_api* tg_plugin_query(uint32_t host_min_abi,
                                                      uint32_t host_max_abi,
                                                      const char** out_refusal);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* TEGULA_PLUGIN_H_ */
