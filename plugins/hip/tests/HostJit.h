// The hip tests that run generated IR on the host: the code generator's functions are
// target-independent LLVM IR, so an ORC JIT for the host CPU compiles them and the tests call
// them directly (narrow_rounding_matches_dtype_test, bitcast_matches_interpreter_test).
#pragma once

#include <doctest/doctest.h>

#include <memory>
#include <string>

#include "llvm/ExecutionEngine/Orc/LLJIT.h"
#include "llvm/Support/TargetSelect.h"

namespace tegula::hip::testing {

/// A JIT holding `mod` (built in `ctx`); fails the test when LLVM refuses either.
inline std::unique_ptr<llvm::orc::LLJIT> host_jit(std::unique_ptr<llvm::Module> mod, std::unique_ptr<llvm::LLVMContext> ctx) {
  auto jit = llvm::orc::LLJITBuilder().create();
  bool made = bool(jit);
  if (!made) llvm::consumeError(jit.takeError());
  REQUIRE(made);
  llvm::Error added = (*jit)->addIRModule(llvm::orc::ThreadSafeModule(std::move(mod), std::move(ctx)));
  bool failed = bool(added);
  llvm::consumeError(std::move(added));
  REQUIRE_FALSE(failed);
  return std::move(*jit);
}

/// The address of the JIT-compiled function `name`; fails the test when it is missing.
template <typename Fn>
Fn host_function(llvm::orc::LLJIT& jit, const std::string& name) {
  auto addr = jit.lookup(name);
  bool found = bool(addr);
  if (!found) llvm::consumeError(addr.takeError());
  REQUIRE_MESSAGE(found, name);
  return addr->toPtr<Fn>();
}

/// Initialise LLVM's native target once (the JIT needs it).
inline void init_host_target() {
  llvm::InitializeNativeTarget();
  llvm::InitializeNativeTargetAsmPrinter();
}

}  // namespace tegula::hip::testing
