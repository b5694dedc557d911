/// \file
/// Host TargetMachine, optimisation, object emission and the ORC JIT (see Jit.h).
#include "plugins/cpu/Jit.h"

#include <memory>
#include <mutex>

#include "llvm/Analysis/TargetLibraryInfo.h"
#include "llvm/ExecutionEngine/Orc/ExecutionUtils.h"
#include "llvm/ExecutionEngine/Orc/LLJIT.h"
#include "llvm/IR/LegacyPassManager.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/Verifier.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Target/TargetMachine.h"
#include "llvm/TargetParser/Triple.h"

namespace tegula::cpu {
namespace {

std::string llvm_message(llvm::Error e) { return llvm::toString(std::move(e)); }

Result<std::unique_ptr<llvm::TargetMachine>> host_machine(const HostCpu& host) {
  std::string err;
  const llvm::Target* target = llvm::TargetRegistry::lookupTarget(host.triple, err);
  if (!target) return error(ErrorCode::Unsupported, "no LLVM target for " + host.triple + ": " + err);
  llvm::TargetOptions options;  // IEEE arithmetic: no fast-math, no contraction of separate ops
  std::unique_ptr<llvm::TargetMachine> tm(target->createTargetMachine(
      host.triple, host.cpu_name, host.features, options, llvm::Reloc::PIC_, llvm::CodeModel::Small,
      llvm::CodeGenOptLevel::Aggressive));
  if (!tm) return error(ErrorCode::Unsupported, "LLVM cannot make a target machine for " + host.cpu_name);
  return tm;
}

}  // namespace

JitHandle::~JitHandle() {
  if (!jit || !dylib) return;
  std::lock_guard<std::mutex> lock(*mu);
  llvm::consumeError(jit->getExecutionSession().removeJITDylib(*dylib));
}

Status initialize_llvm() {
  static std::once_flag once;
  static bool ok = false;
  std::call_once(once, [] {
    ok = !llvm::InitializeNativeTarget() && !llvm::InitializeNativeTargetAsmPrinter() &&
         !llvm::InitializeNativeTargetAsmParser();
  });
  if (!ok) return error(ErrorCode::Unsupported, "LLVM has no native target for this machine");
  return Status::ok();
}

Result<std::string> optimize_and_emit(llvm::Module& module, const HostCpu& host, EmitKind kind,
                                      std::string* optimized_ir) {
  TG_ASSIGN_OR_RETURN(std::unique_ptr<llvm::TargetMachine> tm, host_machine(host));
  module.setTargetTriple(host.triple);
  module.setDataLayout(tm->createDataLayout());
  std::string problems;
  llvm::raw_string_ostream problem_stream(problems);
  if (llvm::verifyModule(module, &problem_stream))
    return error(ErrorCode::Internal, "the generated LLVM IR does not verify: " + problems);

  llvm::LoopAnalysisManager lam;
  llvm::FunctionAnalysisManager fam;
  llvm::CGSCCAnalysisManager cgam;
  llvm::ModuleAnalysisManager mam;
  llvm::PipelineTuningOptions tuning;
  tuning.LoopVectorization = true;
  tuning.SLPVectorization = true;
  tuning.LoopUnrolling = true;
  llvm::PassBuilder pb(tm.get(), tuning);
  llvm::TargetLibraryInfoImpl tlii{llvm::Triple(host.triple)};
  fam.registerPass([&] { return llvm::TargetLibraryAnalysis(tlii); });
  pb.registerModuleAnalyses(mam);
  pb.registerCGSCCAnalyses(cgam);
  pb.registerFunctionAnalyses(fam);
  pb.registerLoopAnalyses(lam);
  pb.crossRegisterProxies(lam, fam, cgam, mam);
  llvm::ModulePassManager mpm = pb.buildPerModuleDefaultPipeline(llvm::OptimizationLevel::O3);
  mpm.run(module, mam);
  if (optimized_ir) {
    llvm::raw_string_ostream os(*optimized_ir);
    module.print(os, nullptr);
  }

  llvm::SmallVector<char, 0> bytes;
  llvm::raw_svector_ostream os(bytes);
  llvm::legacy::PassManager emit;
  auto file_type = kind == EmitKind::Object ? llvm::CodeGenFileType::ObjectFile : llvm::CodeGenFileType::AssemblyFile;
  if (tm->addPassesToEmitFile(emit, os, nullptr, file_type))
    return error(ErrorCode::Unsupported, "LLVM cannot emit code for " + host.cpu_name);
  emit.run(module);
  return std::string(bytes.begin(), bytes.end());
}

Result<std::unique_ptr<Jit>> Jit::create() {
  TG_RETURN_IF_ERROR(initialize_llvm());
  auto builder = llvm::orc::JITTargetMachineBuilder::detectHost();
  if (!builder) return error(ErrorCode::Unsupported, "ORC cannot describe the host: " + llvm_message(builder.takeError()));
  auto jit = llvm::orc::LLJITBuilder().setJITTargetMachineBuilder(std::move(*builder)).create();
  if (!jit) return error(ErrorCode::Device, "ORC LLJIT: " + llvm_message(jit.takeError()));
  std::unique_ptr<Jit> out(new Jit);
  out->jit_ = std::move(*jit);
  return out;
}

Jit::~Jit() = default;

Result<std::unique_ptr<JitHandle>> Jit::load(std::string_view object, const std::string& entry, void** out_address) {
  std::lock_guard<std::mutex> lock(mu_);
  std::string name = "tegula_executable_" + std::to_string(next_id_++);
  auto dylib = jit_->createJITDylib(name);
  if (!dylib) return error(ErrorCode::Device, "ORC: " + llvm_message(dylib.takeError()));
  auto handle = std::make_unique<JitHandle>();
  handle->jit = jit_.get();
  handle->dylib = &*dylib;
  handle->mu = &mu_;
  // libm (f64 exp, log, tanh) and libc (memcpy, memset) come from the process.
  auto process = llvm::orc::DynamicLibrarySearchGenerator::GetForCurrentProcess(jit_->getDataLayout().getGlobalPrefix());
  if (!process) return error(ErrorCode::Device, "ORC: " + llvm_message(process.takeError()));
  dylib->addGenerator(std::move(*process));
  auto buffer = llvm::MemoryBuffer::getMemBufferCopy(llvm::StringRef(object.data(), object.size()), name);
  if (llvm::Error e = jit_->addObjectFile(*dylib, std::move(buffer)))
    return error(ErrorCode::Corrupt, "the object code does not link: " + llvm_message(std::move(e)));
  auto address = jit_->lookup(*dylib, entry);
  if (!address) return error(ErrorCode::Corrupt, "the object code does not link: " + llvm_message(address.takeError()));
  *out_address = address->toPtr<void*>();
  return handle;
}

}  // namespace tegula::cpu
