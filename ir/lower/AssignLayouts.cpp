// Layout assignment: every fragment gets a distribution over the block's threads, and every
// shared buffer a physical layout.
//
// Fragments: a gemm fixes its accumulator (and any register operand) to the instruction's
// fragment layout tiled over groups and repeats. Copies between fragments, reductions and
// maps propagate layouts (a reduction's result is its source's layout with the reduced
// axis replicated; a broadcast map operand is the destination's with the broadcast axes
// replicated, and a lower-rank one, shapes aligned at the trailing axes, the destination's
// with the leading axes removed). Fragments nothing constrains get a free, coalesced layout. Two different
// requirements on one fragment are a conflict: the error names the fragment, both ops and
// both layouts. A copy or map that reads a fragment laid out differently from what it
// executes under is not a conflict here: exchange_fragments (the next pass) moves the data.
//
// Shared buffers: an operand that a matrix instruction reads through a shared-memory
// descriptor (wgmma, tcgen05) gets the swizzled, column-blocked layout the descriptor encodes;
// other buffers get their rows padded by 16 bytes when rows would otherwise start in the
// same bank, and gemm register operands also when a row is an even number of 16-byte pieces
// (fragment loads read 8 rows of 16 bytes at once).
#include <algorithm>
#include <cstdint>
#include <functional>
#include <map>
#include <set>

#include "ir/lower/GemmPlan.h"
#include "ir/lower/Passes.h"
#include "ir/lower/SharedLayout.h"
#include "ir/Printer.h"

namespace tegula::ir {
namespace {

Distribution compact(Distribution d) {
  auto strip = [](std::vector<Factor>& fs) {
    std::vector<Factor> out;
    for (const Factor& f : fs)
      if (f.size > 1) out.push_back(f.dim < 0 ? Factor{f.size, -1, 0} : f);
    fs = out;
  };
  strip(d.threads);
  strip(d.values);
  return d;
}

struct Assigned {
  Distribution dist;
  std::string why;
};

class LayoutAssigner {
public:
  explicit LayoutAssigner(LowerContext& ctx) : ctx_(ctx), buffers_(ctx.buffers()) {}

  Status run() {
    TG_RETURN_IF_ERROR(fix_from_gemms());
    for (;;) {
      TG_RETURN_IF_ERROR(propagate());
      const Stmt* free_one = nullptr;
      for (const Stmt& s : ctx_.kernel.body.stmts)
        if (s.op == OpKind::Alloc && s.type.scope == Scope::Fragment && !dist_.count(s.name) && !opaque_.count(s.name)) {
          free_one = &s;
          break;
        }
      if (!free_one) break;
      int64_t vec = std::max<int64_t>(1, int64_t(ctx_.target.vector_bytes) / int64_t(dtype_size(free_one->type.dtype)));
      vec = std::min<int64_t>(vec, 4);  // registers: 4 values per group keeps loops short
      TG_RETURN_IF_ERROR(fix(free_one->name, compact(free_distribution(free_one->type.shape, ctx_.kernel.threads, vec)),
                             "a free layout (nothing constrains it)"));
    }
    TG_RETURN_IF_ERROR(check_uses());
    for (Stmt& s : ctx_.kernel.body.stmts) {
      if (s.op != OpKind::Alloc) continue;
      if (auto it = opaque_.find(s.name); it != opaque_.end()) {
        // A cooperative matrix: its elements' placement is the device's secret; the backend
        // needs the instruction and which group holds which atom tile.
        const GemmPlan& p = it->second;
        set_attr(s.attrs, "layout.opaque", AttrValue::of_string(p.inst));
        set_attr(s.attrs, "layout.atom", AttrValue::of_ints({p.m, p.n, p.k}));
        set_attr(s.attrs, "layout.groups", AttrValue::of_ints({p.gm, p.gn}));
        set_attr(s.attrs, "layout.repeat", AttrValue::of_ints({p.rm, p.rn}));
        ctx_.note("fragment '" + s.name + "': opaque " + p.inst + " matrices, groups " + std::to_string(p.gm) + "x" +
                  std::to_string(p.gn) + ", " + std::to_string(p.rm) + "x" + std::to_string(p.rn) + " each");
        continue;
      }
      if (s.type.scope == Scope::Fragment) {
        const Assigned& a = dist_.at(s.name);
        TG_RETURN_IF_ERROR(check_coverage(a.dist, s.type.shape, false).with_context(where(s) + "fragment '" + s.name + "'"));
        set_distribution(s.attrs, "layout", a.dist);
        ctx_.note("fragment '" + s.name + "': " + distribution_str(a.dist) + " (" + a.why + ")");
      }
      if (s.type.scope == Scope::Shared) TG_RETURN_IF_ERROR(assign_shared(s));
    }
    return Status::ok();
  }

private:
  bool is_fragment(const std::string& name) const {
    auto it = buffers_.find(name);
    return it != buffers_.end() && it->second.scope == Scope::Fragment && !opaque_.count(name);
  }

