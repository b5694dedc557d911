#include "ir/lower/SharedCopies.h"

#include "ir/lower/SharedLayout.h"

namespace tegula::ir {

SharedCopies::SharedCopies(LowerContext& ctx, std::string suffix)
    : ctx_(ctx), suffix_(std::move(suffix)), buffers_(ctx.buffers()) {
  for (const auto& [name, info] : buffers_) taken_.insert(name);
  for (const Param& p : ctx.kernel.params) taken_.insert(p.name);
  for_each_stmt(ctx.kernel.body, [&](const Stmt& s) { taken_.insert(s.vars.begin(), s.vars.end()); });
}

std::string SharedCopies::of(const std::string& fragment, bool* fresh) {
  if (fresh) *fresh = false;
  if (auto it = copy_of_.find(fragment); it != copy_of_.end()) return it->second;
  BufferInfo info = buffers_.at(fragment);
  std::string name = fragment + suffix_;
  while (taken_.count(name)) name += "_";
  taken_.insert(name);
  Stmt a;
  a.op = OpKind::Alloc;
  a.loc = info.loc;
  a.name = name;
  a.type = BufferType{Scope::Shared, info.dtype, info.shape};
  set_shared_layout(a.attrs, SharedLayout{});
  allocs_.push_back(std::move(a));
  buffers_[name] = BufferInfo{Scope::Shared, info.dtype, info.shape, info.loc};
  copy_of_[fragment] = name;
  if (fresh) *fresh = true;
  return name;
}

int64_t SharedCopies::bytes(const BufferInfo& info) { return shared_stage_bytes(SharedLayout{}, info.shape, info.dtype); }

void SharedCopies::insert_allocs() {
  std::vector<Stmt>& top = ctx_.kernel.body.stmts;
  size_t at = 0;
  while (at < top.size() && top[at].op == OpKind::Alloc) ++at;
  top.insert(top.begin() + long(at), allocs_.begin(), allocs_.end());
  allocs_.clear();
}

Stmt SharedCopies::copy(const std::string& from, const std::string& to, const SourceLoc& loc) {
  Stmt c;
  c.op = OpKind::Copy;
  c.loc = loc;
  c.tiles = {TileRef{from, {}, loc}, TileRef{to, {}, loc}};
  return c;
}

Expr rename_buffers(const Expr& e, ExprKind kind, const std::map<std::string, std::string>& to) {
  std::vector<Expr> args;
  bool changed = false;
  for (const Expr& a : e->args) {
    args.push_back(rename_buffers(a, kind, to));
    changed = changed || args.back() != a;
  }
  auto it = e->kind == kind ? to.find(e->name) : to.end();
  if (it == to.end() && !changed) return e;
  auto n = std::make_shared<ExprNode>(*e);
  n->args = std::move(args);
  if (it != to.end()) n->name = it->second;
  return n;
}

}  // namespace tegula::ir
