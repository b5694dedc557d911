/// \file
/// Transfers of plugins whose buffers are plain host memory (cpu, reference), written once:
/// the argument and range checks, the copies (memcpy, and memmove between buffers since the
/// ranges may overlap) and the fill with its pattern checks. Every transfer has finished when
/// its call returns.
///
/// The plugin decides whether a handle is a buffer it holds for the queue's device (with
/// whatever locking it needs) and hands over only the bytes, as a HostBuffer; errors name the
/// plugin ("cpu: copy_h2d: bad argument").
#pragma once

#include <cstdint>

#include "plugins/abi/tegula_plugin.h"

namespace tegula::plugin {

/// A plugin buffer as the host transfers see it. `held` is false when the handle is NULL or
/// not a buffer of the queue's device; the transfer then fails with "bad argument".
struct HostBuffer {
  bool held = false;
  uint8_t* data = nullptr;  ///< nullptr when size is 0
  uint64_t size = 0;
};

tg_error* host_copy_h2d(const char* plugin, HostBuffer dst, uint64_t dst_offset, const void* src, uint64_t size);
tg_error* host_copy_d2h(const char* plugin, void* dst, HostBuffer src, uint64_t src_offset, uint64_t size);
/// Source and destination may be the same buffer with overlapping ranges.
tg_error* host_copy_d2d(const char* plugin, HostBuffer dst, uint64_t dst_offset, HostBuffer src, uint64_t src_offset,
                        uint64_t size);

/// The checks of buffer_fill: a held buffer, a pattern of 1, 2, 4 or 8 bytes, a size that is a
/// multiple of it, a range inside the buffer. nullptr when the fill may go ahead.
tg_error* check_host_fill(const char* plugin, HostBuffer buffer, uint64_t offset, uint64_t size, const void* pattern,
                          uint32_t pattern_size);
/// Repeat the pattern over [bytes, bytes + size), one copy of it at a time (size is a multiple
/// of pattern_size). A plugin with faster ways to fill calls it for the cases it leaves.
void write_fill_pattern(uint8_t* bytes, uint64_t size, const void* pattern, uint32_t pattern_size);
/// check_host_fill, then write_fill_pattern.
tg_error* host_buffer_fill(const char* plugin, HostBuffer buffer, uint64_t offset, uint64_t size, const void* pattern,
                           uint32_t pattern_size);

}  // namespace tegula::plugin
