// Thread mapping: decide which thread touches which element for every op that is not a
// gemm or a reduction (a scan: which thread walks which line), and how wide its memory
// accesses are.
//
// Parallel loops spread their iterations over the block (consecutive threads take
// consecutive innermost iterations, so element accesses coalesce). Ops on fragments run
// where the fragment lives (plan.kind=fragment). Copies and fills between global and shared
// memory get a free, coalesced mapping whose vector width is the widest access the target
// allows that both sides' alignment can prove: a global tensor's row length and the tile's
// column offset must be multiples of the vector, which for a symbolic length comes from the
// divisibility the launch guarantees (LowerOptions::divisibility, recorded as lower.assume).
//
// Views (a global tile of lower rank than its tensor, ir/OpList.h copy) are mapped over the
// tile's extent, i.e. the tensor's trailing axes, and the vector limit reads the tensor's
// last axis and the tile's last offset, both trailing: the leading axes hold one index each
// and never take part. Lowering keeps the view as written rather than normalising it to the
// tensor's rank with leading extents 1, because the other side (a shared or fragment tile)
// keeps the tile's rank, and a normalised extent would give the two sides different ranks
// in every pass and backend; as written, only the global addressing knows (ir::leading_axes:
// the interpreter's tile_linear, cpu view_of, cuda add, vulkan add_origin).
#include <algorithm>
#include <cstdint>
#include <functional>
#include <set>

#include "ir/lower/Distribution.h"
#include "ir/lower/Passes.h"

namespace tegula::ir {
namespace {

int64_t pow2_floor(int64_t x) {
  int64_t p = 1;
  while (p * 2 <= x) p *= 2;
  return p;
}

/// The largest power of two (at most 16) that divides every value of an index expression.
int64_t divisibility(const Expr& e, const std::map<std::string, int64_t>& symbols) {
  constexpr int64_t kCap = 16;
  switch (e->kind) {
    case ExprKind::IntImm: {
      int64_t v = e->int_value < 0 ? -e->int_value : e->int_value;
      if (v == 0) return kCap;
      int64_t p = 1;
      while (p < kCap && v % (p * 2) == 0) p *= 2;
      return p;
    }
    case ExprKind::Var: {
      auto it = symbols.find(e->name);
      return it == symbols.end() ? 1 : std::min(kCap, it->second);
    }
    case ExprKind::Binary:
      switch (e->binary) {
        case BinaryOp::Mul:
          return std::min(kCap, divisibility(e->args[0], symbols) * divisibility(e->args[1], symbols));
        case BinaryOp::Add:
        case BinaryOp::Sub:
          return std::min(divisibility(e->args[0], symbols), divisibility(e->args[1], symbols));
        case BinaryOp::Or:
        case BinaryOp::And:
        case BinaryOp::Eq:
        case BinaryOp::Ne:
        case BinaryOp::Lt:
        case BinaryOp::Le:
        case BinaryOp::Gt:
        case BinaryOp::Ge:
        case BinaryOp::Div:
        case BinaryOp::Mod:
        case BinaryOp::Max:
        case BinaryOp::Min:
        case BinaryOp::CeilDiv:
        case BinaryOp::BitAnd:
        case BinaryOp::BitOr:
        case BinaryOp::BitXor:
        case BinaryOp::Shl:
        case BinaryOp::Shr:
        case BinaryOp::ShrLogical: return 1;
      }
      return 1;
    case ExprKind::FloatImm:
    case ExprKind::Load:
    case ExprKind::Tile:
    case ExprKind::ElemIndex:
    case ExprKind::Unary:
    case ExprKind::Cast:
    case ExprKind::Bitcast:
    case ExprKind::Select: return 1;
  }
  return 1;
}

class ThreadMapper {
public:
  explicit ThreadMapper(LowerContext& ctx) : ctx_(ctx), buffers_(ctx.buffers()) {
    for (const Param& p : ctx.kernel.params) params_[p.name] = &p;
  }

  Status run() {
    Status st;
    for_each_stmt(ctx_.kernel.body, [&](Stmt& s) {
      if (!st.is_ok()) return;
      st = map_stmt(s);
    });
    record_assumptions();
    return st;
  }

private:
  const BufferInfo* buffer(const std::string& name) const {
    auto it = buffers_.find(name);
    return it == buffers_.end() ? nullptr : &it->second;
  }
  bool is_fragment(const std::string& name) const {
    const BufferInfo* b = buffer(name);
    return b && b->scope == Scope::Fragment;
  }

