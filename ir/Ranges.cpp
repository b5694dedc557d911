// Interval arithmetic over index expressions. Bounds stay within +-2^40 (far beyond any
// tensor index), so sums cannot overflow; products are checked. Anything larger, or a
// product that would overflow, is "unknown".
#include "ir/Ranges.h"

#include <algorithm>

namespace tegula::ir {
namespace {

constexpr int64_t kLimit = int64_t(1) << 40;

std::optional<IntRange> bounded(int64_t lo, int64_t hi) {
  if (lo < -kLimit || hi > kLimit || lo > hi) return std::nullopt;
  return IntRange{lo, hi};
}

int64_t floor_div(int64_t a, int64_t b) { return a / b - ((a % b != 0) && ((a < 0) != (b < 0))); }

/// `a & b` where one operand is a word in [0, 2^31): the result lies in [0, that bound].
std::optional<IntRange> and_range(const IntRange& a, const IntRange& b) {
  auto word = [](const IntRange& r) { return r.lo >= 0 && r.hi <= INT32_MAX; };
  if (word(a) && word(b)) return bounded(0, std::min(a.hi, b.hi));
  if (word(a)) return bounded(0, a.hi);
  if (word(b)) return bounded(0, b.hi);
  return std::nullopt;
}

}  // namespace

std::optional<IntRange> expr_range(const Expr& e, const RangeMap& vars) {
  if (!e) return std::nullopt;
  switch (e->kind) {
    case ExprKind::IntImm: return bounded(e->int_value, e->int_value);
    case ExprKind::Var: {
      auto it = vars.find(e->name);
      if (it == vars.end()) return std::nullopt;
      return bounded(it->second.lo, it->second.hi);
    }
    case ExprKind::Unary: {
      if (e->unary != UnaryOp::Neg || e->args.size() != 1) return std::nullopt;
      auto a = expr_range(e->args[0], vars);
      if (!a) return std::nullopt;
      return bounded(-a->hi, -a->lo);
    }
    case ExprKind::Binary: {
      if (e->args.size() != 2) return std::nullopt;
      auto a = expr_range(e->args[0], vars), b = expr_range(e->args[1], vars);
      if (!a || !b) return std::nullopt;
      switch (e->binary) {
        case BinaryOp::Add: return bounded(a->lo + b->lo, a->hi + b->hi);
        case BinaryOp::Sub: return bounded(a->lo - b->hi, a->hi - b->lo);
        case BinaryOp::Mul: {
          // Bounds of up to 2^40 each make products of up to 2^80: checked, not assumed.
          int64_t p[4];
          if (__builtin_mul_overflow(a->lo, b->lo, &p[0]) || __builtin_mul_overflow(a->lo, b->hi, &p[1]) ||
              __builtin_mul_overflow(a->hi, b->lo, &p[2]) || __builtin_mul_overflow(a->hi, b->hi, &p[3]))
            return std::nullopt;
          return bounded(*std::min_element(p, p + 4), *std::max_element(p, p + 4));
        }
        case BinaryOp::Max: return bounded(std::max(a->lo, b->lo), std::max(a->hi, b->hi));
        case BinaryOp::Min: return bounded(std::min(a->lo, b->lo), std::min(a->hi, b->hi));
        case BinaryOp::Div:
        case BinaryOp::CeilDiv:
        case BinaryOp::Mod: {
          // Non-negative by a positive constant: every convention agrees there.
          if (a->lo < 0 || b->lo != b->hi || b->lo <= 0) return std::nullopt;
          int64_t d = b->lo;
          if (e->binary == BinaryOp::Div) return bounded(floor_div(a->lo, d), floor_div(a->hi, d));
          if (e->binary == BinaryOp::CeilDiv) return bounded((a->lo + d - 1) / d, (a->hi + d - 1) / d);
          if (a->hi < d) return a;
          return bounded(0, d - 1);
        }
        case BinaryOp::BitAnd: return and_range(*a, *b);
        case BinaryOp::Shr:
        case BinaryOp::ShrLogical: {
          // A word in [0, 2^31) shifted right by a constant count (taken modulo 32).
          if (a->lo < 0 || a->hi > INT32_MAX || b->lo != b->hi) return std::nullopt;
          int64_t c = b->lo & 31;
          return bounded(a->lo >> c, a->hi >> c);
        }
        case BinaryOp::BitOr:
        case BinaryOp::BitXor:
        case BinaryOp::Shl:
        case BinaryOp::Or:
        case BinaryOp::And:
        case BinaryOp::Eq:
        case BinaryOp::Ne:
        case BinaryOp::Lt:
        case BinaryOp::Le:
        case BinaryOp::Gt:
        case BinaryOp::Ge: return std::nullopt;
      }
      return std::nullopt;
    }
    // Element values and floats have no range here.
    case ExprKind::FloatImm:
    case ExprKind::Load:
    case ExprKind::Tile:
    case ExprKind::ElemIndex:  // its range is the map destination's, which a range map does not hold
    case ExprKind::Cast:
    case ExprKind::Bitcast:
    case ExprKind::Select: return std::nullopt;
  }
  return std::nullopt;
}

RangeMap grid_ranges(const Kernel& k) {
  RangeMap out;
  for (size_t i = 0; i < k.grid.size() && i < 3; ++i) {
    std::optional<int64_t> g = const_int(k.grid[i]);
    if (g && *g >= 1) out[kBlockIndexNames[i]] = IntRange{0, *g - 1};
  }
  return out;
}

}  // namespace tegula::ir