  static bool is_opaque_instruction(const MatrixInstruction& mi) {
    const OperandPlacement* p = mi.acc.find(OperandLocation::Registers);
    return p && p->form == OperandPlacement::Form::Opaque;
  }
  const std::vector<int64_t>& shape(const std::string& name) const { return buffers_.at(name).shape; }

  Status fix(const std::string& name, const Distribution& d, const std::string& why) {
    auto it = dist_.find(name);
    if (it == dist_.end()) {
      dist_[name] = {d, why};
      changed_ = true;
      return Status::ok();
    }
    if (it->second.dist == d) return Status::ok();
    int rank = int(shape(name).size());
    if (ownership(it->second.dist, rank) == ownership(d, rank)) return Status::ok();
    return error(ErrorCode::Unsupported, "layout conflict: fragment '" + name + "' is laid out for " + it->second.why + " (" +
                                             distribution_str(it->second.dist) + ") and for " + why + " (" + distribution_str(d) +
                                             "); give each its own fragment (a copy or map between them changes the layout)");
  }

  Status fix_from_gemms() {
    Status st;
    for_each_stmt(ctx_.kernel.body, [&](const Stmt& s) {
      if (s.op != OpKind::Gemm || !st.is_ok()) return;
      auto plan = get_gemm_plan(s);
      if (!plan.is_ok()) {
        st = plan.status();
        return;
      }
      const MatrixInstruction* mi = plan->is_fma() ? nullptr : ctx_.target.find_instruction(plan->inst);
      std::string why = "the gemm at " + s.loc.str() + " (" + plan->inst + ")";
      if (mi && is_opaque_instruction(*mi)) {
        opaque_[s.gemm_c().buffer] = *plan;
        return;
      }
      auto acc = accumulator_distribution(*plan, mi, ctx_.kernel.threads);
      if (!acc.is_ok()) {
        st = acc.status().with_context(where(s) + "gemm");
        return;
      }
      st = fix(s.gemm_c().buffer, compact(*acc), why);
      for (int which = 0; which < 2 && st.is_ok(); ++which) {
        const TileRef& t = which == 0 ? s.gemm_a() : s.gemm_b();
        if (!is_fragment(t.buffer)) continue;
        bool trans = stmt_attr_bool(s, which == 0 ? "trans_a" : "trans_b");
        auto d = operand_distribution(*plan, mi, ctx_.kernel.threads, which == 0, trans);
        if (!d.is_ok()) {
          st = d.status().with_context(where(s) + "gemm");
          return;
        }
        st = fix(t.buffer, compact(*d), why);
      }
    });
    return st;
  }

  /// One round of propagation through copies, reductions and maps, until nothing changes.
  Status propagate() {
    do {
      changed_ = false;
      Status st;
      for_each_stmt(ctx_.kernel.body, [&](const Stmt& s) {
        if (!st.is_ok()) return;
        st = propagate_stmt(s);
      });
      TG_RETURN_IF_ERROR(st);
    } while (changed_);
    return Status::ok();
  }

