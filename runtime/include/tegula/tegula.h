/*
 * tegula.h: the tegula runtime's public C API.
 *
 * Open a runtime (which finds and loads the backend plugins), pick a device, move bytes,
 * compile kernels written in the tile IR and launch them:
 *
 *   tegula_runtime* rt = NULL;
 *   tegula_error* err = tegula_runtime_open(NULL, &rt);           // NULL options: defaults
 *   tegula_device* dev = NULL;
 *   if (!err) err = tegula_device_find(rt, "reference", &dev);    // or "cuda:1", ...
 *   tegula_kernel* k = NULL;
 *   if (!err) err = tegula_kernel_compile(dev, ir_text, strlen(ir_text), NULL, &k);
 *   ...
 *   if (err) { fprintf(stderr, "%s\n", tegula_error_message(err)); tegula_error_free(err); }
 *   tegula_runtime_close(rt);
 *
 * Conventions:
 *  - Fallible calls return a tegula_error*; NULL means success. An error is owned by the
 *    caller and released with tegula_error_free. Out-parameters are written on success only.
 *  - Structs passed in or out start with struct_size: set it to sizeof the struct (the
 *    *_init helpers do), so a newer library can read an older caller's struct and the
 *    reverse. Fields are only ever appended.
 *  - Objects belong to the runtime that made them: tegula_runtime_close frees every device,
 *    buffer and kernel still alive, and their handles become invalid.
 *  - Thread safety: a runtime may be used from several threads; calls that reach the same
 *    plugin are serialised.
 *  - Environment (all ignored in setuid/setgid processes): TEGULA_PLUGINS, TEGULA_ADD_PLUGINS,
 *    TEGULA_SELECT_PLUGINS, TEGULA_DISABLE_PLUGINS, TEGULA_LOADER_DEBUG, TEGULA_CACHE_DIR,
 *    XDG_DATA_HOME, XDG_DATA_DIRS, XDG_CACHE_HOME; see tegula_runtime_open.
 *
 * This header is plain C11 (and C++); the names start with tegula_ (the plugin ABI's, in
 * plugins/abi/tegula_plugin.h, start with tg_).
 */
#ifndef TEGULA_TEGULA_H_
#define TEGULA_TEGULA_H_

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define TEGULA_VERSION_MAJOR 0
#define TEGULA_VERSION_MINOR 1
#define TEGULA_VERSION_PATCH 0

/* The version of the library actually linked, e.g. "0.1.0". */
const char* tegula_version(void);

/* ---------------------------------------------------------------------------------------- */
/* Errors                                                                                   */

/* The same codes, in the same order, as tegula::ErrorCode (core/Status.h). */
typedef enum tegula_error_code {
  TEGULA_OK = 0,
  TEGULA_ERROR_INVALID_ARGUMENT = 1, /* a bad value passed by the caller */
  TEGULA_ERROR_PARSE = 2,            /* malformed text (IR, JSON, manifest) */
  TEGULA_ERROR_VERIFY = 3,           /* well-formed IR that breaks a rule of the IR */
  TEGULA_ERROR_NOT_FOUND = 4,        /* a named thing does not exist (e.g. a device) */
  TEGULA_ERROR_UNIMPLEMENTED = 5,    /* the plugin does not provide the call */
  TEGULA_ERROR_UNSUPPORTED = 6,      /* valid, but this device cannot do it */
  TEGULA_ERROR_OUT_OF_RANGE = 7,     /* an index or size outside its bounds */
  TEGULA_ERROR_CORRUPT = 8,          /* stored data failed its integrity check */
  TEGULA_ERROR_IO = 9,               /* a file or OS call failed */
  TEGULA_ERROR_DEVICE = 10,          /* a device or driver call failed */
  TEGULA_ERROR_PLUGIN = 11,          /* a plugin misbehaved */
  TEGULA_ERROR_TIMEOUT = 12,
  TEGULA_ERROR_INTERNAL = 13,        /* a bug in tegula */
  /* Appended after the first release: host or device memory ran out (a plugin's
   * TG_ERR_OUT_OF_MEMORY, an allocation in the runtime). Earlier releases reported these
   * as TEGULA_ERROR_DEVICE. */
  TEGULA_ERROR_OUT_OF_MEMORY = 14
} tegula_error_code;

typedef struct tegula_error tegula_error;

tegula_error_code tegula_error_get_code(const tegula_error* error); /* TEGULA_OK for NULL */
/* Valid until tegula_error_free; "" for NULL. */
const char* tegula_error_message(const tegula_error* error);

