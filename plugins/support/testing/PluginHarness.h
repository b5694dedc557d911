/// \file
/// A plugin driven through its C ABI alone, for tests: the library opened by path, the ABI
/// negotiated through tg_plugin_query, init, and then every call of tg_plugin_api behind a
/// small C++ face whose failures are Status values (never aborts, never exceptions), so it
/// works under any test framework. The in-tree backends' tests use it, and so can a vendor's:
/// it is installed with the SDK (tegula::plugin_testing) and needs no runtime internals.
///
/// Errors keep what the plugin said: a Status whose message is "<call>: <the plugin's
/// message> (<TG_ERR_...>)", and, for tests that assert exact codes, the raw tg_status_code and
/// message of the last error this thread took from a plugin (last_code(), last_message()).
///
/// Lifetimes: Buffers and Executables must go before the Device they came from, and Devices
/// before their Plugin (whose destructor calls shutdown, which frees whatever is left). The
/// library itself stays loaded, as the runtime keeps it: a static destructor of the plugin
/// may still run at exit.
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "core/Status.h"
#include "plugins/abi/tegula_plugin.h"
#include "targets/Target.h"

namespace tegula::plugin_testing {

/// "TG_ERR_CORRUPT" for a code; "unknown status code N" for one the ABI does not define.
std::string status_code_name(tg_status_code code);

/// The raw code (TG_OK when the call succeeded) and message of the last error this thread
/// took from a plugin through the harness.
tg_status_code last_code();
const std::string& last_message();

struct OpenOptions {
  uint32_t host_min_abi = TG_ABI_VERSION_MIN;  ///< what tg_plugin_query is offered
  uint32_t host_max_abi = TG_ABI_VERSION_CURRENT;
  std::string host_version = "test";
};

struct PluginInfo {
  std::string name, vendor, version, description;
  uint32_t concurrency = 0;  ///< TG_CONCURRENT_* bits; 0 from a plugin that answers before the field
};

struct DeviceProperties {
  std::string name, vendor, target, driver_version, toolkit_version;
  uint64_t memory_bytes = 0;
  uint32_t compute_units = 0;
  uint32_t device_type = TG_DEVICE_TYPE_UNKNOWN;
};

/// What a compile request carries besides the IR text.
struct CompileRequest {
  std::string options;                          ///< "key=value" lines
  std::string ir_format = TG_IR_FORMAT_LOWERED_V1;
};

class Plugin;
class Device;

/// A loaded executable; executable_free when it goes.
class Executable {
public:
  Executable() = default;
  Executable(Executable&& o) noexcept : api_(o.api_), exe_(o.exe_) { o.exe_ = nullptr; }
  Executable& operator=(Executable&& o) noexcept;
  Executable(const Executable&) = delete;
  Executable& operator=(const Executable&) = delete;
  ~Executable();
  tg_executable* handle() const { return exe_; }

private:
  friend class Device;
  const tg_plugin_api* api_ = nullptr;
  tg_executable* exe_ = nullptr;
};

/// Device memory; buffer_free when it goes.
class Buffer {
public:
  Buffer() = default;
  Buffer(Buffer&& o) noexcept : api_(o.api_), buffer_(o.buffer_), size_(o.size_) { o.buffer_ = nullptr; }
  Buffer& operator=(Buffer&& o) noexcept;
  Buffer(const Buffer&) = delete;
  Buffer& operator=(const Buffer&) = delete;
  ~Buffer();
  tg_buffer* handle() const { return buffer_; }
  uint64_t size() const { return size_; }

private:
  friend class Device;
  const tg_plugin_api* api_ = nullptr;
  tg_buffer* buffer_ = nullptr;
  uint64_t size_ = 0;
};

/// tg_launch_arg values, filled as the ABI wants them (struct_size set, the rest zero).
tg_launch_arg buffer_arg(tg_buffer* buffer, uint64_t offset = 0);
tg_launch_arg int_arg(int64_t value);
tg_launch_arg float_arg(double value);

/// An opened device with one queue of its own.
class Device {
public:
  ~Device();
  Device(const Device&) = delete;
  Device& operator=(const Device&) = delete;

