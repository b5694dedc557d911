/// \file
/// scan under its free plan over the carry's shape (ir/lower/README.md, Scan): each thread
/// walks the lines the plan gives it, sequentially in scan order, the running value in f32
/// (f64 when an operand is f64) from the carry's element back into it; replica threads (the
/// plan's replicating thread factors past digit 0) do nothing, so each carry element has one
/// reader and one writer. Operands are shared tiles (the verifier's rule).
#include <optional>

#include "plugins/hip/codegen/Emitter.h"

namespace tegula::hip {

using llvm::Value;

Status Emitter::emit_scan(const ir::Stmt& s) {
  Buffer* src = find_buffer(s.scan_src().buffer);
  Buffer* dst = find_buffer(s.scan_dst().buffer);
  Buffer* carry = find_buffer(s.scan_carry().buffer);
  if (!src || !dst || !carry) return error(ErrorCode::Internal, "hip: scan operand unknown", s.loc);
  if (src->scope != ir::Scope::Shared || dst->scope != ir::Scope::Shared || carry->scope != ir::Scope::Shared)
    return not_implemented(&s, "a scan of tiles outside shared memory");
  if (!s.scan_src().offsets.empty() || !s.scan_dst().offsets.empty() || !s.scan_carry().offsets.empty())
    return not_implemented(&s, "scan operands with offsets");
  std::optional<ir::ReduceKind> op = ir::parse_reduce(ir::stmt_attr_ident(s, "op"));
  if (!op || *op == ir::ReduceKind::AbsMax) return error(ErrorCode::Internal, "hip: unknown scan", s.loc);
  int axis = int(ir::stmt_attr_int(s, "axis"));
  bool reverse = ir::stmt_attr_bool(s, "reverse"), exclusive = ir::stmt_attr_bool(s, "exclusive");
  int64_t len = src->shape[size_t(axis)];
  bool wide = src->dtype == DType::F64 || dst->dtype == DType::F64 || carry->dtype == DType::F64;
  VK k = wide ? VK::F64 : VK::F32;
  TG_ASSIGN_OR_RETURN(ir::CopyPlan plan, ir::get_copy_plan(s));
  if (plan.kind != ir::ThreadPlanKind::Free)
    return error(ErrorCode::Internal, "hip: a scan without a free plan", s.loc);
  Value* replica = this->replica(plan.threads);
  TG_ASSIGN_OR_RETURN(std::vector<Element> lines, elements(s, plan, carry->shape));
  return if_then(b.CreateNot(replica), [&]() -> Status {
    for (const Element& line : lines) {
      auto walk = [&]() -> Status {
        TG_ASSIGN_OR_RETURN(Value * carry_at, address(*carry, line.coords));
        TG_ASSIGN_OR_RETURN(Val start, load_at(*carry, carry_at));
        Value* running = entry_alloca(k == VK::F64 ? f64 : f32, "running");
        b.CreateStore(convert(start, k).v, running);
        Status walked = loop(ci(0), ci(len), [&](Value* step) -> Status {
          std::vector<Value*> at = line.coords;
          at[size_t(axis)] = reverse ? b.CreateSub(ci(len - 1), step) : step;
          TG_ASSIGN_OR_RETURN(Value * src_at, address(*src, at));
          TG_ASSIGN_OR_RETURN(Value * dst_at, address(*dst, at));
          TG_ASSIGN_OR_RETURN(Val x, load_at(*src, src_at));
          Value* a = b.CreateLoad(k == VK::F64 ? f64 : f32, running);
          if (exclusive) {
            Status st = store_at(*dst, dst_at, {a, k});
            if (!st.is_ok()) return st;
          }
          Value* xv = convert(x, k).v;
          Value* next =
              *op == ir::ReduceKind::Sum ? b.CreateFAdd(a, xv) : float_max_min(b, a, xv, *op == ir::ReduceKind::Max);
          b.CreateStore(next, running);
          return exclusive ? Status::ok() : store_at(*dst, dst_at, {next, k});
        });
        if (!walked.is_ok()) return walked;
        return store_at(*carry, carry_at, {b.CreateLoad(k == VK::F64 ? f64 : f32, running), k});
      };
      TG_RETURN_IF_ERROR(line.valid ? if_then(line.valid, walk) : walk());
    }
    return Status::ok();
  });
}

}  // namespace tegula::hip
