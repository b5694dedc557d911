// Helpers for tests that need no device: synthetic device descriptions (lavapipe-like and
// H200-like, from what those devices report), lowering for them, generating SPIR-V and
// validating it with spirv-val.
#pragma once

#include <doctest/doctest.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <unistd.h>
#include <vector>

#include "core/Files.h"
#include "ir/Lower.h"
#include "ir/Parser.h"
#include "ir/Printer.h"
#include "plugins/vulkan/DeviceTarget.h"
#include "plugins/vulkan/KnownDevices.h"
#include "plugins/vulkan/codegen/CodegenTarget.h"
#include "plugins/vulkan/codegen/Generate.h"
#include "targets/Target.h"

namespace tegula::vulkan::testing {

inline TargetDescription describe(const DeviceCaps& c) {
  auto t = parse_target(device_target_json(c), "test device");
  REQUIRE_MESSAGE(t.is_ok(), t.status().str());
  return *t;
}

inline std::string example_text(const std::string& rel) {
  auto t = read_file(std::string(TEGULA_SOURCE_DIR) + "/examples/" + rel);
  REQUIRE_MESSAGE(t.is_ok(), t.status().str());
  return *t;
}

/// Lower a kernel's text for a description; the lowered kernel as the plugin reads it.
inline Result<ir::Kernel> lower_for(const std::string& text, const TargetDescription& t) {
  TG_ASSIGN_OR_RETURN(ir::Kernel k, ir::parse_and_verify(text, "test.tile"));
  TG_ASSIGN_OR_RETURN(ir::LowerResult r, ir::lower(k, t));
  return ir::read_lowered(ir::print_kernel(r.kernel));
}

inline Result<GeneratedShader> generate_for(const std::string& text, const TargetDescription& t) {
  TG_ASSIGN_OR_RETURN(ir::Kernel k, lower_for(text, t));
  TG_ASSIGN_OR_RETURN(CodegenTarget ct, codegen_target(t));
  return generate_shader(k, ct);
}

/// How many Workgroup variables of a module are arrays of 4 x u32: the tiles declared as
/// 16-byte words (layout.words).
inline int packed_workgroup_arrays(const std::vector<uint32_t>& words) {
  std::vector<uint32_t> u32, uvec4, array_of_uvec4, ptr_to_packed;
  auto has = [](const std::vector<uint32_t>& v, uint32_t id) {
    for (uint32_t x : v)
      if (x == id) return true;
    return false;
  };
  int count = 0;
  for (size_t i = 5; i < words.size();) {
    uint32_t op = words[i] & 0xffff, len = words[i] >> 16;
    if (len == 0 || i + len > words.size()) break;
    const uint32_t* w = &words[i];
    if (op == 21 && len >= 4 && w[2] == 32 && w[3] == 0) u32.push_back(w[1]);        // OpTypeInt 32 unsigned
    if (op == 23 && len >= 4 && has(u32, w[2]) && w[3] == 4) uvec4.push_back(w[1]);  // OpTypeVector u32 4
    if (op == 28 && len >= 4 && has(uvec4, w[2])) array_of_uvec4.push_back(w[1]);    // OpTypeArray
    if (op == 32 && len >= 4 && w[2] == 4 && has(array_of_uvec4, w[3]))
      ptr_to_packed.push_back(w[1]);                                             // Workgroup pointer
    if (op == 59 && len >= 4 && has(ptr_to_packed, w[1]) && w[3] == 4) ++count;  // OpVariable Workgroup
    i += len;
  }
  return count;
}

/// spirv-val's verdict ("" when valid), or "skip" when spirv-val is not installed. Modules
/// of SPIR-V 1.4 and later (workgroup matrices need 1.6) are checked as Vulkan 1.3 code.
inline std::string spirv_val(const std::vector<uint32_t>& words, const char* env = "vulkan1.1") {
  if (words.size() > 1 && words[1] >= 0x00010400 && std::string(env) == "vulkan1.1") env = "vulkan1.3";
  std::string tool = TEGULA_SPIRV_VAL;
  if (tool.empty() || tool.find("NOTFOUND") != std::string::npos) return "skip";
  char path[] = "/tmp/tegula-test-spirv-XXXXXX";
  int fd = mkstemp(path);
  REQUIRE(fd >= 0);
  REQUIRE(write(fd, words.data(), words.size() * 4) == ssize_t(words.size() * 4));
  close(fd);
  std::string cmd = tool + " --target-env " + env + " " + path + " 2>&1";
  std::string out;
  FILE* p = popen(cmd.c_str(), "r");
  REQUIRE(p);
  char buf[4096];
  size_t n;
  while ((n = fread(buf, 1, sizeof buf, p)) > 0) out.append(buf, n);
  int rc = pclose(p);
  unlink(path);
  if (rc == 0) return "";
  // spirv-val older than SPV_KHR_cooperative_matrix (SPIRV-Tools 2023.1, Debian 12) cannot
  // judge cooperative-matrix modules.
  if (out.find("CooperativeMatrixKHR") != std::string::npos && out.find("Invalid capability") != std::string::npos) return "skip";
  if (out.find("Invalid capability operand: 6022") != std::string::npos) return "skip";
  return out.empty() ? "spirv-val failed" : out;
}

}  // namespace tegula::vulkan::testing
