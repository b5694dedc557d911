// Shared tiles stored as 16-byte words. A gemm operand tile that global memory fills with
// 16-byte vector copies and that only matrix loads read can be declared as an array of
// 16-byte words instead of 8- or 16-bit elements, where the target's matrix instruction loads
// through a pointer whose pointee type may differ from the element type (`any_pointee` in its
// catalogue entry; SPV_KHR_cooperative_matrix allows it): each thread stores the words it
// loaded as they are (one store instead of one per element, no unpacking, half the registers
// when they are loaded ahead), and the matrix load reads words with its stride counted in
// words. The bytes, their addresses and the shared memory are the same; only the declared
// type differs, so no other pass and not the interpreter need to know.
//
// The rules (packing_refusal, PackedTiles.h): the kernel uses such an instruction; the tile is
// 2-D, of 8- or 16-bit elements other than e5m2 (its copies rewrite infinity encodings, so its
// words are not the tensor's bytes), neither blocked nor swizzled, its rows whole words,
// with one stage unless registers fill it (a double-buffered tile's stages are addressed in
// words like in elements; other staged tiles are not); every statement naming it is either a
// copy into it from a tensor that moves whole words into word-aligned places
// (copies_whole_words) or a gemm of such an instruction on an opaque accumulator whose
// matrices start on words; forwarded tiles have no storage and are left alone. The pass marks
// the alloc `layout.words=16`; read_lowered refuses the mark where the rules do not hold.
#include <cstdint>
#include <set>
#include <string>

#include "ir/lower/BufferUses.h"
#include "ir/lower/Forwarding.h"
#include "ir/lower/GemmPlan.h"
#include "ir/lower/Lowered.h"
#include "ir/lower/PackedTiles.h"
#include "ir/lower/Passes.h"
#include "ir/lower/RegisterPrefetch.h"
#include "ir/lower/SharedLayout.h"
#include "targets/Target.h"

