/// \file
/// tegula.hpp: a thin C++ layer over the C API (tegula.h). Handles are RAII (move-only
/// owners for buffers, kernels and the runtime; devices are borrowed from their runtime),
/// and every fallible call returns tegula::Status or tegula::Result<T> (core/Status.h).
/// Nothing throws.
///
///   auto rt = tegula::Runtime::open();
///   if (!rt) return fail(rt.status());
///   auto dev = rt->find_device("reference");
///   auto kernel = dev->compile(my_ir_kernel);        // an ir::Kernel, e.g. from KernelBuilder
///   auto x = dev->alloc(n * sizeof(float));
///   x->write(host_values);
///   kernel->launch({tegula::Arg::tensor(*x), tegula::Arg::integer(n)});
#pragma once

#include <cstdint>
#include <cstring>
#include <initializer_list>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/Status.h"
#include "ir/IR.h"
#include "ir/Printer.h"
#include "tegula/tegula.h"

namespace tegula {

/// Take ownership of a C error and turn it into a Status; an error in the IR keeps its
/// location (Status::loc(), and Status::str() reads "file:line:column: error: ...").
inline Status status_from(tegula_error* e) {
  if (!e) return Status::ok();
  tegula_error_location where;
  std::memset(&where, 0, sizeof(where));
  where.struct_size = sizeof(where);
  Status s = tegula_error_get_location(e, &where)
                 ? Status(ErrorCode(tegula_error_get_code(e)), where.message,
                          SourceLoc{where.file, int(where.line), int(where.column)})
                 : Status(ErrorCode(tegula_error_get_code(e)), tegula_error_message(e));
  tegula_error_free(e);
  return s;
}

class Buffer;
class Kernel;

/// One kernel argument, in launch-signature order.
class Arg {
public:
  static Arg tensor(const Buffer& buffer, uint64_t offset = 0);
  static Arg integer(int64_t value) { return Arg(tegula_arg_int(value)); }
  static Arg number(double value) { return Arg(tegula_arg_float(value)); }
  const tegula_arg& raw() const { return raw_; }

private:
  explicit Arg(tegula_arg raw) : raw_(raw) {}
  tegula_arg raw_;
};

struct DeviceInfo {
  std::string name;  ///< "cuda:0"
  std::string plugin;
  std::string plugin_version;
  std::string target;
  std::string device_name;
  std::string vendor;
  std::string driver_version;
  std::string toolkit_version;
  uint64_t memory_bytes = 0;
  uint32_t compute_units = 0;
  uint32_t device_type = TEGULA_DEVICE_TYPE_UNKNOWN;
  uint32_t out_of_range = TEGULA_OUT_OF_RANGE_UNDECLARED;  ///< tegula_out_of_range
};

/// "detected", "silent", "undefined" or "undeclared": a tegula_out_of_range's name.
inline const char* out_of_range_name(uint32_t v) {
  switch (v) {
    case TEGULA_OUT_OF_RANGE_DETECTED: return "detected";
    case TEGULA_OUT_OF_RANGE_SILENT: return "silent";
    case TEGULA_OUT_OF_RANGE_UNDEFINED: return "undefined";
  }
  return "undeclared";
}

struct CompileOptions {
  std::string source_name = "<kernel>";
  std::string plugin_options;  ///< "key=value" lines for the plugin
  bool use_cache = true;
  uint32_t raster_group = 0;  ///< launch 2-D grids in groups of this many block rows (0: in order)
  std::string tunables;       ///< a tunable kernel's binding "BM=128,BN=256" (empty: chosen per launch)
};

/// Device memory; freed when the Buffer goes out of scope.
class Buffer {
public:
  Buffer() = default;
  explicit Buffer(tegula_buffer* handle) : handle_(handle) {}
  Buffer(Buffer&& o) noexcept : handle_(std::exchange(o.handle_, nullptr)) {}
  Buffer& operator=(Buffer&& o) noexcept {
    if (this != &o) {
      tegula_buffer_free(handle_);
      handle_ = std::exchange(o.handle_, nullptr);
    }
    return *this;
  }
  Buffer(const Buffer&) = delete;
  Buffer& operator=(const Buffer&) = delete;
  ~Buffer() { tegula_buffer_free(handle_); }

