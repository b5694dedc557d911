// Operand forwarding: a gemm whose instruction loads A or B itself from the tensor (the plan
// says `global`, which select_instructions chose only where staging_copy found the copy)
// does not need the shared tile that stages the operand. The copy is marked
// `plan.forward=a|b` and the tile's alloc `layout.forwarded`: backends skip both and load
// the operand in the gemm from the copy's source, the tile takes no shared memory, and no
// barrier guards it. The statements stay, so the op semantics (and the reference
// interpreter, which runs them) do not change.
#include "ir/lower/Forwarding.h"

#include <functional>

#include "ir/Analysis.h"
#include "ir/lower/BufferUses.h"
#include "ir/lower/GemmPlan.h"
#include "ir/lower/Passes.h"

namespace tegula::ir {
namespace {

/// The block that holds `target` directly, or nullptr.
const Block* parent_of(const Block& b, const Stmt* target) {
  for (const Stmt& s : b.stmts) {
    if (&s == target) return &b;
    for (const Block& inner : s.blocks)
      if (const Block* p = parent_of(inner, target)) return p;
  }
  return nullptr;
}

void count_uses(const Block& b, const std::string& name, int& uses) {
  for (const Stmt& s : b.stmts) {
    if (s.op != OpKind::Alloc && stmt_names_buffer(s, name)) ++uses;
    for (const Block& inner : s.blocks) count_uses(inner, name, uses);
  }
}

}  // namespace

const Stmt* staging_copy(const Kernel& kernel, const Stmt& gemm, bool operand_a, std::string& why) {
  const char* which = operand_a ? "A" : "B";
  const std::string& tile = operand_a ? gemm.gemm_a().buffer : gemm.gemm_b().buffer;
  BufferMap buffers = kernel_buffers(kernel);
  auto t = buffers.find(tile);
  if (t == buffers.end() || t->second.scope != Scope::Shared || t->second.shape.size() != 2) {
    why = std::string(which) + " is not a 2-D shared tile";
    return nullptr;
  }
  const Block* block = parent_of(kernel.body, &gemm);
  if (!block) {
    why = "the gemm is not in this kernel";
    return nullptr;
  }
  const Stmt* copy = nullptr;
  for (const Stmt& s : block->stmts) {
    if (&s == &gemm) break;
    if (s.op == OpKind::Copy && s.copy_dst().buffer == tile) copy = &s;
  }
  if (!copy) {
    why = std::string(which) + " is not written by a copy before the gemm in the same block";
    return nullptr;
  }
  int uses = 0;
  count_uses(kernel.body, tile, uses);
  if (uses != 2) {
    why = std::string(which) + " is used by more than its copy and this gemm";
    return nullptr;
  }
  auto src = buffers.find(copy->copy_src().buffer);
  if (src == buffers.end() || src->second.scope != Scope::Global || src->second.dtype != t->second.dtype ||
      src->second.shape.size() != 2) {
    why = std::string(which) + " is not copied from a 2-D tensor of its own dtype";
    return nullptr;
  }
  if (!copy->copy_dst().offsets.empty() || !stmt_attr_ints(*copy, "extent").empty() || stmt_attr_float(*copy, "pad") != 0.0) {
    why = std::string("the copy into ") + which + " is not a whole tile padded with zeros";
    return nullptr;
  }
  if (written_buffers(kernel.body).count(copy->copy_src().buffer)) {
    why = "the kernel writes '" + copy->copy_src().buffer + "', so loading it later than the copy could see other values";
    return nullptr;
  }
  return copy;
}

bool is_forwarded(const Stmt& alloc) {
  return alloc.op == OpKind::Alloc && stmt_attr_bool(alloc, "layout.forwarded");
}

Status forward_operands(LowerContext& ctx) {
  Status status;
  // Decide on a const view first (staging_copy walks the kernel), then mark.
  std::vector<std::pair<const Stmt*, bool>> marks;  // copy, operand is A
  for_each_stmt(const_cast<const Block&>(ctx.kernel.body), [&](const Stmt& s) {
    if (s.op != OpKind::Gemm || !status.is_ok()) return;
    auto plan = get_gemm_plan(s);
    if (!plan.is_ok()) return;
    for (bool a : {true, false}) {
      if ((a ? plan->a_from : plan->b_from) != OperandLocation::Global) continue;
      std::string why;
      const Stmt* copy = staging_copy(ctx.kernel, s, a, why);
      if (!copy) {
        status = error(ErrorCode::Internal, "gemm plan loads " + std::string(a ? "A" : "B") + " from global memory, but " + why, s.loc);
        return;
      }
      marks.push_back({copy, a});
    }
  });
  if (!status.is_ok()) return status;
  for (auto& [copy, a] : marks) {
    Stmt& c = const_cast<Stmt&>(*copy);
    set_attr(c.attrs, "plan.forward", AttrValue::of_ident(a ? "a" : "b"));
    Stmt* alloc = ctx.find_alloc(c.copy_dst().buffer);
    if (!alloc) return error(ErrorCode::Internal, "forwarded tile '" + c.copy_dst().buffer + "' has no alloc", c.loc);
    set_attr(alloc->attrs, "layout.forwarded", AttrValue::of_bool(true));
    ctx.note(where(c) + "copy into '" + c.copy_dst().buffer + "' forwarded: the gemm loads " + (a ? "A" : "B") + " from '" +
             c.copy_src().buffer + "' itself");
  }
  return Status::ok();
}

}  // namespace tegula::ir