namespace tegula::ir {

Result<int64_t> packed_word_bytes(const Stmt& alloc) {
  const Attr* a = find_attr(alloc.attrs, "layout.words");
  if (!a) return int64_t(0);
  if (a->value.kind != AttrValue::Kind::Int || a->value.i != kPackedWordBytes)
    return error(ErrorCode::Verify, "'layout.words' must be " + std::to_string(kPackedWordBytes) + " (bytes per word)",
                 a->loc);
  return a->value.i;
}

bool copies_whole_words(const Stmt& copy, const Distribution& threads, const std::vector<int64_t>& extent,
                        DType src_dtype, const std::vector<int64_t>& src_shape, DType dst_dtype) {
  auto plan = get_copy_plan(copy);
  int64_t vec = plan.is_ok() ? plan->vec : 0;
  int rank = int(extent.size());
  if (rank != 2 || src_dtype != dst_dtype || vec * int64_t(dtype_size(dst_dtype)) != kPackedWordBytes) return false;
  if (threads.values.empty() || threads.values[0].size != vec || threads.values[0].dim != rank - 1 ||
      threads.values[0].stride != 1)
    return false;
  if (extent.back() % vec) return false;
  if (src_shape.empty() || (src_shape.back() > 0 && src_shape.back() % vec)) return false;
  // The destination column must start on a word (no offsets: the whole tile, from 0).
  const std::vector<Expr>& offsets = copy.copy_dst().offsets;
  if (offsets.empty()) return true;
  auto col = const_int(offsets.back());
  return col.has_value() && *col % vec == 0;
}

namespace {

const char* const kNoWordLoads =
    "no matrix instruction of the kernel loads through a pointer of another type (any_pointee)";

bool any_pointee(const std::string& inst, const TargetDescription& target) {
  const MatrixInstruction* mi = target.find_instruction(inst);
  return mi && mi->any_pointee;
}

/// Why statement `s`, which names tile `alloc`, keeps it from being packed; empty when it does not.
std::string use_refusal(const Stmt& s, const Stmt& alloc, const BufferMap& buffers, const std::set<std::string>& opaque,
                        const TargetDescription& target) {
  const std::string& name = alloc.name;
  int64_t vec = kPackedWordBytes / int64_t(dtype_size(alloc.type.dtype));
  if (s.op == OpKind::Copy && s.copy_dst().buffer == name && s.copy_src().buffer != name) {
    auto src = buffers.find(s.copy_src().buffer);
    auto extent = tile_op_extent(s, buffers);
    auto plan = get_copy_plan(s);
    bool whole = src != buffers.end() && src->second.scope == Scope::Global && plan.is_ok() &&
                 plan->kind == ThreadPlanKind::Free && extent.is_ok() &&
                 copies_whole_words(s, plan->threads, *extent, src->second.dtype, src->second.shape, alloc.type.dtype);
    return whole ? "" : where(s) + "the copy into it does not move whole 16-byte words from a tensor";
  }
  if (s.op == OpKind::Gemm && s.gemm_c().buffer != name && opaque.count(s.gemm_c().buffer)) {
    auto gemm = get_gemm_plan(s);
    if (!gemm.is_ok() || !any_pointee(gemm->inst, target))
      return where(s) + "the gemm's instruction does not load words (any_pointee)";
    // Every matrix starts on a word: its row (or column) offsets are multiples of the atom's
    // dimension along the contiguous axis.
    bool is_a = s.gemm_a().buffer == name, is_b = s.gemm_b().buffer == name;
    bool aligned = !(is_a && (stmt_attr_bool(s, "trans_a") ? gemm->m : gemm->k) % vec) &&
                   !(is_b && (stmt_attr_bool(s, "trans_b") ? gemm->k : gemm->n) % vec);
    return aligned ? "" : where(s) + "the gemm's matrices do not start on words";
  }
  return where(s) + "a " + std::string(op_info(s.op).keyword) +
         " uses it other than by a whole-word copy or a matrix load";
}

}  // namespace

std::string packing_refusal(const Kernel& k, const Stmt& alloc, const TargetDescription& target) {
  if (alloc.op != OpKind::Alloc || alloc.type.scope != Scope::Shared) return "it is no shared tile";
  if (is_forwarded(alloc)) return "it is forwarded (it has no storage)";
  std::set<std::string> opaque;
  bool loads_words = false;
  std::set<std::string> register_filled;
  for_each_stmt(k.body, [&](const Stmt& s) {
    if (is_opaque(s)) {
      opaque.insert(s.name);
      auto f = get_opaque_fragment(s);
      loads_words = loads_words || (f.is_ok() && any_pointee(f->inst, target));
    }
    if (s.op != OpKind::Copy) return;
    if (auto plan = get_copy_plan(s); plan.is_ok() && plan->engine == CopyEngine::Registers)
      register_filled.insert(s.copy_dst().buffer);
  });
  if (!loads_words) return kNoWordLoads;
  if (alloc.type.shape.size() != 2) return "it is not 2-D";
  if (alloc.type.dtype == DType::E5M2) return "e5m2 copies rewrite infinities, so its words are not the tensor's bytes";
  int64_t esize = int64_t(dtype_size(alloc.type.dtype));
  if (esize != 1 && esize != 2) return "its elements are not 8 or 16 bits";
  auto layout = get_shared_layout(alloc.attrs);
  if (!layout.is_ok() || layout->block || layout->swizzle_bits) return "it is blocked or swizzled";
  if (layout->stages > 1 && !register_filled.count(alloc.name)) return "it has stages that registers do not fill";
  if ((alloc.type.shape[1] + layout->pad) * esize % kPackedWordBytes) return "its rows are not whole 16-byte words";
  BufferMap buffers = buffers_at_any_depth(k);
  std::string why;
  bool used = false;
  for_each_stmt(k.body, [&](const Stmt& s) {
    if (!why.empty() || s.op == OpKind::Alloc || !stmt_names_buffer(s, alloc.name)) return;
    used = true;
    why = use_refusal(s, alloc, buffers, opaque, target);
  });
  if (why.empty() && !used) why = "nothing uses it";
  return why;
}

Status pack_shared_tiles(LowerContext& ctx) {
  for_each_stmt(ctx.kernel.body, [&](Stmt& alloc) {
    if (alloc.op != OpKind::Alloc || alloc.type.scope != Scope::Shared || is_forwarded(alloc)) return;
    std::string why = packing_refusal(ctx.kernel, alloc, ctx.target);
    if (why.empty()) {
      set_attr(alloc.attrs, "layout.words", AttrValue::of_int(kPackedWordBytes));
      ctx.note(where(alloc) + "shared tile '" + alloc.name +
               "' stored as 16-byte words: whole-word copies write it, matrix loads read it");
      return;
    }
    // Nothing to say where no instruction could load words.
    if (why != kNoWordLoads) ctx.note(where(alloc) + "shared tile '" + alloc.name + "' stored as elements: " + why);
  });
  return Status::ok();
}

}  // namespace tegula::ir
