#include "ir/BlockLoads.h"

namespace tegula::ir {
namespace {

Status fail(const SourceLoc& loc, std::string msg) { return error(ErrorCode::Verify, std::move(msg), loc); }

const ExprNode* first_load(const Expr& e) {
  if (e->kind == ExprKind::Load) return e.get();
  for (const Expr& a : e->args)
    if (const ExprNode* l = first_load(a)) return l;
  return nullptr;
}

}  // namespace

Status check_block_load(const Expr& load, const BufferInfo& buffer, bool in_grid, const std::set<std::string>& written) {
  const std::string& n = load->name;
  if (in_grid)
    return fail(load->loc, "the grid cannot depend on the tensor element '" + n + "[...]': it is computed before launch");
  // Shared and fragment elements are spread over the threads: not one value per block.
  if (buffer.scope != Scope::Global)
    return fail(load->loc, "block-level load of '" + n + "', a " + scope_name(buffer.scope) +
                               " buffer: only elements of global tensors are one value for the whole block (inside a "
                               "parallel loop any buffer can be read by index)");
  if (!dtype_is_int(buffer.dtype))
    return fail(load->loc, "block-level load of '" + n + "' (" + dtype_name(buffer.dtype) +
                               "): loop bounds, offsets and conditions read integer tensors (i32, i8, u8)");
  // Blocks run in any order, and the threads of one block would each read before or after
  // a write of their own block.
  if (written.count(n))
    return fail(load->loc, "block-level load of '" + n + "', which this kernel writes: blocks run in any order, so the "
                               "value read would race with those writes; pass the indices in a tensor the kernel only reads");
  return Status::ok();
}

Status check_loaded_offset(const TileRef& t, const BufferInfo& b, const Expr& offset) {
  // A global tile is masked wherever its origin lands; a shared or fragment tile must lie
  // inside its buffer, which no check can promise for a value read from memory.
  if (b.scope == Scope::Global) return Status::ok();
  const ExprNode* l = first_load(offset);
  if (!l) return Status::ok();
  return fail(l->loc, "offset into '" + t.buffer + "', a " + scope_name(b.scope) + " buffer, reads '" + l->name +
                          "[...]': only offsets into global tensors (which are masked at their edges) may come from "
                          "tensor values");
}

}  // namespace tegula::ir
