/// \file
/// LLVM 19 in process: the AMDGPU TargetMachine (O3, then object code) and lld's
/// ELF driver (liblld), which links the relocatable object into an HSA code object, the shared
/// ELF that hipModuleLoadData takes. Nothing is executed outside the process.
#pragma once

#include <memory>
#include <string>

#include "core/Status.h"

namespace llvm {
class Module;
}

namespace tegula::hip {

struct CodeObject {
  std::string elf;       ///< the linked code object
  std::string llvm_ir;   ///< the module after O3 (the catalogue's mnemonics are intrinsic names)
};

/// The triple every module is built for.
inline constexpr const char* kTriple = "amdgcn-amd-amdhsa";

/// Prepare `module` for `gpu` (data layout, triple, code object version 5), optimise it at O3
/// and compile and link it.
Result<CodeObject> build_code_object(llvm::Module& module, const std::string& gpu);

/// The assembly (kernel descriptor and register counts included) of a CodeObject's llvm_ir:
/// the backend runs again, only when someone asks to see the code (executable_describe), so a
/// compile runs it once.
Result<std::string> assembly_of(const std::string& llvm_ir, const std::string& gpu);

}  // namespace tegula::hip
