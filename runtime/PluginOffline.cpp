/// \file
/// The plugin ABI's optional cross-compilation entry, compile_offline, called the way
/// Plugin.cpp calls everything else: under the instance's lock, with every answer checked
/// before it is used. A table too short to hold the entry, or holding NULL there, means the
/// plugin does not provide it (Unimplemented).
#include <cstddef>
#include <cstring>

#include "runtime/Plugin.h"

namespace tegula::runtime {
namespace {

/// A plugin output struct followed by a guard zone, as in Plugin.cpp: writing past the
/// struct_size the host gave damages only the guard, which is checked afterwards.
struct GuardedBlob {
  tg_blob value;
  unsigned char guard[64];

  GuardedBlob() {
    std::memset(static_cast<void*>(this), 0, sizeof(*this));
    value.struct_size = sizeof(tg_blob);
    std::memset(guard, 0xa5, sizeof(guard));
  }
  Status check(const std::string& plugin, const char* call) const {
    for (unsigned char c : guard)
      if (c != 0xa5) return error(ErrorCode::Plugin, plugin + ": " + call + " wrote past the end of tg_blob");
    if (value.struct_size < sizeof(tg_blob))
      return error(ErrorCode::Plugin, plugin + ": " + call + " answered a tg_blob of " + std::to_string(value.struct_size) +
                                          " bytes, the ABI needs " + std::to_string(sizeof(tg_blob)));
    if (!value.data && value.size) return error(ErrorCode::Plugin, plugin + ": " + call + " returned a blob with no data");
    if (value.size > (uint64_t(1) << 32)) return error(ErrorCode::Plugin, plugin + ": " + call + " returned over 4 GiB");
    return Status::ok();
  }
};

/// Whether the table is long enough to hold the entry at `offset` and the entry is set.
bool has_entry(const tg_plugin_api* api, size_t offset) {
  if (api->struct_size < offset + sizeof(void*)) return false;
  void* fn = nullptr;
  std::memcpy(&fn, reinterpret_cast<const char*>(api) + offset, sizeof(fn));
  return fn != nullptr;
}

}  // namespace

Result<std::string> PluginInstance::compile_offline(const std::string& target_json, const std::string& ir,
                                                    const std::string& options) {
  std::lock_guard<std::mutex> lock(mu_);
  if (!plugin_) return error(ErrorCode::Plugin, name_ + ": the plugin is shut down");
  if (!has_entry(api_, offsetof(tg_plugin_api, compile_offline)))
    return error(ErrorCode::Unimplemented, name_ + ": offline compilation (compile_offline) is not provided");
  tg_target_description target;
  std::memset(&target, 0, sizeof(target));
  target.struct_size = sizeof(target);
  target.format = TG_TARGET_FORMAT_JSON_V1;
  target.data = target_json.data();
  target.size = target_json.size();
  tg_compile_request request;
  std::memset(&request, 0, sizeof(request));
  request.struct_size = sizeof(request);
  request.ir_format = TG_IR_FORMAT_LOWERED_V1;
  request.ir_data = ir.data();
  request.ir_size = ir.size();
  request.options = options.c_str();
  GuardedBlob blob;
  TG_RETURN_IF_ERROR(to_status(api_->compile_offline(plugin_, &target, &request, &blob.value), "compile_offline"));
  // The blob is the plugin's until blob_release, whatever else is wrong with it.
  Status st = blob.check(name_, "compile_offline");
  std::string bytes;
  if (st.is_ok() && blob.value.size) bytes.assign(static_cast<const char*>(blob.value.data), blob.value.size);
  api_->blob_release(&blob.value);
  if (!st.is_ok()) return st;
  return bytes;
}

}  // namespace tegula::runtime
