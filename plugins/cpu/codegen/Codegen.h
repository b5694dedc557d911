/// \file
/// The CPU code generator's entry point: a lowered kernel (ir::read_lowered) becomes an LLVM
/// module with one function that runs a range of blocks (CpuAbi.h).
///
/// How the tile IR maps to a core: a block runs on one core. Shared and fragment buffers are
/// per-block arrays in the worker's arena, in their dtype's encoding; the lowering's thread
/// distributions, pipelines and barriers are ignored (a block is one thread of control, so
/// barriers are no-ops and a pipelined loop is a plain loop). Tile ops become loop nests whose
/// innermost loop runs along contiguous memory, which LLVM's vectoriser turns into vector
/// code; f32 gemms (any float inputs, f32 accumulator) use a register-blocked microkernel
/// written directly in vector IR. Arithmetic on f16, bf16, tf32 and fp8 values is done in
/// f32 (f64 stays f64), and every store rounds to its dtype with exactly the rules of
/// core/DType.h.
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "core/Status.h"
#include "ir/IR.h"

namespace llvm {
class LLVMContext;
class Module;
}  // namespace llvm

namespace tegula::cpu {

struct CodegenOptions {
  std::string cpu_name;      ///< LLVM CPU name (function attribute target-cpu)
  std::string cpu_features;  ///< LLVM feature string (target-features)
  uint32_t f32_lanes = 8;    ///< f32 lanes of the vectors the microkernel uses (8 or 16)
  uint32_t vector_bits = 256;  ///< preferred vector width for the loop vectoriser
  uint32_t gemm_mr = 0;      ///< microkernel rows; 0 picks from the register count
  uint32_t gemm_nr_vectors = 0;  ///< microkernel columns in vectors; 0 picks
};

struct CodegenResult {
  std::unique_ptr<llvm::Module> module;
  std::string entry;          ///< the entry function's symbol
  uint64_t arena_bytes = 0;   ///< scratch memory one worker needs
};

Result<CodegenResult> generate(const ir::Kernel& kernel, const CodegenOptions& options, llvm::LLVMContext& context);

}  // namespace tegula::cpu
