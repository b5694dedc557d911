// Packed shared tiles. A gemm operand tile that global memory fills with 16-byte vector
// copies and that only cooperative-matrix loads read is declared as an array of 16-byte
// words (uvec4) instead of 8- or 16-bit elements: each invocation stores the words it
// loaded as they are (one store instead of one per element, no unpacking, half the
// registers when they are loaded ahead), and OpCooperativeMatrixLoadKHR reads the words
// with its stride counted in words (SPV_KHR_cooperative_matrix: the pointee type may differ
// from the component type). Every other access keeps element arrays; an element access that
// still reaches a packed tile is reported as a generator error, never silently wrong.
#include <cstdint>
#include <set>
#include <string>

#include "ir/Analysis.h"
#include "ir/lower/GemmPlan.h"
#include "ir/lower/Lowered.h"
#include "plugins/vulkan/codegen/KernelGen.h"

namespace tegula::vulkan {

using namespace spv;

namespace {

bool mentions(const ir::Expr& e, const std::string& name) {
  if ((e->kind == ir::ExprKind::Load || e->kind == ir::ExprKind::Tile) && e->name == name) return true;
  for (const ir::Expr& a : e->args)
    if (mentions(a, name)) return true;
  return false;
}

}  // namespace

bool stmt_mentions(const ir::Stmt& s, const std::string& name) {
  for (const ir::TileRef& t : s.tiles) {
    if (t.buffer == name) return true;
    for (const ir::Expr& o : t.offsets)
      if (mentions(o, name)) return true;
  }
  for (const ir::Expr& e : s.exprs)
    if (mentions(e, name)) return true;
  return false;
}

ir::BufferMap all_buffers(const ir::Kernel& k) {
  ir::BufferMap out = ir::kernel_buffers(k);
  ir::for_each_stmt(k.body, [&](const ir::Stmt& s) {
    if (s.op == ir::OpKind::Alloc) out[s.name] = ir::BufferInfo{s.type.scope, s.type.dtype, s.type.shape, s.loc};
  });
  return out;
}

bool KernelGen::copies_whole_words(const ir::Stmt& s, const ir::Distribution& dist, const std::vector<int64_t>& extent,
                                   const Buf& src, const Buf& dst) const {
  auto plan = ir::get_copy_plan(s);
  int64_t vec = plan.is_ok() ? plan->vec : 0;
  int rank = int(extent.size());
  if (rank != 2 || src.dtype != dst.dtype || vec * int64_t(dtype_size(dst.dtype)) != 16) return false;
  if (dist.values.empty() || dist.values[0].size != vec || dist.values[0].dim != rank - 1 || dist.values[0].stride != 1) return false;
  if (extent.back() % vec) return false;
  if (src.shape.size() == 0 || (src.shape.back() > 0 && src.shape.back() % vec)) return false;
  // The destination column must start on a word (no offsets: the whole tile, from 0).
  const std::vector<ir::Expr>& offsets = s.copy_dst().offsets;
  if (offsets.empty()) return true;
  auto col = ir::const_int(offsets.back());
  return col.has_value() && *col % vec == 0;
}

void KernelGen::find_packed_tiles() {
  if (!uses_coopmat_) return;
  std::map<std::string, const ir::Stmt*> opaque;
  ir::for_each_stmt(k_.body, [&](const ir::Stmt& s) {
    if (ir::is_opaque(s)) opaque[s.name] = &s;
  });
  // Global tensors as the copies see them: static dimensions, -1 for symbols.
  ir::BufferMap infos = all_buffers(k_);
  std::map<std::string, Buf> globals;
  for (const ir::Param& p : k_.params) {
    if (!p.is_tensor) continue;
    Buf& g = globals[p.name];
    g.name = p.name;
    g.dtype = p.dtype;
    for (const ir::Expr& d : p.shape) g.shape.push_back(d->kind == ir::ExprKind::IntImm ? d->int_value : -1);
  }
  // Tiles filled through registers may be double-buffered (DoubleBuffer.cpp), whose stages
  // the packed words address like element stages; other staged tiles stay element arrays.
  std::set<std::string> register_filled;
  ir::for_each_stmt(k_.body, [&](const ir::Stmt& s) {
    if (s.op != ir::OpKind::Copy) return;
    if (auto plan = ir::get_copy_plan(s); plan.is_ok() && plan->engine == ir::CopyEngine::Registers) register_filled.insert(s.copy_dst().buffer);
  });
  ir::for_each_stmt(k_.body, [&](const ir::Stmt& alloc) {
    if (alloc.op != ir::OpKind::Alloc || alloc.type.scope != ir::Scope::Shared || alloc.type.shape.size() != 2) return;
    int64_t esize = int64_t(dtype_size(alloc.type.dtype));
    auto layout = ir::get_shared_layout(alloc.attrs);
    // e5m2 copies rewrite inf encodings (Conversions::restore), so its words are not raw.
    if (alloc.type.dtype == DType::E5M2) return;
    if ((esize != 1 && esize != 2) || !layout.is_ok() || layout->block || layout->swizzle_bits) return;
    if (layout->stages > 1 && !register_filled.count(alloc.name)) return;
    if ((alloc.type.shape[1] + layout->pad) * esize % 16) return;
    int64_t vec = 16 / esize;
    Buf probe;  // what copies_whole_words needs of the destination
    probe.dtype = alloc.type.dtype;
    bool ok = true, used = false;
    ir::for_each_stmt(k_.body, [&](const ir::Stmt& s) {
      if (!ok || s.op == ir::OpKind::Alloc || !stmt_mentions(s, alloc.name)) return;
      used = true;
      if (s.op == ir::OpKind::Copy && s.copy_dst().buffer == alloc.name && s.copy_src().buffer != alloc.name) {
        auto g = globals.find(s.copy_src().buffer);
        const Buf* src = g == globals.end() ? nullptr : &g->second;
        auto extent = ir::tile_op_extent(s, infos);
        auto plan = ir::get_copy_plan(s);
        ok = src && plan.is_ok() && plan->kind == ir::ThreadPlanKind::Free && extent.is_ok() &&
             copies_whole_words(s, plan->threads, *extent, *src, probe);
        return;
      }
      if (s.op == ir::OpKind::Gemm && s.gemm_c().buffer != alloc.name && opaque.count(s.gemm_c().buffer)) {
        auto gemm = ir::get_gemm_plan(s);
        if (!gemm.is_ok()) {
          ok = false;
          return;
        }
        std::vector<int64_t> atom = {gemm->m, gemm->n, gemm->k};
        // Every matrix starts on a word: its row (or column) offsets are multiples of the
        // atom's dimension along the contiguous axis.
        bool is_a = s.gemm_a().buffer == alloc.name, is_b = s.gemm_b().buffer == alloc.name;
        if (is_a) ok = ok && (ir::stmt_attr_bool(s, "trans_a") ? atom[0] : atom[2]) % vec == 0;
        if (is_b) ok = ok && (ir::stmt_attr_bool(s, "trans_b") ? atom[2] : atom[1]) % vec == 0;
        return;
      }
      ok = false;
    });
    if (ok && used) packed_.insert(alloc.name);
  });
}

uint32_t KernelGen::packed_ptr(const Buf& b, Value index) {
  Value word = b_.bitcast(b_.udiv(b_.bitcast(index, T::U32), b_.cu(per_word(b))), T::I32);
  return b_.chain(SCWorkgroup, b.word_type, b.var, {word.id});
}

Value KernelGen::pack_word(const std::vector<Value>& raws, DType d) {
  uint32_t esize = uint32_t(dtype_size(d));
  uint32_t per = 4 / esize;
  std::vector<uint32_t> words;
  for (uint32_t w = 0; w < 4; ++w) {
    Value word = b_.cu(0);
    for (uint32_t p = 0; p < per; ++p) {
      Value part = b_.convert(raws[size_t(w * per + p)], T::U32);
      word = p == 0 ? part : b_.bor(word, b_.shl(part, b_.cu(p * esize * 8)));
    }
    words.push_back(word.id);
  }
  return b_.op_type(OpCompositeConstruct, m_.type_vector(T::U32, 4), words);
}

}  // namespace tegula::vulkan