  tegula_buffer* handle() const { return handle_; }
  uint64_t size() const { return tegula_buffer_size(handle_); }

  Status write(const void* src, uint64_t size, uint64_t offset = 0) {
    return status_from(tegula_buffer_write(handle_, offset, src, size));
  }
  template <typename T>
  Status write(const std::vector<T>& values, uint64_t offset = 0) {
    return write(values.data(), values.size() * sizeof(T), offset);
  }
  /// Waits for earlier work on the device, then copies.
  Status read(void* dst, uint64_t size, uint64_t offset = 0) const {
    return status_from(tegula_buffer_read(handle_, offset, dst, size));
  }
  /// `count` elements of T from `offset`.
  template <typename T>
  Result<std::vector<T>> read(size_t count, uint64_t offset = 0) const {
    std::vector<T> out(count);
    TG_RETURN_IF_ERROR(read(out.data(), count * sizeof(T), offset));
    return out;
  }
  Status copy_from(const Buffer& src, uint64_t size, uint64_t dst_offset = 0, uint64_t src_offset = 0) {
    return status_from(tegula_buffer_copy(handle_, dst_offset, src.handle_, src_offset, size));
  }
  template <typename T>
  Status fill(T pattern, uint64_t offset, uint64_t size) {
    static_assert(sizeof(T) == 1 || sizeof(T) == 2 || sizeof(T) == 4 || sizeof(T) == 8, "pattern of 1, 2, 4 or 8 bytes");
    return status_from(tegula_buffer_fill(handle_, offset, size, &pattern, uint32_t(sizeof(T))));
  }

private:
  tegula_buffer* handle_ = nullptr;
};

inline Arg Arg::tensor(const Buffer& buffer, uint64_t offset) { return Arg(tegula_arg_tensor(buffer.handle(), offset)); }

/// One argument of a kernel's launch signature (tegula_kernel_get_arg_info).
struct ArgInfo {
  std::string name;
  tegula_arg_kind kind = TEGULA_ARG_TENSOR;
  bool is_shape_symbol = false;
  std::string dtype;  ///< "bf16"; "i64" for shape symbols
  bool written = false;
  /// Tensors: each extent, or -1 where the shape symbol at dim_args[d] gives it.
  std::vector<int64_t> dims;
  std::vector<int64_t> dim_args;
};

/// A named launch argument: {"A", Arg::tensor(a)}, {"M", Arg::integer(m)}.
struct NamedArg {
  std::string name;
  Arg value;
};

/// A compiled kernel, loaded on one device.
class Kernel {
public:
  Kernel() = default;
  explicit Kernel(tegula_kernel* handle) : handle_(handle) {}
  Kernel(Kernel&& o) noexcept : handle_(std::exchange(o.handle_, nullptr)) {}
  Kernel& operator=(Kernel&& o) noexcept {
    if (this != &o) {
      tegula_kernel_free(handle_);
      handle_ = std::exchange(o.handle_, nullptr);
    }
    return *this;
  }
  Kernel(const Kernel&) = delete;
  Kernel& operator=(const Kernel&) = delete;
  ~Kernel() { tegula_kernel_free(handle_); }

  tegula_kernel* handle() const { return handle_; }
  std::string name() const { return tegula_kernel_name(handle_); }
  tegula_cache_result cache_result() const { return tegula_kernel_cache_result(handle_); }
  size_t arg_count() const { return tegula_kernel_arg_count(handle_); }
  /// The executable the most recent launch ran (the variant its arguments selected; before
  /// any launch, the one compiled up front) as its plugin renders it (PTX, LLVM IR, ...).
  Result<std::string> describe() const {
    const char* text = nullptr;
    TG_RETURN_IF_ERROR(status_from(tegula_kernel_describe(handle_, &text)));
    return std::string(text);
  }

  /// Queue a launch; Device::synchronize waits for it.
  Status launch(const std::vector<Arg>& args) {
    std::vector<tegula_arg> raw;
    raw.reserve(args.size());
    for (const Arg& a : args) raw.push_back(a.raw());
    return status_from(tegula_launch(handle_, raw.data(), raw.size()));
  }
  Status launch(std::initializer_list<Arg> args) { return launch(std::vector<Arg>(args)); }