/* Appended after the first release. Where in the IR text an error is (a parse, verify or
 * lowering error of tegula_kernel_compile), named by the compile options' source_name.
 * tegula_error_message already begins with "file:line:column: " for such errors; this gives
 * the parts. Returns 1 and fills *out (no further than out->struct_size) when the error has
 * a location; returns 0 otherwise (out->line and out->column are then 0, out->message the
 * message). Strings are valid until tegula_error_free. */
typedef struct tegula_error_location {
  size_t struct_size;
  const char* file;
  uint32_t line;   /* from 1 */
  uint32_t column; /* from 1 */
  const char* message; /* without the location */
} tegula_error_location;

int tegula_error_get_location(const tegula_error* error, tegula_error_location* out);
void tegula_error_free(tegula_error* error); /* NULL is fine */
/* A short name for a code: "not found", ... */
const char* tegula_error_code_name(tegula_error_code code);

/* ---------------------------------------------------------------------------------------- */
/* Runtime                                                                                  */

typedef struct tegula_runtime tegula_runtime;
typedef struct tegula_device tegula_device;
typedef struct tegula_buffer tegula_buffer;
typedef struct tegula_kernel tegula_kernel;

typedef enum tegula_log_level {
  TEGULA_LOG_ERROR = 0,
  TEGULA_LOG_WARN = 1, /* a plugin or device was skipped, and why */
  TEGULA_LOG_INFO = 2,
  TEGULA_LOG_DEBUG = 3 /* every path searched, every manifest read */
} tegula_log_level;

/* Receives the loader's log (and the plugins' log lines), whatever TEGULA_LOADER_DEBUG says.
 * May be called from any thread, from several at once (kernels compile side by side), while
 * a tegula call is in progress. */
typedef void (*tegula_log_fn)(void* user, int level, const char* message);

#define TEGULA_RUNTIME_IGNORE_ENVIRONMENT 0x1u /* read no environment variable at all */

typedef struct tegula_runtime_options {
  size_t struct_size;
  /* Manifest files or folders of manifests to load instead of searching (like
   * TEGULA_PLUGINS, which this overrides); used when manifest_path_count > 0 or
   * use_manifest_paths is non-zero (an empty explicit list then loads nothing). */
  const char* const* manifest_paths;
  size_t manifest_path_count;
  int use_manifest_paths;
  /* Comma-separated fnmatch globs over plugin names, applied together with
   * TEGULA_SELECT_PLUGINS / TEGULA_DISABLE_PLUGINS: a plugin loads if it matches every select
   * list and no disable list. NULL for none. */
  const char* select_plugins;
  const char* disable_plugins;
  /* The compile cache folder; "off" disables the cache. NULL: TEGULA_CACHE_DIR, else
   * $XDG_CACHE_HOME/tegula, else ~/.cache/tegula. */
  const char* cache_dir;
  tegula_log_fn log;
  void* log_user;
  uint32_t flags; /* TEGULA_RUNTIME_* */
  uint32_t reserved;
} tegula_runtime_options;

void tegula_runtime_options_init(tegula_runtime_options* options);

/* Find the plugins (see runtime/SearchPath.h for the search order), load them and list
 * their devices. A plugin that cannot be loaded is skipped, never fatal: see
 * tegula_runtime_skipped_count. options may be NULL. */
tegula_error* tegula_runtime_open(const tegula_runtime_options* options, tegula_runtime** out_runtime);
/* Frees everything the runtime made. NULL is fine. */
void tegula_runtime_close(tegula_runtime* runtime);

typedef struct tegula_plugin_info {
  size_t struct_size;
  const char* name; /* strings valid until tegula_runtime_close */
  const char* vendor;
  const char* version;
  const char* description;
  const char* library_path;
  const char* manifest_path;
  uint32_t abi_version; /* negotiated */
  uint32_t device_count;
  /* 1 when the plugin declared TG_CONCURRENT_COMPILE: its compiles and loads run side by
   * side, not one at a time (appended: a caller's smaller struct_size leaves it out). */
  uint32_t concurrent_compile;
} tegula_plugin_info;

size_t tegula_runtime_plugin_count(const tegula_runtime* runtime);
tegula_error* tegula_runtime_get_plugin(const tegula_runtime* runtime, size_t index, tegula_plugin_info* out_info);

