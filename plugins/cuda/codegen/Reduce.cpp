/// \file
/// Reductions, run as their plan says (ir/lower/README.md, "Reduce"): each thread combines
/// the values it holds per output element into partials; butterfly exchanges follow, by warp
/// shuffles for the xor offsets inside a warp (plan.shuffle) and through the plan's shared
/// scratch buffer across warps (plan.cross); plan.kind=shared combines every thread's partial
/// through the scratch. max/min/absmax start from NaN and combine with tg_maxf/tg_minf (the
/// prelude's maximumNumber/minimumNumber: a NaN loses to a number, -0 < +0), so an all-NaN
/// row stays NaN.
#include <algorithm>
#include <cstdint>
#include <map>
#include <set>

#include "ir/lower/Lowered.h"
#include "plugins/cuda/codegen/Emitter.h"
#include "plugins/cuda/codegen/ReduceSteps.h"

namespace tegula::cuda::gen {
namespace {

struct Combiner {
  ir::ReduceKind kind;
  Rep rep;

  std::string identity() const {
    if (rep == Rep::I64) {
      switch (kind) {
        case ir::ReduceKind::Max: return "(-0x7fffffffffffffffLL - 1)";
        case ir::ReduceKind::Min: return "0x7fffffffffffffffLL";
        case ir::ReduceKind::Sum:
        case ir::ReduceKind::AbsMax: return "0LL";
      }
      return "0LL";
    }
    if (kind == ir::ReduceKind::Sum) return rep == Rep::F64 ? "0.0" : "0.0f";
    return rep == Rep::F64 ? "__longlong_as_double(0x7ff8000000000000LL)" : "__uint_as_float(0x7fc00000u)";
  }
  /// Fold one source element into a partial.
  std::string add(const std::string& p, const std::string& x) const {
    bool i = rep == Rep::I64, d = rep == Rep::F64;
    switch (kind) {
      case ir::ReduceKind::Sum: return p + " + " + x;
      case ir::ReduceKind::Max: return (i ? "tg_maxi(" : d ? "tg_maxd(" : "tg_maxf(") + p + ", " + x + ")";
      case ir::ReduceKind::Min: return (i ? "tg_mini(" : d ? "tg_mind(" : "tg_minf(") + p + ", " + x + ")";
      case ir::ReduceKind::AbsMax:
        return (i ? "tg_maxi(" : d ? "tg_maxd(" : "tg_maxf(") + p + ", " + (i ? "tg_absi(" : d ? "fabs(" : "fabsf(") + x + "))";
    }
    return p;
  }
  /// Combine two partials.
  std::string merge(const std::string& a, const std::string& b) const {
    if (kind == ir::ReduceKind::AbsMax) {
      bool i = rep == Rep::I64, d = rep == Rep::F64;
      return (i ? "tg_maxi(" : d ? "tg_maxd(" : "tg_maxf(") + a + ", " + b + ")";
    }
    return add(a, b);
  }
  /// The final value with the destination's old value (clear=false).
  std::string finish(const std::string& old, const std::string& p) const {
    if (kind == ir::ReduceKind::AbsMax) {
      bool i = rep == Rep::I64, d = rep == Rep::F64;
      return (i ? "tg_maxi(tg_absi(" : d ? "tg_maxd(fabs(" : "tg_maxf(fabsf(") + old + "), " + p + ")";
    }
    return merge(old, p);
  }
};

}  // namespace

Result<ReduceSteps> Emitter::plan_reduce(const ir::Stmt& s, const Buffer& src, const Buffer& dst, const ir::ReducePlan& plan) {
  ReduceSteps r;
  r.kind = *ir::parse_reduce(ir::stmt_attr_ident(s, "op"));
  r.axis = int(ir::stmt_attr_int(s, "axis"));
  r.clear = ir::stmt_attr_bool(s, "clear");
  r.rank = int(src.shape.size());
  r.keep = dst.shape.size() == src.shape.size();
  r.rep = src.dtype == DType::F64 ? Rep::F64 : dtype_is_float(src.dtype) ? Rep::F32 : Rep::I64;
  const ir::Distribution& X = plan.exec;
  // Partials: ir::ReducePlan::partial_of numbers them (the value digits off the axis); key k
  // is the off-axis coordinate of partial k's values.
  r.V = X.value_count();
  r.K = plan.partials();
  r.keys.assign(size_t(r.K), {});
  r.key_of.assign(size_t(r.V), 0);
  for (int64_t v = r.V - 1; v >= 0; --v) {
    std::vector<int64_t> c = X.coords(0, v, r.rank);
    c.erase(c.begin() + r.axis);
    r.key_of[size_t(v)] = plan.partial_of(v);
    r.keys[size_t(r.key_of[size_t(v)])] = c;
  }
  // Source slots, when the source is a fragment.
  if (src.scope == ir::Scope::Fragment) {
    TG_ASSIGN_OR_RETURN(r.src_slot, slot_map(s, X, src.shape, src));
  }
  if (dst.scope == ir::Scope::Fragment) {
    TG_RETURN_IF_ERROR(plan_reduce_destination(s, dst, X, r));
    return r;
  }
  // One writer per output: the thread whose axis and replica digits are all zero.
  int64_t pos = 1;
  for (const ir::Factor& f : X.threads) {
    if ((f.dim < 0 || f.dim == r.axis) && f.size > 1) {
      std::string digit = pos == 1 ? "t" : "(t / " + itos(pos) + ")";
      if (pos * f.size < threads()) digit = "(" + digit + " % " + itos(f.size) + ")";
      r.writer.push_back(digit + " == 0");
    }
    pos *= f.size;
  }
  return r;
}

/// Each thread writes its own copies of a fragment destination: dst slot -> the key holding
/// that output, which must be the same for every thread.
Status Emitter::plan_reduce_destination(const ir::Stmt& s, const Buffer& dst, const ir::Distribution& X, ReduceSteps& r) {
  int drank = int(dst.shape.size());
  r.slot_key.assign(size_t(dst.slots), -2);
  for (int64_t t = 0; t < threads(); ++t) {
    std::map<std::vector<int64_t>, int64_t> held;
    std::vector<int64_t> tc = X.coords(t, 0, r.rank);
    for (int64_t k = 0; k < r.K; ++k) {
      std::vector<int64_t> o;
      for (int d = 0, e = 0; d < r.rank; ++d) {
        if (d == r.axis) continue;
        o.push_back(tc[size_t(d)] + r.keys[size_t(k)][size_t(e++)]);
      }
      held.emplace(o, k);
    }
    for (int64_t w = 0; w < dst.slots; ++w) {
      std::vector<int64_t> c = dst.dist.coords(t, w, drank);
      bool in = true;
      for (int d = 0; d < drank; ++d) in = in && c[size_t(d)] < dst.shape[size_t(d)];
      if (!in) continue;
      if (r.keep) c.erase(c.begin() + r.axis);
      auto it = held.find(c);
      if (it == held.end())
        return unsupported(s, "reduce destination '" + dst.name + "' is held by a thread (" + itos(t) + ") that computes no partial for it");
      if (r.slot_key[size_t(w)] == -2) r.slot_key[size_t(w)] = it->second;
      else if (r.slot_key[size_t(w)] != it->second)
        return unsupported(s, "reduce destination '" + dst.name + "' keeps its elements in registers that differ between threads");
    }
  }
  return Status::ok();
}

Status Emitter::emit_reduce(const ir::Stmt& s) {
  const Buffer* src = buffer(s.reduce_src().buffer);
  const Buffer* dst = buffer(s.reduce_dst().buffer);
  if (!src || !dst) return error(ErrorCode::Internal, "cuda codegen: unknown reduce operand", s.loc);
  // read_lowered checked the plan against the block: its thread count, and a scratch buffer of
  // [threads, partials] wherever partials cross subgroups.
  TG_ASSIGN_OR_RETURN(ir::ReducePlan plan, ir::get_reduce_plan(s));
  const Buffer* scratch = plan.scratch.empty() ? nullptr : buffer(plan.scratch);
  if (plan.uses_scratch() && !scratch) return unsupported(s, "a reduce across warps without its scratch buffer");
  TG_ASSIGN_OR_RETURN(ReduceSteps r, plan_reduce(s, *src, *dst, plan));
  const ir::Distribution& X = plan.exec;
  Combiner C{r.kind, r.rep};
  const char* acc_t = rep_type(C.rep);
  int rank = r.rank;

  open("");
  std::vector<int64_t> tmax;
  std::vector<std::string> texpr = thread_part_exprs(X, rank, "t", &tmax);
  r.tp = fresh("rt");
  for (int d = 0; d < rank; ++d) line("const int " + r.tp + "_" + itos(d) + " = " + texpr[size_t(d)] + ";");
  r.P = fresh("P");
  const std::string& P = r.P;
  line(std::string(acc_t) + " " + P + "[" + itos(r.K) + "];");
  for (int64_t k = 0; k < r.K; ++k) line(P + "[" + itos(k) + "] = " + C.identity() + ";");
  for (int64_t v = 0; v < r.V; ++v) {
    std::vector<int64_t> vc = X.coords(0, v, rank);
    std::vector<std::string> coords, guard;
    bool never = false;
    for (int d = 0; d < rank; ++d) {
      std::string c = "(" + r.tp + "_" + itos(d) + " + " + itos(vc[size_t(d)]) + ")";
      coords.push_back(c);
      if (vc[size_t(d)] >= src->shape[size_t(d)]) never = true;
      if (tmax[size_t(d)] + vc[size_t(d)] >= src->shape[size_t(d)]) guard.push_back(c + " < " + itos(src->shape[size_t(d)]));
    }
    if (never) continue;
    Value x;
    if (src->scope == ir::Scope::Fragment) {
      int64_t slot = r.src_slot[size_t(v)];
      if (slot < 0) continue;
      x = {src->cname + "[" + itos(slot) + "]", frag_rep(src->dtype)};
    } else {
      x = read_element(*src, coords, 0.0);
    }
    std::string pk = P + "[" + itos(r.key_of[size_t(v)]) + "]";
    std::string st = pk + " = " + C.add(pk, convert(x, C.rep)) + ";";
    line(guard.empty() ? st : "if (" + join(guard, " && ") + ") " + st);
  }
  emit_reduce_shuffles(plan, r);
  emit_reduce_cross(plan, r, scratch);
  if (plan.kind == ir::ReducePlanKind::Shared) emit_reduce_through_scratch(plan, r, scratch);
  emit_reduce_store(*dst, r);
  close();
  return Status::ok();
}

/// Exchanges inside a warp (plan.shuffle).
void Emitter::emit_reduce_shuffles(const ir::ReducePlan& plan, const ReduceSteps& r) {
  if (plan.shuffle.empty()) return;
  Combiner C{r.kind, r.rep};
  const char* acc_t = rep_type(C.rep);
  bool partial_warp = threads() % 32 != 0;
  std::string mask = "0xffffffffu";
  if (partial_warp) {
    mask = fresh("wm");
    line("const unsigned " + mask + " = (t / 32 == " + itos((threads() - 1) / 32) + ") ? " + itos((int64_t(1) << (threads() % 32)) - 1) +
         "u : 0xffffffffu;");
  }
  for (int64_t off : plan.shuffle) {
    for (int64_t k = 0; k < r.K; ++k) {
      std::string pk = r.P + "[" + itos(k) + "]";
      std::string o = fresh("sh");
      line("const " + std::string(acc_t) + " " + o + " = __shfl_xor_sync(" + mask + ", " + pk + ", " + itos(off) + ");");
      std::string st = pk + " = " + C.merge(pk, o) + ";";
      line(partial_warp ? "if ((t ^ " + itos(off) + ") < " + itos(threads()) + ") " + st : st);
    }
  }
}

/// Every thread's partials into the scratch buffer, between two barriers.
void Emitter::emit_reduce_publish(const ReduceSteps& r, const Buffer& scratch) {
  emit_barrier();
  for (int64_t k = 0; k < r.K; ++k) write_element(scratch, {"t", itos(k)}, {r.P + "[" + itos(k) + "]", r.rep});
  emit_barrier();
}

/// Exchanges across warps (plan.cross), through the scratch buffer.
void Emitter::emit_reduce_cross(const ir::ReducePlan& plan, const ReduceSteps& r, const Buffer* scratch) {
  const std::vector<int64_t>& cross = plan.cross;
  Combiner C{r.kind, r.rep};
  const std::string& P = r.P;
  if (!cross.empty() && cross.size() <= 6) {
    // All the cross-warp exchanges in one round through the scratch buffer: every thread
    // combines the partials of the 2^n threads its butterfly would reach, in one fixed order
    // (so every copy of the result is the same number), with two barriers instead of 2n.
    int64_t mask = 0;
    for (int64_t off : cross) mask |= off;
    emit_reduce_publish(r, *scratch);
    std::string base = fresh("grp");
    line("const int " + base + " = t & ~" + itos(mask) + ";");
    for (int64_t k = 0; k < r.K; ++k) line(P + "[" + itos(k) + "] = " + C.identity() + ";");
    for (int64_t c = 0; c < (int64_t(1) << cross.size()); ++c) {
      int64_t member = 0;
      for (size_t b = 0; b < cross.size(); ++b)
        if (c & (int64_t(1) << b)) member |= cross[b];
      std::string who = "(" + base + " | " + itos(member) + ")";
      // With a power-of-two block, every member of a thread's group exists.
      bool pow2 = (threads() & (threads() - 1)) == 0 && mask < threads();
      open(pow2 ? "" : "if (" + who + " < " + itos(threads()) + ")");
      for (int64_t k = 0; k < r.K; ++k) {
        Value o = read_element(*scratch, {who, itos(k)}, 0.0);
        std::string pk = P + "[" + itos(k) + "]";
        line(pk + " = " + C.merge(pk, convert(o, C.rep)) + ";");
      }
      close();
    }
    return;
  }
  for (int64_t off : cross) {
    emit_reduce_publish(r, *scratch);
    open("if ((t ^ " + itos(off) + ") < " + itos(threads()) + ")");
    for (int64_t k = 0; k < r.K; ++k) {
      Value o = read_element(*scratch, {"(t ^ " + itos(off) + ")", itos(k)}, 0.0);
      std::string pk = P + "[" + itos(k) + "]";
      line(pk + " = " + C.merge(pk, convert(o, C.rep)) + ";");
    }
    close();
  }
}

/// plan.kind=shared: every thread combines, for each of its outputs, the partials of every
/// thread (replicas once) that belong to the same output element.
void Emitter::emit_reduce_through_scratch(const ir::ReducePlan& plan, const ReduceSteps& r, const Buffer* scratch) {
  const ir::Distribution& X = plan.exec;
  Combiner C{r.kind, r.rep};
  const char* acc_t = rep_type(C.rep);
  emit_reduce_publish(r, *scratch);
  std::string R = fresh("R");
  line(std::string(acc_t) + " " + R + "[" + itos(r.K) + "];");
  for (int64_t k = 0; k < r.K; ++k) line(R + "[" + itos(k) + "] = " + C.identity() + ";");
  std::string u = fresh("u");
  open("for (int " + u + " = 0; " + u + " < " + itos(threads()) + "; ++" + u + ")");
  std::vector<std::string> uexpr = thread_part_exprs(X, r.rank, u);
  std::vector<std::string> parts;
  int64_t pos = 1;
  for (const ir::Factor& f : X.threads) {
    if ((f.dim < 0 || f.dim == r.axis) && f.size > 1 && f.dim < 0) parts.push_back("((" + u + " / " + itos(pos) + ") % " + itos(f.size) + ") == 0");
    pos *= f.size;
  }
  std::string ureplica = join(parts, " && ");
  if (!ureplica.empty()) open("if (" + ureplica + ")");
  for (int64_t k2 = 0; k2 < r.K; ++k2) {
    Value o = read_element(*scratch, {u, itos(k2)}, 0.0);
    std::string ov = fresh("so");
    line("const " + std::string(acc_t) + " " + ov + " = " + convert(o, C.rep) + ";");
    for (int64_t k = 0; k < r.K; ++k) {
      std::vector<std::string> same;
      for (int d = 0, e = 0; d < r.rank; ++d) {
        if (d == r.axis) continue;
        std::string mine = "(" + r.tp + "_" + itos(d) + " + " + itos(r.keys[size_t(k)][size_t(e)]) + ")";
        std::string theirs = "(" + uexpr[size_t(d)] + " + " + itos(r.keys[size_t(k2)][size_t(e)]) + ")";
        same.push_back(mine + " == " + theirs);
        ++e;
      }
      std::string st = R + "[" + itos(k) + "] = " + C.merge(R + "[" + itos(k) + "]", ov) + ";";
      line(same.empty() ? st : "if (" + join(same, " && ") + ") " + st);
    }
  }
  if (!ureplica.empty()) close();
  close();
  for (int64_t k = 0; k < r.K; ++k) line(r.P + "[" + itos(k) + "] = " + R + "[" + itos(k) + "];");
}

/// The result into the destination: a fragment's every copy, or one writer per output.
void Emitter::emit_reduce_store(const Buffer& dst, const ReduceSteps& r) {
  Combiner C{r.kind, r.rep};
  if (dst.scope == ir::Scope::Fragment) {
    for (int64_t w = 0; w < dst.slots; ++w) {
      if (r.slot_key[size_t(w)] < 0) continue;
      std::string p = r.P + "[" + itos(r.slot_key[size_t(w)]) + "]";
      Value v{r.clear ? p : C.finish(convert({dst.cname + "[" + itos(w) + "]", frag_rep(dst.dtype)}, C.rep), p), C.rep};
      line(dst.cname + "[" + itos(w) + "] = " + round_to(v, dst.dtype).code + ";");
    }
    return;
  }
  if (!r.writer.empty()) open("if (" + join(r.writer, " && ") + ")");
  for (int64_t k = 0; k < r.K; ++k) {
    // Output coordinates (without the axis) of key k in this thread.
    std::vector<std::string> c;
    for (int d = 0, e = 0; d < r.rank; ++d) {
      if (d == r.axis) continue;
      c.push_back("(" + r.tp + "_" + itos(d) + " + " + itos(r.keys[size_t(k)][size_t(e++)]) + ")");
    }
    if (r.keep) c.insert(c.begin() + r.axis, "0");
    std::string p = r.P + "[" + itos(k) + "]";
    open("if (" + inside(dst, c) + ")");
    Value v{p, C.rep};
    if (!r.clear) {
      Value old = read_element(dst, c, 0.0);
      v = {C.finish(convert(old, C.rep), p), C.rep};
    }
    write_element(dst, c, v);
    close();
  }
  if (!r.writer.empty()) close();
}

}  // namespace tegula::cuda::gen
