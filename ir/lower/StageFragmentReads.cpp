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
#include "ir/lower/SharedCopies.h"

namespace tegula::ir {
namespace {

/// Loads of, and element stores into, every buffer in `to` use its replacement.
void rename_accesses(Block& b, const std::map<std::string, std::string>& to) {
  for (Stmt& s : b.stmts) {
    for (Expr& e : s.exprs) e = rename_buffers(e, ExprKind::Load, to);
    for (TileRef& t : s.tiles)
      for (Expr& e : t.offsets) e = rename_buffers(e, ExprKind::Load, to);
    if (s.op == OpKind::Store)
      if (auto it = to.find(s.tiles[0].buffer); it != to.end()) s.tiles[0].buffer = it->second;
    for (Block& inner : s.blocks) rename_accesses(inner, to);
  }
}

class FragmentStager {
public:
  explicit FragmentStager(LowerContext& ctx) : ctx_(ctx), copies_(ctx, "_staged") {}

  void run() {
    walk(ctx_.kernel.body);
    copies_.insert_allocs();
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
        copies.push_back(SharedCopies::copy(fragment, copy, loc));
        if (stored.count(fragment)) backs.push_back(SharedCopies::copy(copy, fragment, loc));
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
    auto b = copies_.buffers().find(name);
    return b != copies_.buffers().end() && b->second.scope == Scope::Fragment;
  }

  /// The shared copy of `fragment`, allocated on first use.
  std::string staged(const std::string& fragment) {
    bool fresh = false;
    std::string name = copies_.of(fragment, &fresh);
    if (fresh)
      ctx_.note("fragment '" + fragment + "' is accessed by index in a parallel loop: shared '" + name + "' (" +
                std::to_string(SharedCopies::bytes(copies_.buffers().at(fragment))) + " bytes, row-major) holds its copy");
    return name;
  }

  LowerContext& ctx_;
  SharedCopies copies_;
};

}  // namespace

Status stage_fragment_reads(LowerContext& ctx) {
  FragmentStager(ctx).run();
  return Status::ok();
}

}  // namespace tegula::ir
