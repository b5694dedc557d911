#include "runtime/AbiTable.h"

#include <cstdint>
#include <cstring>
#include <string>

namespace tegula::runtime {

#define TG_ENTRY(field, since, optional) {#field, offsetof(tg_plugin_api, field), since, optional}

const std::vector<ApiEntry>& api_entries() {
  static const std::vector<ApiEntry> entries = {
      TG_ENTRY(error_code, 1, false),        TG_ENTRY(error_message, 1, false),
      TG_ENTRY(error_destroy, 1, false),     TG_ENTRY(get_info, 1, false),
      TG_ENTRY(init, 1, false),              TG_ENTRY(shutdown, 1, false),
      TG_ENTRY(device_count, 1, false),      TG_ENTRY(device_properties, 1, false),
      TG_ENTRY(device_target, 1, true),      TG_ENTRY(device_open, 1, false),
      TG_ENTRY(device_close, 1, false),      TG_ENTRY(queue_create, 1, false),
      TG_ENTRY(queue_destroy, 1, false),     TG_ENTRY(queue_synchronize, 1, false),
      TG_ENTRY(buffer_alloc, 1, false),      TG_ENTRY(buffer_free, 1, false),
      TG_ENTRY(copy_h2d, 1, false),          TG_ENTRY(copy_d2h, 1, false),
      TG_ENTRY(copy_d2d, 1, false),          TG_ENTRY(buffer_fill, 1, false),
      TG_ENTRY(compile, 1, false),           TG_ENTRY(blob_release, 1, false),
      TG_ENTRY(executable_load, 1, false),   TG_ENTRY(executable_free, 1, false),
      TG_ENTRY(launch, 1, false),            TG_ENTRY(event_create, 1, false),
      TG_ENTRY(event_destroy, 1, false),     TG_ENTRY(event_record, 1, false),
      TG_ENTRY(event_synchronize, 1, false), TG_ENTRY(event_elapsed_ms, 1, true),
      TG_ENTRY(compile_offline, 1, true),    TG_ENTRY(executable_describe, 1, true),
  };
  return entries;
}

#undef TG_ENTRY

size_t required_table_size(uint32_t abi_version) {
  if (abi_version != TG_ABI_VERSION_1) return 0;
  // Up to the last required entry: optional entries at the end of the table may lie beyond
  // a plugin's struct_size (a table built before they were appended) and then count as NULL.
  size_t size = 0;
  for (const ApiEntry& e : api_entries())
    if (!e.optional && e.since <= abi_version) size = e.offset + sizeof(void*);
  return size;
}

bool has_entry(const tg_plugin_api* api, size_t offset) {
  if (offset + sizeof(void*) > api->struct_size) return false;
  void* fn = nullptr;
  std::memcpy(&fn, reinterpret_cast<const char*>(api) + offset, sizeof(fn));
  return fn != nullptr;
}

Status check_api_table(const tg_plugin_api* api, uint32_t host_min, uint32_t host_max) {
  if (!api) return error(ErrorCode::Plugin, "tg_plugin_query returned NULL");
  uint32_t v = api->abi_version;
  if (v < host_min || v > host_max)
    return error(ErrorCode::Plugin, "tg_plugin_query answered ABI version " + std::to_string(v) +
                                        ", outside the versions the host offered (" + std::to_string(host_min) +
                                        ".." + std::to_string(host_max) + ")");
  size_t need = required_table_size(v);
  if (api->struct_size < need)
    return error(ErrorCode::Plugin, "function table is " + std::to_string(api->struct_size) + " bytes, ABI " +
                                        std::to_string(v) + " needs at least " + std::to_string(need));
  for (const ApiEntry& e : api_entries()) {
    if (e.optional || e.since > v) continue;
    if (!has_entry(api, e.offset)) return error(ErrorCode::Plugin, std::string("required entry '") + e.name + "' is NULL");
  }
  return Status::ok();
}

}  // namespace tegula::runtime
