// Interval evaluation of loop bounds and indices for one launch (IntegerWidths.h).
// Intervals are held in 128 bits and clamped to +-2^63, far past any counter a backend has,
// so no arithmetic here overflows and a clamped bound is still refused.
#include "plugins/support/IntegerWidths.h"

#include <algorithm>
#include <map>
#include <string>
#include <vector>

#include "core/DType.h"
#include "ir/Analysis.h"
#include "ir/Printer.h"

namespace tegula::plugin {
namespace {

using Wide = __int128;
constexpr Wide kClamp = Wide(1) << 63;

Wide clamp(Wide v) { return std::max(-kClamp, std::min(kClamp, v)); }

/// The values an integer expression may take, [lo, hi].
struct Interval {
  Wide lo = 0, hi = 0;
  static Interval of(Wide a, Wide b) { return {clamp(std::min(a, b)), clamp(std::max(a, b))}; }
  static Interval exactly(Wide v) { return of(v, v); }
};

Interval hull(const Interval& a, const Interval& b) { return {std::min(a.lo, b.lo), std::max(a.hi, b.hi)}; }

/// An integer dtype's values (what a float converted to it, or its element, can be).
Interval dtype_range(DType t) { return Interval::of(Wide(dtype_lowest(t)), Wide(dtype_max(t))); }

/// Python's floor division, on operands whose divisor is not 0.
Wide floor_div(Wide a, Wide b) {
  Wide q = a / b;
  if ((a % b != 0) && ((a < 0) != (b < 0))) --q;
  return q;
}

Interval corners(const Interval& a, const Interval& b, Wide (*f)(Wide, Wide)) {
  Wide v[4] = {f(a.lo, b.lo), f(a.lo, b.hi), f(a.hi, b.lo), f(a.hi, b.hi)};
  return Interval::of(*std::min_element(v, v + 4), *std::max_element(v, v + 4));
}

/// a / b over intervals: floor division is monotonic in each operand on a divisor of one
/// sign, so the extremes are corners of each sign's part (a divisor of 0 is the reference's
/// error; it gives nothing here).
Interval divide(const Interval& a, const Interval& b) {
  std::vector<Interval> parts;
  if (b.hi >= 1) parts.push_back(corners(a, {std::max<Wide>(b.lo, 1), b.hi}, floor_div));
  if (b.lo <= -1) parts.push_back(corners(a, {b.lo, std::min<Wide>(b.hi, -1)}, floor_div));
  if (parts.empty()) return Interval::exactly(0);
  return parts.size() == 1 ? parts[0] : hull(parts[0], parts[1]);
}

/// Whether an expression's value depends on a tensor element or a tile's values (known
/// only on the device).
bool reads_device(const ir::Expr& e) {
  return ir::any_node(e, [](const ir::Expr& x) { return x->kind == ir::ExprKind::Load || x->kind == ir::ExprKind::Tile; });
}

class WidthChecker {
 public:
  /// `indices`: check every integer the kernel computes (check_index_widths), not only loops.
  WidthChecker(const ir::Kernel& k, const tg_launch_params& params, const std::array<uint32_t, 3>& grid, int bits, bool indices)
      : k_(k), bits_(bits), indices_(indices), limit_((Wide(1) << (bits - 1)) - 1) {
    scopes_.emplace_back();
    for (size_t i = 0; i < k.params.size(); ++i) {
      const ir::Param& p = k.params[i];
      if (p.is_tensor || dtype_is_float(p.dtype)) continue;
      const tg_launch_arg& a = params.args[i];
      double v = a.kind == TG_ARG_I64 ? double(a.i64) : a.f64;
      // The scalar as the kernel sees it: rounded and saturated to its dtype.
      scopes_.back()[p.name] = Interval::exactly(Wide(round_to_dtype(p.dtype, v)));
    }
    std::vector<std::string> symbols = k.symbols();
    for (size_t j = 0; j < symbols.size(); ++j) scopes_.back()[symbols[j]] = Interval::exactly(params.args[k.params.size() + j].i64);
    for (size_t d = 0; d < 3; ++d) scopes_.back()[ir::kBlockIndexNames[d]] = Interval::of(0, std::max<Wide>(Wide(grid[d]) - 1, 0));
  }

  Status block(const ir::Block& b) {
    for (const ir::Stmt& s : b.stmts) TG_RETURN_IF_ERROR(stmt(s));
    return Status::ok();
  }

