// Fragment staging: element reads of a fragment by index inside a parallel loop
// (`f[15 - i, j]`) read a shared copy of it, and element stores into a fragment
// (`store f[i, j] = ...`) write that copy, which is copied back after the loop.
//
// An element of a fragment lives in the registers of the thread its layout gives it to,
// which in general is not the thread running the iteration that reads it. Each fragment a
// parallel loop reads by index gets a shared buffer of its shape and dtype (row-major and
// unpadded: registers hold values already rounded to the dtype, so the round trip is exact),
// a `copy` fragment -> shared right before every such loop, and the loop's loads read the
// copy. The registers stay the fragment, so a later write to it needs nothing more: the next
// loop copies it again. A loop that stores into the fragment also gets the copy before it
// (elements it does not store keep their values) and a `copy` shared -> fragment after it.
//
// This is an IR rewrite, not a backend's business, so that the passes after it plan the
// copy like any other: map_threads runs it where the fragment lives, plan_pipelines counts
// the buffer against the shared-memory budget, and insert_barriers separates the copy from
// the loop's reads and from the reads of an earlier loop or of the previous trip of an
// enclosing loop. It runs after assign_layouts because the copy reads the fragment under its
// layout and the buffer keeps the plain layout written here (assign_layouts would pad rows
// for bank conflicts; a copy read once per element gains nothing from that).
#include <map>
#include <set>

#include "ir/lower/Passes.h"
#include "ir/lower/SharedLayout.h"

namespace tegula::ir {
namespace {

/// `e` with every load of a buffer in `to` reading its replacement; unchanged nodes are
/// shared, changed ones copied (the caller's kernel shares these nodes with ours).
Expr rename_loads(const Expr& e, const std::map<std::string, std::string>& to) {
  std::vector<Expr> args;
  bool changed = false;
  for (const Expr& a : e->args) {
    args.push_back(rename_loads(a, to));
    changed = changed || args.back() != a;
  }
  auto it = e->kind == ExprKind::Load ? to.find(e->name) : to.end();
  if (it == to.end() && !changed) return e;
  auto n = std::make_shared<ExprNode>(*e);
  n->args = std::move(args);
  if (it != to.end()) n->name = it->second;
  return n;
}

/// Loads of, and element stores into, every buffer in `to` use its replacement.
void rename_accesses(Block& b, const std::map<std::string, std::string>& to) {
  for (Stmt& s : b.stmts) {
    for (Expr& e : s.exprs) e = rename_loads(e, to);
    for (TileRef& t : s.tiles)
      for (Expr& e : t.offsets) e = rename_loads(e, to);
    if (s.op == OpKind::Store)
      if (auto it = to.find(s.tiles[0].buffer); it != to.end()) s.tiles[0].buffer = it->second;
    for (Block& inner : s.blocks) rename_accesses(inner, to);
  }
}

class FragmentStager {
public:
  explicit FragmentStager(LowerContext& ctx) : ctx_(ctx), buffers_(ctx.buffers()) {
    for (const auto& [name, info] : buffers_) taken_.insert(name);
    for (const Param& p : ctx.kernel.params) taken_.insert(p.name);
    for_each_stmt(ctx.kernel.body, [&](const Stmt& s) { taken_.insert(s.vars.begin(), s.vars.end()); });
  }

  void run() {
    walk(ctx_.kernel.body);
    // The new allocs join the others at the top of the body, in the order first needed.
    std::vector<Stmt>& top = ctx_.kernel.body.stmts;
    size_t at = 0;
    while (at < top.size() && top[at].op == OpKind::Alloc) ++at;
    top.insert(top.begin() + long(at), allocs_.begin(), allocs_.end());
  }

private:
  void walk(Block& block) {
    for (size_t i = 0; i < block.stmts.size(); ++i) {
      if (block.stmts[i].op != OpKind::Parallel) {
        for (Block& inner : block.stmts[i].blocks) walk(inner);
        continue;
      }
      // Parallel loops do not nest, so this one is the whole element-level region.
      std::map<std::string, std::string> to;
      std::set<std::string> stored;
      for (const std::string& name : element_loads(block.stmts[i].body()))
        if (is_fragment(name)) to[name] = staged(name);
      for (const std::string& name : written_buffers(block.stmts[i].body()))
        if (is_fragment(name)) {
          to[name] = staged(name);
          stored.insert(name);
        }
      if (to.empty()) continue;
      rename_accesses(block.stmts[i].blocks[0], to);
      SourceLoc loc = block.stmts[i].loc;
      std::vector<Stmt> copies, backs;
      for (const auto& [fragment, copy] : to) {
        copies.push_back(copy_stmt(fragment, copy, loc));
        if (stored.count(fragment)) backs.push_back(copy_stmt(copy, fragment, loc));
      }
      block.stmts.insert(block.stmts.begin() + long(i) + 1, backs.begin(), backs.end());
      block.stmts.insert(block.stmts.begin() + long(i), copies.begin(), copies.end());
      i += copies.size();
      ctx_.note(where(block.stmts[i]) + "parallel loop reads or stores " + std::to_string(to.size()) +
                " fragment(s) by index; each is copied to its shared copy before the loop" +
                (backs.empty() ? "" : ", and " + std::to_string(backs.size()) + " copied back after it"));
      i += backs.size();
    }
  }

  bool is_fragment(const std::string& name) const {
    auto b = buffers_.find(name);
    return b != buffers_.end() && b->second.scope == Scope::Fragment;
  }

  /// The shared copy of `fragment`, allocated on first use.
  std::string staged(const std::string& fragment) {
    if (auto it = copy_of_.find(fragment); it != copy_of_.end()) return it->second;
    const BufferInfo& info = buffers_.at(fragment);
    std::string name = fragment + "_staged";
    while (taken_.count(name)) name += "_";
    taken_.insert(name);
    Stmt a;
    a.op = OpKind::Alloc;
    a.loc = info.loc;
    a.name = name;
    a.type = BufferType{Scope::Shared, info.dtype, info.shape};
    set_shared_layout(a.attrs, SharedLayout{});
    allocs_.push_back(std::move(a));
    ctx_.note("fragment '" + fragment + "' is accessed by index in a parallel loop: shared '" + name + "' (" +
              std::to_string(shared_stage_bytes(SharedLayout{}, info.shape, info.dtype)) + " bytes, row-major) holds its copy");
    copy_of_[fragment] = name;
    return name;
  }

  static Stmt copy_stmt(const std::string& fragment, const std::string& copy, const SourceLoc& loc) {
    Stmt c;
    c.op = OpKind::Copy;
    c.loc = loc;
    c.tiles = {TileRef{fragment, {}, loc}, TileRef{copy, {}, loc}};
    return c;
  }

  LowerContext& ctx_;
  BufferMap buffers_;
  std::set<std::string> taken_;
  std::map<std::string, std::string> copy_of_;
  std::vector<Stmt> allocs_;
};

}  // namespace

Status stage_fragment_reads(LowerContext& ctx) {
  FragmentStager(ctx).run();
  return Status::ok();
}

}  // namespace tegula::ir