  /// The launch signature in order: parameters, then shape symbols.
  Result<std::vector<ArgInfo>> signature() const {
    std::vector<ArgInfo> out;
    for (size_t i = 0; i < arg_count(); ++i) {
      tegula_kernel_arg_info a;
      std::memset(&a, 0, sizeof(a));
      a.struct_size = sizeof(a);
      TG_RETURN_IF_ERROR(status_from(tegula_kernel_get_arg_info(handle_, i, &a)));
      ArgInfo info{a.name, tegula_arg_kind(a.kind), a.is_shape_symbol != 0, a.dtype, a.written != 0, {}, {}};
      info.dims.assign(a.dims, a.dims + a.rank);
      info.dim_args.assign(a.dim_args, a.dim_args + a.rank);
      out.push_back(std::move(info));
    }
    return out;
  }
  /// Launch with every argument named, in any order (tegula_launch_named).
  Status launch(const std::vector<NamedArg>& args) {
    std::vector<tegula_named_arg> raw;
    raw.reserve(args.size());
    for (const NamedArg& a : args) raw.push_back({a.name.c_str(), a.value.raw()});
    return status_from(tegula_launch_named(handle_, raw.data(), raw.size()));
  }
  Status launch(std::initializer_list<NamedArg> args) { return launch(std::vector<NamedArg>(args)); }
  /// Compile the variants launches would compile at first use (tegula_kernel_warm_up): for
  /// each shape symbol a mask of the power-of-two divisors to cover (bit b: 2^b); empty:
  /// divisor 16 for every symbol.
  Status warm_up(const std::vector<uint32_t>& divisor_masks = {}) {
    return status_from(tegula_kernel_warm_up(handle_, divisor_masks.empty() ? nullptr : divisor_masks.data(),
                                             divisor_masks.size()));
  }
  /// Compile the variant a launch at these shape-symbol values (signature order) would run
  /// (tegula_kernel_warm_up_shape): on a specialising device, the one for these exact shapes.
  Status warm_up_shape(const std::vector<int64_t>& symbol_values) {
    return status_from(tegula_kernel_warm_up_shape(handle_, symbol_values.data(), symbol_values.size()));
  }

  /// A tunable kernel's binding for the most recent launch and how it was chosen
  /// (tegula_kernel_tunables); both empty for other kernels.
  Result<std::pair<std::string, std::string>> tunables() const {
    const char* binding = nullptr;
    const char* by = nullptr;
    TG_RETURN_IF_ERROR(status_from(tegula_kernel_tunables(handle_, &binding, &by)));
    return std::make_pair(std::string(binding), std::string(by));
  }
  /// Record a measured binding for the shape class of `args` (tegula_kernel_record_tuning).
  Status record_tuning(const std::vector<Arg>& args, const std::string& binding, double measured_ms) {
    std::vector<tegula_arg> raw;
    for (const Arg& a : args) raw.push_back(a.raw());
    return status_from(tegula_kernel_record_tuning(handle_, raw.data(), raw.size(), binding.c_str(), measured_ms));
  }

private:
  tegula_kernel* handle_ = nullptr;
};

/// A point in a device's queue, for waiting and timing.
class Event {
public:
  Event() = default;
  explicit Event(tegula_event* handle) : handle_(handle) {}
  Event(Event&& o) noexcept : handle_(std::exchange(o.handle_, nullptr)) {}
  Event& operator=(Event&& o) noexcept {
    if (this != &o) {
      tegula_event_free(handle_);
      handle_ = std::exchange(o.handle_, nullptr);
    }
    return *this;
  }
  Event(const Event&) = delete;
  Event& operator=(const Event&) = delete;
  ~Event() { tegula_event_free(handle_); }

  tegula_event* handle() const { return handle_; }
  Status record() { return status_from(tegula_event_record(handle_)); }
  Status synchronize() { return status_from(tegula_event_synchronize(handle_)); }
  /// Milliseconds from `start` to `end`, both recorded and complete.
  static Result<double> elapsed_ms(const Event& start, const Event& end) {
    double ms = 0;
    TG_RETURN_IF_ERROR(status_from(tegula_event_elapsed_ms(start.handle_, end.handle_, &ms)));
    return ms;
  }

private:
  tegula_event* handle_ = nullptr;
};

/// A device, borrowed from its Runtime (valid while the Runtime is open).
class Device {
public:
  Device() = default;
  explicit Device(tegula_device* handle) : handle_(handle) {}
  tegula_device* handle() const { return handle_; }

