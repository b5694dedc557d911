// scan (ir/OpList.h) under its free plan over lines (ir/lower/MapThreads.cpp): each
// invocation walks the lines the plan gives it, one element at a time in scan order, with
// the running value in a function variable (f32, or f64 when an operand is f64) that starts
// from the carry and ends in it. Replicating invocations (more invocations than lines) do
// nothing, so each carry is read and written by one invocation. max/min are
// Builder::max_number/min_number (maximumNumber/minimumNumber, as the reference).
#include <cstdint>
#include <optional>

#include "ir/lower/Lowered.h"
#include "plugins/vulkan/codegen/KernelGen.h"

namespace tegula::vulkan {

Status KernelGen::gen_scan(const ir::Stmt& s) {
  Buf* src = find_buf(s.scan_src().buffer);
  Buf* dst = find_buf(s.scan_dst().buffer);
  Buf* carry = find_buf(s.scan_carry().buffer);
  if (!src || !dst || !carry) return fail(s.loc, "unbound scan operand");
  for (const Buf* x : {src, dst, carry})
    if (x->scope != ir::Scope::Shared) return fail(s.loc, "scan of a buffer that is not shared");
  auto plan = ir::get_copy_plan(s);
  if (!plan.is_ok() || plan->kind != ir::ThreadPlanKind::Free) return fail(s.loc, "scan without a free plan (was the kernel lowered?)");
  std::optional<ir::ReduceKind> kind = ir::parse_reduce(ir::stmt_attr_ident(s, "op"));
  if (!kind || *kind == ir::ReduceKind::AbsMax) return fail(s.loc, "unknown scan");
  int axis = int(ir::stmt_attr_int(s, "axis"));
  bool reverse = ir::stmt_attr_bool(s, "reverse"), exclusive = ir::stmt_attr_bool(s, "exclusive");
  int rank = int(src->shape.size());
  int32_t len = int32_t(src->shape[size_t(axis)]);
  bool wide = src->dtype == DType::F64 || dst->dtype == DType::F64 || carry->dtype == DType::F64;
  T ty = wide ? T::F64 : T::F32;
  auto combine = [&](Value a, Value x) {
    switch (*kind) {
      case ir::ReduceKind::Sum: return b_.add(a, x);
      case ir::ReduceKind::Max: return b_.max_number(a, x);
      case ir::ReduceKind::Min: return b_.min_number(a, x);
      case ir::ReduceKind::AbsMax: break;
    }
    return a;
  };
  Exec e = bind(plan->threads, rank);
  auto walk = [&] {
    for_slots(e, carry->shape, [&](int64_t, const std::vector<Value>& line) {
      uint32_t running = b_.var(ty, cast_value(read_memory(*carry, line, 0.0), ty));
      b_.for_(b_.ci(0), b_.ci(len), 1, [&](Value step) {
        std::vector<Value> at = line;
        at[size_t(axis)] = reverse ? b_.sub(b_.ci(len - 1), step) : step;
        Value x = cast_value(read_memory(*src, at, 0.0), ty);
        Value a = b_.load(running, ty);
        if (exclusive) write_memory(*dst, at, a);
        Value next = combine(a, x);
        b_.store(running, next);
        if (!exclusive) write_memory(*dst, at, next);
      });
      write_memory(*carry, line, b_.load(running, ty));
    });
  };
  if (e.replicated) b_.if_(e.primary, walk);
  else walk();
  return Status::ok();
}

}  // namespace tegula::vulkan
