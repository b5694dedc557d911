/// \file
/// The executable format: what compile() returns and executable_load() reads back, here or
/// in another process. All integers little-endian.
///
/// The container is the SDK's (plugins/support/Container.h: magic "tgvkspv\0", version,
/// size, SHA-256); its fields, in order: target name, target hash, kernel name, the lowered
/// IR text, the shader interface (u32s: spirv version, workgroup size, shared bytes, push
/// bytes, subgroup size, binding count + one argument index each, push entry count +
/// (argument, kind, offset) each, the fault-word flag), the fault sites (one line each,
/// codegen/Generate.h) and the SPIR-V words.
///
/// Any mismatch (magic, version, size, digest, a field that runs past the end, a push
/// constant outside the push bytes, SPIR-V without its magic number) is TG_ERR_CORRUPT, so a
/// stale or damaged cache entry is refused and rebuilt rather than misread.
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