  Status propagate_stmt(const Stmt& s) {
    std::string why = std::string("the ") + op_info(s.op).keyword + " at " + s.loc.str();
    switch (s.op) {
      case OpKind::Copy: return propagate_copy(s, why);
      case OpKind::Reduce: return propagate_reduce(s, why);
      case OpKind::Map: return propagate_map(s, why);
      // A gemm fixes its layouts (fix_from_gemms); fills, atomic adds and stores take the
      // layout their fragment has; the rest touch no fragment as a whole (a scan's
      // operands are shared tiles).
      case OpKind::Alloc:
      case OpKind::Scan:
      case OpKind::Fill:
      case OpKind::Gemm:
      case OpKind::Store:
      case OpKind::AtomicAdd:
      case OpKind::Barrier:
      case OpKind::For:
      case OpKind::Pipelined:
      case OpKind::Parallel:
      case OpKind::If: return Status::ok();
    }
    return Status::ok();
  }

  Status propagate_copy(const Stmt& s, const std::string& why) {
    const TileRef &a = s.copy_src(), &b = s.copy_dst();
    if (!is_fragment(a.buffer) || !is_fragment(b.buffer) || !a.offsets.empty() || !b.offsets.empty()) return Status::ok();
    if (shape(a.buffer) != shape(b.buffer)) return Status::ok();
    // Both laid out already (two gemms, say): exchange_fragments moves the data between them.
    if (dist_.count(a.buffer) && dist_.count(b.buffer)) return Status::ok();
    if (dist_.count(a.buffer)) return fix(b.buffer, dist_.at(a.buffer).dist, why);
    if (dist_.count(b.buffer)) return fix(a.buffer, dist_.at(b.buffer).dist, why);
    return Status::ok();
  }

  Status propagate_reduce(const Stmt& s, const std::string& why) {
    const std::string &src = s.reduce_src().buffer, &dst = s.reduce_dst().buffer;
    if (!is_fragment(src) || !is_fragment(dst) || !dist_.count(src)) return Status::ok();
    int axis = int(stmt_attr_int(s, "axis"));
    bool keep = shape(dst).size() == shape(src).size();
    return fix(dst, compact(reduced_distribution(dist_.at(src).dist, axis, keep)), why);
  }

  Status propagate_map(const Stmt& s, const std::string& why) {
    const std::string& dst = s.target().buffer;
    std::vector<std::string> operands;
    std::function<void(const Expr&)> walk = [&](const Expr& e) {
      if (e->kind == ExprKind::Tile && is_fragment(e->name)) operands.push_back(e->name);
      for (const Expr& x : e->args) walk(x);
    };
    walk(s.value());
    // The execution layout: the destination's, or that of a full-shape fragment operand.
    std::string exec = is_fragment(dst) ? dst : "";
    for (const std::string& o : operands)
      if (exec.empty() && shape(o) == shape(dst)) exec = o;
    if (exec.empty()) return Status::ok();
    if (!dist_.count(exec)) {
      for (const std::string& o : operands)
        if (shape(o) == shape(exec) && dist_.count(o)) return fix(exec, dist_.at(o).dist, why);
      return Status::ok();
    }
    const Distribution& d = dist_.at(exec).dist;
    for (const std::string& o : operands) {
      if (dist_.count(o)) continue;
      Distribution od = d;
      bool keep_rank = true;
      // A lower-rank operand (shapes aligned at the trailing axes) drops the leading axes.
      size_t lead = shape(exec).size() - shape(o).size();
      for (size_t i = 0; i < lead; ++i) od = reduced_distribution(od, 0, false);
      for (size_t i = 0; i < shape(o).size(); ++i)
        if (shape(o)[i] == 1 && shape(exec)[i + lead] != 1) od = reduced_distribution(od, int(i), keep_rank);
      TG_RETURN_IF_ERROR(fix(o, compact(od), why));
    }
    if (is_fragment(dst) && !dist_.count(dst)) TG_RETURN_IF_ERROR(fix(dst, d, why));
    return Status::ok();
  }

