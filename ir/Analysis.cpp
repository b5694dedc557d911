#include "ir/Analysis.h"

#include <algorithm>
#include <cstdint>
#include <functional>

namespace tegula::ir {

void for_each_stmt(Block& b, const std::function<void(Stmt&)>& fn) {
  for (Stmt& s : b.stmts) {
    fn(s);
    for (Block& inner : s.blocks) for_each_stmt(inner, fn);
  }
}

void for_each_stmt(const Block& b, const std::function<void(const Stmt&)>& fn) {
  for (const Stmt& s : b.stmts) {
    fn(s);
    for (const Block& inner : s.blocks) for_each_stmt(inner, fn);
  }
}

BufferMap kernel_buffers(const Kernel& k) {
  BufferMap out;
  for (const Param& p : k.params) {
    if (!p.is_tensor) continue;
    BufferInfo b;
    b.scope = Scope::Global;
    b.dtype = p.dtype;
    b.loc = p.loc;
    for (const Expr& d : p.shape) b.shape.push_back(d->kind == ExprKind::IntImm ? d->int_value : -1);
    out[p.name] = b;
  }
  for (const Stmt& s : k.body.stmts) {
    if (s.op != OpKind::Alloc) continue;
    out[s.name] = BufferInfo{s.type.scope, s.type.dtype, s.type.shape, s.loc};
  }
  return out;
}

static std::string shape_str(const std::vector<int64_t>& shape) {
  std::string s = "[";
  for (size_t i = 0; i < shape.size(); ++i) {
    if (i) s += ", ";
    s += shape[i] < 0 ? std::string("?") : std::to_string(shape[i]);
  }
  return s + "]";
}

Result<std::vector<int64_t>> tile_op_extent(const Stmt& s, const BufferMap& buffers) {
  std::vector<int64_t> extent = stmt_attr_ints(s, "extent");
  if (!extent.empty()) {
    // Leading entries of 1 beyond the lowest operand rank name a rank-dropping view's
    // single-index axes: the tile is the rest.
    size_t lowest = extent.size();
    for (const TileRef& t : s.tiles) {
      auto it = buffers.find(t.buffer);
      if (it != buffers.end()) lowest = std::min(lowest, it->second.shape.size());
    }
    size_t drop = 0;
    while (drop + lowest < extent.size() && extent[drop] == 1) ++drop;
    extent.erase(extent.begin(), extent.begin() + std::ptrdiff_t(drop));
    return extent;
  }
  // The destination comes first: copy and atomic_add list it second, fill first.
  std::vector<const TileRef*> order;
  if (s.op == OpKind::Fill) {
    order = {&s.tiles[0]};
  } else {
    order = {&s.tiles[1], &s.tiles[0]};
  }
  for (const TileRef* t : order) {
    auto it = buffers.find(t->buffer);
    if (it == buffers.end()) continue;
    if (it->second.scope == Scope::Global || !t->offsets.empty()) continue;
    return it->second.shape;
  }
  // A whole global tensor with a static shape is its own extent.
  for (const TileRef* t : order) {
    auto it = buffers.find(t->buffer);
    if (it == buffers.end() || !t->offsets.empty()) continue;
    bool all_static = true;
    for (int64_t d : it->second.shape) all_static = all_static && d > 0;
    if (all_static) return it->second.shape;
  }
  (void)shape_str;
  return error(ErrorCode::Verify,
               std::string(op_info(s.op).keyword) +
                   " needs an extent: name a whole shared, fragment or local buffer, or give "
                   "extent=[...]",
               s.loc);
}

}  // namespace tegula::ir

namespace tegula::ir {

static void expr_reads(const Expr& e, const std::function<void(const BufferAccess&)>& fn) {
  if (e->kind == ExprKind::Load || e->kind == ExprKind::Tile) fn(BufferAccess{e->name, Access::Read, nullptr});
  for (const Expr& a : e->args) expr_reads(a, fn);
}

void for_each_access(const Stmt& s, const std::function<void(const BufferAccess&)>& fn) {
  size_t operands = std::min(s.tiles.size(), op_roles(s.op).count);
  for (size_t i = 0; i < operands; ++i) fn(BufferAccess{s.tiles[i].buffer, operand_access(s, i), &s.tiles[i]});
  for (const TileRef& t : s.tiles)
    for (const Expr& e : t.offsets) expr_reads(e, fn);
  for (const Expr& e : s.exprs) expr_reads(e, fn);
}

/// The buffers that `s` and its nested statements access in a way `want` accepts.
static void collect(const Stmt& s, bool (*want)(Access), std::set<std::string>& out) {
  for_each_access(s, [&](const BufferAccess& a) {
    if (want(a.access)) out.insert(a.buffer);
  });
  for (const Block& inner : s.blocks)
    for (const Stmt& x : inner.stmts) collect(x, want, out);
}

std::set<std::string> written_buffers(const Stmt& s) {
  std::set<std::string> out;
  collect(s, writes, out);
  return out;
}

std::set<std::string> written_buffers(const Block& b) {
  std::set<std::string> out;
  for (const Stmt& s : b.stmts) collect(s, writes, out);
  return out;
}

std::set<std::string> read_buffers(const Stmt& s) {
  std::set<std::string> out;
  collect(s, reads, out);
  return out;
}

std::vector<size_t> written_params(const Kernel& k) {
  std::set<std::string> written = written_buffers(k.body);
  std::vector<size_t> out;
  for (size_t i = 0; i < k.params.size(); ++i)
    if (k.params[i].is_tensor && written.count(k.params[i].name)) out.push_back(i);
  return out;
}

std::set<std::string> element_loads(const Block& b) {
  std::set<std::string> out;
  std::function<void(const Expr&)> walk = [&](const Expr& e) {
    if (e->kind == ExprKind::Load) out.insert(e->name);
    for (const Expr& a : e->args) walk(a);
  };
  std::function<void(const Block&)> block = [&](const Block& blk) {
    for (const Stmt& s : blk.stmts) {
      for (const Expr& e : s.exprs) walk(e);
      for (const TileRef& t : s.tiles)
        for (const Expr& e : t.offsets) walk(e);
      for (const Block& inner : s.blocks) block(inner);
    }
  };
  block(b);
  return out;
}

Fp8Mode store_mode(const Kernel& k) {
  const Attr* a = find_attr(k.attrs, "saturate");
  bool saturate = !a || a->value.kind != AttrValue::Kind::Bool || a->value.b;
  return saturate ? Fp8Mode::Saturating : Fp8Mode::NonSaturating;
}

bool any_node(const Expr& e, const std::function<bool(const Expr&)>& pred) {
  if (pred(e)) return true;
  for (const Expr& a : e->args)
    if (any_node(a, pred)) return true;
  return false;
}

}  // namespace tegula::ir
