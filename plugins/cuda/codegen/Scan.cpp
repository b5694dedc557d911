/// \file
/// scan (ir/OpList.h) under its free plan over lines (ir/lower/MapThreads.cpp): each thread
/// walks the lines the plan gives it, one element at a time in scan order, the running value
/// in a register (float, or double when an operand is f64) that starts from the carry and
/// ends in it. Replica threads of the plan do nothing, so each carry element has one reader
/// and one writer. max/min are the prelude's tg_maxf/tg_minf (maximumNumber/minimumNumber).
#include <cstdint>
#include <optional>

#include "ir/lower/Lowered.h"
#include "plugins/cuda/codegen/Emitter.h"

namespace tegula::cuda::gen {

Status Emitter::emit_scan(const ir::Stmt& s) {
  const Buffer* src = buffer(s.scan_src().buffer);
  const Buffer* dst = buffer(s.scan_dst().buffer);
  const Buffer* carry = buffer(s.scan_carry().buffer);
  if (!src || !dst || !carry) return error(ErrorCode::Internal, "cuda codegen: unknown scan operand", s.loc);
  TG_ASSIGN_OR_RETURN(ir::CopyPlan plan, ir::get_copy_plan(s));
  if (plan.kind != ir::ThreadPlanKind::Free) return unsupported(s, "a scan without its free plan over lines");
  std::optional<ir::ReduceKind> kind = ir::parse_reduce(ir::stmt_attr_ident(s, "op"));
  if (!kind || *kind == ir::ReduceKind::AbsMax) return error(ErrorCode::Internal, "cuda codegen: unknown scan", s.loc);
  int axis = int(ir::stmt_attr_int(s, "axis"));
  bool reverse = ir::stmt_attr_bool(s, "reverse"), exclusive = ir::stmt_attr_bool(s, "exclusive");
  int64_t len = src->shape[size_t(axis)];
  bool wide = src->dtype == DType::F64 || dst->dtype == DType::F64 || carry->dtype == DType::F64;
  Rep rep = wide ? Rep::F64 : Rep::F32;
  auto combine = [&](const std::string& a, const std::string& x) -> std::string {
    switch (*kind) {
      case ir::ReduceKind::Sum: return a + " + " + x;
      case ir::ReduceKind::Max: return (wide ? "tg_maxd(" : "tg_maxf(") + a + ", " + x + ")";
      case ir::ReduceKind::Min: return (wide ? "tg_mind(" : "tg_minf(") + a + ", " + x + ")";
      case ir::ReduceKind::AbsMax: break;
    }
    return a;
  };
  TG_ASSIGN_OR_RETURN(std::vector<Elem> lines, free_elems(s, plan.threads, carry->shape, 1));
  std::string replica = replica_guard(plan.threads);
  open(replica.empty() ? "" : "if (" + replica + ")");
  for (const Elem& e : lines) {
    open(e.guard.empty() ? "" : "if (" + e.guard + ")");
    std::string a = fresh("scan");
    line(std::string(rep_type(rep)) + " " + a + " = " + convert(read_element(*carry, e.idx, 0.0), rep) + ";");
    std::string q = fresh("q");
    open("for (int " + q + " = 0; " + q + " < " + itos(len) + "; ++" + q + ")");
    std::vector<std::string> at = e.idx;
    at[size_t(axis)] = reverse ? "(" + itos(len - 1) + " - " + q + ")" : q;
    std::string x = fresh("x");
    line(std::string(rep_type(rep)) + " " + x + " = " + convert(read_element(*src, at, 0.0), rep) + ";");
    if (exclusive) write_element(*dst, at, Value{a, rep});
    line(a + " = " + combine(a, x) + ";");
    if (!exclusive) write_element(*dst, at, Value{a, rep});
    close();
    write_element(*carry, e.idx, Value{a, rep});
    close();
  }
  close();
  return Status::ok();
}

}  // namespace tegula::cuda::gen