  /// Every op that touches fragments finds each element where its threads need it.
  Status check_uses() {
    Status st;
    for_each_stmt(ctx_.kernel.body, [&](const Stmt& s) {
      if (!st.is_ok()) return;
      switch (s.op) {
        case OpKind::Reduce: st = check_reduce_use(s); break;
        // A copy or map whose fragment operand is held elsewhere is no conflict: the
        // exchange_fragments pass routes that operand through shared memory.
        case OpKind::Copy:
        case OpKind::Map:
        // As in propagate_stmt: these take the layouts their fragments have.
        case OpKind::Alloc:
        case OpKind::Scan:
        case OpKind::Fill:
        case OpKind::Gemm:
        case OpKind::Store:
        case OpKind::AtomicAdd:
        case OpKind::Barrier:
        case OpKind::For:
        case OpKind::Pipelined:
        case OpKind::Parallel:
        case OpKind::If: break;
      }
    });
    return st;
  }

  Status conflict(const Stmt& s, const std::string& a, const std::string& b) {
    return error(ErrorCode::Unsupported, "layout conflict at the " + std::string(op_info(s.op).keyword) + ": fragment '" + b +
                                             "' (" + distribution_str(dist_.at(b).dist) + ") is not held where fragment '" + a +
                                             "' (" + distribution_str(dist_.at(a).dist) +
                                             ") needs it; copy one of them through a shared buffer",
                 s.loc);
  }

  Status check_reduce_use(const Stmt& s) {
    const std::string &src = s.reduce_src().buffer, &dst = s.reduce_dst().buffer;
    if (!is_fragment(src) || !is_fragment(dst)) return Status::ok();
    int axis = int(stmt_attr_int(s, "axis"));
    Distribution want = reduced_distribution(dist_.at(src).dist, axis, shape(dst).size() == shape(src).size());
    int rank = int(shape(dst).size());
    if (ownership(want, rank) != ownership(dist_.at(dst).dist, rank)) return conflict(s, src, dst);
    return Status::ok();
  }

  // --- shared buffers -------------------------------------------------------------------
  /// The gemm operand roles of a shared buffer read through a descriptor: (instruction, major).
  std::vector<std::pair<const MatrixInstruction*, bool>> descriptor_uses(const std::string& name) {
    std::vector<std::pair<const MatrixInstruction*, bool>> out;
    for_each_stmt(ctx_.kernel.body, [&](const Stmt& s) {
      if (s.op != OpKind::Gemm) return;
      auto plan = get_gemm_plan(s);
      if (!plan.is_ok() || plan->is_fma()) return;
      const MatrixInstruction* mi = ctx_.target.find_instruction(plan->inst);
      if (!mi) return;
      if (s.gemm_a().buffer == name && plan->a_from == OperandLocation::Shared) out.push_back({mi, true});
      if (s.gemm_b().buffer == name && plan->b_from == OperandLocation::Shared) out.push_back({mi, false});
    });
    return out;
  }

  /// Whether a gemm reads the buffer as a register operand (fragment loads of 16-byte pieces
  /// of 8 rows at once, or the fma path's column-wise element loads).
  bool fragment_operand(const std::string& name) {
    bool found = false;
    for_each_stmt(ctx_.kernel.body, [&](const Stmt& s) {
      if (s.op != OpKind::Gemm || (s.gemm_a().buffer != name && s.gemm_b().buffer != name)) return;
      auto plan = get_gemm_plan(s);
      if (!plan.is_ok()) return;
      bool as_a = s.gemm_a().buffer == name && (plan->is_fma() || plan->a_from == OperandLocation::Registers);
      bool as_b = s.gemm_b().buffer == name && (plan->is_fma() || plan->b_from == OperandLocation::Registers);
      found = found || as_a || as_b;
    });
    return found;
  }

