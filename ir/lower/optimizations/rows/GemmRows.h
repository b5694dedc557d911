/// \file
/// What the matrix-instruction rows share: the kernel's gemm and a detector for "the gemm
/// runs on an instruction of this kind".
#pragma once

#include <string>

#include "ir/lower/optimizations/Detect.h"
#include "ir/lower/optimizations/Optimizations.h"

namespace tegula::ir::optimizations {

inline const Stmt* first_gemm(const LowerResult& r) {
  return find_stmt(r.kernel, [](const Stmt& s) { return s.op == OpKind::Gemm; });
}

/// Found when the first gemm's mma.kind is `kind`; the marker is its instruction and atom.
inline Evidence gemm_kind_is(const LowerResult& r, const char* kind) {
  const Stmt* g = first_gemm(r);
  if (!g) return {false, "the solution kernel has no gemm"};
  if (attr_text(*g, "mma.kind") != kind)
    return {false,
            absent(r, "the gemm runs on " + attr_text(*g, "mma.inst") + " (mma.kind=" + attr_text(*g, "mma.kind") + ")",
                   "not ")};
  return {true, marker(*g, "mma.inst") + ", mma.atom=" + attr_text(*g, "mma.atom")};
}

}  // namespace tegula::ir::optimizations
