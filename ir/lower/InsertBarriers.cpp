// Barrier insertion: make the block-level order of ops hold when each op is spread over
// different threads.
//
// In the tile IR an op sees everything the ops before it wrote. Once ops run on threads,
// that holds only across a barrier when two ops touch the same shared or global buffer, at
// least one writes it, and they may map elements to different threads. Walking the
// statements, this pass tracks the buffers touched since the last barrier and inserts one
// before a statement that conflicts. Loops are walked until their loop-carried state
// settles, so the write of iteration i + 1 waits for the reads of iteration i. Fragments and
// local buffers need none (each thread owns its elements); copies a pipeline prefetches by a
// copy engine are synchronised by the pipeline's own waits (those prefetched through
// registers are stored in place, so they are fenced like any copy), and forwarded tiles
// (ForwardOperands.cpp) are never touched at run time.
#include <map>

#include "ir/Analysis.h"
#include "ir/lower/Forwarding.h"
#include "ir/lower/Lowered.h"
#include "ir/lower/Passes.h"

namespace tegula::ir {
namespace {

struct Access {
  bool read = false;
  bool write = false;
  const Stmt* writer = nullptr;  ///< the one statement that wrote, if exactly one did
  bool many_writers = false;
};
using AccessSet = std::map<std::string, Access>;

/// A pipelined loop names its prefetched copies by index in its body (plan.prefetch); a
/// barrier inserted in front of one moves it, so each copy is remembered by how many
/// statements other than barriers precede it, and the indices are recomputed after the walk.
class PrefetchMarks {
public:
  explicit PrefetchMarks(const Stmt& loop) {
    if (loop.op != OpKind::Pipelined || !find_attr(loop.attrs, "plan.prefetch")) return;
    const std::vector<Stmt>& body = loop.blocks[0].stmts;
    for (int64_t i : stmt_attr_ints(loop, "plan.prefetch"))
      if (i >= 0 && size_t(i) < body.size()) marked_.push_back(size_t(i));
    non_barriers_before_.reserve(marked_.size());
    for (size_t i : marked_) {
      size_t n = 0;
      for (size_t j = 0; j < i; ++j) n += body[j].op != OpKind::Barrier;
      non_barriers_before_.push_back(n);
    }
  }

  /// Inserted statements are barriers only, so a marked copy is the statement that has the
  /// same number of non-barrier statements in front of it as before.
  void renumber(Stmt& loop) const {
    if (marked_.empty()) return;
    const std::vector<Stmt>& body = loop.blocks[0].stmts;
    std::vector<int64_t> now;
    for (size_t want : non_barriers_before_) {
      size_t n = 0;
      for (size_t j = 0; j < body.size(); ++j) {
        if (body[j].op == OpKind::Barrier) continue;
        if (n++ == want) {
          now.push_back(int64_t(j));
          break;
        }
      }
    }
    set_attr(loop.attrs, "plan.prefetch", AttrValue::of_ints(now));
  }

private:
  std::vector<size_t> marked_;
  std::vector<size_t> non_barriers_before_;
};

class BarrierInserter {
public:
  explicit BarrierInserter(LowerContext& ctx) : ctx_(ctx), buffers_(ctx.buffers()) {
    // A forwarded tile is never written or read at run time (ForwardOperands.cpp).
    for (const Stmt& s : ctx.kernel.body.stmts)
      if (is_forwarded(s)) buffers_.erase(s.name);
  }

  void run() {
    AccessSet state;
    walk(ctx_.kernel.body, state);
  }

  int inserted() const { return inserted_; }

private:
  bool tracked(const std::string& name) const {
    auto it = buffers_.find(name);
    return it != buffers_.end() && (it->second.scope == Scope::Shared || it->second.scope == Scope::Global);
  }

  void note_expr(const Expr& e, AccessSet& a) {
    if ((e->kind == ExprKind::Tile || e->kind == ExprKind::Load) && tracked(e->name)) a[e->name].read = true;
    for (const Expr& x : e->args) note_expr(x, a);
  }

