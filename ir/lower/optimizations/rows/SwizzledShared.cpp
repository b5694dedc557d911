// Row: swizzled shared layouts (the XOR swizzle matrix descriptors read without bank conflicts).
#include "ir/lower/optimizations/Detect.h"
#include "ir/lower/optimizations/Optimizations.h"
#include "ir/lower/optimizations/rows/Kernels.h"

namespace tegula::ir::optimizations {
namespace {

bool swizzles(const Operand& op) {
  const OperandPlacement* p = op.find(OperandLocation::Shared);
  if (!p) return false;
  for (Swizzle s : p->swizzles)
    if (s != Swizzle::None) return true;
  return false;
}

std::string not_applicable(const TargetDescription& t) {
  for (const MatrixInstruction& mi : t.matrix_instructions)
    if (swizzles(mi.a) || swizzles(mi.b)) return "";
  return "no matrix instruction reads shared memory through a swizzled descriptor (register operands get padded rows "
         "instead)";
}

Evidence detect(const LowerResult& r) {
  const Stmt* a =
      find_stmt(r.kernel, [](const Stmt& s) { return s.op == OpKind::Alloc && find_attr(s.attrs, "layout.swizzle"); });
  if (!a) return {false, absent(r, "no shared buffer has layout.swizzle", "shared 'As'")};
  return {true, marker(*a, "layout.swizzle") + " on '" + a->name + "'; " + log_line(r, "shared '" + a->name + "'")};
}

}  // namespace

const Optimization& swizzled_shared() {
  static const Optimization row = {"swizzled_shared",
                                   "swizzled shared layouts",
                                   "Operand tiles a matrix instruction reads through a shared-memory descriptor are "
                                   "stored with the XOR swizzle (32, 64 "
                                   "or 128 bytes) the descriptor encodes, so its reads hit distinct banks.",
                                   kPipelinedGemm,
                                   not_applicable,
                                   nullptr,
                                   detect};
  return row;
}

}  // namespace tegula::ir::optimizations
