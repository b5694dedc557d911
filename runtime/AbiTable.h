/// \file
/// What the host checks in the function table a plugin's tg_plugin_query returns before it
/// calls anything in it: the version is one the host offered, the table is at least as
/// large as that version's, and every required entry is present.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "core/Status.h"
#include "plugins/abi/tegula_plugin.h"

namespace tegula::runtime {

/// One function pointer of tg_plugin_api.
struct ApiEntry {
  const char* name;
  size_t offset;
  uint32_t since;  ///< the ABI version that added it
  bool optional;   ///< may be NULL (documented "(optional)" in the header)
};

/// Every entry of the table, in header order.
const std::vector<ApiEntry>& api_entries();

/// The smallest struct_size a version-`abi_version` table may have: the end of its last
/// required entry (optional entries past the end count as NULL); 0 for a version this host
/// does not know.
size_t required_table_size(uint32_t abi_version);

/// Whether the entry at `offset` lies within the table's struct_size and is not NULL. Read
/// optional entries only through this.
bool has_entry(const tg_plugin_api* api, size_t offset);

/// Ok, or a Plugin error saying why the table is refused.
Status check_api_table(const tg_plugin_api* api, uint32_t host_min, uint32_t host_max);

}  // namespace tegula::runtime
