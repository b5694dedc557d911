// Dtype legality: every dtype a kernel names (its tensors and scalars, its buffers, the
// targets of its casts and bitcasts) is among the target description's `dtypes`, and a
// kernel that asks for non-saturating narrow-float stores (`saturate=false`) runs only where
// the description declares the feature `nonsaturating_stores`.
//
// Why here, first: a backend must never refuse a kernel lowering accepted. Without this
// pass a Vulkan device without Float64, or a backend with no codec for a dtype, would
// discover it while emitting code. The description is the one place that says what a device
// holds, so the refusal is made once, from it, with the location of the first use; the
// optimization matrix asks the same question through check_kernel_dtypes (ir/Lower.h).
#include "ir/Analysis.h"
#include "ir/Lower.h"
#include "ir/lower/Passes.h"
#include "targets/Target.h"

namespace tegula::ir {
namespace {

Status missing(const TargetDescription& target, DType d, const std::string& what, SourceLoc loc) {
  std::string held;
  for (DType t : target.dtypes) held += std::string(" ") + dtype_name(t);
  return error(ErrorCode::Unsupported,
               what + " is " + dtype_name(d) + ", which target '" + target.name + "' does not hold (its dtypes:" + held + ")", loc);
}

/// The first cast or bitcast in `e` to a dtype the target lacks.
const ExprNode* foreign_cast(const Expr& e, const TargetDescription& t) {
  const ExprNode* found = nullptr;
  any_node(e, [&](const Expr& x) {
    bool casts = x->kind == ExprKind::Cast || x->kind == ExprKind::Bitcast;
    if (casts && !t.has_dtype(x->cast_to)) found = x.get();
    return found != nullptr;
  });
  return found;
}

Status check_block(const TargetDescription& target, const Block& b) {
  Status st = Status::ok();
  for_each_stmt(b, [&](const Stmt& s) {
    if (!st.is_ok()) return;
    if (s.op == OpKind::Alloc && !target.has_dtype(s.type.dtype)) {
      st = missing(target, s.type.dtype, "buffer '" + s.name + "'", s.loc);
      return;
    }
    for (const Expr& e : s.exprs) {
      if (const ExprNode* c = foreign_cast(e, target)) {
        st = missing(target, c->cast_to, "a cast's result", c->loc);
        return;
      }
    }
  });
  return st;
}

}  // namespace

Status check_kernel_dtypes(const Kernel& k, const TargetDescription& target) {
  for (const Param& p : k.params) {
    if (!target.has_dtype(p.dtype)) return missing(target, p.dtype, "parameter '" + p.name + "'", p.loc);
  }
  TG_RETURN_IF_ERROR(check_block(target, k.body));
  const Attr* sat = find_attr(k.attrs, "saturate");
  if (store_mode(k) == Fp8Mode::NonSaturating && !target.has_feature(Feature::NonsaturatingStores))
    return error(ErrorCode::Unsupported,
                 "kernel '" + k.name + "' asks for non-saturating stores (saturate=false); target '" + target.name +
                     "' declares only saturating narrow-float stores (no nonsaturating_stores feature)",
                 sat ? sat->loc : k.loc);
  return Status::ok();
}

Status check_target_dtypes(LowerContext& ctx) { return check_kernel_dtypes(ctx.kernel, ctx.target); }

}  // namespace tegula::ir
