/// \file
/// The decisions instruction selection records on a gemm (`mma.*` attributes) and the
/// fragment distributions they imply. Shared by the passes, the lowered-IR checks and the
/// interpreter, so all three read the same facts the same way.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/Status.h"
#include "ir/IR.h"
#include "ir/lower/Distribution.h"
#include "targets/MatrixQuery.h"
#include "targets/Target.h"

namespace tegula::ir {

/// mma.inst, mma.kind, mma.atom=[m, n, k], mma.groups=[gm, gn], mma.repeat=[rm, rn],
/// mma.a / mma.b = registers | shared (where the instruction takes each operand from),
/// mma.padded=[Mp, Np, Kp] (the legal tile; equal to the gemm's when no padding).
struct GemmPlan {
  std::string inst;  ///< catalogue id, or "fma"
  InstructionKind kind = InstructionKind::Fma;
  int64_t m = 1, n = 1, k = 1;       ///< the atom
  int64_t gm = 1, gn = 1;            ///< issuing groups along M and N
  int64_t rm = 1, rn = 1;            ///< atoms per group along M and N
  int64_t group_threads = 1;
  OperandLocation a_from = OperandLocation::Shared;
  OperandLocation b_from = OperandLocation::Shared;
  int64_t Mp = 0, Np = 0, Kp = 0;    ///< padded tile

  bool is_fma() const { return kind == InstructionKind::Fma; }
};

void set_gemm_plan(std::vector<Attr>& attrs, const GemmPlan& p);
Result<GemmPlan> get_gemm_plan(const Stmt& gemm);

/// Convert one operand layout of an instruction, bound for the atom, into factors over a
/// (rows, cols) column-major tile: a stride below `rows` moves dimension 0, a multiple of
/// `rows` moves dimension 1, zero replicates. `swap` exchanges the dimensions (for operands
/// stored transposed). Errors when a stride mixes both dimensions.
Result<Distribution> atom_distribution(const Layout& layout, const MmaShape& atom, int64_t rows, int64_t cols, bool swap);

/// The accumulator's distribution over [Mp, Np] for a plan (instruction atoms tiled over
/// groups and repeats; the fma fallback: rm x rn per thread), leftover threads replicating.
Result<Distribution> accumulator_distribution(const GemmPlan& p, const MatrixInstruction* mi, int64_t threads);

/// A register operand's distribution: A over [Mp, Kp] (or [Kp, Mp] when `trans`), B over
/// [Kp, Np] (or [Np, Kp] when `trans`).
Result<Distribution> operand_distribution(const GemmPlan& p, const MatrixInstruction* mi, int64_t threads, bool is_a, bool trans);

}  // namespace tegula::ir
