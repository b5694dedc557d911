/// \file
/// The host-memory transfers of HostMemory.h: checks first, in the order the plugins always
/// made them (handles and pointers, then pattern, then ranges), then one memcpy, memmove or
/// pattern loop.
#include "plugins/support/HostMemory.h"

#include <cstring>
#include <string>

#include "plugins/support/PluginErrors.h"

namespace tegula::plugin {
namespace {

tg_error* bad_argument(const char* plugin, const char* entry) {
  return make_error(TG_ERR_INVALID_ARGUMENT, std::string(plugin) + ": " + entry + ": bad argument");
}

tg_error* out_of_range(const char* plugin, const char* entry, uint64_t offset, uint64_t size, uint64_t buffer_size) {
  return make_error(TG_ERR_INVALID_ARGUMENT, std::string(plugin) + ": " + entry + ": range [" + std::to_string(offset) +
                                                 ", +" + std::to_string(size) + ") outside a buffer of " +
                                                 std::to_string(buffer_size) + " bytes");
}

}  // namespace

tg_error* host_copy_h2d(const char* plugin, HostBuffer dst, uint64_t dst_offset, const void* src, uint64_t size) {
  if (!dst.held || (!src && size)) return bad_argument(plugin, "copy_h2d");
  if (!range_ok(dst.size, dst_offset, size)) return out_of_range(plugin, "copy_h2d", dst_offset, size, dst.size);
  if (size) std::memcpy(dst.data + dst_offset, src, size_t(size));
  return nullptr;
}

tg_error* host_copy_d2h(const char* plugin, void* dst, HostBuffer src, uint64_t src_offset, uint64_t size) {
  if (!src.held || (!dst && size)) return bad_argument(plugin, "copy_d2h");
  if (!range_ok(src.size, src_offset, size)) return out_of_range(plugin, "copy_d2h", src_offset, size, src.size);
  if (size) std::memcpy(dst, src.data + src_offset, size_t(size));
  return nullptr;
}

tg_error* host_copy_d2d(const char* plugin, HostBuffer dst, uint64_t dst_offset, HostBuffer src, uint64_t src_offset,
                        uint64_t size) {
  if (!dst.held || !src.held) return bad_argument(plugin, "copy_d2d");
  if (!range_ok(dst.size, dst_offset, size)) return out_of_range(plugin, "copy_d2d", dst_offset, size, dst.size);
  if (!range_ok(src.size, src_offset, size)) return out_of_range(plugin, "copy_d2d", src_offset, size, src.size);
  // memmove: source and destination may be the same buffer with overlapping ranges.
  if (size) std::memmove(dst.data + dst_offset, src.data + src_offset, size_t(size));
  return nullptr;
}

tg_error* check_host_fill(const char* plugin, HostBuffer buffer, uint64_t offset, uint64_t size, const void* pattern,
                          uint32_t pattern_size) {
  if (!buffer.held || !pattern) return bad_argument(plugin, "buffer_fill");
  if (pattern_size != 1 && pattern_size != 2 && pattern_size != 4 && pattern_size != 8)
    return make_error(TG_ERR_INVALID_ARGUMENT, std::string(plugin) + ": buffer_fill: pattern_size must be 1, 2, 4 or 8");
  if (size % pattern_size)
    return make_error(TG_ERR_INVALID_ARGUMENT,
                      std::string(plugin) + ": buffer_fill: size is not a multiple of pattern_size");
  if (!range_ok(buffer.size, offset, size)) return out_of_range(plugin, "buffer_fill", offset, size, buffer.size);
  return nullptr;
}

void write_fill_pattern(uint8_t* bytes, uint64_t size, const void* pattern, uint32_t pattern_size) {
  for (uint64_t i = 0; i < size; i += pattern_size) std::memcpy(bytes + i, pattern, pattern_size);
}

tg_error* host_buffer_fill(const char* plugin, HostBuffer buffer, uint64_t offset, uint64_t size, const void* pattern,
                           uint32_t pattern_size) {
  if (tg_error* e = check_host_fill(plugin, buffer, offset, size, pattern, pattern_size)) return e;
  write_fill_pattern(buffer.data + offset, size, pattern, pattern_size);
  return nullptr;
}

}  // namespace tegula::plugin
