#include "runtime/Plugin.h"

#include <cstdint>
#include <cstring>

#include "plugins/support/PluginErrors.h"
#include "runtime/AbiTable.h"
#include "runtime/PluginStrings.h"

namespace tegula::runtime {
namespace {

using plugin::error_code_for;
using plugin::status_code_name;

/// An output struct followed by a guard zone. The host tells the plugin the struct's size;
/// a plugin that writes further damages only the guard, which is checked afterwards.
template <typename T>
struct Guarded {
  T value;
  unsigned char guard[64];

  Guarded() {
    std::memset(static_cast<void*>(this), 0, sizeof(*this));
    value.struct_size = sizeof(T);
    std::memset(guard, 0xa5, sizeof(guard));
  }
  /// Ok, or why the plugin's answer cannot be used. `least` is the size of the struct's
  /// first release: an older plugin answers that, and the fields appended since read as 0.
  Status check(const char* call, const char* type, size_t least = sizeof(T)) const {
    for (unsigned char c : guard)
      if (c != 0xa5) return error(ErrorCode::Plugin, std::string(call) + " wrote past the end of " + type);
    if (value.struct_size < least)
      return error(ErrorCode::Plugin, std::string(call) + " answered a " + type + " of " +
                                          std::to_string(value.struct_size) + " bytes, the ABI needs " +
                                          std::to_string(least));
    return Status::ok();
  }
  /// Whether the plugin's answer covers `field` (offset and size), appended after `least`.
  bool covers(size_t offset, size_t size) const { return value.struct_size >= offset + size; }
};

Status null_output(const std::string& plugin, const char* call, const char* what) {
  return error(ErrorCode::Plugin, plugin + ": " + call + " reported success but returned no " + what);
}

/// The executable bytes in a blob compile or compile_offline answered. The blob is the
/// plugin's until blob_release, which is called whatever else is wrong with it.
Result<std::string> take_executable(const tg_plugin_api* api, const std::string& plugin, Guarded<tg_blob>& blob,
                                    const char* call) {
  Status st = blob.check(call, "tg_blob");
  std::string bytes;
  if (st.is_ok() && !blob.value.data && blob.value.size) st = null_output(plugin, call, "executable bytes");
  if (st.is_ok() && blob.value.size > (uint64_t(1) << 32))
    st = error(ErrorCode::Plugin, plugin + ": " + call + " returned an executable over 4 GiB");
  if (st.is_ok() && blob.value.size) bytes.assign(static_cast<const char*>(blob.value.data), blob.value.size);
  api->blob_release(&blob.value);
  if (!st.is_ok()) return st;
  return bytes;
}

}  // namespace

PluginInstance::PluginInstance(Manifest manifest, void* handle, const tg_plugin_api* api)
    : manifest_(std::move(manifest)), handle_(handle), api_(api), name_(manifest_.name) {}

Status PluginInstance::to_status(tg_error* e, const char* call) {
  if (!e) return Status::ok();
  tg_status_code code = api_->error_code(e);
  std::string message = plugin_message(api_->error_message(e));
  api_->error_destroy(e);
  const char* code_name = status_code_name(code);
  std::string suffix = code_name ? code_name : "unknown status code " + std::to_string(int(code));
  if (code == TG_OK) suffix = "an error object with status TG_OK";
  // Plugins often start their messages with their name and the call, as the host does.
  auto strip = [&](const std::string& prefix) {
    if (message.compare(0, prefix.size(), prefix) == 0) message.erase(0, prefix.size());
  };
  strip(name_ + ": ");
  strip(std::string(call) + ": ");
  return error(error_code_for(code), name_ + ": " + call + ": " + message + " (" + suffix + ")");
}

// --- loading --------------------------------------------------------------------------

Status PluginInstance::read_info() {
  Guarded<tg_plugin_info> info;
  TG_RETURN_IF_ERROR(to_status(api_->get_info(&info.value), "get_info"));
  TG_RETURN_IF_ERROR(info.check("get_info", "tg_plugin_info", TG_PLUGIN_INFO_SIZE_1));
  // Appended after the first release: an older plugin's answer ends before it (serialised).
  concurrent_compile_ = info.covers(offsetof(tg_plugin_info, concurrency), sizeof(info.value.concurrency)) &&
                        (info.value.concurrency & TG_CONCURRENT_COMPILE) != 0;
  TG_ASSIGN_OR_RETURN(std::string name, plugin_string(info.value.name, kMaxIdentityBytes, "get_info: name"));
  if (!is_plugin_name(name))
    return error(ErrorCode::Plugin, "get_info: name \"" + name + "\" is not a plugin name ([a-z0-9_], 1 to 64 characters)");
  if (name != manifest_.name)
    return error(ErrorCode::Plugin, "the library calls itself '" + name + "' but its manifest says '" + manifest_.name + "'");
  TG_ASSIGN_OR_RETURN(vendor_, plugin_string(info.value.vendor, kMaxIdentityBytes, "get_info: vendor"));
  TG_ASSIGN_OR_RETURN(version_, plugin_string(info.value.version, kMaxIdentityBytes, "get_info: version"));
  TG_ASSIGN_OR_RETURN(description_, plugin_string(info.value.description, kMaxTextBytes, "get_info: description"));
  if (version_.empty()) return error(ErrorCode::Plugin, "get_info: version is empty (it is part of compile-cache keys)");
  return Status::ok();
}

static void plugin_log_callback(void* user, tg_log_level level, const char* message) {
  static_cast<PluginInstance*>(user)->plugin_log(int(level), message);
}

Status PluginInstance::init(const char* host_version) {
  tg_host_info host;
  std::memset(&host, 0, sizeof(host));
  host.struct_size = sizeof(host);
  host.abi_version = api_->abi_version;
  host.host_version = host_version;
  host.log = plugin_log_callback;
  host.log_user = this;
  tg_plugin* plugin = nullptr;
  TG_RETURN_IF_ERROR(to_status(api_->init(&host, &plugin), "init"));
  if (!plugin) return null_output(name_, "init", "tg_plugin");
  plugin_ = plugin;
  return Status::ok();
}

Status PluginInstance::enumerate_devices() {
  uint32_t count = 0;
  TG_RETURN_IF_ERROR(to_status(api_->device_count(plugin_, &count), "device_count"));
  if (count > kMaxDevicesPerPlugin)
    return error(ErrorCode::Plugin, "device_count answered " + std::to_string(count) + " devices (more than " +
                                        std::to_string(kMaxDevicesPerPlugin) + " is not believable)");
  open_.resize(count);
  for (uint32_t i = 0; i < count; ++i) {
    std::string device_name = name_ + ":" + std::to_string(i);
    auto skip = [&](const Status& why) { skipped_devices_.push_back({device_name, name_, why.message()}); };
    Guarded<tg_device_properties> props;
    Status st = to_status(api_->device_properties(plugin_, i, &props.value), "device_properties");
    if (st.is_ok()) st = props.check("device_properties", "tg_device_properties", TG_DEVICE_PROPERTIES_SIZE_1);
    if (!st.is_ok()) {
      skip(st);
      continue;
    }
    const tg_device_properties& p = props.value;
    DeviceInfo d;
    d.index = i;
    d.name = device_name;
    d.memory_bytes = p.memory_bytes;
    d.compute_units = p.compute_units;
    d.device_type = p.device_type <= uint32_t(TG_DEVICE_TYPE_REFERENCE) ? p.device_type : uint32_t(TG_DEVICE_TYPE_UNKNOWN);
    // Appended after the first release: an older plugin's answer ends before it, and a value
    // past the enum is no declaration.
    bool declares = props.covers(offsetof(tg_device_properties, out_of_range), sizeof(p.out_of_range));
    d.out_of_range = declares && p.out_of_range <= uint32_t(TG_OUT_OF_RANGE_UNDEFINED) ? p.out_of_range
                                                                                       : uint32_t(TG_OUT_OF_RANGE_UNDECLARED);
    struct Field {
      const char* value;
      std::string* out;
      const char* what;
    } fields[] = {{p.name, &d.device_name, "device_properties: name"},
                  {p.vendor, &d.vendor, "device_properties: vendor"},
                  {p.target, &d.target, "device_properties: target"},
                  {p.driver_version, &d.driver_version, "device_properties: driver_version"},
                  {p.toolkit_version, &d.toolkit_version, "device_properties: toolkit_version"}};
    bool ok = true;
    for (const Field& f : fields) {
      Result<std::string> s = plugin_string(f.value, kMaxIdentityBytes, f.what);
      if (!s.is_ok()) {
        skip(s.status());
        ok = false;
        break;
      }
      *f.out = std::move(s).value();
    }
    if (!ok) continue;

    // The optional self-description. Failing it does not hide the device (its memory still
    // works); compiling for it reports the reason.
    if (has_entry(api_, offsetof(tg_plugin_api, device_target))) {
      Guarded<tg_target_description> target;
      Status ts = to_status(api_->device_target(plugin_, i, &target.value), "device_target");
      if (ts.is_ok()) ts = target.check("device_target", "tg_target_description");
      if (ts.is_ok()) {
        const tg_target_description& t = target.value;
        Result<std::string> format = plugin_string(t.format, kMaxIdentityBytes, "device_target: format");
        if (!format.is_ok()) ts = format.status();
        else if (*format != TG_TARGET_FORMAT_JSON_V1)
          ts = error(ErrorCode::Plugin, "device_target: unknown format \"" + *format + "\"");
        else if (!t.data || t.size == 0 || t.size > (16u << 20))
          ts = error(ErrorCode::Plugin, "device_target: no data, or more than 16 MiB");
        else {
          d.has_target_json = true;
          d.target_json.assign(t.data, t.size);
        }
      }
      if (!ts.is_ok() && ts.code() != ErrorCode::Unimplemented) d.target_error = ts.message();
    }
    devices_.push_back(std::move(d));
  }
  return Status::ok();
}

void PluginInstance::shutdown() {
  std::lock_guard<std::mutex> lock(mu_);
  for (OpenDevice& d : open_) {
    if (d.queue) api_->queue_destroy(d.queue);
    if (d.device) api_->device_close(d.device);
    d = {};
  }
  if (plugin_) api_->shutdown(plugin_);
  plugin_ = nullptr;
}

// --- calls ------------------------------------------------------------------------------

Result<PluginInstance::OpenDevice*> PluginInstance::open_locked(uint32_t index) {
  if (index >= open_.size()) return error(ErrorCode::Internal, "device index out of range");
  OpenDevice& d = open_[index];
  if (d.queue) return &d;
  if (!d.device) {
    tg_device* device = nullptr;
    TG_RETURN_IF_ERROR(to_status(api_->device_open(plugin_, index, &device), "device_open"));
    if (!device) return null_output(name_, "device_open", "tg_device");
    d.device = device;
  }
  tg_queue* queue = nullptr;
  TG_RETURN_IF_ERROR(to_status(api_->queue_create(d.device, &queue), "queue_create"));
  if (!queue) return null_output(name_, "queue_create", "tg_queue");
  d.queue = queue;
  return &d;
}

Result<tg_buffer*> PluginInstance::buffer_alloc(uint32_t device, uint64_t size) {
  std::lock_guard<std::mutex> lock(mu_);
  TG_ASSIGN_OR_RETURN(OpenDevice * d, open_locked(device));
  tg_buffer* buffer = nullptr;
  TG_RETURN_IF_ERROR(to_status(api_->buffer_alloc(d->device, size, &buffer), "buffer_alloc"));
  if (!buffer) return null_output(name_, "buffer_alloc", "tg_buffer");
  return buffer;
}

void PluginInstance::buffer_free(tg_buffer* buffer) {
  std::lock_guard<std::mutex> lock(mu_);
  api_->buffer_free(buffer);
}

Status PluginInstance::copy_h2d(uint32_t device, tg_buffer* dst, uint64_t offset, const void* src, uint64_t size) {
  std::lock_guard<std::mutex> lock(mu_);
  TG_ASSIGN_OR_RETURN(OpenDevice * d, open_locked(device));
  return to_status(api_->copy_h2d(d->queue, dst, offset, src, size), "copy_h2d");
}

Status PluginInstance::copy_d2h(uint32_t device, void* dst, tg_buffer* src, uint64_t offset, uint64_t size) {
  std::lock_guard<std::mutex> lock(mu_);
  TG_ASSIGN_OR_RETURN(OpenDevice * d, open_locked(device));
  TG_RETURN_IF_ERROR(to_status(api_->copy_d2h(d->queue, dst, src, offset, size), "copy_d2h"));
  return to_status(api_->queue_synchronize(d->queue), "queue_synchronize");
}

Status PluginInstance::copy_d2d(uint32_t device, tg_buffer* dst, uint64_t dst_offset, tg_buffer* src,
                                uint64_t src_offset, uint64_t size) {
  std::lock_guard<std::mutex> lock(mu_);
  TG_ASSIGN_OR_RETURN(OpenDevice * d, open_locked(device));
  return to_status(api_->copy_d2d(d->queue, dst, dst_offset, src, src_offset, size), "copy_d2d");
}

Status PluginInstance::fill(uint32_t device, tg_buffer* buffer, uint64_t offset, uint64_t size, const void* pattern,
                            uint32_t pattern_size) {
  std::lock_guard<std::mutex> lock(mu_);
  TG_ASSIGN_OR_RETURN(OpenDevice * d, open_locked(device));
  return to_status(api_->buffer_fill(d->queue, buffer, offset, size, pattern, pattern_size), "buffer_fill");
}

/// A compile request for lowered IR text; it points into `ir` and `options`, which must outlive it.
static tg_compile_request compile_request(const std::string& ir, const std::string& options) {
  tg_compile_request request;
  std::memset(&request, 0, sizeof(request));
  request.struct_size = sizeof(request);
  request.ir_format = TG_IR_FORMAT_LOWERED_V1;
  request.ir_data = ir.data();
  request.ir_size = ir.size();
  request.options = options.c_str();
  return request;
}

Result<std::string> PluginInstance::compile(uint32_t device, const std::string& ir, const std::string& options) {
  std::unique_lock<std::mutex> lock(mu_);
  TG_ASSIGN_OR_RETURN(OpenDevice * d, open_locked(device));
  if (concurrent_compile_) lock.unlock();  // TG_CONCURRENT_COMPILE: compiles run side by side
  tg_compile_request request = compile_request(ir, options);
  Guarded<tg_blob> blob;
  TG_RETURN_IF_ERROR(to_status(api_->compile(d->device, &request, &blob.value), "compile"));
  return take_executable(api_, name_, blob, "compile");
}

Result<std::string> PluginInstance::compile_offline(const std::string& target_json, const std::string& ir,
                                                    const std::string& options) {
  std::unique_lock<std::mutex> lock(mu_);
  if (!plugin_) return error(ErrorCode::Plugin, name_ + ": the plugin is shut down");
  if (concurrent_compile_) lock.unlock();
  if (!has_entry(api_, offsetof(tg_plugin_api, compile_offline)))
    return error(ErrorCode::Unimplemented, name_ + ": offline compilation (compile_offline) is not provided");
  tg_target_description target;
  std::memset(&target, 0, sizeof(target));
  target.struct_size = sizeof(target);
  target.format = TG_TARGET_FORMAT_JSON_V1;
  target.data = target_json.data();
  target.size = target_json.size();
  tg_compile_request request = compile_request(ir, options);
  Guarded<tg_blob> blob;
  TG_RETURN_IF_ERROR(to_status(api_->compile_offline(plugin_, &target, &request, &blob.value), "compile_offline"));
  return take_executable(api_, name_, blob, "compile_offline");
}

Result<tg_executable*> PluginInstance::executable_load(uint32_t device, const std::string& bytes) {
  std::unique_lock<std::mutex> lock(mu_);
  TG_ASSIGN_OR_RETURN(OpenDevice * d, open_locked(device));
  if (concurrent_compile_) lock.unlock();
  tg_executable* exe = nullptr;
  TG_RETURN_IF_ERROR(to_status(api_->executable_load(d->device, bytes.data(), bytes.size(), &exe), "executable_load"));
  if (!exe) return null_output(name_, "executable_load", "tg_executable");
  return exe;
}

void PluginInstance::executable_free(tg_executable* executable) {
  if (!executable) return;  // a variant never compiled (ensure_generic)
  std::lock_guard<std::mutex> lock(mu_);
  api_->executable_free(executable);
}

Result<std::string> PluginInstance::describe_executable(const std::string& bytes) {
  std::lock_guard<std::mutex> lock(mu_);
  if (!has_entry(api_, offsetof(tg_plugin_api, executable_describe)))
    return error(ErrorCode::Unimplemented, name_ + ": executable_describe is not provided");
  Guarded<tg_blob> blob;
  TG_RETURN_IF_ERROR(to_status(api_->executable_describe(plugin_, bytes.data(), bytes.size(), &blob.value),
                               "executable_describe"));
  Status st = blob.check("executable_describe", "tg_blob");
  std::string text;
  if (st.is_ok() && !blob.value.data && blob.value.size) st = null_output(name_, "executable_describe", "text");
  if (st.is_ok() && blob.value.size > (uint64_t(1) << 30))
    st = error(ErrorCode::Plugin, name_ + ": executable_describe returned over 1 GiB");
  if (st.is_ok() && blob.value.size)
    text = sanitized_text(std::string_view(static_cast<const char*>(blob.value.data), blob.value.size));
  api_->blob_release(&blob.value);
  if (!st.is_ok()) return st;
  return text;
}

Status PluginInstance::launch(uint32_t device, tg_executable* executable, const uint32_t grid[3],
                              const std::vector<tg_launch_arg>& args) {
  std::lock_guard<std::mutex> lock(mu_);
  TG_ASSIGN_OR_RETURN(OpenDevice * d, open_locked(device));
  tg_launch_params params;
  std::memset(&params, 0, sizeof(params));
  params.struct_size = sizeof(params);
  for (int i = 0; i < 3; ++i) params.grid[i] = grid[i];
  params.args = args.data();
  params.arg_count = args.size();
  return to_status(api_->launch(d->queue, executable, &params), "launch");
}

Status PluginInstance::synchronize(uint32_t device) {
  std::lock_guard<std::mutex> lock(mu_);
  TG_ASSIGN_OR_RETURN(OpenDevice * d, open_locked(device));
  return to_status(api_->queue_synchronize(d->queue), "queue_synchronize");
}

Result<tg_event*> PluginInstance::event_create(uint32_t device) {
  std::lock_guard<std::mutex> lock(mu_);
  TG_ASSIGN_OR_RETURN(OpenDevice * d, open_locked(device));
  tg_event* event = nullptr;
  TG_RETURN_IF_ERROR(to_status(api_->event_create(d->device, &event), "event_create"));
  if (!event) return null_output(name_, "event_create", "tg_event");
  return event;
}

void PluginInstance::event_destroy(tg_event* event) {
  std::lock_guard<std::mutex> lock(mu_);
  api_->event_destroy(event);
}

Status PluginInstance::event_record(uint32_t device, tg_event* event) {
  std::lock_guard<std::mutex> lock(mu_);
  TG_ASSIGN_OR_RETURN(OpenDevice * d, open_locked(device));
  return to_status(api_->event_record(d->queue, event), "event_record");
}

Status PluginInstance::event_synchronize(tg_event* event) {
  std::lock_guard<std::mutex> lock(mu_);
  return to_status(api_->event_synchronize(event), "event_synchronize");
}

Result<double> PluginInstance::event_elapsed_ms(tg_event* start, tg_event* end) {
  std::lock_guard<std::mutex> lock(mu_);
  if (!has_entry(api_, offsetof(tg_plugin_api, event_elapsed_ms))) return error(ErrorCode::Unimplemented, name_ + ": event timing is not provided");
  double ms = 0;
  TG_RETURN_IF_ERROR(to_status(api_->event_elapsed_ms(start, end, &ms), "event_elapsed_ms"));
  return ms;
}

// --- logging -----------------------------------------------------------------------------

void PluginInstance::add_log_sink(const void* owner, const Log& log) {
  std::lock_guard<std::mutex> lock(log_mu_);
  log_sinks_.emplace_back(owner, log);
}

void PluginInstance::remove_log_sink(const void* owner) {
  std::lock_guard<std::mutex> lock(log_mu_);
  for (size_t i = 0; i < log_sinks_.size(); ++i)
    if (log_sinks_[i].first == owner) {
      log_sinks_.erase(log_sinks_.begin() + long(i));
      return;
    }
}

void PluginInstance::plugin_log(int level, const char* message) {
  if (level < 0 || level > 3) level = 3;
  std::string line = "plugin " + name_ + ": " + plugin_message(message, kMaxTextBytes);
  std::lock_guard<std::mutex> lock(log_mu_);
  for (const auto& sink : log_sinks_) sink.second.write(LogLevel(level), line);
}

}  // namespace tegula::runtime