  /// What one statement touches (a loop or if: what any part of it touches), from the op
  /// list's roles (for_each_access). A read-write operand (atomic_add's destination, gemm's
  /// accumulator, reduce with clear=false) counts as a write only: it reads exactly the
  /// elements it writes, so it conflicts with whatever a write conflicts with, and a loop
  /// that moves it to a disjoint tile each iteration reads nothing its other iterations
  /// write (self_disjoint). The operands of a copy the pipeline runs asynchronously are
  /// synchronised by the pipeline's own waits.
  AccessSet accesses(const Stmt& s) {
    AccessSet a;
    bool async_copy = false;
    if (s.op == OpKind::Copy)
      if (auto plan = get_copy_plan(s); plan.is_ok()) async_copy = plan->async && plan->engine != CopyEngine::Registers;
    for_each_access(s, [&](const BufferAccess& x) {
      if (!tracked(x.buffer) || (async_copy && x.operand)) return;
      if (!writes(x.access)) {
        a[x.buffer].read = true;
        return;
      }
      a[x.buffer].write = true;
      a[x.buffer].writer = &s;
    });
    for (const Block& b : s.blocks)
      for (const Stmt& inner : b.stmts) merge(a, accesses(inner));
    return a;
  }

  /// A write-after-write of a global tensor by one statement into itself, one loop
  /// iteration later, is harmless when its tile moves by at least its extent each iteration
  /// (the tiles are disjoint); that is every "write tile j of the output" loop.
  bool self_disjoint(const std::string& name, const Stmt* writer) const {
    if (!writer || buffers_.at(name).scope != Scope::Global || loop_vars_.empty()) return false;
    // Element stores (inside parallel loops) have no destination tile to reason about.
    if (writer->op != OpKind::Fill && writer->tiles.size() < 2) return false;
    const TileRef& t = writer->op == OpKind::Fill ? writer->target() : writer->tiles[1];
    if (t.offsets.empty()) return false;
    auto extent = tile_op_extent(*writer, buffers_);
    if (!extent.is_ok()) return false;
    // A view's leading axes (ir::leading_axes) have extent 1.
    size_t lead = leading_axes(t.offsets.size(), extent->size());
    for (size_t d = 0; d < t.offsets.size(); ++d) {
      const Expr& o = t.offsets[d];
      int64_t along = d < lead ? 1 : (*extent)[d - lead];
      // offset = var * c (+ anything without var), c >= extent
      auto scaled = [&](const Expr& e) {
        if (e->kind != ExprKind::Binary || e->binary != BinaryOp::Mul) return false;
        for (int side = 0; side < 2; ++side) {
          const Expr& v = e->args[size_t(side)];
          auto c = const_int(e->args[size_t(1 - side)]);
          if (v->kind == ExprKind::Var && v->name == loop_vars_.back() && c && *c >= along) return true;
        }
        return false;
      };
      if (scaled(o)) return true;
      if (o->kind == ExprKind::Binary && o->binary == BinaryOp::Add && (scaled(o->args[0]) || scaled(o->args[1]))) return true;
    }
    return false;
  }

  bool conflicts(const AccessSet& before, const AccessSet& now, bool loop_carried = false) const {
    for (const auto& [name, acc] : now) {
      auto it = before.find(name);
      if (it == before.end()) continue;
      const Access& old = it->second;
      if (!acc.write && !old.write) continue;
      bool only_self_waw = loop_carried && !acc.read && !old.read && !acc.many_writers && !old.many_writers &&
                           acc.writer == old.writer && self_disjoint(name, acc.writer);
      if (!only_self_waw) return true;
    }
    return false;
  }

  static void merge(AccessSet& into, const AccessSet& from) {
    for (const auto& [name, acc] : from) {
      Access& a = into[name];
      if (acc.write) {
        a.many_writers = a.many_writers || acc.many_writers || (a.writer && acc.writer && a.writer != acc.writer);
        if (!a.writer) a.writer = acc.writer;
      }
      a.read |= acc.read;
      a.write |= acc.write;
    }
  }