  /// The widest vector (in elements) a global tile access can use: the tensor's rows and
  /// the tile's column offset must be multiples of it. A 1-D tensor is one row: its length
  /// must be a multiple too, or a vector could straddle the tensor's end, which backends
  /// test one vector at a time (a tail of 1-D tensors of length 5 read past the end on
  /// Vulkan before).
  int64_t global_vector_limit(const TileRef& t) {
    auto p = params_.find(t.buffer);
    if (p == params_.end()) return 1 << 20;
    const Param& param = *p->second;
    int64_t limit = 1 << 20;
    if (!param.shape.empty()) {
      const Expr& row = param.shape.back();
      int64_t d = row->kind == ExprKind::IntImm ? divisibility(row, {}) : divisibility(row, ctx_.options.divisibility);
      if (row->kind == ExprKind::Var && ctx_.options.divisibility.count(row->name)) used_symbols_.insert(row->name);
      limit = std::min(limit, d);
    }
    if (!t.offsets.empty()) {
      for_each_var(t.offsets.back(), [&](const std::string& v) {
        if (ctx_.options.divisibility.count(v)) used_symbols_.insert(v);
      });
      limit = std::min(limit, divisibility(t.offsets.back(), ctx_.options.divisibility));
    }
    return limit;
  }

  void for_each_var(const Expr& e, const std::function<void(const std::string&)>& fn) {
    if (e->kind == ExprKind::Var) fn(e->name);
    for (const Expr& a : e->args) for_each_var(a, fn);
  }

  int64_t vector_for(const std::vector<const TileRef*>& tiles, const std::vector<int64_t>& extent) {
    int64_t esize = 1;
    for (const TileRef* t : tiles)
      if (const BufferInfo* b = buffer(t->buffer)) esize = std::max<int64_t>(esize, int64_t(dtype_size(b->dtype)));
    int64_t vec = std::max<int64_t>(1, int64_t(ctx_.target.vector_bytes) / esize);
    for (const TileRef* t : tiles) {
      const BufferInfo* b = buffer(t->buffer);
      if (b && b->scope == Scope::Global) vec = std::min(vec, global_vector_limit(*t));
    }
    vec = pow2_floor(std::max<int64_t>(1, vec));
    while (vec > 1 && extent.back() % vec) vec /= 2;
    return vec;
  }

  void set_free_plan(Stmt& s, const std::vector<int64_t>& extent, int64_t vec) {
    Distribution d = free_distribution(extent, ctx_.kernel.threads, vec);
    set_attr(s.attrs, "plan.kind", AttrValue::of_ident("free"));
    set_distribution(s.attrs, "plan", d);
    set_attr(s.attrs, "plan.vec", AttrValue::of_int(vec));
  }

  void set_fragment_plan(Stmt& s, const std::string& fragment, int64_t vec) {
    Stmt* alloc = ctx_.find_alloc(fragment);
    bool opaque = alloc && find_attr(alloc->attrs, "layout.opaque");
    set_attr(s.attrs, "plan.kind", AttrValue::of_ident(opaque ? "opaque" : "fragment"));
    set_attr(s.attrs, "plan.layout", AttrValue::of_ident(fragment));
    set_attr(s.attrs, "plan.vec", AttrValue::of_int(vec));
  }

  /// Says where a map's element indices (idx) come from: the layout it runs over, a
  /// coordinate per thread computed once plus a constant per register. An opaque matrix has
  /// no such coordinates; select_instructions keeps every fragment a map with idx writes
  /// out of one, so meeting one here is a bug of this lowering, not a kernel to refuse.
  Status note_indices(const Stmt& s, const std::string& exec) {
    const std::string& dst = s.target().buffer;
    if (exec.empty()) {
      ctx_.note("map into '" + dst +
                "': element indices from its free thread plan (a base per thread, a constant per element)");
      return Status::ok();
    }
    Stmt* alloc = ctx_.find_alloc(exec);
    if (alloc && find_attr(alloc->attrs, "layout.opaque"))
      return error(ErrorCode::Internal, "map into '" + dst + "' uses idx() over opaque matrix '" + exec + "'", s.loc);
    ctx_.note("map into '" + dst + "': element indices from the layout of fragment '" + exec +
              "' (a base per thread, a constant per register)");
    return Status::ok();
  }

