/// \file
/// The code generator's entry point (see Codegen.h).
#include "plugins/cpu/codegen/Codegen.h"

#include <memory>

#include "plugins/cpu/codegen/Emitter.h"

namespace tegula::cpu {

Result<CodegenResult> generate(const ir::Kernel& kernel, const CodegenOptions& options, llvm::LLVMContext& context) {
  CodegenResult out;
  out.module = std::make_unique<llvm::Module>("tegula." + kernel.name, context);
  out.entry = "tegula_kernel_" + kernel.name;
  Emitter emitter(kernel, options, context, *out.module);
  TG_RETURN_IF_ERROR(emitter.run(out.entry));
  out.arena_bytes = emitter.arena_bytes();
  return out;
}

}  // namespace tegula::cpu
