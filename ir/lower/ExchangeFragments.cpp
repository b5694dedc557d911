// Fragment exchange: a copy or map that reads a fragment whose layout does not put each
// element in the thread that needs it reads a shared copy of that fragment instead.
//
// A gemm fixes its accumulator and register operands to the instruction's layouts, so two
// gemms chained through registers (attention's P = softmax(Q K^T), then P V) meet with two
// different layouts, and a reduction's result carries the layout of its source. Before this
// pass that was an error the kernel author had to fix by hand with a shared buffer; now the
// lowering makes that exchange itself and says so: each such operand gets a shared buffer
// of its shape and dtype (row-major, unpadded; the round trip is exact, registers hold
// values already rounded to the dtype), a `copy` fragment -> shared right before the
// statement, and the statement reads the copy. A fragment-to-fragment copy becomes two
// copies through the buffer; a map into shared or global memory that reads only broadcast
// fragments (a row maximum subtracted from a shared tile) runs under a free thread plan, so
// all of them go through shared. One buffer serves every exchange of the same fragment.
//
// It is an IR rewrite for the same reasons as stage_fragment_reads: the passes after it plan
// the new copies like any other (map_threads distributes them by the fragment's layout,
// place_shared budgets the buffer, insert_barriers orders the write before the reads and the
// reads before the next trip's write). It runs right after assign_layouts, which leaves these
// uses to it and only refuses what an exchange cannot fix (one fragment required in two
// layouts, a reduction whose result is fixed elsewhere).
#include <functional>
#include <map>
#include <set>

#include "ir/lower/Distribution.h"
#include "ir/lower/Passes.h"
#include "ir/lower/SharedCopies.h"

namespace tegula::ir {
namespace {

class FragmentExchanger {
public:
  explicit FragmentExchanger(LowerContext& ctx) : ctx_(ctx), copies_(ctx, "_exchange") {
    for (const Stmt& s : ctx.kernel.body.stmts) {
      if (s.op != OpKind::Alloc || s.type.scope != Scope::Fragment) continue;
      // Opaque (cooperative-matrix) fragments have no layout attribute: nothing to compare.
      if (Result<Distribution> d = get_distribution(s.attrs, "layout"); d.is_ok()) layout_[s.name] = *d;
    }
  }

  void run() {
    walk(ctx_.kernel.body);
    copies_.insert_allocs();
  }

private:
  bool laid_out(const std::string& name) const { return layout_.count(name) != 0; }
  const std::vector<int64_t>& shape(const std::string& name) const { return copies_.buffers().at(name).shape; }

  /// Whether an op executed under `exec`'s layout finds `operand`'s elements in registers.
  bool held(const std::string& exec, const std::string& operand) const {
    return holds_needed(layout_.at(exec), shape(exec), layout_.at(operand), shape(operand));
  }

  void walk(Block& block) {
    for (size_t i = 0; i < block.stmts.size(); ++i) {
      for (Block& inner : block.stmts[i].blocks) walk(inner);
      std::vector<Stmt> before;
      if (block.stmts[i].op == OpKind::Map) before = exchange_map(block.stmts[i]);
      if (block.stmts[i].op == OpKind::Copy) before = exchange_copy(block.stmts[i]);
      block.stmts.insert(block.stmts.begin() + long(i), before.begin(), before.end());
      i += before.size();
    }
  }

  /// The copies to put before a map whose operands are not held where it runs; the map is
  /// rewritten to read their shared copies.
  std::vector<Stmt> exchange_map(Stmt& s) {
    const std::string& dst = s.target().buffer;
    std::vector<std::string> operands;
    std::function<void(const Expr&)> find = [&](const Expr& e) {
      if (e->kind == ExprKind::Tile && laid_out(e->name)) operands.push_back(e->name);
      for (const Expr& a : e->args) find(a);
    };
    find(s.value());
    // An opaque (cooperative-matrix) destination: its backend path reads operands itself.
    if (!laid_out(dst) && copies_.buffers().at(dst).scope == Scope::Fragment) return {};
    // The map runs under its destination's layout, or that of a full-shape operand.
    std::string exec = laid_out(dst) ? dst : "";
    for (const std::string& o : operands)
      if (exec.empty() && shape(o) == shape(dst)) exec = o;
    // Without one (a map into shared or global memory whose fragment operands broadcast), the
    // map runs under a free thread plan that no fragment layout matches: all go through shared.
    std::map<std::string, std::string> to;
    for (const std::string& o : operands)
      if (o != exec && !to.count(o) && (exec.empty() || !held(exec, o))) to[o] = exchange_buffer(o);
    if (to.empty()) return {};
    s.exprs[0] = rename_buffers(s.exprs[0], ExprKind::Tile, to);
    std::vector<Stmt> copies;
    for (const auto& [fragment, buffer] : to) {
      copies.push_back(SharedCopies::copy(fragment, buffer, s.loc));
      note(s, fragment, exec, buffer);
    }
    return copies;
  }

  /// A whole-fragment copy between two layouts becomes fragment -> shared -> fragment.
  std::vector<Stmt> exchange_copy(Stmt& s) {
    // Copies of the names: the source operand is rewritten below.
    const std::string a = s.copy_src().buffer, b = s.copy_dst().buffer;
    if (!laid_out(a) || !laid_out(b) || shape(a) != shape(b) || !s.copy_src().offsets.empty() ||
        !s.copy_dst().offsets.empty() || held(b, a))
      return {};
    std::string buffer = exchange_buffer(a);
    note(s, a, b, buffer);
    s.tiles[0] = TileRef{buffer, {}, s.copy_src().loc};
    return {SharedCopies::copy(a, buffer, s.loc)};
  }

  void note(const Stmt& s, const std::string& fragment, const std::string& exec, const std::string& buffer) {
    std::string needed = exec.empty() ? "the free thread plan of a map into " + std::string(scope_name(copies_.buffers().at(s.target().buffer).scope)) +
                                            " memory needs it"
                                      : "'" + exec + "' (" + distribution_str(layout_.at(exec)) + ") needs it";
    ctx_.note(where(s) + op_info(s.op).keyword + ": fragment '" + fragment + "' (" + distribution_str(layout_.at(fragment)) +
              ") is not held where " + needed + ": exchanged through shared '" + buffer + "'");
  }

  /// The shared buffer that `fragment` goes through, allocated on first use.
  std::string exchange_buffer(const std::string& fragment) {
    bool fresh = false;
    std::string name = copies_.of(fragment, &fresh);
    if (fresh)
      ctx_.note("fragment '" + fragment + "' changes layout: shared '" + name + "' (" +
                std::to_string(SharedCopies::bytes(copies_.buffers().at(fragment))) + " bytes, row-major) carries it");
    return name;
  }

  LowerContext& ctx_;
  SharedCopies copies_;
  std::map<std::string, Distribution> layout_;
};

}  // namespace

Status exchange_fragments(LowerContext& ctx) {
  FragmentExchanger(ctx).run();
  return Status::ok();
}

}  // namespace tegula::ir