 private:
  Status stmt(const ir::Stmt& s) {
    switch (s.op) {
      case ir::OpKind::For:
      case ir::OpKind::Pipelined: return loop(s);
      case ir::OpKind::Parallel: {
        for (const ir::Expr& e : s.exprs) TG_RETURN_IF_ERROR(check_index(s, e));
        scopes_.emplace_back();
        for (size_t i = 0; i < s.vars.size(); ++i) {
          Interval extent = value(s.exprs[i]);
          scopes_.back()[s.vars[i]] = Interval::of(0, std::max<Wide>(extent.hi - 1, 0));
        }
        Status st = block(s.body());
        scopes_.pop_back();
        return st;
      }
      case ir::OpKind::If:
        TG_RETURN_IF_ERROR(check_index(s, s.cond()));
        for (const ir::Block& b : s.blocks) TG_RETURN_IF_ERROR(block(b));
        return Status::ok();
      case ir::OpKind::Alloc:
        shapes_[s.name] = s.type.shape;
        return Status::ok();
      case ir::OpKind::Copy:
      case ir::OpKind::Fill:
      case ir::OpKind::Gemm:
      case ir::OpKind::Reduce:
      case ir::OpKind::Scan:
      case ir::OpKind::Map:
      case ir::OpKind::Store:
      case ir::OpKind::AtomicAdd: return check_indices(s);
      case ir::OpKind::Barrier: return Status::ok();
    }
    return Status::ok();
  }

  /// Every expression of a statement (tile offsets, element indices, values), with idx(a)
  /// over the extent of a map's or store's destination along a.
  Status check_indices(const ir::Stmt& s) {
    if (!indices_) return Status::ok();
    element_extent_.clear();
    if (s.op == ir::OpKind::Map || s.op == ir::OpKind::Store) element_extent_ = extent_of(s.target().buffer);
    for (const ir::TileRef& t : s.tiles)
      for (const ir::Expr& e : t.offsets) TG_RETURN_IF_ERROR(check_index(s, e));
    for (const ir::Expr& e : s.exprs) TG_RETURN_IF_ERROR(check_index(s, e));
    element_extent_.clear();
    return Status::ok();
  }

  /// The largest extent along each axis of a buffer: an alloc's shape, or a tensor's
  /// dimensions for this launch.
  std::vector<Wide> extent_of(const std::string& name) {
    std::vector<Wide> out;
    auto alloc = shapes_.find(name);
    if (alloc != shapes_.end()) {
      for (int64_t d : alloc->second) out.push_back(d);
      return out;
    }
    if (const ir::Param* p = k_.find_param(name))
      for (const ir::Expr& d : p->shape) out.push_back(eval(d).hi);
    return out;
  }

  /// One expression: no integer it computes from the launch's values leaves the range.
  Status check_index(const ir::Stmt& s, const ir::Expr& e) {
    if (!indices_) return Status::ok();
    fits_ = true;
    only_launch_values_ = true;
    eval(e);
    only_launch_values_ = false;
    if (fits_) return Status::ok();
    return error(ErrorCode::Unsupported,
                 "'" + ir::print_expr(*wide_expr_) + "' may be " + str(wide_value_) + " for this launch; this device computes indices in " +
                     std::to_string(bits_) + "-bit integers, where it would wrap" +
                     (wide_expr_->get() == e.get() ? std::string() : " (in '" + ir::print_expr(e) + "')"),
                 s.loc);
  }

  Status loop(const ir::Stmt& s) {
    fits_ = true;
    only_launch_values_ = false;
    Interval lo = eval(s.lo()), hi = eval(s.hi());
    const Wide edge = limit_ - kLoopCountMargin;
    auto refuse = [&](const std::string& what, const Interval& r) {
      std::string loop = "loop '" + s.vars[0] + " in " + ir::print_expr(s.lo()) + " .. " + ir::print_expr(s.hi()) + "'";
      return error(ErrorCode::Unsupported,
                   loop + ": " + what + " may be " + str(r) + " for this launch; this device counts loops in " + std::to_string(bits_) +
                       "-bit integers, so it runs loops whose bounds stay within +-" + str_wide(edge) +
                       " and whose trip count stays below 2^" + std::to_string(bits_ - 1),
                   s.loc);
    };
    // A bound that is a tensor element is known only on the device: the launch cannot range
    // it, and counting it as its dtype's whole range would refuse every loop over a segment
    // table (for j in Cu[bx] .. Cu[bx + 1]). Such a bound is taken as it is (an i32 element
    // is an i32 value already); a bound computed from elements is still ranged. The residue
    // (a loaded bound within the margin of the i32 limits, or a loaded range of 2^31
    // iterations or more) is a documented limit of this check (README, Not done yet).
    bool lo_loaded = s.lo()->kind == ir::ExprKind::Load, hi_loaded = s.hi()->kind == ir::ExprKind::Load;
    if (!lo_loaded && (lo.lo < -edge || lo.hi > edge)) return refuse("its lower bound", lo);
    if (!hi_loaded && (hi.lo < -edge || hi.hi > edge)) return refuse("its upper bound", hi);
    // The bounds fit, so what did not is inside them.
    if (!fits_) return refuse("'" + ir::print_expr(*wide_expr_) + "', computed on the way to its bounds,", wide_value_);
    Interval trips = Interval::of(std::max<Wide>(hi.lo - lo.hi, 0), std::max<Wide>(hi.hi - lo.lo, 0));
    if (!lo_loaded && !hi_loaded && trips.hi > limit_) return refuse("its trip count", trips);
    scopes_.emplace_back();
    scopes_.back()[s.vars[0]] = Interval::of(lo.lo, std::max(lo.lo, hi.hi - 1));
    Status st = block(s.body());
    scopes_.pop_back();
    return st;
  }