  Result<DeviceInfo> info() const {
    tegula_device_info i;
    std::memset(&i, 0, sizeof(i));
    i.struct_size = sizeof(i);
    TG_RETURN_IF_ERROR(status_from(tegula_device_get_info(handle_, &i)));
    return DeviceInfo{i.name,        i.plugin, i.plugin_version,  i.target,       i.device_name,
                      i.vendor,      i.driver_version, i.toolkit_version, i.memory_bytes, i.compute_units,
                      i.device_type, i.out_of_range};
  }
  /// The device's target description as canonical JSON.
  Result<std::string> target_json() const {
    const char* json = nullptr;
    TG_RETURN_IF_ERROR(status_from(tegula_device_get_target(handle_, &json)));
    return std::string(json);
  }
  Result<Buffer> alloc(uint64_t size) const {
    tegula_buffer* b = nullptr;
    TG_RETURN_IF_ERROR(status_from(tegula_buffer_alloc(handle_, size, &b)));
    return Buffer(b);
  }
  Result<Kernel> compile(std::string_view ir_text, const CompileOptions& options = {}) const {
    tegula_compile_options o;
    tegula_compile_options_init(&o);
    o.source_name = options.source_name.c_str();
    o.plugin_options = options.plugin_options.c_str();
    o.flags = options.use_cache ? 0 : TEGULA_COMPILE_NO_CACHE;
    o.raster_group = options.raster_group;
    o.tunables = options.tunables.c_str();
    tegula_kernel* k = nullptr;
    TG_RETURN_IF_ERROR(status_from(tegula_kernel_compile(handle_, ir_text.data(), ir_text.size(), &o, &k)));
    return Kernel(k);
  }
  /// A kernel built in C++ (e.g. with ir::KernelBuilder): printed as IR text, which the
  /// parser reads back to the same kernel, and compiled like any other.
  Result<Kernel> compile(const ir::Kernel& kernel, const CompileOptions& options = {}) const {
    CompileOptions o = options;
    if (o.source_name == "<kernel>") o.source_name = "<" + kernel.name + ">";
    return compile(ir::print_kernel(kernel), o);
  }
  Status synchronize() const { return status_from(tegula_device_synchronize(handle_)); }
  Result<Event> create_event() const {
    tegula_event* e = nullptr;
    TG_RETURN_IF_ERROR(status_from(tegula_event_create(handle_, &e)));
    return Event(e);
  }

private:
  tegula_device* handle_ = nullptr;
};

struct RuntimeOptions {
  /// Manifest files or folders to load instead of searching (see tegula_runtime_options).
  std::optional<std::vector<std::string>> manifest_paths;
  std::string select_plugins;   ///< comma-separated globs; "" for none
  std::string disable_plugins;  ///< comma-separated globs; "" for none
  std::optional<std::string> cache_dir;  ///< "off" disables the cache
  bool ignore_environment = false;
  tegula_log_fn log = nullptr;
  void* log_user = nullptr;
};

struct Skipped {
  std::string source;
  std::string plugin;
  std::string reason;
};

class Runtime {
public:
  static Result<Runtime> open(const RuntimeOptions& options = {}) {
    tegula_runtime_options o;
    tegula_runtime_options_init(&o);
    std::vector<const char*> paths;
    if (options.manifest_paths) {
      for (const std::string& p : *options.manifest_paths) paths.push_back(p.c_str());
      o.manifest_paths = paths.data();
      o.manifest_path_count = paths.size();
      o.use_manifest_paths = 1;
    }
    if (!options.select_plugins.empty()) o.select_plugins = options.select_plugins.c_str();
    if (!options.disable_plugins.empty()) o.disable_plugins = options.disable_plugins.c_str();
    if (options.cache_dir) o.cache_dir = options.cache_dir->c_str();
    if (options.ignore_environment) o.flags |= TEGULA_RUNTIME_IGNORE_ENVIRONMENT;
    o.log = options.log;
    o.log_user = options.log_user;
    tegula_runtime* rt = nullptr;
    TG_RETURN_IF_ERROR(status_from(tegula_runtime_open(&o, &rt)));
    return Runtime(rt);
  }