/* Plugins and devices that were passed over, and why. */
typedef struct tegula_skipped_info {
  size_t struct_size;
  const char* source; /* the manifest file, or "<plugin>:<index>" for a device */
  const char* plugin; /* "" when the manifest could not be read */
  const char* reason;
} tegula_skipped_info;

size_t tegula_runtime_skipped_count(const tegula_runtime* runtime);
tegula_error* tegula_runtime_get_skipped(const tegula_runtime* runtime, size_t index, tegula_skipped_info* out_info);

typedef struct tegula_runtime_stats {
  size_t struct_size;
  uint64_t plugin_compiles;  /* calls to a plugin's compile */
  uint64_t cache_hits;       /* kernels loaded from the compile cache */
  uint64_t cache_misses;
  uint64_t cache_rejected;   /* entries found corrupt (or refused by the plugin) and rebuilt */
  /* Appended after the first release: IR texts parsed and verified, and lowerings, to
   * compile kernels and variants. A cache hit does neither: the entry holds the launch
   * signature beside the executable. */
  uint64_t ir_parses;
  uint64_t ir_lowerings;
} tegula_runtime_stats;

tegula_error* tegula_runtime_get_stats(const tegula_runtime* runtime, tegula_runtime_stats* out_stats);
/* The compile cache folder in use, or NULL when caching is off. */
const char* tegula_runtime_cache_dir(const tegula_runtime* runtime);

/* ---------------------------------------------------------------------------------------- */
/* Tools: offline compilation and executable inspection, through a plugin's optional       */
/* compile_offline and executable_describe entries (for conformance and code inspection)   */

/* Bytes owned by the caller. */
typedef struct tegula_blob tegula_blob;
const void* tegula_blob_data(const tegula_blob* blob);
size_t tegula_blob_size(const tegula_blob* blob);
void tegula_blob_free(tegula_blob* blob); /* NULL is fine */

/* Compile tile IR for `target` (a built-in description's name, or a description as JSON text
 * starting with '{') with no device of that target present. The IR is parsed, verified and
 * lowered for the target as tegula_kernel_compile would; *out_executable holds the bytes the
 * plugin's compile would give on such a device. plugin_options: "key=value" lines, or NULL.
 * TEGULA_ERROR_UNIMPLEMENTED when the plugin has no compile_offline; the plugin's own error
 * (often TEGULA_ERROR_UNSUPPORTED) when it cannot compile for that target. */
tegula_error* tegula_plugin_compile_offline(tegula_runtime* runtime, const char* plugin, const char* target,
                                            const char* ir_text, size_t ir_size, const char* plugin_options,
                                            tegula_blob** out_executable);
/* A readable form (PTX, SPIR-V assembly, LLVM IR, ...) of executable bytes the plugin made.
 * TEGULA_ERROR_UNIMPLEMENTED when the plugin has no executable_describe. */
tegula_error* tegula_plugin_describe_executable(tegula_runtime* runtime, const char* plugin, const void* data,
                                                size_t size, tegula_blob** out_text);

/* ---------------------------------------------------------------------------------------- */
/* Devices, named "<plugin>:<index>", sorted by plugin name then index                      */

size_t tegula_device_count(const tegula_runtime* runtime);
/* NULL when index >= tegula_device_count. */
tegula_device* tegula_device_get(tegula_runtime* runtime, size_t index);
/* "cuda:1", or "cuda" for that plugin's first device. TEGULA_ERROR_NOT_FOUND lists the
 * devices there are. */
tegula_error* tegula_device_find(tegula_runtime* runtime, const char* name, tegula_device** out_device);

/* What kind of device (the plugin says): tools pick accelerators first, then CPUs, then
 * software models, unless told otherwise. */
typedef enum tegula_device_type {
  TEGULA_DEVICE_TYPE_UNKNOWN = 0,
  TEGULA_DEVICE_TYPE_GPU = 1,
  TEGULA_DEVICE_TYPE_CPU = 2,
  TEGULA_DEVICE_TYPE_REFERENCE = 3
} tegula_device_type;

/* What the device does when a kernel accesses an element outside its tensor (an erroneous
 * program), as its plugin declares it (tg_out_of_range in the plugin ABI). */
typedef enum tegula_out_of_range {
  TEGULA_OUT_OF_RANGE_UNDECLARED = 0, /* the plugin does not say */
  TEGULA_OUT_OF_RANGE_DETECTED = 1,   /* the launch or the next synchronize fails with an error */
  TEGULA_OUT_OF_RANGE_SILENT = 2,     /* memory-safe but silent: stores outside are dropped,
                                         loads outside read 0 */
  TEGULA_OUT_OF_RANGE_UNDEFINED = 3   /* anything may happen, to other memory too */
} tegula_out_of_range;

