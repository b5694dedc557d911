/// \file
/// The executable format: what compile() returns and executable_load() reads back, here or
/// in another process. All integers little-endian.
///
///   bytes 0-7     magic "tgvkspv\0"
///   bytes 8-11    format version (1)
///   bytes 12-15   zero
///   bytes 16-23   total size in bytes
///   bytes 24-55   SHA-256 of bytes 56..end
///   bytes 56-     fields, each a u32 or a string (u32 length + bytes, padded to 4):
///                 target name, target hash, kernel name, the lowered IR text,
///                 spirv version, workgroup size, shared bytes, push bytes, subgroup size,
///                 binding count + one argument index each,
///                 push entry count + (argument, kind, offset) each,
///                 word count + the SPIR-V words
///
/// Any mismatch (magic, version, size, digest, a field that runs past the end, a push
/// constant outside the push bytes, SPIR-V without its magic number) is TG_ERR_CORRUPT, so a stale or damaged cache entry is
/// refused and rebuilt rather than misread.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/Status.h"
#include "plugins/vulkan/codegen/Generate.h"

namespace tegula::vulkan {

struct Executable {
  std::string target_name;
  std::string target_hash;
  std::string kernel_name;
  std::string ir_text;
  ShaderInterface iface;
  std::vector<uint32_t> words;
};

std::string write_executable(const Executable& e);
/// Corrupt on any damage.
Result<Executable> read_executable(const void* data, size_t size);

}  // namespace tegula::vulkan