  Plugin& plugin() const { return plugin_; }
  uint32_t index() const { return index_; }
  tg_device* handle() const { return device_; }
  tg_queue* queue() const { return queue_; }

  /// compile(): the executable's bytes.
  Result<std::string> compile(const std::string& ir, const CompileRequest& request = {});
  Result<Executable> load(const std::string& bytes);
  Result<Buffer> alloc(uint64_t size);
  /// copy_h2d of `size` bytes at `offset`; finished reading `src` when it returns.
  Status write(const Buffer& dst, const void* src, uint64_t size, uint64_t offset = 0);
  /// copy_d2h, then queue_synchronize (so `dst` holds the bytes when it returns).
  Status read(const Buffer& src, void* dst, uint64_t size, uint64_t offset = 0);
  Status launch(const Executable& exe, std::array<uint32_t, 3> grid, const std::vector<tg_launch_arg>& args);
  Status synchronize();

private:
  friend class Plugin;
  Device(Plugin& plugin, uint32_t index) : plugin_(plugin), index_(index) {}
  Plugin& plugin_;
  uint32_t index_;
  tg_device* device_ = nullptr;
  tg_queue* queue_ = nullptr;
};

/// One initialised instance of a plugin library.
class Plugin {
public:
  /// dlopen `library`, look up tg_plugin_query, negotiate the ABI and init. A missing file,
  /// a missing symbol, a refusal (with the plugin's reason), a table that breaks the ABI's
  /// rules and a failed init are errors.
  static Result<std::unique_ptr<Plugin>> open(const std::string& library, const OpenOptions& options = {});
  ~Plugin();
  Plugin(const Plugin&) = delete;
  Plugin& operator=(const Plugin&) = delete;

  /// The raw table and instance, for tests of calls the harness does not wrap (misuse).
  const tg_plugin_api* api() const { return api_; }
  tg_plugin* handle() const { return plugin_; }
  const std::string& library() const { return library_; }

  /// Take an error: Ok for nullptr, else "<call>: <message> (<code>)" with the code mapped
  /// onto tegula's; the error is destroyed and its code and message kept (last_code()).
  Status status(tg_error* e, const std::string& call) const;
  /// Take an error; true when there was none.
  bool ok(tg_error* e) const { return status(e, "call").is_ok(); }
  /// Take an error; its raw code (TG_OK for none).
  tg_status_code code(tg_error* e) const {
    (void)status(e, "call");
    return e ? last_code() : TG_OK;
  }

  Result<PluginInfo> info() const;
  Result<uint32_t> device_count() const;
  Result<DeviceProperties> device_properties(uint32_t index) const;
  /// device_target's JSON text (TG_ERR_UNIMPLEMENTED when the entry is absent).
  Result<std::string> device_target_json(uint32_t index) const;
  /// The same, parsed and validated.
  Result<TargetDescription> device_target(uint32_t index) const;
  /// device_open and a queue on it.
  Result<std::unique_ptr<Device>> open_device(uint32_t index);

  /// compile_offline for a target description's JSON text: the executable's bytes.
  Result<std::string> compile_offline(const std::string& target_json, const std::string& ir,
                                      const CompileRequest& request = {}) const;
  /// executable_describe: the executable in readable form.
  Result<std::string> describe(const std::string& executable) const;

  /// The bytes of a blob the plugin answered, which is released.
  std::string take_blob(tg_blob& blob) const;

private:
  Plugin() = default;
  bool has_entry(size_t offset) const;
  std::string library_;
  const tg_plugin_api* api_ = nullptr;
  tg_plugin* plugin_ = nullptr;
};

}  // namespace tegula::plugin_testing