typedef struct tegula_device_info {
  size_t struct_size;
  const char* name; /* "cuda:0"; strings valid until tegula_runtime_close */
  const char* plugin;
  const char* plugin_version;
  const char* target; /* the target description's name */
  const char* device_name;
  const char* vendor;
  const char* driver_version;  /* "" when none */
  const char* toolkit_version; /* "" when none */
  uint64_t memory_bytes;       /* 0 when unknown */
  uint32_t compute_units;      /* 0 when unknown */
  uint32_t device_type;        /* tegula_device_type */
  uint32_t out_of_range;       /* tegula_out_of_range (appended: a caller's older, smaller
                                  struct does not get it) */
} tegula_device_info;

tegula_error* tegula_device_get_info(const tegula_device* device, tegula_device_info* out_info);

/* The device's target description as canonical JSON (tegula.target.v1): the plugin's own
 * when it gives one, else the built-in description its properties name. *out_json is
 * NUL-terminated and valid until tegula_runtime_close. */
tegula_error* tegula_device_get_target(tegula_device* device, const char** out_json);

/* Wait for all work queued on the device. */
tegula_error* tegula_device_synchronize(tegula_device* device);

/* ---------------------------------------------------------------------------------------- */
/* Buffers: device memory                                                                   */

tegula_error* tegula_buffer_alloc(tegula_device* device, uint64_t size, tegula_buffer** out_buffer);
void tegula_buffer_free(tegula_buffer* buffer); /* NULL is fine */
uint64_t tegula_buffer_size(const tegula_buffer* buffer);
tegula_device* tegula_buffer_device(const tegula_buffer* buffer);

/* Host to device. src may be reused as soon as this returns. */
tegula_error* tegula_buffer_write(tegula_buffer* dst, uint64_t dst_offset, const void* src, uint64_t size);
/* Device to host; waits, so dst holds the data when this returns (after earlier work on the
 * device has finished). */
tegula_error* tegula_buffer_read(tegula_buffer* src, uint64_t src_offset, void* dst, uint64_t size);
/* Buffer to buffer, also across devices (staged through host memory). */
tegula_error* tegula_buffer_copy(tegula_buffer* dst, uint64_t dst_offset, tegula_buffer* src, uint64_t src_offset,
                                 uint64_t size);
/* Repeat a 1, 2, 4 or 8-byte pattern over [offset, offset + size); size a multiple of it. */
tegula_error* tegula_buffer_fill(tegula_buffer* buffer, uint64_t offset, uint64_t size, const void* pattern,
                                 uint32_t pattern_size);

/* ---------------------------------------------------------------------------------------- */
/* Kernels                                                                                  */

#define TEGULA_COMPILE_NO_CACHE 0x1u /* neither read nor write the compile cache */

typedef struct tegula_compile_options {
  size_t struct_size;
  const char* source_name;    /* names the IR in error messages; NULL: "<kernel>" */
  const char* plugin_options; /* "key=value" lines for the plugin; NULL or "" for none */
  uint32_t flags;             /* TEGULA_COMPILE_* */
  uint32_t reserved;
  /* Appended after the first release (struct_size says whether a caller set it): launch a 2-D grid's blocks in groups of this many
   * rows, so blocks that run together share operand tiles in L2 (ir/lower/Rasterize.cpp);
   * 0 or 1: in order. */
  uint32_t raster_group;
  /* Appended: a kernel with tunables (tune(...) in its header) compiled as the one instance
   * "NAME=V,NAME=V,..." names, every tunable once. NULL or "": each launch's shape class
   * gets the binding tegula tune recorded for it in the compile cache, else the ranking's
   * first (ranked from the device's target description, never measured at launch). */
  const char* tunables;
} tegula_compile_options;

void tegula_compile_options_init(tegula_compile_options* options);

/* Parse and verify tile IR text, lower it for the device's target and compile it through
 * the device's plugin (or load it from the compile cache). options may be NULL. */
tegula_error* tegula_kernel_compile(tegula_device* device, const char* ir_text, size_t ir_size,
                                    const tegula_compile_options* options, tegula_kernel** out_kernel);
