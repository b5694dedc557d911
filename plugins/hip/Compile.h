/// \file
/// Lowered IR text -> executable for an AMD GPU: read the lowered form (ir::read_lowered),
/// generate LLVM IR for amdgcn-amd-amdhsa (codegen/), compile it to a relocatable object with
/// LLVM's TargetMachine in process and link it into an HSA code object with lld (liblld, in
/// process). Shared by compile (a device's target) and compile_offline (any AMD description;
/// no GPU needed).
///
/// The executable is the SDK's container (magic "tghipexe"); its fields, in order: the target
/// name, the kernel's symbol, the lowered IR text (executable_load reads the launch signature
/// and grid back from it), the code object and the optimised LLVM IR
/// (executable_describe shows it and the assembly compiled from it).
#pragma once

#include <string>
#include <string_view>

#include "core/Status.h"
#include "targets/Target.h"

namespace tegula::hip {

struct Executable {
  std::string target;
  std::string kernel_name;
  std::string lowered;
  std::string code_object;
  std::string llvm_ir;  ///< after O3
};

/// Ok for a description this toolchain compiles for (gfx942); Unsupported with the reason
/// for another vendor's, and for gfx950 ("LLVM 19 cannot target gfx950").
Status check_target(const TargetDescription& target);

/// `options`: "key=value" lines; none are defined yet, so any is an error.
Result<Executable> compile_lowered(std::string_view lowered_text, const TargetDescription& target,
                                   const std::string& options);

/// The LLVM IR the generator writes for a lowered kernel, before optimisation (tegula_hip_gen).
Result<std::string> generate_llvm_ir(std::string_view lowered_text, const TargetDescription& target);

/// The assembly of an executable (codegen/Toolchain.h assembly_of).
Result<std::string> executable_assembly(const Executable& e);

std::string encode_executable(const Executable& e);
/// Corrupt errors for anything that does not read back.
Result<Executable> decode_executable(const void* data, size_t size);

}  // namespace tegula::hip
