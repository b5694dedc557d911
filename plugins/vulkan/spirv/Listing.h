/// \file
/// A plain listing of SPIR-V words, one instruction per line with its opcode's name (for
/// the opcodes this generator emits) and its operands as numbers: what
/// executable_describe shows when spirv-dis is not installed.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace tegula::vulkan {

std::string spirv_listing(const std::vector<uint32_t>& words);

/// spirv-dis's text for the words when spirv-dis is on the PATH and accepts them (run on a
/// temporary file), else spirv_listing's.
std::string spirv_text(const std::vector<uint32_t>& words);

}  // namespace tegula::vulkan