void tegula_kernel_free(tegula_kernel* kernel); /* NULL is fine */
const char* tegula_kernel_name(const tegula_kernel* kernel);
tegula_device* tegula_kernel_device(const tegula_kernel* kernel);

typedef enum tegula_cache_result {
  TEGULA_CACHE_DISABLED = 0,
  TEGULA_CACHE_HIT = 1,
  TEGULA_CACHE_MISS = 2,    /* compiled and stored */
  TEGULA_CACHE_REBUILT = 3  /* the entry was corrupt or refused, so it was compiled again */
} tegula_cache_result;

/* How the kernel was obtained. TEGULA_CACHE_DISABLED also where nothing was compiled yet: on
 * a device whose description asks for shape specialisation, a kernel with shape symbols is
 * lowered at compile and compiled per shape at its launches (and its symbolic variant only
 * when a launch needs it). */
tegula_cache_result tegula_kernel_cache_result(const tegula_kernel* kernel);

/* The executable the most recent tegula_launch of this kernel ran, in readable form as its
 * plugin renders it (PTX, SPIR-V assembly, LLVM IR, the lowered IR for the reference
 * device), to check what code was generated. Launches specialise (see tegula_launch), so
 * this is the variant those arguments selected; before any launch (and after launches with
 * an empty grid only) it is the executable tegula_kernel_compile made. With launches on
 * several threads at once, "most recent" is whichever recorded its variant last.
 * TEGULA_ERROR_UNIMPLEMENTED when the plugin cannot. *out_text is NUL-terminated and valid
 * until tegula_kernel_free. */
tegula_error* tegula_kernel_describe(tegula_kernel* kernel, const char** out_text);

/* The launch signature: the kernel's parameters in order (tensors and scalars), then its
 * shape symbols in order of first appearance. */
size_t tegula_kernel_arg_count(const tegula_kernel* kernel);

typedef enum tegula_arg_kind {
  TEGULA_ARG_TENSOR = 0, /* a buffer and a byte offset */
  TEGULA_ARG_INT = 1,    /* an integer scalar or a shape symbol */
  TEGULA_ARG_FLOAT = 2   /* a floating-point scalar */
} tegula_arg_kind;

/* What the signature expects at `index`, and its name ("X", "N", ...; valid while the
 * kernel lives). */
tegula_error* tegula_kernel_arg(const tegula_kernel* kernel, size_t index, tegula_arg_kind* out_kind,
                                const char** out_name);

typedef struct tegula_arg {
  uint32_t kind; /* tegula_arg_kind */
  uint32_t reserved;
  tegula_buffer* buffer; /* TEGULA_ARG_TENSOR */
  uint64_t offset;       /* TEGULA_ARG_TENSOR, bytes */
  int64_t i;             /* TEGULA_ARG_INT */
  double f;              /* TEGULA_ARG_FLOAT */
} tegula_arg;

static inline tegula_arg tegula_arg_tensor(tegula_buffer* buffer, uint64_t offset) {
  tegula_arg a = {TEGULA_ARG_TENSOR, 0, buffer, offset, 0, 0.0};
  return a;
}
static inline tegula_arg tegula_arg_int(int64_t value) {
  tegula_arg a = {TEGULA_ARG_INT, 0, NULL, 0, value, 0.0};
  return a;
}
static inline tegula_arg tegula_arg_float(double value) {
  tegula_arg a = {TEGULA_ARG_FLOAT, 0, NULL, 0, 0, value};
  return a;
}

/* Queue one launch over the grid the kernel's grid expressions give for these arguments.
 * Checked first: the argument count and kinds, that every buffer belongs to the kernel's
 * device and holds the bytes its tensor needs at its offset. A float scalar parameter also
 * accepts TEGULA_ARG_INT. The launch runs a variant specialised on what its arguments
 * guarantee (each shape symbol's power-of-two divisor up to 16, and whether every tensor
 * starts 16-byte aligned), compiled on first use; tegula_kernel_describe shows it.
 * Returns once queued; tegula_device_synchronize waits. */
tegula_error* tegula_launch(tegula_kernel* kernel, const tegula_arg* args, size_t arg_count);

/* Appended after the first release: the signature in full, and launches by name.
 *
 * One argument of the launch signature (index as for tegula_kernel_arg). Fills *out no
 * further than out->struct_size; pointers are valid while the kernel lives. */
