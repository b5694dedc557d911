// Row: vectorised global access (a copy that moves several consecutive elements per access).
#include "ir/lower/optimizations/Detect.h"
#include "ir/lower/optimizations/Optimizations.h"

namespace tegula::ir::optimizations {
namespace {

std::string not_applicable(const TargetDescription& t) {
  return t.vector_bytes > 2 ? "" : "vector_bytes " + std::to_string(t.vector_bytes) + ": no access wider than one f16";
}

Evidence detect(const LowerResult& r) {
  const Kernel& k = r.kernel;
  const Stmt* c = find_stmt(k, [&](const Stmt& s) {
    if (s.op != OpKind::Copy) return false;
    bool global = k.find_param(s.copy_src().buffer) || k.find_param(s.copy_dst().buffer);
    return global && stmt_attr(s, "plan.vec") && stmt_attr_int(s, "plan.vec") > 1;
  });
  if (!c) return {false, "no copy to or from a tensor has plan.vec > 1"};
  return {true, marker(*c, "plan.vec") + " on copy " + c->copy_src().buffer + " -> " + c->copy_dst().buffer};
}

}  // namespace

const Optimization& vector_access() {
  static const Optimization row = {"vector_access",
                                   "vectorised global access",
                                   "Each thread moves several consecutive elements of a tensor in one access "
                                   "(plan.vec, up to the target's vector_bytes), "
                                   "where the shapes prove the alignment; fewer, wider memory transactions.",
                                   R"(kernel vector_access(X: f16[64, 256], Y: f16[64, 256]) grid(1) threads(128) {
  alloc T: shared f16[64, 256]
  copy X, T
  copy T, Y
}
)",
                                   not_applicable,
                                   nullptr,
                                   detect};
  return row;
}

}  // namespace tegula::ir::optimizations