  static std::string str_wide(Wide v) {
    if (v == 0) return "0";
    std::string out;
    bool negative = v < 0;
    for (Wide x = negative ? -v : v; x > 0; x /= 10) out.insert(out.begin(), char('0' + int(x % 10)));
    return negative ? "-" + out : out;
  }
  static std::string str(const Interval& r) {
    auto edge = [](Wide v) { return v >= kClamp ? std::string("2^63 or more") : v <= -kClamp ? std::string("-2^63 or less") : str_wide(v); };
    return r.lo == r.hi ? edge(r.lo) : "anything in [" + edge(r.lo) + ", " + edge(r.hi) + "]";
  }

  /// e's interval; the first integer node outside the counter's range is kept (fits_ false).
  Interval value(const ir::Expr& e) { return eval(e); }

  Interval eval(const ir::Expr& e) {
    Interval r = eval_node(e);
    if (fits_ && e->type.is_index() && (r.lo < -limit_ - 1 || r.hi > limit_) && !(only_launch_values_ && reads_device(e))) {
      fits_ = false;
      wide_expr_ = &e;
      wide_value_ = r;
    }
    return r;
  }

  /// A float-valued operand's "interval": it is refused nowhere, and becomes an integer only
  /// through a cast or a comparison, which give their own ranges.
  static Interval any_float() { return Interval::of(-kClamp, kClamp); }

  Interval eval_node(const ir::Expr& e) {
    switch (e->kind) {
      case ir::ExprKind::IntImm: return Interval::exactly(e->int_value);
      case ir::ExprKind::FloatImm: return any_float();
      case ir::ExprKind::Var:
        for (auto it = scopes_.rbegin(); it != scopes_.rend(); ++it) {
          auto found = it->find(e->name);
          if (found != it->end()) return found->second;
        }
        return e->type.is_index() ? dtype_range(DType::I32) : any_float();  // a float scalar
      case ir::ExprKind::Load:
      case ir::ExprKind::Tile: {
        for (const ir::Expr& a : e->args) eval(a);
        const ir::Param* p = k_.find_param(e->name);
        if (p && dtype_is_float(p->dtype)) return any_float();
        return e->type.is_bool() ? Interval::of(0, 1) : dtype_range(p ? p->dtype : DType::I32);
      }
      case ir::ExprKind::ElemIndex: {
        size_t axis = size_t(e->int_value);
        if (axis < element_extent_.size()) return Interval::of(0, std::max<Wide>(element_extent_[axis] - 1, 0));
        return dtype_range(DType::I32);
      }
      case ir::ExprKind::Cast:
      case ir::ExprKind::Bitcast: {
        Interval x = eval(e->args[0]);
        if (dtype_is_float(e->cast_to)) return any_float();
        Interval to = e->cast_to == DType::Bool ? Interval::of(0, 1) : dtype_range(e->cast_to);
        if (e->kind == ir::ExprKind::Bitcast || !e->args[0]->type.is_index()) return to;
        return Interval::of(std::max(x.lo, to.lo), std::min(x.hi, to.hi));
      }
      case ir::ExprKind::Select: {
        eval(e->args[0]);
        return hull(eval(e->args[1]), eval(e->args[2]));
      }
      case ir::ExprKind::Unary: return unary(e);
      case ir::ExprKind::Binary: return binary(e);
    }
    return any_float();
  }