  Stmt barrier_at(const SourceLoc& loc) {
    Stmt b;
    b.op = OpKind::Barrier;
    b.loc = loc;
    ++inserted_;
    return b;
  }

  /// Walk a block with the state on entry; leaves the state on exit in `state`.
  void walk(Block& block, AccessSet& state, bool loop_carried = false) {
    for (size_t i = 0; i < block.stmts.size(); ++i) {
      switch (block.stmts[i].op) {
        case OpKind::Barrier: state.clear(); break;
        case OpKind::For:
        case OpKind::Pipelined: walk_loop(block, i, state); break;
        case OpKind::If: walk_if(block, i, state); break;
        // One step each; a parallel loop's body runs as part of the step (its iterations
        // are spread over the threads, so it is one block-level access set).
        case OpKind::Alloc:
        case OpKind::Copy:
        case OpKind::Fill:
        case OpKind::Gemm:
        case OpKind::Reduce:
        case OpKind::Scan:
        case OpKind::Map:
        case OpKind::Store:
        case OpKind::AtomicAdd:
        case OpKind::Parallel: {
          AccessSet now = accesses(block.stmts[i]);
          if (conflicts(state, now, loop_carried)) {
            block.stmts.insert(block.stmts.begin() + long(i), barrier_at(block.stmts[i].loc));
            state.clear();
            ++i;
          }
          merge(state, now);
          break;
        }
      }
    }
  }

  /// An if at block.stmts[i]. When a barrier goes in front of it, the walk comes back to
  /// the if (now at i + 1) with the cleared state.
  void walk_if(Block& block, size_t i, AccessSet& state) {
    Stmt& s = block.stmts[i];
    AccessSet now = accesses(s);
    if (conflicts(state, now) && needs_barrier_inside_if(s, state)) {
      block.stmts.insert(block.stmts.begin() + long(i), barrier_at(s.loc));
      state.clear();
      return;
    }
    AccessSet out;
    for (Block& b : s.blocks) {
      AccessSet branch = state;
      walk(b, branch);
      merge(out, branch);
    }
    if (s.blocks.size() < 2) merge(out, state);
    state = out;
  }

  /// A conflict inside an if is resolved inside its branches (the condition is uniform), so a
  /// barrier before it is needed only when the condition itself reads a conflicting buffer.
  bool needs_barrier_inside_if(const Stmt& s, const AccessSet& state) {
    AccessSet cond;
    note_expr(s.cond(), cond);
    return conflicts(state, cond);
  }

  void walk_loop(Block& parent, size_t index, AccessSet& state) {
    Stmt& loop = parent.stmts[index];
    AccessSet bounds;
    for (const Expr& e : loop.exprs) note_expr(e, bounds);
    if (conflicts(state, bounds)) {
      parent.stmts.insert(parent.stmts.begin() + long(index), barrier_at(loop.loc));
      state.clear();
      walk_loop(parent, index + 1, state);
      return;
    }
    // Iterate: the body's exit state flows back into its entry until no barrier is added.
    AccessSet entry = state;
    loop_vars_.push_back(loop.vars[0]);
    PrefetchMarks marks(loop);
    for (int round = 0; round < 4; ++round) {
      int before = inserted_;
      AccessSet s2 = entry;
      walk(loop.blocks[0], s2, round > 0);
      AccessSet next_entry = state;
      merge(next_entry, s2);
      if (inserted_ == before && round > 0) {
        state = next_entry;
        loop_vars_.pop_back();
        marks.renumber(loop);
        return;
      }
      entry = next_entry;
    }
    state = entry;
    loop_vars_.pop_back();
    marks.renumber(loop);
  }


  LowerContext& ctx_;
  BufferMap buffers_;
  std::vector<std::string> loop_vars_;
  int inserted_ = 0;
};

}  // namespace

Status insert_barriers(LowerContext& ctx) {
  BarrierInserter b(ctx);
  b.run();
  ctx.note("inserted " + std::to_string(b.inserted()) + " barriers between ops that share a buffer across threads");
  return Status::ok();
}

}  // namespace tegula::ir
