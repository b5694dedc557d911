#include "ir/Analysis.h"

#include <cstdint>
#include <functional>

namespace tegula::ir {

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
  if (!extent.empty()) return extent;
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

static void collect_written(const Block& b, std::vector<std::string>& out) {
  for (const Stmt& s : b.stmts) {
    if (s.op == OpKind::Copy || s.op == OpKind::AtomicAdd) out.push_back(s.tiles[1].buffer);
    if (s.op == OpKind::Store || s.op == OpKind::Fill) out.push_back(s.tiles[0].buffer);
    for (const Block& inner : s.blocks) collect_written(inner, out);
  }
}

std::vector<size_t> written_params(const Kernel& k) {
  std::vector<std::string> names;
  collect_written(k.body, names);
  std::vector<size_t> out;
  for (size_t i = 0; i < k.params.size(); ++i) {
    if (!k.params[i].is_tensor) continue;
    for (const std::string& n : names) {
      if (n != k.params[i].name) continue;
      out.push_back(i);
      break;
    }
  }
  return out;
}

std::set<std::string> written_buffers(const Stmt& s) {
  std::set<std::string> out;
  switch (s.op) {
    case OpKind::Copy:
    case OpKind::AtomicAdd: out.insert(s.tiles[1].buffer); break;
    case OpKind::Fill:
    case OpKind::Map:
    case OpKind::Store: out.insert(s.tiles[0].buffer); break;
    case OpKind::Reduce: out.insert(s.reduce_dst().buffer); break;
    case OpKind::Gemm: out.insert(s.gemm_c().buffer); break;
    default: break;
  }
  for (const Block& inner : s.blocks) {
    std::set<std::string> nested = written_buffers(inner);
    out.insert(nested.begin(), nested.end());
  }
  return out;
}

std::set<std::string> written_buffers(const Block& b) {
  std::set<std::string> out;
  for (const Stmt& s : b.stmts) {
    std::set<std::string> w = written_buffers(s);
    out.insert(w.begin(), w.end());
  }
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

}  // namespace tegula::ir