  Status assign_shared(Stmt& alloc) {
    SharedLayout l;
    const std::vector<int64_t>& shape = alloc.type.shape;
    int64_t esize = int64_t(dtype_size(alloc.type.dtype));
    int64_t row_bytes = shape.back() * esize;
    int64_t rows = 1;
    for (size_t i = 0; i + 1 < shape.size(); ++i) rows *= shape[i];
    auto uses = descriptor_uses(alloc.name);
    if (!uses.empty()) {
      const MatrixInstruction* mi = uses.front().first;
      const OperandPlacement* p = (uses.front().second ? mi->a : mi->b).find(OperandLocation::Shared);
      struct Mode { Swizzle s; int64_t bytes, bits; };
      const Mode modes[] = {{Swizzle::B128, 128, 3}, {Swizzle::B64, 64, 2}, {Swizzle::B32, 32, 1}};
      bool chosen = false;
      for (const Mode& m : modes) {
        bool allowed = p && std::find(p->swizzles.begin(), p->swizzles.end(), m.s) != p->swizzles.end();
        if (!allowed || row_bytes % m.bytes || rows % 8) continue;
        l.block = m.bytes / esize;
        l.swizzle_bits = m.bits, l.swizzle_base = 4, l.swizzle_shift = 3;
        l.align = std::max<int64_t>(8 * m.bytes, p && p->alignment_bytes ? p->alignment_bytes : 16);
        chosen = true;
        ctx_.note("shared '" + alloc.name + "': " + std::to_string(m.bytes) + "-byte swizzle in column blocks of " +
                  std::to_string(l.block) + " for the " + mi->id + " descriptor");
        break;
      }
      if (!chosen) {
        bool none_ok = p && std::find(p->swizzles.begin(), p->swizzles.end(), Swizzle::None) != p->swizzles.end();
        if (!none_ok || row_bytes % 16 || rows % 8)
          return error(ErrorCode::Unsupported, "shared buffer '" + alloc.name + "' " + print_tile({alloc.name, {}, {}}) +
                                                   " cannot be laid out for the " + mi->id +
                                                   " descriptor: rows must be a multiple of 8 and row bytes of 16",
                       alloc.loc);
        l.block = 16 / esize;
        l.align = std::max<int64_t>(16, p->alignment_bytes);
        ctx_.note("shared '" + alloc.name + "': interleaved 8x16-byte core matrices for the " + mi->id + " descriptor");
      }
    } else if (ctx_.target.shared_memory_banks && shape.size() >= 2 && rows > 1) {
      // Rows that start in the same bank conflict on column-wise loads: a row of a multiple of
      // the bank span gets one more 16-byte piece. Gemm register operands go further: their
      // fragment loads read 16-byte pieces of 8 consecutive rows at once (ldmatrix,
      // cooperative-matrix loads), which fall in distinct banks only when the row stride is
      // an odd number of pieces, so their rows of 32, 64, 96 ... bytes are padded too. Other
      // buffers keep unpadded rows where they can (the bulk copy engine writes only those).
      int64_t bank_span = int64_t(ctx_.target.shared_memory_banks->count) * ctx_.target.shared_memory_banks->width_bytes;
      bool span_multiple = bank_span > 0 && row_bytes % bank_span == 0;
      bool even_pieces = row_bytes % 32 == 0 && fragment_operand(alloc.name);
      if (span_multiple || even_pieces) {
        l.pad = std::max<int64_t>(1, 16 / esize);
        ctx_.note("shared '" + alloc.name + "': rows padded by " + std::to_string(l.pad) + " elements (a row of " +
                  std::to_string(row_bytes) + " bytes " +
                  (span_multiple ? "is a multiple of the " + std::to_string(bank_span) + "-byte bank span)"
                                 : "of a gemm operand is an even number of 16-byte pieces)"));
      }
    }
    TG_RETURN_IF_ERROR(check_shared_layout(l, shape, alloc.type.dtype).with_context(where(alloc) + "shared '" + alloc.name + "'"));
    set_shared_layout(alloc.attrs, l);
    return Status::ok();
  }

  LowerContext& ctx_;
  BufferMap buffers_;
  std::map<std::string, Assigned> dist_;
  std::map<std::string, GemmPlan> opaque_;
  bool changed_ = false;
};

}  // namespace

Status assign_layouts(LowerContext& ctx) { return LayoutAssigner(ctx).run(); }

}  // namespace tegula::ir
