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
#include "plugins/vulkan/codegen/CodegenTarget.h"
#include "plugins/vulkan/codegen/Generate.h"
#include "targets/Target.h"

namespace tegula::vulkan::testing {

/// Mesa 22.3 lavapipe as vulkaninfo reports it here.
inline DeviceCaps lavapipe_caps() {
  DeviceCaps c;
  c.name = "llvmpipe (LLVM 15.0.6, 256 bits)";
  c.vendor_id = 0x10005;
  c.api_version = (1u << 22) | (3u << 12) | 230;
  c.subgroup_size = 8;
  c.subgroup_shuffle = true;
  c.max_workgroup_invocations = 1024;
  c.max_workgroup_size_x = 1024;
  c.max_shared_memory = 32768;
  c.max_push_constants = 128;
  c.storage8 = c.int8 = c.storage16 = c.int16 = c.float64 = c.int64 = c.float16 = true;
  c.atomic_float32_add = true;
  c.int64_atomics = true;
  return c;
}

/// An H200 through the NVIDIA driver (shared/research/mma.md section 5).
inline DeviceCaps h200_caps() {
  DeviceCaps c;
  c.name = "NVIDIA H200";
  c.vendor_id = 0x10DE;
  c.api_version = (1u << 22) | (4u << 12) | 312;
  c.subgroup_size = 32;
  c.subgroup_shuffle = true;
  c.max_workgroup_invocations = 1024;
  c.max_workgroup_size_x = 1024;
  c.max_shared_memory = 49152;
  c.max_push_constants = 256;
  c.storage8 = c.int8 = c.storage16 = c.int16 = c.float64 = c.int64 = c.float16 = true;
  c.atomic_float32_add = true;
  c.atomic_float64_add = true;
  c.int64_atomics = true;
  c.subgroup_size_control = true;
  c.vulkan_memory_model = true;
  c.min_subgroup_size = c.max_subgroup_size = 32;
  auto add = [&](uint32_t m, uint32_t n, uint32_t k, uint32_t a, uint32_t acc) { c.coopmat.push_back({m, n, k, a, a, acc, acc, false, 3}); };
  for (uint32_t acc : {0u, 1u}) {
    add(16, 16, 16, 0, acc);
    add(16, 8, 16, 0, acc);
    add(16, 8, 8, 0, acc);
  }
  add(16, 16, 32, 7, 9);
  add(16, 8, 32, 7, 9);
  add(16, 16, 32, 3, 5);
  add(16, 8, 32, 3, 5);
  add(16, 16, 16, 1000141000, 1);
  return c;
}

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

/// spirv-val's verdict ("" when valid), or "skip" when spirv-val is not installed.
inline std::string spirv_val(const std::vector<uint32_t>& words, const char* env = "vulkan1.1") {
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
