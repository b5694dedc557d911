#include "runtime/AbiTable.h"

#include <cstdint>
#include <cstring>
#include <string>

#include "plugins/abi/tegula_abi_entries.h"

namespace tegula::runtime {

const std::vector<ApiEntry>& api_entries() {
#define TG_API_ENTRY(name, ret, params, args, since, optional) {#name, offsetof(tg_plugin_api, name), since, optional != 0},
  static const std::vector<ApiEntry> entries = {TG_FOR_EACH_ABI_ENTRY(TG_API_ENTRY)};
#undef TG_API_ENTRY
  return entries;
}

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
