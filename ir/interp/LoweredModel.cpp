/// \file
/// The lowered-form model of the reference interpreter. A lowered kernel runs as its
/// decisions say (ir/lower/README.md): fragments held per thread and register under their
/// layout, gemms computed atom by atom from the catalogue's fragment layouts, and reductions
/// step by step as their plans exchange partials, so a wrong decision of a lowering pass
/// shows up as a wrong result. The oracle itself (what each op means) is ir/Interpreter.cpp.
#include <cmath>
#include <cstdint>
#include <optional>
#include <utility>
#include <vector>

#include "ir/interp/Machine.h"
#include "ir/lower/Lowered.h"
#include "targets/MatrixQuery.h"
#include "targets/Target.h"

namespace tegula::ir::interp {

void Buf::make_physical(const Distribution& d) {
  physical = true;
  dist = d;
  slots_per_thread = d.value_count();
  int64_t total = d.thread_count() * slots_per_thread;
  slot_element.assign(size_t(total), -1);
  owner.assign(size_t(numel), -1);
  int rank = int(shape.size());
  for (int64_t t = 0; t < d.thread_count(); ++t) {
    for (int64_t v = 0; v < slots_per_thread; ++v) {
      std::vector<int64_t> c = d.coords(t, v, rank);
      int64_t linear = 0;
      bool inside = true;
      for (int i = 0; i < rank; ++i) {
        inside = inside && c[size_t(i)] < shape[size_t(i)];
        linear += c[size_t(i)] * strides[size_t(i)];
      }
      if (!inside) continue;
      int64_t slot = t * slots_per_thread + v;
      slot_element[size_t(slot)] = linear;
      if (owner[size_t(linear)] < 0) owner[size_t(linear)] = slot;
    }
  }
  copies_begin.assign(size_t(numel) + 1, 0);
  for (int64_t e : slot_element)
    if (e >= 0) ++copies_begin[size_t(e) + 1];
  for (size_t i = 1; i < copies_begin.size(); ++i) copies_begin[i] += copies_begin[i - 1];
  copies.assign(size_t(copies_begin.back()), 0);
  std::vector<int64_t> fill(copies_begin.begin(), copies_begin.end() - 1);
  for (size_t slot = 0; slot < slot_element.size(); ++slot)
    if (slot_element[slot] >= 0) copies[size_t(fill[size_t(slot_element[slot])]++)] = int64_t(slot);
  poison();
}

Result<StmtFn> compile_gemm_atoms(const Stmt& s, const TargetDescription* target, const GemmPlan& plan, Buf* a, Buf* b, Buf* c,
                                  bool ta, bool tb, bool acc) {
  if (!target) return error(ErrorCode::Unsupported, "the interpreter needs the target description to run instruction '" + plan.inst + "'", s.loc);
  const MatrixInstruction* mi = target->find_instruction(plan.inst);
  if (!mi) return error(ErrorCode::Verify, "target '" + target->name + "' has no instruction '" + plan.inst + "'", s.loc);
  MmaShape atom{int(plan.m), int(plan.n), int(plan.k)};
  auto bind = [&](const Operand& op, bool accumulator) -> Result<std::optional<BoundLayout>> {
    const OperandPlacement* p = op.find(OperandLocation::Registers);
    const Layout* l = p && p->form == OperandPlacement::Form::ThreadValue ? &p->layout : nullptr;
    if (!l && accumulator) {
      const OperandPlacement* t = op.find(OperandLocation::TensorMemory);
      if (t && t->readback_layout) l = &*t->readback_layout;
    }
    if (!l) return std::optional<BoundLayout>();
    TG_ASSIGN_OR_RETURN(BoundLayout b2, l->bind(shape_symbols(atom)));
    return std::optional<BoundLayout>(b2);
  };
  TG_ASSIGN_OR_RETURN(auto c_layout, bind(mi->acc, true));
  if (!c_layout) return error(ErrorCode::Unsupported, "instruction '" + plan.inst + "' has no accumulator layout", s.loc);
  // Inverse maps for register operands: atom element -> (thread in group, register).
  auto inverse = [](const BoundLayout& l, int64_t elems) {
    std::vector<std::pair<int64_t, int64_t>> inv(size_t(elems), {-1, -1});
    for (int64_t t = 0; t < l.mode_size(0); ++t)
      for (int64_t r = 0; r < l.mode_size(1); ++r) {
        int64_t idx = l.index(t, r);
        if (idx >= 0 && idx < elems && inv[size_t(idx)].first < 0) inv[size_t(idx)] = {t, r};
      }
    return inv;
  };
  bool a_regs = a->physical && plan.a_from == OperandLocation::Registers;
  bool b_regs = b->physical && plan.b_from == OperandLocation::Registers;
  std::vector<std::pair<int64_t, int64_t>> a_inv, b_inv;
  int64_t a_vals = 0, b_vals = 0;
  if (a_regs) {
    TG_ASSIGN_OR_RETURN(auto l, bind(mi->a, false));
    if (!l) return error(ErrorCode::Verify, "instruction '" + plan.inst + "' has no register layout for A", s.loc);
    a_inv = inverse(*l, plan.m * plan.k);
    a_vals = l->mode_size(1);
  }
  if (b_regs) {
    TG_ASSIGN_OR_RETURN(auto l, bind(mi->b, false));
    if (!l) return error(ErrorCode::Verify, "instruction '" + plan.inst + "' has no register layout for B", s.loc);
    b_inv = inverse(*l, plan.n * plan.k);
    b_vals = l->mode_size(1);
  }
  BoundLayout cl = *c_layout;
  return StmtFn([=]() -> Status {
    int64_t threads = int64_t(c->regs.size()) / c->slots_per_thread;
    int64_t groups = plan.gm * plan.gn;
    int64_t c_vals = cl.mode_size(1);
    int64_t k_steps = plan.Kp / plan.k;
    std::vector<double> result(c->regs.size(), 0.0);
    for (int64_t t = 0; t < threads; ++t) {
      // Threads past the tiled groups repeat a group's work, so their copies stay current.
      int64_t group = (t / plan.group_threads) % groups, local = t % plan.group_threads;
      int64_t base_thread = t - local;  // first thread of this thread's group
      int64_t gi = group % plan.gm, gj = group / plan.gm;
      for (int64_t j = 0; j < plan.rn; ++j)
        for (int64_t i = 0; i < plan.rm; ++i)
          for (int64_t r = 0; r < c_vals; ++r) {
            int64_t idx = cl.index(local, r);
            int64_t mm = idx % plan.m, nn = idx / plan.m;
            int64_t row = gi * plan.rm * plan.m + i * plan.m + mm;
            int64_t col = gj * plan.rn * plan.n + j * plan.n + nn;
            int64_t slot = t * c->slots_per_thread + r + c_vals * (i + plan.rm * j);
            double sum = acc ? c->regs[size_t(slot)] : 0.0;
            for (int64_t st = 0; st < k_steps; ++st)
              for (int64_t kk = 0; kk < plan.k; ++kk) {
                int64_t kg = st * plan.k + kk;
                double av, bv;
                if (a_regs) {
                  auto [at, ar] = a_inv[size_t(mm + plan.m * kk)];
                  av = a->regs[size_t((base_thread + at) * a->slots_per_thread + ar + a_vals * (i + plan.rm * st))];
                } else {
                  av = a->get(ta ? kg * a->strides[0] + row : row * a->strides[0] + kg);
                }
                if (b_regs) {
                  auto [bt, br] = b_inv[size_t(nn + plan.n * kk)];
                  bv = b->regs[size_t((base_thread + bt) * b->slots_per_thread + br + b_vals * (j + plan.rn * st))];
                } else {
                  bv = b->get(tb ? col * b->strides[0] + kg : kg * b->strides[0] + col);
                }
                sum += av * bv;
              }
            result[size_t(slot)] = round_to_dtype(c->dtype, sum, c->mode);
          }
    }
    c->regs = std::move(result);
    return Status::ok();
  });
}

Result<InBoundsClaims> in_bounds_claims(const Stmt& s) {
  InBoundsClaims c;
  if (!find_attr(s.attrs, "plan.inbounds")) return c;
  TG_ASSIGN_OR_RETURN(CopyPlan p, get_copy_plan(s));
  c.src = p.src_in.dims;
  c.dst = p.dst_in.dims;
  return c;
}

Status InBoundsClaims::check(const SourceLoc& loc, const Buf& src_buf, const std::vector<int64_t>& src_origin, const Buf& dst_buf,
                             const std::vector<int64_t>& dst_origin, const std::vector<int64_t>& extent) const {
  auto side = [&](const std::vector<bool>& claim, const Buf& b, const std::vector<int64_t>& origin, const char* what) -> Status {
    for (size_t d = 0; d < claim.size(); ++d) {
      if (!claim[d]) continue;
      if (d >= origin.size() || d >= b.shape.size() || d >= extent.size())
        return error(ErrorCode::Verify, std::string("plan.inbounds names dimension ") + std::to_string(d) + " of the " + what + " '" + b.name +
                                            "', which has no such dimension", loc);
      if (origin[d] >= 0 && origin[d] + extent[d] <= b.shape[d]) continue;
      return error(ErrorCode::Verify, std::string("plan.inbounds claims the ") + what + " tile stays inside '" + b.name + "' in dimension " +
                                          std::to_string(d) + ", but this run's tile spans [" + std::to_string(origin[d]) + ", " +
                                          std::to_string(origin[d] + extent[d]) + ") of " + std::to_string(b.shape[d]),
                   loc);
    }
    return Status::ok();
  };
  TG_RETURN_IF_ERROR(side(src, src_buf, src_origin, "source"));
  return side(dst, dst_buf, dst_origin, "destination");
}

Status check_scan_plan(const Stmt& s, const std::vector<int64_t>& lines, int64_t axis) {
  auto exec = get_distribution(s.attrs, "plan");
  if (!exec.is_ok()) return error(ErrorCode::Verify, "scan plan: " + exec.status().message(), s.loc);
  Status covered = check_coverage(*exec, lines, false);
  if (!covered.is_ok())
    return error(ErrorCode::Verify, "scan plan does not give each line along axis " + std::to_string(axis) + " to one thread: " + covered.message(), s.loc);
  return Status::ok();
}

Result<StmtFn> compile_reduce_plan(const Stmt& s, Buf* src, Buf* dst, ReduceKind kind, int64_t axis, bool clear) {
  TG_ASSIGN_OR_RETURN(Distribution exec, get_distribution(s.attrs, "plan"));
  std::vector<int64_t> steps = stmt_attr_ints(s, "plan.shuffle");
  for (int64_t x : stmt_attr_ints(s, "plan.cross")) steps.push_back(x);
  bool all_shared = stmt_attr_ident(s, "plan.kind") == "shared";
  return StmtFn([=]() -> Status {
    int64_t threads = exec.thread_count();
    int rank = int(src->shape.size());
    int64_t outs = src->numel / src->shape[size_t(axis)];
    auto out_index = [&](const std::vector<int64_t>& c) {
      int64_t o = 0;
      for (int d = 0; d < rank; ++d)
        if (d != axis) o = o * src->shape[size_t(d)] + c[size_t(d)];
      return o;
    };
    std::vector<std::vector<Partial>> part(size_t(threads), std::vector<Partial>(size_t(outs), Partial::identity(kind)));
    for (int64_t t = 0; t < threads; ++t)
      for (int64_t v = 0; v < exec.value_count(); ++v) {
        std::vector<int64_t> c = exec.coords(t, v, rank);
        bool inside = true;
        for (int d = 0; d < rank; ++d) inside = inside && c[size_t(d)] < src->shape[size_t(d)];
        if (!inside) continue;
        int64_t linear = 0;
        for (int d = 0; d < rank; ++d) linear += c[size_t(d)] * src->strides[size_t(d)];
        part[size_t(t)][size_t(out_index(c))].add(kind, src->get(linear));
      }
    if (all_shared) {
      // Every thread combines every thread's partial for its outputs.
      std::vector<Partial> total(size_t(outs), Partial::identity(kind));
      for (int64_t t = 0; t < threads; ++t)
        for (int64_t o = 0; o < outs; ++o) total[size_t(o)].merge(kind, part[size_t(t)][size_t(o)]);
      for (auto& p : part) p = total;
    }
    for (int64_t off : steps) {
      auto next = part;
      for (int64_t t = 0; t < threads; ++t) {
        int64_t partner = t ^ off;
        if (partner >= threads) continue;
        for (int64_t o = 0; o < outs; ++o) next[size_t(t)][size_t(o)].merge(kind, part[size_t(partner)][size_t(o)]);
      }
      part = std::move(next);
    }
    // Each thread writes its own copies of the destination.
    int drank = int(dst->shape.size());
    auto dst_out = [&](const std::vector<int64_t>& c) {
      std::vector<int64_t> full(size_t(rank), 0);
      if (drank == rank) return out_index(c);
      for (int d = 0, e = 0; d < rank; ++d) full[size_t(d)] = d == axis ? 0 : c[size_t(e++)];
      return out_index(full);
    };
    if (dst->physical) {
      int drank2 = drank;
      for (int64_t slot = 0; slot < int64_t(dst->regs.size()); ++slot) {
        int64_t e = dst->slot_element[size_t(slot)];
        if (e < 0) continue;
        int64_t t = slot / dst->slots_per_thread;
        std::vector<int64_t> c(static_cast<size_t>(drank2));
        int64_t rest = e;
        for (int d = drank2 - 1; d >= 0; --d) {
          c[size_t(d)] = rest % dst->shape[size_t(d)];
          rest /= dst->shape[size_t(d)];
        }
        const Partial& p = part[size_t(t % threads)][size_t(dst_out(c))];
        double old = dst->regs[size_t(slot)];
        dst->regs[size_t(slot)] = round_to_dtype(dst->dtype, p.any ? p.finish(kind, clear, old) : std::nan(""), dst->mode);
      }
      return Status::ok();
    }
    // A shared or global destination takes the value of the first thread holding a partial.
    for (int64_t o = 0; o < outs; ++o) {
      const Partial* best = nullptr;
      for (int64_t t = 0; t < threads && !best; ++t)
        if (part[size_t(t)][size_t(o)].any) best = &part[size_t(t)][size_t(o)];
      double old = clear ? 0.0 : dst->get(o);
      dst->set(o, best ? best->finish(kind, clear, old) : std::nan(""));
    }
    return Status::ok();
  });
}

}  // namespace tegula::ir::interp