typedef struct tegula_kernel_arg_info {
  size_t struct_size;
  const char* name;         /* "A", "alpha", "M" */
  uint32_t kind;            /* tegula_arg_kind */
  uint32_t is_shape_symbol; /* 1 for the shape symbols after the parameters */
  const char* dtype;        /* the IR's dtype name: "bf16", "f32", ...; "i64" for shape symbols */
  uint32_t written;         /* 1 for a tensor the kernel writes (an output) */
  uint32_t rank;            /* tensors: the number of dimensions; else 0 */
  const int64_t* dims;      /* rank extents; -1 where a shape symbol gives the extent */
  const int64_t* dim_args;  /* rank entries: the argument index of that shape symbol, or -1 */
} tegula_kernel_arg_info;

tegula_error* tegula_kernel_get_arg_info(const tegula_kernel* kernel, size_t index, tegula_kernel_arg_info* out);

typedef struct tegula_named_arg {
  const char* name; /* a parameter's or a shape symbol's name */
  tegula_arg value;
} tegula_named_arg;

/* tegula_launch with the arguments named, in any order: every argument of the signature
 * exactly once. An unknown, repeated or missing name is TEGULA_ERROR_INVALID_ARGUMENT naming
 * it; then the launch is checked and queued as tegula_launch does. */
tegula_error* tegula_launch_named(tegula_kernel* kernel, const tegula_named_arg* args, size_t arg_count);

/* The variants a launch would compile at its first use (see tegula_launch), compiled now,
 * so serving code has no first-call stall: one per combination of the listed power-of-two
 * divisors (1, 2, 4, 8 or 16) of each shape symbol, for aligned tensors. divisors[i]
 * gives, for shape symbol i (in signature order), a bit mask: bit b set compiles for a
 * divisor of 2^b (0x1f: all five). NULL or a mask of 0 for a symbol: only the divisor 16.
 * symbol_count must be the kernel's shape-symbol count (or 0 with divisors NULL). */
tegula_error* tegula_kernel_warm_up(tegula_kernel* kernel, const uint32_t* divisors, size_t symbol_count);

/* The variant a launch at these shape-symbol values (symbol_values[i] for shape symbol i,
 * in signature order; symbol_count of them) with 16-byte-aligned tensors would run,
 * compiled now, so that launch does not stall: on a device whose description asks for
 * shape specialisation, the variant for these exact shapes (while the kernel is under its
 * 16 of them); elsewhere the variant of their divisibility class, for a kernel with
 * tunables with the class's binding. Different kernels may warm up from several threads at
 * once. A negative value or a wrong count is TEGULA_ERROR_INVALID_ARGUMENT. */
tegula_error* tegula_kernel_warm_up_shape(tegula_kernel* kernel, const int64_t* symbol_values, size_t symbol_count);

/* A kernel with tunables: the binding ("BM=128 BN=256 ...") of the variant the most recent
 * launch ran (before any launch, of the one compiled up front) and how it was chosen:
 * "given" (compile options), "measured" (recorded by tegula tune) or "ranked". Both "" for
 * a kernel without tunables. The strings live as long as the kernel. */
tegula_error* tegula_kernel_tunables(const tegula_kernel* kernel, const char** out_binding, const char** out_chosen_by);

/* Record `binding` as the measured choice (measured_ms per launch) for the shape class of
 * these launch arguments (as tegula_launch takes them; only tensor offsets and shape
 * symbols are read), in the compile cache: kernels compiled from the same text for the same
 * device and plugin build use it at their launches of that class, with no ranking. The
 * kernel must have been compiled without its tunables given. */
tegula_error* tegula_kernel_record_tuning(tegula_kernel* kernel, const tegula_arg* args, size_t arg_count,
                                          const char* binding, double measured_ms);

/* ---------------------------------------------------------------------------------------- */
/* Events: points in a device's queue, for waiting and timing                               */

typedef struct tegula_event tegula_event;

tegula_error* tegula_event_create(tegula_device* device, tegula_event** out_event);
void tegula_event_free(tegula_event* event); /* NULL is fine */
/* Mark the current end of the device's queue. */
tegula_error* tegula_event_record(tegula_event* event);
/* Wait until the work queued before the event's record has finished. */
tegula_error* tegula_event_synchronize(tegula_event* event);
/* Milliseconds between two recorded, completed events of one device. TEGULA_ERROR_UNIMPLEMENTED
 * when the device cannot time. */
tegula_error* tegula_event_elapsed_ms(const tegula_event* start, const tegula_event* end, double* out_ms);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* TEGULA_TEGULA_H_ */
