/// \file
/// scan (ir/OpList.h): one line at a time, sequentially in scan order, the running value in
/// f32 (f64 when any operand is f64) starting from the carry. A line's elements depend on
/// each other, so there is nothing to vectorise along it; the lines are independent, but a
/// block runs on one core anyway. max/min are Emitter::max_number/min_number
/// (maximumNumber/minimumNumber, as the reference).
#include <cstdint>
#include <optional>

#include "plugins/cpu/codegen/Emitter.h"

namespace tegula::cpu {

Status Emitter::emit_scan(const ir::Stmt& s) {
  Buffer* src = find_buffer(s.scan_src().buffer);
  Buffer* dst = find_buffer(s.scan_dst().buffer);
  Buffer* carry = find_buffer(s.scan_carry().buffer);
  if (!src || !dst || !carry) return error(ErrorCode::Internal, "unbound scan operand", s.loc);
  std::optional<ir::ReduceKind> kind = ir::parse_reduce(stmt_attr_ident(s, "op"));
  if (!kind || *kind == ir::ReduceKind::AbsMax) return error(ErrorCode::Internal, "unknown scan", s.loc);
  int64_t axis = stmt_attr_int(s, "axis");
  bool reverse = stmt_attr_bool(s, "reverse"), exclusive = stmt_attr_bool(s, "exclusive");
  int64_t outer = 1, inner = 1, len = src->shape[size_t(axis)];
  for (int64_t d = 0; d < axis; ++d) outer *= src->shape[size_t(d)];
  for (size_t d = size_t(axis) + 1; d < src->shape.size(); ++d) inner *= src->shape[d];
  bool wide = src->dtype == DType::F64 || dst->dtype == DType::F64 || carry->dtype == DType::F64;
  VK k = wide ? VK::F64 : VK::F32;
  llvm::Type* kt = kind_type(k);
  auto combine = [&](llvm::Value* a, llvm::Value* x) -> llvm::Value* {
    switch (*kind) {
      case ir::ReduceKind::Sum: return b.CreateFAdd(a, x);  // in order: no reassociation
      case ir::ReduceKind::Max: return max_number(a, x);
      case ir::ReduceKind::Min: return min_number(a, x);
      case ir::ReduceKind::AbsMax: break;
    }
    return a;
  };
  llvm::Value* running;
  {
    llvm::BasicBlock& entry = function()->getEntryBlock();
    llvm::IRBuilder<> at(&entry, entry.begin());
    running = at.CreateAlloca(kt);
  }
  return loop(ci(0), ci(outer), [&](llvm::Value* o) -> Status {
    return loop(ci(0), ci(inner), [&](llvm::Value* i) -> Status {
      llvm::Value* line = b.CreateAdd(b.CreateMul(o, ci(inner)), i);
      b.CreateStore(convert(load(*carry, line), k).v, running);
      TG_RETURN_IF_ERROR(loop(ci(0), ci(len), [&](llvm::Value* step) -> Status {
        llvm::Value* r = reverse ? b.CreateSub(ci(len - 1), step) : step;
        llvm::Value* at = b.CreateAdd(b.CreateMul(b.CreateAdd(b.CreateMul(o, ci(len)), r), ci(inner)), i);
        llvm::Value* x = convert(load(*src, at), k).v;
        llvm::Value* a = b.CreateLoad(kt, running);
        if (exclusive) store(*dst, at, Val{a, k});
        llvm::Value* next = combine(a, x);
        b.CreateStore(next, running);
        if (!exclusive) store(*dst, at, Val{next, k});
        return Status::ok();
      }));
      store(*carry, line, Val{b.CreateLoad(kt, running), k});
      return Status::ok();
    });
  });
}

}  // namespace tegula::cpu
