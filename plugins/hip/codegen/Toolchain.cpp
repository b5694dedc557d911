/// \file
/// See Toolchain.h. lld is not reentrant across threads (its context is global), so links are
/// serialised; the object passes through a private temporary directory because lld's driver
/// reads and writes files.
#include "plugins/hip/codegen/Toolchain.h"

#include <sys/stat.h>
#include <unistd.h>

#include <cstdlib>
#include <fstream>
#include <mutex>
#include <sstream>

#include "llvm/AsmParser/Parser.h"
#include "llvm/IR/LegacyPassManager.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/Verifier.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Target/TargetMachine.h"

#if TG_HIP_HAVE_LLD
#include "lld/Common/Driver.h"
LLD_HAS_DRIVER(elf)
#endif

namespace tegula::hip {
namespace {

void init_amdgpu() {
  static std::once_flag once;
  std::call_once(once, [] {
    LLVMInitializeAMDGPUTargetInfo();
    LLVMInitializeAMDGPUTarget();
    LLVMInitializeAMDGPUTargetMC();
    LLVMInitializeAMDGPUAsmPrinter();
  });
}

void optimise(llvm::Module& m, llvm::TargetMachine* tm) {
  llvm::LoopAnalysisManager lam;
  llvm::FunctionAnalysisManager fam;
  llvm::CGSCCAnalysisManager cam;
  llvm::ModuleAnalysisManager mam;
  llvm::PassBuilder pb(tm);
  pb.registerModuleAnalyses(mam);
  pb.registerCGSCCAnalyses(cam);
  pb.registerFunctionAnalyses(fam);
  pb.registerLoopAnalyses(lam);
  pb.crossRegisterProxies(lam, fam, cam, mam);
  pb.buildPerModuleDefaultPipeline(llvm::OptimizationLevel::O3).run(m, mam);
}

Result<std::string> emit(llvm::Module& m, llvm::TargetMachine* tm, llvm::CodeGenFileType type) {
  llvm::SmallVector<char, 0> bytes;
  llvm::raw_svector_ostream os(bytes);
  llvm::legacy::PassManager pm;
  if (tm->addPassesToEmitFile(pm, os, nullptr, type))
    return error(ErrorCode::Internal, "hip: the AMDGPU target cannot emit this file type");
  pm.run(m);
  return std::string(bytes.data(), bytes.size());
}

#if TG_HIP_HAVE_LLD
Result<std::string> link(const std::string& object) {
  static std::mutex mutex;
  std::lock_guard<std::mutex> lock(mutex);
  const char* tmp = std::getenv("TMPDIR");
  std::string dir = std::string(tmp && *tmp ? tmp : "/tmp") + "/tegula-hip-XXXXXX";
  if (!mkdtemp(dir.data())) return error(ErrorCode::Internal, "hip: cannot make a temporary directory for lld");
  std::string in = dir + "/kernel.o", out = dir + "/kernel.hsaco";
  auto cleanup = [&] {
    unlink(in.c_str());
    unlink(out.c_str());
    rmdir(dir.c_str());
  };
  {
    std::ofstream f(in, std::ios::binary);
    f.write(object.data(), std::streamsize(object.size()));
    if (!f) {
      cleanup();
      return error(ErrorCode::Internal, "hip: cannot write " + in);
    }
  }
  std::string messages;
  llvm::raw_string_ostream os(messages);
  const char* args[] = {"ld.lld", "-shared", "--no-undefined", in.c_str(), "-o", out.c_str()};
  lld::Result r = lld::lldMain(args, os, os, {{lld::Gnu, &lld::elf::link}});
  os.flush();
  std::ifstream f(out, std::ios::binary);
  std::stringstream elf;
  elf << f.rdbuf();
  cleanup();
  if (r.retCode != 0 || elf.str().empty())
    return error(ErrorCode::Internal, "hip: lld could not link the code object: " + messages);
  return elf.str();
}
#else
Result<std::string> link(const std::string&) {
  return error(ErrorCode::Unsupported,
               "hip: built without liblld (install liblld-19-dev and rebuild): cannot link code objects");
}
#endif

}  // namespace

Result<std::unique_ptr<llvm::TargetMachine>> target_machine(const std::string& gpu) {
  init_amdgpu();
  std::string err;
  const llvm::Target* t = llvm::TargetRegistry::lookupTarget(kTriple, err);
  if (!t) return error(ErrorCode::Unsupported, "hip: LLVM has no AMDGPU target: " + err);
  llvm::TargetOptions options;
  std::unique_ptr<llvm::TargetMachine> tm(t->createTargetMachine(
      kTriple, gpu, "+wavefrontsize64", options, llvm::Reloc::PIC_, std::nullopt, llvm::CodeGenOptLevel::Aggressive));
  if (!tm) return error(ErrorCode::Unsupported, "hip: LLVM cannot make a target machine for " + gpu);
  return tm;
}

Result<CodeObject> build_code_object(llvm::Module& m, const std::string& gpu) {
  TG_ASSIGN_OR_RETURN(std::unique_ptr<llvm::TargetMachine> tm, target_machine(gpu));
  m.setTargetTriple(kTriple);
  m.setDataLayout(tm->createDataLayout());
  m.addModuleFlag(llvm::Module::Error, "amdhsa_code_object_version", 500);
  std::string broken;
  llvm::raw_string_ostream bos(broken);
  if (llvm::verifyModule(m, &bos))
    return error(ErrorCode::Internal, "hip: generated LLVM IR does not verify: " + bos.str());
  optimise(m, tm.get());
  CodeObject out;
  llvm::raw_string_ostream ir_os(out.llvm_ir);
  m.print(ir_os, nullptr);
  ir_os.flush();
  TG_ASSIGN_OR_RETURN(std::string object, emit(m, tm.get(), llvm::CodeGenFileType::ObjectFile));
  TG_ASSIGN_OR_RETURN(out.elf, link(object));
  return out;
}

Result<std::string> assembly_of(const std::string& llvm_ir, const std::string& gpu) {
  TG_ASSIGN_OR_RETURN(std::unique_ptr<llvm::TargetMachine> tm, target_machine(gpu));
  llvm::LLVMContext context;
  llvm::SMDiagnostic diag;
  std::unique_ptr<llvm::Module> m = llvm::parseAssemblyString(llvm_ir, diag, context);
  if (!m) return error(ErrorCode::Corrupt, "hip: the executable's LLVM IR does not parse: " + diag.getMessage().str());
  return emit(*m, tm.get(), llvm::CodeGenFileType::AssemblyFile);
}

}  // namespace tegula::hip