  Runtime() = default;
  explicit Runtime(tegula_runtime* handle) : handle_(handle) {}
  Runtime(Runtime&& o) noexcept : handle_(std::exchange(o.handle_, nullptr)) {}
  Runtime& operator=(Runtime&& o) noexcept {
    if (this != &o) {
      tegula_runtime_close(handle_);
      handle_ = std::exchange(o.handle_, nullptr);
    }
    return *this;
  }
  Runtime(const Runtime&) = delete;
  Runtime& operator=(const Runtime&) = delete;
  /// Frees every buffer and kernel the runtime made: destroy those first.
  ~Runtime() { tegula_runtime_close(handle_); }

  tegula_runtime* handle() const { return handle_; }

  std::vector<Device> devices() const {
    std::vector<Device> out;
    for (size_t i = 0; i < tegula_device_count(handle_); ++i) out.emplace_back(tegula_device_get(handle_, i));
    return out;
  }
  /// The device tools use when none is named: the first accelerator, else the first device
  /// of unknown kind, else the first CPU device, else the reference model.
  Result<Device> default_device() const {
    const int rank[] = {/*unknown*/ 1, /*gpu*/ 0, /*cpu*/ 2, /*reference*/ 3};
    std::vector<Device> all = devices();
    int best = -1, best_rank = 99;
    for (size_t i = 0; i < all.size(); ++i) {
      auto info = all[i].info();
      int r = info.is_ok() && info->device_type <= 3 ? rank[info->device_type] : 1;
      if (r < best_rank) {
        best = int(i);
        best_rank = r;
      }
    }
    if (best < 0) return error(ErrorCode::NotFound, "no devices (no plugin loaded one; TEGULA_LOADER_DEBUG=1 shows why)");
    return all[size_t(best)];
  }
  /// "cuda:1", or "cuda" for its first device.
  Result<Device> find_device(const std::string& name) const {
    tegula_device* d = nullptr;
    TG_RETURN_IF_ERROR(status_from(tegula_device_find(handle_, name.c_str(), &d)));
    return Device(d);
  }
  std::vector<Skipped> skipped() const {
    std::vector<Skipped> out;
    for (size_t i = 0; i < tegula_runtime_skipped_count(handle_); ++i) {
      tegula_skipped_info s;
      std::memset(&s, 0, sizeof(s));
      s.struct_size = sizeof(s);
      if (tegula_error* e = tegula_runtime_get_skipped(handle_, i, &s)) {
        tegula_error_free(e);
        continue;
      }
      out.push_back({s.source, s.plugin, s.reason});
    }
    return out;
  }
  tegula_runtime_stats stats() const {
    tegula_runtime_stats s;
    std::memset(&s, 0, sizeof(s));
    s.struct_size = sizeof(s);
    tegula_error_free(tegula_runtime_get_stats(handle_, &s));
    return s;
  }
  /// Compile IR for a target with no device present (see tegula_plugin_compile_offline):
  /// the executable bytes `plugin` would produce on a device of `target`, a built-in
  /// description's name or a description as JSON.
  Result<std::string> compile_offline(const std::string& plugin, const std::string& target, std::string_view ir_text,
                                      const std::string& plugin_options = "") const {
    tegula_blob* blob = nullptr;
    TG_RETURN_IF_ERROR(status_from(tegula_plugin_compile_offline(handle_, plugin.c_str(), target.c_str(), ir_text.data(),
                                                                 ir_text.size(), plugin_options.c_str(), &blob)));
    std::string bytes(static_cast<const char*>(tegula_blob_data(blob)), tegula_blob_size(blob));
    tegula_blob_free(blob);
    return bytes;
  }
  /// A readable form of executable bytes that `plugin` made.
  Result<std::string> describe_executable(const std::string& plugin, std::string_view bytes) const {
    tegula_blob* blob = nullptr;
    TG_RETURN_IF_ERROR(
        status_from(tegula_plugin_describe_executable(handle_, plugin.c_str(), bytes.data(), bytes.size(), &blob)));
    std::string text(static_cast<const char*>(tegula_blob_data(blob)), tegula_blob_size(blob));
    tegula_blob_free(blob);
    return text;
  }

private:
  tegula_runtime* handle_ = nullptr;
};

}  // namespace tegula