  /// The vector width of a fragment's own layout along the last dimension.
  int64_t fragment_vector(const std::string& name) {
    Stmt* alloc = ctx_.find_alloc(name);
    if (!alloc) return 1;
    auto d = get_distribution(alloc->attrs, "layout");
    return d.is_ok() ? d->vector_width(int(alloc->type.shape.size())) : 1;
  }

  Status map_stmt(Stmt& s) {
    switch (s.op) {
      case OpKind::Parallel: {
        std::vector<int64_t> extent;
        for (const Expr& e : s.exprs) extent.push_back(*const_int(e));
        // Element loops vectorise only along the innermost variable; their accesses are
        // arbitrary expressions, so the width stays one value per thread here.
        set_free_plan(s, extent, 1);
        return Status::ok();
      }
      case OpKind::Copy:
      case OpKind::AtomicAdd: {
        TG_ASSIGN_OR_RETURN(std::vector<int64_t> extent, tile_op_extent(s, buffers_));
        const TileRef &src = s.tiles[0], &dst = s.tiles[1];
        int64_t vec = vector_for({&src, &dst}, extent);
        for (const TileRef* t : {&dst, &src}) {
          if (!is_fragment(t->buffer)) continue;
          set_fragment_plan(s, t->buffer, std::min(vec, fragment_vector(t->buffer)));
          return Status::ok();
        }
        set_free_plan(s, extent, vec);
        return Status::ok();
      }
      case OpKind::Fill: {
        TG_ASSIGN_OR_RETURN(std::vector<int64_t> extent, tile_op_extent(s, buffers_));
        if (is_fragment(s.target().buffer)) {
          set_fragment_plan(s, s.target().buffer, fragment_vector(s.target().buffer));
          return Status::ok();
        }
        set_free_plan(s, extent, vector_for({&s.target()}, extent));
        return Status::ok();
      }
      case OpKind::Map: {
        const std::string& dst = s.target().buffer;
        std::string exec = is_fragment(dst) ? dst : "";
        bool indexed = false;
        std::function<void(const Expr&)> walk = [&](const Expr& e) {
          if (e->kind == ExprKind::Tile && is_fragment(e->name) && buffer(e->name)->shape == buffer(dst)->shape && exec.empty())
            exec = e->name;
          indexed = indexed || e->kind == ExprKind::ElemIndex;
          for (const Expr& a : e->args) walk(a);
        };
        walk(s.value());
        if (!exec.empty()) {
          set_fragment_plan(s, exec, exec == dst ? fragment_vector(dst) : 1);
          return indexed ? note_indices(s, exec) : Status::ok();
        }
        set_free_plan(s, buffer(dst)->shape, 1);
        return indexed ? note_indices(s, "") : Status::ok();
      }
      case OpKind::Scan: {
        // One thread walks each line along the axis (the carry's shape: one line per
        // element), sequentially in scan order; the lines spread over the block. A scan
        // across threads (a shared-memory or shuffle tree) is not planned yet: lines
        // already give every thread work whenever there are as many as threads.
        set_free_plan(s, buffer(s.scan_carry().buffer)->shape, 1);
        return Status::ok();
      }
      // Gemms and reductions get their plans from select_instructions and lower_reductions;
      // a store runs in its parallel loop's iteration; the rest move no elements.
      case OpKind::Alloc:
      case OpKind::Gemm:
      case OpKind::Reduce:
      case OpKind::Store:
      case OpKind::Barrier:
      case OpKind::For:
      case OpKind::Pipelined:
      case OpKind::If: return Status::ok();
    }
    return Status::ok();
  }

  void record_assumptions() {
    if (used_symbols_.empty()) return;
    std::vector<AttrValue> items;
    for (const std::string& sym : used_symbols_)
      items.push_back(AttrValue::of_list({AttrValue::of_ident(sym), AttrValue::of_int(ctx_.options.divisibility.at(sym))}));
    set_attr(ctx_.kernel.attrs, "lower.assume", AttrValue::of_list(std::move(items)));
  }

  LowerContext& ctx_;
  BufferMap buffers_;
  std::map<std::string, const Param*> params_;
  std::set<std::string> used_symbols_;
};

}  // namespace

Status map_threads(LowerContext& ctx) { return ThreadMapper(ctx).run(); }

}  // namespace tegula::ir
