#include "ir/BlockRaces.h"

#include <cstdint>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "ir/Analysis.h"
#include "ir/Printer.h"
#include "ir/Ranges.h"

namespace tegula::ir {
namespace {

/// A write to a global tensor: where, which elements (offsets and extent per dimension),
/// and the ranges of the loop variables around it.
struct GlobalWrite {
  const Stmt* stmt;
  const TileRef* dst;
  std::vector<Expr> offsets;     ///< one per dimension of the tensor (0 where none is written)
  std::vector<int64_t> extent;   ///< one per dimension; empty when it is not known
  RangeMap loop_vars;
  std::set<std::string> data_vars;  ///< loop variables whose bounds read tensor values
};

/// An offset as `sum(block[g] * b_g) + rest`, with the range of the rest (nullopt when a
/// variable in it has no known range).
struct BlockAffine {
  int64_t block[3] = {0, 0, 0};
  std::optional<IntRange> rest;
};

int block_axis(const Expr& e) {
  if (e->kind != ExprKind::Var) return -1;
  for (int g = 0; g < 3; ++g)
    if (e->name == kBlockIndexNames[g]) return g;
  return -1;
}

bool mentions_block_index(const Expr& e) {
  if (block_axis(e) >= 0) return true;
  for (const Expr& a : e->args)
    if (mentions_block_index(a)) return true;
  return false;
}

std::optional<IntRange> add_ranges(std::optional<IntRange> a, std::optional<IntRange> b, bool subtract) {
  if (!a || !b) return std::nullopt;
  IntRange out;
  int64_t blo = subtract ? b->hi : b->lo, bhi = subtract ? b->lo : b->hi;
  bool overflow = subtract ? __builtin_sub_overflow(a->lo, blo, &out.lo) || __builtin_sub_overflow(a->hi, bhi, &out.hi)
                           : __builtin_add_overflow(a->lo, blo, &out.lo) || __builtin_add_overflow(a->hi, bhi, &out.hi);
  if (overflow) return std::nullopt;
  return out;
}

std::optional<BlockAffine> scale(BlockAffine a, int64_t c) {
  for (int64_t& b : a.block)
    if (__builtin_mul_overflow(b, c, &b)) return std::nullopt;
  if (!a.rest) return a;
  int64_t lo = 0, hi = 0;
  if (__builtin_mul_overflow(a.rest->lo, c, &lo) || __builtin_mul_overflow(a.rest->hi, c, &hi)) {
    a.rest.reset();
    return a;
  }
  a.rest = c < 0 ? IntRange{hi, lo} : IntRange{lo, hi};
  return a;
}

/// The offset as an affine function of the block indices; nullopt when a block index
/// appears other than linearly (under a division, a product with a variable, a load).
std::optional<BlockAffine> block_affine(const Expr& e, const RangeMap& vars) {
  if (!mentions_block_index(e)) return BlockAffine{{0, 0, 0}, expr_range(e, vars)};
  if (int g = block_axis(e); g >= 0) {
    BlockAffine a;
    a.block[g] = 1;
    a.rest = IntRange{0, 0};
    return a;
  }
  if (e->kind == ExprKind::Unary && e->unary == UnaryOp::Neg) {
    std::optional<BlockAffine> a = block_affine(e->args[0], vars);
    return a ? scale(*a, -1) : std::nullopt;
  }
  if (e->kind != ExprKind::Binary) return std::nullopt;
  if (e->binary == BinaryOp::Add || e->binary == BinaryOp::Sub) {
    std::optional<BlockAffine> a = block_affine(e->args[0], vars), b = block_affine(e->args[1], vars);
    if (!a || !b) return std::nullopt;
    bool subtract = e->binary == BinaryOp::Sub;
    for (int g = 0; g < 3; ++g)
      if (subtract ? __builtin_sub_overflow(a->block[g], b->block[g], &a->block[g])
                   : __builtin_add_overflow(a->block[g], b->block[g], &a->block[g]))
        return std::nullopt;
    a->rest = add_ranges(a->rest, b->rest, subtract);
    return a;
  }
  if (e->binary == BinaryOp::Mul) {
    for (int side = 0; side < 2; ++side) {
      std::optional<int64_t> c = const_int(e->args[size_t(side)]);
      if (!c) continue;
      std::optional<BlockAffine> a = block_affine(e->args[size_t(1 - side)], vars);
      return a ? scale(*a, *c) : std::nullopt;
    }
  }
  return std::nullopt;
}

/// The ranges of the variables a loop statement binds inside its body: constant bounds
/// give a range, others none (a variable of an outer loop with the same name is hidden).
RangeMap body_vars(const Stmt& s, RangeMap vars) {
  if (s.op == OpKind::For || s.op == OpKind::Pipelined) {
    std::optional<int64_t> lo = const_int(s.lo()), hi = const_int(s.hi());
    vars.erase(s.vars[0]);
    if (lo && hi && *hi > *lo) vars[s.vars[0]] = IntRange{*lo, *hi - 1};
  }
  if (s.op == OpKind::Parallel) {
    for (size_t i = 0; i < s.vars.size(); ++i) {
      vars.erase(s.vars[i]);
      std::optional<int64_t> n = i < s.exprs.size() ? const_int(s.exprs[i]) : std::nullopt;
      if (n && *n >= 1) vars[s.vars[i]] = IntRange{0, *n - 1};
    }
  }
  return vars;
}

/// The tensor element an expression reads, directly or through a loop variable whose bounds
/// read one (`for j in Cu[bx] .. Cu[bx + 1]`): a value no range analysis knows.
const Expr* data_source(const Expr& e, const std::set<std::string>& data_vars) {
  if (e->kind == ExprKind::Load || (e->kind == ExprKind::Var && data_vars.count(e->name))) return &e;
  for (const Expr& a : e->args)
    if (const Expr* d = data_source(a, data_vars)) return d;
  return nullptr;
}

/// `data_vars` with the variables `s` binds added where their bounds read tensor values,
/// and removed where they do not (an inner variable hides an outer one of the same name).
std::set<std::string> body_data_vars(const Stmt& s, std::set<std::string> data_vars) {
  bool loaded = false;
  for (const Expr& e : s.exprs) loaded = loaded || data_source(e, data_vars);
  for (const std::string& v : s.vars) {
    if (loaded && s.op != OpKind::Parallel) data_vars.insert(v);
    else data_vars.erase(v);
  }
  return data_vars;
}

void collect_writes(const Block& b, const RangeMap& vars, const std::set<std::string>& data_vars, const BufferMap& buffers,
                    std::vector<GlobalWrite>& out) {
  for (const Stmt& s : b.stmts) {
    // atomic_add's writes are meant to meet: the hardware orders them.
    if (s.op != OpKind::AtomicAdd)
      for_each_access(s, [&](const BufferAccess& a) {
        if (!writes(a.access) || !a.operand) return;
        auto it = buffers.find(a.buffer);
        if (it == buffers.end() || it->second.scope != Scope::Global) return;
        GlobalWrite w{&s, a.operand, a.operand->offsets, {}, vars, data_vars};
        size_t rank = it->second.shape.size();
        while (w.offsets.size() < rank) w.offsets.push_back(int_imm(0));
        if (s.op == OpKind::Store) {
          w.extent.assign(rank, 1);
        } else if (Result<std::vector<int64_t>> e = tile_op_extent(s, buffers); e.is_ok() && e->size() <= rank) {
          w.extent.assign(rank - e->size(), 1);
          w.extent.insert(w.extent.end(), e->begin(), e->end());
        }
        out.push_back(std::move(w));
      });
    for (const Block& inner : s.blocks) collect_writes(inner, body_vars(s, vars), body_data_vars(s, data_vars), buffers, out);
  }
}

/// Whether dimension `d` keeps the writes of different block indices along axis `g` apart.
bool dimension_separates(const std::vector<const GlobalWrite*>& writes, size_t d, int g) {
  std::optional<int64_t> stride;
  for (const GlobalWrite* w : writes) {
    if (w->extent.empty()) return false;
    std::optional<BlockAffine> a = block_affine(w->offsets[d], w->loop_vars);
    if (!a || a->block[g] <= 0 || (stride && *stride != a->block[g])) return false;
    for (int h = 0; h < 3; ++h)
      if (h != g && a->block[h] != 0) return false;
    stride = a->block[g];
    if (!a->rest || a->rest->lo < 0 || a->rest->hi > *stride - w->extent[d]) return false;
  }
  return stride.has_value();
}

bool mentions_axis(const Expr& e, int g) {
  if (block_axis(e) == g) return true;
  for (const Expr& a : e->args)
    if (mentions_axis(a, g)) return true;
  return false;
}

std::string describe(const GlobalWrite& w) {
  std::string offsets;
  for (const Expr& o : w.offsets) offsets += (offsets.empty() ? "" : ", ") + print_expr(o);
  std::string extent;
  for (int64_t e : w.extent) extent += (extent.empty() ? "" : " x ") + std::to_string(e);
  return std::string(op_info(w.stmt->op).keyword) + " writes '" + w.dst->buffer + "'[" + offsets + "]" +
         (extent.empty() ? " (tile of unknown size)" : " (" + extent + ")");
}

BlockRace race(const std::vector<const GlobalWrite*>& writes, int g) {
  const char* axis = kBlockIndexNames[g];
  bool depends = false;
  for (const GlobalWrite* w : writes)
    for (const Expr& o : w->offsets) depends = depends || mentions_axis(o, g);
  const GlobalWrite& first = *writes.front();
  BlockRace r;
  r.loc = first.dst->loc.known() ? first.dst->loc : first.stmt->loc;
  r.tensor = first.dst->buffer;
  r.axis = axis;
  for (const GlobalWrite* w : writes)
    for (const Expr& o : w->offsets) {
      const Expr* d = data_source(o, w->data_vars);
      if (!d) continue;
      std::string what = (*d)->kind == ExprKind::Load ? "the tensor value '" + print_expr(*d) + "'"
                                                      : "the loop variable '" + (*d)->name + "', whose bounds read tensor values";
      r.loc = w->dst->loc.known() ? w->dst->loc : w->stmt->loc;
      r.message = describe(*w) + ": its offset depends on " + what + ", which no analysis can prove different for " +
                  "different blocks along " + axis + "; blocks may write the same elements (make sure the values keep them apart)";
      return r;
    }
  if (!depends) {
    r.message = describe(first) + " at an offset that does not depend on " + axis + ": every block along " + axis +
                " writes the same elements";
    return r;
  }
  r.message = describe(first) + ": blocks along " + axis + " may write the same elements; no dimension has offsets " +
              std::string("'s * ") + axis + " + r' with one stride s for every write to '" + r.tensor +
              "' and 0 <= r <= s - extent";
  return r;
}

/// Whether the grid can have more than one block along axis g.
bool axis_may_repeat(const Kernel& k, int g) {
  if (size_t(g) >= k.grid.size()) return false;
  std::optional<int64_t> n = const_int(k.grid[size_t(g)]);
  return !n || *n > 1;
}

}  // namespace

std::vector<BlockRace> find_block_races(const Kernel& k) {
  BufferMap buffers = kernel_buffers(k);
  std::vector<GlobalWrite> writes;
  collect_writes(k.body, RangeMap{}, {}, buffers, writes);
  std::vector<BlockRace> out;
  for (const Param& p : k.params) {
    std::vector<const GlobalWrite*> to_param;
    for (const GlobalWrite& w : writes)
      if (w.dst->buffer == p.name) to_param.push_back(&w);
    if (to_param.empty()) continue;
    size_t rank = to_param.front()->offsets.size();
    for (int g = 0; g < 3; ++g) {
      if (!axis_may_repeat(k, g)) continue;
      bool apart = false;
      for (size_t d = 0; d < rank && !apart; ++d) apart = dimension_separates(to_param, d, g);
      if (!apart) out.push_back(race(to_param, g));
    }
  }
  return out;
}

}  // namespace tegula::ir