  Interval unary(const ir::Expr& e) {
    Interval x = eval(e->args[0]);
    if (!e->type.is_index()) return e->type.is_bool() ? Interval::of(0, 1) : any_float();
    switch (e->unary) {
      case ir::UnaryOp::Neg: return Interval::of(-x.hi, -x.lo);
      case ir::UnaryOp::Abs:
        if (x.lo >= 0) return x;
        if (x.hi <= 0) return Interval::of(-x.hi, -x.lo);
        return Interval::of(0, std::max(-x.lo, x.hi));
      case ir::UnaryOp::Not: return Interval::of(0, 1);
      case ir::UnaryOp::BitNot: return dtype_range(DType::I32);  // bit operators give an i32 word
      case ir::UnaryOp::Exp:
      case ir::UnaryOp::Exp2:
      case ir::UnaryOp::Log:
      case ir::UnaryOp::Log2:
      case ir::UnaryOp::Log1p:
      case ir::UnaryOp::Sqrt:
      case ir::UnaryOp::Rsqrt:
      case ir::UnaryOp::Tanh:
      case ir::UnaryOp::Erf:
      case ir::UnaryOp::Sigmoid: break;
    }
    return any_float();
  }

  Interval binary(const ir::Expr& e) {
    Interval a = eval(e->args[0]), b = eval(e->args[1]);
    if (!e->type.is_index()) return e->type.is_bool() ? Interval::of(0, 1) : any_float();
    switch (e->binary) {
      case ir::BinaryOp::Add: return Interval::of(a.lo + b.lo, a.hi + b.hi);
      case ir::BinaryOp::Sub: return Interval::of(a.lo - b.hi, a.hi - b.lo);
      case ir::BinaryOp::Mul: return corners(a, b, [](Wide x, Wide y) { return clamp(x) * clamp(y); });
      case ir::BinaryOp::Div: return divide(a, b);
      case ir::BinaryOp::CeilDiv: {
        Interval q = divide(Interval::of(-a.hi, -a.lo), b);
        return Interval::of(-q.hi, -q.lo);
      }
      case ir::BinaryOp::Mod: {
        // Floor modulo takes the divisor's sign and is smaller than it in magnitude.
        Wide m = std::max(b.hi, -b.lo);
        return Interval::of(b.lo < 0 ? -(m - 1) : 0, b.hi > 0 ? m - 1 : 0);
      }
      case ir::BinaryOp::Max: return Interval::of(std::max(a.lo, b.lo), std::max(a.hi, b.hi));
      case ir::BinaryOp::Min: return Interval::of(std::min(a.lo, b.lo), std::min(a.hi, b.hi));
      case ir::BinaryOp::Or:
      case ir::BinaryOp::And:
      case ir::BinaryOp::Eq:
      case ir::BinaryOp::Ne:
      case ir::BinaryOp::Lt:
      case ir::BinaryOp::Le:
      case ir::BinaryOp::Gt:
      case ir::BinaryOp::Ge: return Interval::of(0, 1);
      case ir::BinaryOp::BitAnd:
      case ir::BinaryOp::BitOr:
      case ir::BinaryOp::BitXor:
      case ir::BinaryOp::Shl:
      case ir::BinaryOp::Shr:
      case ir::BinaryOp::ShrLogical: return dtype_range(DType::I32);
    }
    return any_float();
  }

  const ir::Kernel& k_;
  int bits_;
  bool indices_;
  Wide limit_;  ///< the counter's largest value
  std::map<std::string, std::vector<int64_t>> shapes_;  ///< allocs seen so far
  std::vector<Wide> element_extent_;  ///< the destination's extent, while checking a map or store
  /// While checking an index (not a loop bound): values read on the device are not ranged.
  bool only_launch_values_ = false;
  std::vector<std::map<std::string, Interval>> scopes_;
  bool fits_ = true;
  const ir::Expr* wide_expr_ = nullptr;
  Interval wide_value_;
};

}  // namespace

Status check_loop_counts(const ir::Kernel& k, const tg_launch_params& params, const std::array<uint32_t, 3>& grid,
                         int bits) {
  if (bits < 2 || bits > 63) return error(ErrorCode::InvalidArgument, "check_loop_counts: a counter of " + std::to_string(bits) + " bits");
  // Most kernels have no serial loop: nothing to evaluate, nothing allocated.
  bool loops = false;
  ir::for_each_stmt(k.body, [&](const ir::Stmt& s) { loops = loops || s.op == ir::OpKind::For || s.op == ir::OpKind::Pipelined; });
  if (!loops) return Status::ok();
  return WidthChecker(k, params, grid, bits, false).block(k.body);
}

Status check_index_widths(const ir::Kernel& k, const tg_launch_params& params, const std::array<uint32_t, 3>& grid,
                          int bits) {
  if (bits < 2 || bits > 63) return error(ErrorCode::InvalidArgument, "check_index_widths: " + std::to_string(bits) + " bits");
  return WidthChecker(k, params, grid, bits, true).block(k.body);
}

}  // namespace tegula::plugin
