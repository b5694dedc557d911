/// \file
/// The LLVM side of the CPU plugin: a TargetMachine for the host, the O3 pipeline, object
/// emission, and an ORC LLJIT that links finished object code (executable_load never
/// compiles: the runtime's disk cache keeps object code).
#pragma once

#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>

#include "core/Status.h"
#include "plugins/cpu/Host.h"

namespace llvm {
class Module;
namespace orc {
class LLJIT;
class JITDylib;
}
}  // namespace llvm

namespace tegula::cpu {

/// Register the native target with LLVM (idempotent, thread-safe).
Status initialize_llvm();

enum class EmitKind { Object, Assembly };

/// Run the O3 pipeline for the host CPU over `module` (which must verify), then emit it.
Result<std::string> optimize_and_emit(llvm::Module& module, const HostCpu& host, EmitKind kind,
                                      std::string* optimized_ir = nullptr);

/// Code linked into the JIT; unlinked (its memory freed) when destroyed.
struct JitHandle {
  llvm::orc::LLJIT* jit = nullptr;
  llvm::orc::JITDylib* dylib = nullptr;
  std::mutex* mu = nullptr;  ///< the Jit's: unlinking may race a load on another thread
  ~JitHandle();
};

class Jit {
public:
  static Result<std::unique_ptr<Jit>> create();
  ~Jit();

  /// Link an object file and find `entry` in it. Safe on several threads at once
  /// (executable_load under TG_CONCURRENT_COMPILE).
  Result<std::unique_ptr<JitHandle>> load(std::string_view object, const std::string& entry, void** out_address);

private:
  Jit() = default;
  std::unique_ptr<llvm::orc::LLJIT> jit_;
  std::mutex mu_;  ///< guards next_id_ and every change to the JIT's dylibs
  uint64_t next_id_ = 0;
};

}  // namespace tegula::cpu
