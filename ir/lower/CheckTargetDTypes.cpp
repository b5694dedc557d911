// Dtype legality: every dtype a kernel names (its tensors and scalars, its buffers, the
// targets of its casts and bitcasts) is among the target description's `dtypes`, and a
// kernel that asks for non-saturating narrow-float stores (`saturate=false`) runs only where
// the description declares the feature `nonsaturating_stores`.
//
// Why here, first: a backend must never refuse a kernel lowering accepted. Without this
// pass a Vulkan device without Float64, or a backend with no codec for e2m1, would discover
// the dtype while emitting code. The description is the one place that says what a device
// holds, so the refusal is made once, from it, with the location of the first use.
#include "ir/Analysis.h"
#include "ir/lower/Passes.h"
#include "ir/Printer.h"

namespace tegula::ir {
namespace {

Status missing(const LowerContext& ctx, DType d, const std::string& what, SourceLoc loc) {
  return error(ErrorCode::Unsupported,
               what + " is " + dtype_name(d) + ", which target '" + ctx.target.name + "' does not hold (its dtypes:" +
                   [&] {
                     std::string s;
                     for (DType t : ctx.target.dtypes) s += std::string(" ") + dtype_name(t);
                     return s;
                   }() + ")",
               loc);
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

Status check_block(const LowerContext& ctx, const Block& b) {
  Status st = Status::ok();
  for_each_stmt(b, [&](const Stmt& s) {
    if (!st.is_ok()) return;
    if (s.op == OpKind::Alloc && !ctx.target.has_dtype(s.type.dtype)) {
      st = missing(ctx, s.type.dtype, "buffer '" + s.name + "'", s.loc);
      return;
    }
    for (const Expr& e : s.exprs) {
      if (const ExprNode* c = foreign_cast(e, ctx.target)) {
        st = missing(ctx, c->cast_to, "a cast's result", c->loc);
        return;
      }
    }
  });
  return st;
}

}  // namespace

Status check_target_dtypes(LowerContext& ctx) {
  for (const Param& p : ctx.kernel.params) {
    if (!ctx.target.has_dtype(p.dtype)) return missing(ctx, p.dtype, "parameter '" + p.name + "'", p.loc);
  }
  TG_RETURN_IF_ERROR(check_block(ctx, ctx.kernel.body));
  const Attr* sat = find_attr(ctx.kernel.attrs, "saturate");
  if (sat && sat->value.kind == AttrValue::Kind::Bool && !sat->value.b && !ctx.target.has_feature(Feature::NonsaturatingStores))
    return error(ErrorCode::Unsupported,
                 "kernel '" + ctx.kernel.name + "' asks for non-saturating stores (saturate=false); target '" + ctx.target.name +
                     "' declares only saturating narrow-float stores (no nonsaturating_stores feature)",
                 sat->loc);
  return Status::ok();
}

}  // namespace tegula::ir
