#include "plugins/support/testing/PluginHarness.h"

#include <dlfcn.h>

#include <cstddef>
#include <cstring>

#include "plugins/abi/tegula_abi_entries.h"
#include "plugins/support/PluginErrors.h"

namespace tegula::plugin_testing {
namespace {

struct LastError {
  tg_status_code code = TG_OK;
  std::string message;
};
thread_local LastError last_error;

/// A zeroed ABI struct with its size set.
template <typename T>
T abi_struct() {
  T t;
  std::memset(static_cast<void*>(&t), 0, sizeof t);
  t.struct_size = sizeof t;
  return t;
}

std::string copy(const char* s) { return s ? s : ""; }

Status null_output(const char* call, const char* what) {
  return error(ErrorCode::Plugin, std::string(call) + " reported success but returned no " + what);
}

tg_compile_request compile_request(const std::string& ir, const CompileRequest& request) {
  tg_compile_request r = abi_struct<tg_compile_request>();
  r.ir_format = request.ir_format.c_str();
  r.ir_data = ir.data();
  r.ir_size = ir.size();
  r.options = request.options.c_str();
  return r;
}

}  // namespace

std::string status_code_name(tg_status_code code) {
  const char* name = plugin::status_code_name(code);
  return name ? name : "unknown status code " + std::to_string(int(code));
}

tg_status_code last_code() { return last_error.code; }
const std::string& last_message() { return last_error.message; }

tg_launch_arg buffer_arg(tg_buffer* buffer, uint64_t offset) {
  tg_launch_arg a = abi_struct<tg_launch_arg>();
  a.kind = TG_ARG_BUFFER;
  a.buffer = buffer;
  a.offset = offset;
  return a;
}

tg_launch_arg int_arg(int64_t value) {
  tg_launch_arg a = abi_struct<tg_launch_arg>();
  a.kind = TG_ARG_I64;
  a.i64 = value;
  return a;
}

tg_launch_arg float_arg(double value) {
  tg_launch_arg a = abi_struct<tg_launch_arg>();
  a.kind = TG_ARG_F64;
  a.f64 = value;
  return a;
}

// --- Executable, Buffer -------------------------------------------------------------------

Executable& Executable::operator=(Executable&& o) noexcept {
  if (this == &o) return *this;
  if (exe_) api_->executable_free(exe_);
  api_ = o.api_;
  exe_ = o.exe_;
  o.exe_ = nullptr;
  return *this;
}

Executable::~Executable() {
  if (exe_) api_->executable_free(exe_);
}

Buffer& Buffer::operator=(Buffer&& o) noexcept {
  if (this == &o) return *this;
  if (buffer_) api_->buffer_free(buffer_);
  api_ = o.api_;
  buffer_ = o.buffer_;
  size_ = o.size_;
  o.buffer_ = nullptr;
  return *this;
}

Buffer::~Buffer() {
  if (buffer_) api_->buffer_free(buffer_);
}

// --- Plugin -------------------------------------------------------------------------------

Result<std::unique_ptr<Plugin>> Plugin::open(const std::string& library, const OpenOptions& options) {
  // RTLD_LOCAL: the plugin's symbols stay its own, as the runtime loads it. Never closed (see
  // the header).
  void* lib = dlopen(library.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!lib) {
    const char* why = dlerror();
    return error(ErrorCode::NotFound, "cannot load plugin library '" + library + "': " + copy(why));
  }
  auto query = reinterpret_cast<tg_plugin_query_fn>(dlsym(lib, TG_PLUGIN_QUERY_SYMBOL));
  if (!query)
    return error(ErrorCode::Plugin, "'" + library + "' does not export " TG_PLUGIN_QUERY_SYMBOL " (not a tegula plugin)");
  const char* refusal = nullptr;
  const tg_plugin_api* api = query(options.host_min_abi, options.host_max_abi, &refusal);
  if (!api)
    return error(ErrorCode::Unsupported, "'" + library + "' refused to load for ABI " +
                                             std::to_string(options.host_min_abi) + ".." +
                                             std::to_string(options.host_max_abi) + ": " +
                                             (refusal ? refusal : "(no reason given)"));
  if (api->abi_version < options.host_min_abi || api->abi_version > options.host_max_abi)
    return error(ErrorCode::Plugin, "'" + library + "' answered ABI " + std::to_string(api->abi_version) +
                                        ", outside the " + std::to_string(options.host_min_abi) + ".." +
                                        std::to_string(options.host_max_abi) + " it was offered");
  std::unique_ptr<Plugin> p(new Plugin());
  p->library_ = library;
  p->api_ = api;
  // Every entry the ABI requires must be inside the table and set.
#define TG_CHECK_REQUIRED_ENTRY_(name, ret, params, args, since, optional)                                  \
  if (!(optional) && !p->has_entry(offsetof(tg_plugin_api, name)))                                         \
    return error(ErrorCode::Plugin, "'" + library + "': its function table lacks the required entry " #name);
  TG_FOR_EACH_ABI_ENTRY(TG_CHECK_REQUIRED_ENTRY_)
#undef TG_CHECK_REQUIRED_ENTRY_
  tg_host_info host = abi_struct<tg_host_info>();
  host.abi_version = api->abi_version;
  host.host_version = options.host_version.c_str();
  tg_plugin* instance = nullptr;
  TG_RETURN_IF_ERROR(p->status(api->init(&host, &instance), "init"));
  if (!instance) return null_output("init", "tg_plugin");
  p->plugin_ = instance;
  return p;
}

Plugin::~Plugin() {
  if (plugin_) api_->shutdown(plugin_);
}

bool Plugin::has_entry(size_t offset) const {
  if (offset + sizeof(void (*)()) > api_->struct_size) return false;
  void (*fn)() = nullptr;
  std::memcpy(&fn, reinterpret_cast<const char*>(api_) + offset, sizeof fn);
  return fn != nullptr;
}

Status Plugin::status(tg_error* e, const std::string& call) const {
  if (!e) {
    last_error = LastError{};
    return Status::ok();
  }
  last_error.code = api_->error_code(e);
  last_error.message = copy(api_->error_message(e));
  api_->error_destroy(e);
  return error(plugin::error_code_for(last_error.code),
               call + ": " + last_error.message + " (" + status_code_name(last_error.code) + ")");
}

std::string Plugin::take_blob(tg_blob& blob) const {
  std::string bytes;
  if (blob.data && blob.size) bytes.assign(static_cast<const char*>(blob.data), blob.size);
  api_->blob_release(&blob);
  return bytes;
}

Result<PluginInfo> Plugin::info() const {
  tg_plugin_info i = abi_struct<tg_plugin_info>();
  TG_RETURN_IF_ERROR(status(api_->get_info(&i), "get_info"));
  if (i.struct_size < TG_PLUGIN_INFO_SIZE_1) return error(ErrorCode::Plugin, "get_info answered a tg_plugin_info of " +
                                                              std::to_string(i.struct_size) + " bytes");
  bool covers = i.struct_size >= offsetof(tg_plugin_info, concurrency) + sizeof(i.concurrency);
  return PluginInfo{copy(i.name), copy(i.vendor), copy(i.version), copy(i.description), covers ? i.concurrency : 0u};
}

Result<uint32_t> Plugin::device_count() const {
  uint32_t n = 0;
  TG_RETURN_IF_ERROR(status(api_->device_count(plugin_, &n), "device_count"));
  return n;
}

Result<DeviceProperties> Plugin::device_properties(uint32_t index) const {
  tg_device_properties p = abi_struct<tg_device_properties>();
  TG_RETURN_IF_ERROR(status(api_->device_properties(plugin_, index, &p), "device_properties"));
  DeviceProperties d;
  d.name = copy(p.name);
  d.vendor = copy(p.vendor);
  d.target = copy(p.target);
  d.driver_version = copy(p.driver_version);
  d.toolkit_version = copy(p.toolkit_version);
  d.memory_bytes = p.memory_bytes;
  d.compute_units = p.compute_units;
  d.device_type = p.device_type;
  return d;
}

Result<std::string> Plugin::device_target_json(uint32_t index) const {
  if (!has_entry(offsetof(tg_plugin_api, device_target)))
    return error(ErrorCode::Unimplemented, "device_target: the plugin does not provide it");
  tg_target_description t = abi_struct<tg_target_description>();
  TG_RETURN_IF_ERROR(status(api_->device_target(plugin_, index, &t), "device_target"));
  if (!t.data && t.size) return null_output("device_target", "description text");
  return std::string(t.data ? t.data : "", t.size);
}

Result<TargetDescription> Plugin::device_target(uint32_t index) const {
  TG_ASSIGN_OR_RETURN(std::string json, device_target_json(index));
  return parse_target(json, "device_target of device " + std::to_string(index));
}

Result<std::unique_ptr<Device>> Plugin::open_device(uint32_t index) {
  std::unique_ptr<Device> d(new Device(*this, index));
  TG_RETURN_IF_ERROR(status(api_->device_open(plugin_, index, &d->device_), "device_open"));
  if (!d->device_) return null_output("device_open", "tg_device");
  TG_RETURN_IF_ERROR(status(api_->queue_create(d->device_, &d->queue_), "queue_create"));
  if (!d->queue_) return null_output("queue_create", "tg_queue");
  return d;
}

Result<std::string> Plugin::compile_offline(const std::string& target_json, const std::string& ir,
                                            const CompileRequest& request) const {
  if (!has_entry(offsetof(tg_plugin_api, compile_offline)))
    return error(ErrorCode::Unimplemented, "compile_offline: the plugin does not provide it");
  tg_target_description t = abi_struct<tg_target_description>();
  t.format = TG_TARGET_FORMAT_JSON_V1;
  t.data = target_json.data();
  t.size = target_json.size();
  tg_compile_request r = compile_request(ir, request);
  tg_blob blob = abi_struct<tg_blob>();
  TG_RETURN_IF_ERROR(status(api_->compile_offline(plugin_, &t, &r, &blob), "compile_offline"));
  return take_blob(blob);
}

Result<std::string> Plugin::describe(const std::string& executable) const {
  if (!has_entry(offsetof(tg_plugin_api, executable_describe)))
    return error(ErrorCode::Unimplemented, "executable_describe: the plugin does not provide it");
  tg_blob text = abi_struct<tg_blob>();
  TG_RETURN_IF_ERROR(status(api_->executable_describe(plugin_, executable.data(), executable.size(), &text),
                            "executable_describe"));
  return take_blob(text);
}

// --- Device -------------------------------------------------------------------------------

Device::~Device() {
  const tg_plugin_api* api = plugin_.api();
  if (queue_) api->queue_destroy(queue_);
  if (device_) api->device_close(device_);
}

Result<std::string> Device::compile(const std::string& ir, const CompileRequest& request) {
  tg_compile_request r = compile_request(ir, request);
  tg_blob blob = abi_struct<tg_blob>();
  TG_RETURN_IF_ERROR(plugin_.status(plugin_.api()->compile(device_, &r, &blob), "compile"));
  return plugin_.take_blob(blob);
}

Result<Executable> Device::load(const std::string& bytes) {
  Executable e;
  e.api_ = plugin_.api();
  TG_RETURN_IF_ERROR(
      plugin_.status(plugin_.api()->executable_load(device_, bytes.data(), bytes.size(), &e.exe_), "executable_load"));
  if (!e.exe_) return null_output("executable_load", "tg_executable");
  return e;
}

Result<Buffer> Device::alloc(uint64_t size) {
  Buffer b;
  b.api_ = plugin_.api();
  b.size_ = size;
  TG_RETURN_IF_ERROR(plugin_.status(plugin_.api()->buffer_alloc(device_, size, &b.buffer_), "buffer_alloc"));
  if (!b.buffer_) return null_output("buffer_alloc", "tg_buffer");
  return b;
}

Status Device::write(const Buffer& dst, const void* src, uint64_t size, uint64_t offset) {
  return plugin_.status(plugin_.api()->copy_h2d(queue_, dst.handle(), offset, src, size), "copy_h2d");
}

Status Device::read(const Buffer& src, void* dst, uint64_t size, uint64_t offset) {
  TG_RETURN_IF_ERROR(plugin_.status(plugin_.api()->copy_d2h(queue_, dst, src.handle(), offset, size), "copy_d2h"));
  return synchronize();
}

Status Device::launch(const Executable& exe, std::array<uint32_t, 3> grid, const std::vector<tg_launch_arg>& args) {
  tg_launch_params lp = abi_struct<tg_launch_params>();
  for (int d = 0; d < 3; ++d) lp.grid[d] = grid[size_t(d)];
  lp.args = args.data();
  lp.arg_count = args.size();
  return plugin_.status(plugin_.api()->launch(queue_, exe.handle(), &lp), "launch");
}

Status Device::synchronize() { return plugin_.status(plugin_.api()->queue_synchronize(queue_), "queue_synchronize"); }

}  // namespace tegula::plugin_testing
