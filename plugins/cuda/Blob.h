/// \file
/// The executable the cuda plugin hands the host: a cubin with what a launch needs beside it.
///
/// The container is the SDK's (plugins/support/Container.h: magic "tgcudaex", version,
/// size, SHA-256); its fields, in order: the architecture ("sm_90a"), the launch metadata
/// (text, one fact per line), the PTX and the cubin.
///
/// Any mismatch (magic, version, length, digest, a malformed metadata line) is refused as
/// corrupt, so bytes from a stale cache or another plugin are never run.
#pragma once

#include <string>

#include "core/Status.h"
#include "plugins/cuda/codegen/CodeGen.h"

namespace tegula::cuda {

struct Executable {
  std::string arch;
  KernelInfo info;
  std::string ptx;
  std::string cubin;
};

std::string encode_executable(const Executable& e);
/// Corrupt errors for anything that does not read back.
Result<Executable> decode_executable(const void* data, size_t size);

}  // namespace tegula::cuda
