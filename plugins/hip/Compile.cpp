/// \file
/// The compile path and the executable container; see Compile.h.
#include "plugins/hip/Compile.h"

#include "ir/Lower.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/raw_ostream.h"
#include "plugins/hip/codegen/Emitter.h"
#include "plugins/hip/codegen/Toolchain.h"
#include "plugins/support/Container.h"

namespace tegula::hip {
namespace {

constexpr const char* kMagic = "tghipexe";
constexpr uint32_t kFormat = 3;

}  // namespace

Status check_target(const TargetDescription& target) {
  if (target.backend != Backend::Hip)
    return error(ErrorCode::Unsupported, "hip: '" + target.name + "' is not an AMD GPU description (backend hip)");
  if (target.name == "gfx950")
    return error(ErrorCode::Unsupported, "hip: LLVM 19 cannot target gfx950 (its description stays data)");
  if (target.name != "gfx942")
    return error(ErrorCode::Unsupported, "hip: no code generation for '" + target.name + "' (gfx942 only)");
  if (target.subgroup_width != 64)
    return error(ErrorCode::Unsupported, "hip: the description's subgroup is not wave64");
  return Status::ok();
}

Result<Executable> compile_lowered(std::string_view text, const TargetDescription& target, const std::string& options) {
  TG_RETURN_IF_ERROR(check_target(target));
  if (options.find_first_not_of(" \t\r\n") != std::string::npos)
    return error(ErrorCode::InvalidArgument, "hip: unknown compile options: " + options);
  TG_ASSIGN_OR_RETURN(ir::Kernel kernel, ir::read_lowered(text, target, "<lowered>"));
  llvm::LLVMContext context;
  llvm::Module module(kernel.name, context);
  Emitter emitter(kernel, target, context, module);
  TG_RETURN_IF_ERROR(emitter.run());
  TG_ASSIGN_OR_RETURN(CodeObject code, build_code_object(module, target.name));
  Executable e;
  e.target = target.name;
  e.kernel_name = kernel.name;
  e.lowered = std::string(text);
  e.code_object = std::move(code.elf);
  e.llvm_ir = std::move(code.llvm_ir);
  return e;
}

Result<std::string> generate_llvm_ir(std::string_view text, const TargetDescription& target) {
  TG_RETURN_IF_ERROR(check_target(target));
  TG_ASSIGN_OR_RETURN(ir::Kernel kernel, ir::read_lowered(text, target, "<lowered>"));
  llvm::LLVMContext context;
  llvm::Module module(kernel.name, context);
  Emitter emitter(kernel, target, context, module);
  TG_RETURN_IF_ERROR(emitter.run());
  std::string out;
  llvm::raw_string_ostream os(out);
  module.print(os, nullptr);
  return os.str();
}

Result<std::string> executable_assembly(const Executable& e) { return assembly_of(e.llvm_ir, e.target); }

std::string encode_executable(const Executable& e) {
  return plugin::ContainerWriter(kMagic, kFormat)
      .field(e.target)
      .field(e.kernel_name)
      .field(e.lowered)
      .field(e.code_object)
      .field(e.llvm_ir)
      .finish();
}

Result<Executable> decode_executable(const void* data, size_t size) {
  TG_ASSIGN_OR_RETURN(plugin::ContainerReader r,
                      plugin::ContainerReader::open(data, size, kMagic, kFormat, "hip executable"));
  Executable e;
  TG_ASSIGN_OR_RETURN(std::string_view target, r.field("target"));
  TG_ASSIGN_OR_RETURN(std::string_view name, r.field("kernel name"));
  TG_ASSIGN_OR_RETURN(std::string_view lowered, r.field("lowered IR"));
  TG_ASSIGN_OR_RETURN(std::string_view code, r.field("code object"));
  TG_ASSIGN_OR_RETURN(std::string_view llvm_ir, r.field("LLVM IR"));
  TG_RETURN_IF_ERROR(r.finish());
  e.target = std::string(target);
  e.kernel_name = std::string(name);
  e.lowered = std::string(lowered);
  e.code_object = std::string(code);
  e.llvm_ir = std::string(llvm_ir);
  return e;
}

}  // namespace tegula::hip
