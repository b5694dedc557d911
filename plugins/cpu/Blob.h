/// \file
/// The CPU plugin's executable format: host object code behind a header that names the CPU
/// it was compiled for, so bytes from a stale cache, another plugin or another machine are
/// refused (TG_ERR_CORRUPT, which makes the runtime compile again) instead of run.
///
/// The container is the SDK's (plugins/support/Container.h: magic "tgcpuexe", version,
/// size, SHA-256), its fields, in order:
///     host identity (HostCpu::identity(): triple, LLVM CPU name, feature flags)
///     host brand string (for messages)
///     entry symbol name
///     the compile options it was built with
///     arena bytes (a u64 field)
///     the lowered IR text (the launch signature, grid and shapes come from it)
///     the ELF object
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "core/Status.h"

namespace tegula::cpu {

struct BlobContents {
  std::string host_identity;
  std::string host_brand;
  std::string entry;
  std::string options;
  uint64_t arena_bytes = 0;
  std::string ir_text;
  std::string object;
};

std::string write_blob(const BlobContents& contents);

/// Parse and check a blob: Corrupt when the bytes are damaged or not a cpu executable, or
/// when they were compiled for a CPU other than `host_identity`.
Result<BlobContents> read_blob(std::string_view bytes, const std::string& host_identity);

}  // namespace tegula::cpu
