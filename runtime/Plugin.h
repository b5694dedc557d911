/// \file
/// A loaded plugin instance, and every call the host makes into it.
///
/// Each method is one ABI call (or a short sequence) made under the instance's lock, since
/// the ABI has the host serialise all calls into one tg_plugin. Whatever the plugin answers
/// is checked before it is used: a tg_error becomes a tegula Status carrying a copy of the
/// plugin's message (the error is released through the plugin), a success that leaves an
/// output handle NULL is a Plugin error, and output structs sit in front of a guard zone
/// that is checked afterwards, so a plugin writing past the struct_size it was given is
/// caught instead of corrupting the host's stack.
///
/// Instances are made by the loader (Loader.h) and shared by every runtime in the process
/// that loads the same library.
#pragma once

#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

#include "core/Status.h"
#include "plugins/abi/tegula_plugin.h"
#include "runtime/Discovery.h"
#include "runtime/Log.h"
#include "runtime/Manifest.h"

namespace tegula::runtime {

/// What the host keeps about one usable device: copies of everything the plugin reported.
struct DeviceInfo {
  uint32_t index = 0;
  std::string name;  ///< "<plugin>:<index>"
  std::string device_name;
  std::string vendor;
  std::string target;
  std::string driver_version;
  std::string toolkit_version;
  uint64_t memory_bytes = 0;
  uint32_t compute_units = 0;
  uint32_t device_type = 0;  ///< tg_device_type; unknown values read as 0
  uint32_t out_of_range = 0;  ///< tg_out_of_range; undeclared (older plugins) and unknown values read as 0
  /// The plugin's own target description (device_target), when it gives one.
  bool has_target_json = false;
  std::string target_json;
  /// Why device_target failed with something other than "unimplemented"; "" when it did not.
  std::string target_error;
};

/// A device count above this is nonsense, not hardware.
inline constexpr uint32_t kMaxDevicesPerPlugin = 4096;

class PluginInstance {
public:
  PluginInstance(Manifest manifest, void* handle, const tg_plugin_api* api);
  PluginInstance(const PluginInstance&) = delete;
  PluginInstance& operator=(const PluginInstance&) = delete;

  const Manifest& manifest() const { return manifest_; }
  const std::string& name() const { return name_; }
  const std::string& vendor() const { return vendor_; }
  const std::string& version() const { return version_; }
  const std::string& description() const { return description_; }
  /// The plugin declared TG_CONCURRENT_COMPILE: compile, compile_offline and
  /// executable_load run without the instance's lock, side by side.
  bool concurrent_compile() const { return concurrent_compile_; }
  uint32_t abi_version() const { return api_->abi_version; }
  /// Which build of the library was loaded (device, inode, size, modification time): part
  /// of every compile-cache key, so a rebuilt plugin with an unchanged version string never
  /// loads executables an earlier build made.
  const std::string& library_identity() const { return library_identity_; }
  void set_library_identity(std::string identity) { library_identity_ = std::move(identity); }
  const std::vector<DeviceInfo>& devices() const { return devices_; }
  const std::vector<Skipped>& skipped_devices() const { return skipped_devices_; }
  void* handle() const { return handle_; }

  // --- loading (Loader.cpp calls these once, in order) ------------------------------------
  Status read_info();
  Status init(const char* host_version);
  Status enumerate_devices();
  /// Close open devices and call shutdown.
  void shutdown();

  // --- calls. `device` is the plugin's device index; it is opened on first use. ---------
  Result<tg_buffer*> buffer_alloc(uint32_t device, uint64_t size);
  void buffer_free(tg_buffer* buffer);
  Status copy_h2d(uint32_t device, tg_buffer* dst, uint64_t offset, const void* src, uint64_t size);
  /// Copies and then synchronises the queue, so `dst` is written when this returns.
  Status copy_d2h(uint32_t device, void* dst, tg_buffer* src, uint64_t offset, uint64_t size);
  Status copy_d2d(uint32_t device, tg_buffer* dst, uint64_t dst_offset, tg_buffer* src, uint64_t src_offset,
                  uint64_t size);
  Status fill(uint32_t device, tg_buffer* buffer, uint64_t offset, uint64_t size, const void* pattern,
              uint32_t pattern_size);
  Result<std::string> compile(uint32_t device, const std::string& ir, const std::string& options);
  /// A Corrupt status means the plugin refused the bytes (TG_ERR_CORRUPT).
  Result<tg_executable*> executable_load(uint32_t device, const std::string& bytes);
  void executable_free(tg_executable* executable);
  /// executable_describe: the executable's bytes in readable form.
  Result<std::string> describe_executable(const std::string& bytes);
  Status launch(uint32_t device, tg_executable* executable, const uint32_t grid[3],
                const std::vector<tg_launch_arg>& args);
  Status synchronize(uint32_t device);
  Result<tg_event*> event_create(uint32_t device);
  void event_destroy(tg_event* event);
  Status event_record(uint32_t device, tg_event* event);
  Status event_synchronize(tg_event* event);
  Result<double> event_elapsed_ms(tg_event* start, tg_event* end);
  /// The optional cross-compilation entry, for a target given as JSON with no device of it
  /// present; Unimplemented when the table lacks it.
  Result<std::string> compile_offline(const std::string& target_json, const std::string& ir, const std::string& options);

  // --- logging: the plugin's log lines go to every runtime using the instance -------------
  void add_log_sink(const void* owner, const Log& log);
  void remove_log_sink(const void* owner);
  void plugin_log(int level, const char* message);

private:
  std::string library_identity_;
  struct OpenDevice {
    tg_device* device = nullptr;
    tg_queue* queue = nullptr;
  };

  /// Convert (and release) a plugin error; `call` names the entry for the message.
  Status to_status(tg_error* e, const char* call);
  Result<OpenDevice*> open_locked(uint32_t device);

  Manifest manifest_;
  void* handle_ = nullptr;
  const tg_plugin_api* api_ = nullptr;
  tg_plugin* plugin_ = nullptr;
  std::string name_, vendor_, version_, description_;
  std::vector<DeviceInfo> devices_;
  std::vector<Skipped> skipped_devices_;
  std::vector<OpenDevice> open_;  ///< indexed by plugin device index
  bool concurrent_compile_ = false;  ///< read_info: the plugin declared TG_CONCURRENT_COMPILE
  std::mutex mu_;                 ///< serialises every call into the plugin (compiles too, unless declared)

  std::mutex log_mu_;  ///< separate: a plugin may log from inside a call
  std::vector<std::pair<const void*, Log>> log_sinks_;
};

}  // namespace tegula::runtime
