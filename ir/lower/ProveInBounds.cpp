// In-bounds facts: for each copy and atomic_add with a global side, which dimensions of that
// side's tile stay inside the tensor for every value the tile's origin can take, recorded as
// plan.inbounds=[[source dims], [destination dims]] (Lowered.h, InBounds).
//
// A tile op at a tensor's edge tests every element against the tensor's extent; where the
// index ranges (ir/Ranges.h) show that no element can fall outside, the test can never fail
// and a backend drops it. Ranges come from the kernel's constant grid (block indices: a
// launch runs exactly the grid's blocks, and rasterisation only permutes them) and
// from the bounds of the serial loops around the op (a loop variable of `for v in lo .. hi`
// is in [lo, hi - 1] where both bounds have ranges); a dimension is proven when the tensor's
// size there is a constant and the tile's origin there is in [0, size - extent] for every
// value. Deciding this once here means every backend drops exactly the same tests, and the
// reference interpreter's lowered model checks each claim while it runs, so a wrong fact is
// a failing test rather than a silent out-of-bounds access on a device.
//
// A view (a global tile of lower rank than its tensor, ir::leading_axes) gets no facts: its
// claims would have to be per tensor axis while the tile has fewer, and its leading indices
// are exactly what multi-head kernels run one past (a grid over heads rounded up); every
// axis of a view is tested at run time.
#include <functional>

#include "ir/Ranges.h"
#include "ir/lower/Lowered.h"
#include "ir/lower/Passes.h"

namespace tegula::ir {
namespace {

/// Which dimensions of tile `t` (of `extent`) stay inside global tensor `b` for every value
/// of its origin under `ranges`; empty when `b` is not global.
InBounds prove_side(const TileRef& t, const BufferInfo& b, const std::vector<int64_t>& extent, const RangeMap& ranges) {
  InBounds in;
  if (b.scope != Scope::Global || extent.size() != b.shape.size()) return in;
  if (!t.offsets.empty() && t.offsets.size() != b.shape.size()) return in;
  for (size_t d = 0; d < b.shape.size(); ++d) {
    // A tile without offsets starts at the tensor's origin.
    std::optional<IntRange> r = t.offsets.empty() ? std::optional<IntRange>(IntRange{0, 0}) : expr_range(t.offsets[d], ranges);
    in.dims.push_back(b.shape[d] >= 0 && r && r->lo >= 0 && r->hi + extent[d] <= b.shape[d]);
  }
  return in;
}

class Prover {
public:
  explicit Prover(const Kernel& k) : k_(k), buffers_(kernel_buffers(k)) {}

  std::map<const Stmt*, TileBounds> run() {
    RangeMap ranges = grid_ranges(k_);
    walk(k_.body, ranges);
    return std::move(facts_);
  }

private:
  void walk(const Block& b, RangeMap& ranges) {
    for (const Stmt& s : b.stmts) {
      switch (s.op) {
        case OpKind::For:
        case OpKind::Pipelined: {
          // Inside the body the variable is in [lo, hi - 1]; outside it is unbound again.
          RangeMap outer = ranges;
          ranges.erase(s.vars[0]);
          std::optional<IntRange> lo = expr_range(s.lo(), ranges), hi = expr_range(s.hi(), ranges);
          if (lo && hi && lo->lo <= hi->hi - 1) ranges[s.vars[0]] = IntRange{lo->lo, hi->hi - 1};
          walk(s.body(), ranges);
          ranges = outer;
          break;
        }
        case OpKind::Copy:
        case OpKind::AtomicAdd: prove(s, ranges); break;
        case OpKind::If:
        case OpKind::Parallel:
          for (const Block& inner : s.blocks) walk(inner, ranges);
          break;
        case OpKind::Alloc:
        case OpKind::Fill:
        case OpKind::Gemm:
        case OpKind::Reduce:
        case OpKind::Scan:
        case OpKind::Map:
        case OpKind::Store:
        case OpKind::Barrier: break;
      }
    }
  }

  void prove(const Stmt& s, const RangeMap& ranges) {
    auto extent = tile_op_extent(s, buffers_);
    if (!extent.is_ok()) return;
    TileBounds f;
    auto side = [&](const TileRef& t) {
      auto b = buffers_.find(t.buffer);
      return b == buffers_.end() ? InBounds{} : prove_side(t, b->second, *extent, ranges);
    };
    f.src = side(s.tiles[0]);
    f.dst = side(s.tiles[1]);
    if (f.src.any() || f.dst.any()) facts_[&s] = std::move(f);
  }

  const Kernel& k_;
  BufferMap buffers_;
  std::map<const Stmt*, TileBounds> facts_;
};

AttrValue bools(const InBounds& in) {
  std::vector<AttrValue> v;
  for (bool b : in.dims) v.push_back(AttrValue::of_bool(b));
  return AttrValue::of_list(std::move(v));
}

}  // namespace

std::map<const Stmt*, TileBounds> in_bounds_facts(const Kernel& k) { return Prover(k).run(); }

Status prove_in_bounds(LowerContext& ctx) {
  std::map<const Stmt*, TileBounds> facts = in_bounds_facts(ctx.kernel);
  int whole = 0;
  for_each_stmt(ctx.kernel.body, [&](Stmt& s) {
    auto it = facts.find(&s);
    if (it == facts.end()) return;
    set_attr(s.attrs, "plan.inbounds", AttrValue::of_list({bools(it->second.src), bools(it->second.dst)}));
    whole += it->second.src.all() || it->second.dst.all();
  });
  ctx.note("in bounds: " + std::to_string(facts.size()) + " tile ops have a side proven inside its tensor in some dimension, " +
           std::to_string(whole) + " a whole side (no bounds test there)");
  return Status::ok();
}

}  // namespace tegula::ir
