#include "ir/lower/GemmPlan.h"

#include <cstdint>

namespace tegula::ir {

void set_gemm_plan(std::vector<Attr>& attrs, const GemmPlan& p) {
  set_attr(attrs, "mma.inst", AttrValue::of_string(p.inst));
  set_attr(attrs, "mma.kind", AttrValue::of_ident(instruction_kind_name(p.kind)));
  set_attr(attrs, "mma.atom", AttrValue::of_ints({p.m, p.n, p.k}));
  set_attr(attrs, "mma.groups", AttrValue::of_ints({p.gm, p.gn}));
  set_attr(attrs, "mma.repeat", AttrValue::of_ints({p.rm, p.rn}));
  set_attr(attrs, "mma.group_threads", AttrValue::of_int(p.group_threads));
  set_attr(attrs, "mma.a", AttrValue::of_ident(operand_location_name(p.a_from)));
  set_attr(attrs, "mma.b", AttrValue::of_ident(operand_location_name(p.b_from)));
  set_attr(attrs, "mma.padded", AttrValue::of_ints({p.Mp, p.Np, p.Kp}));
}

static Result<std::vector<int64_t>> ints(const Stmt& s, const char* name, size_t n) {
  const Attr* a = find_attr(s.attrs, name);
  if (!a) return error(ErrorCode::Verify, std::string("lowered gemm lacks '") + name + "'", s.loc);
  std::vector<int64_t> out;
  bool ok = a->value.kind == AttrValue::Kind::List && a->value.list.size() == n;
  for (size_t i = 0; ok && i < n; ++i) {
    ok = a->value.list[i].kind == AttrValue::Kind::Int && a->value.list[i].i >= 1 && a->value.list[i].i <= (1 << 20);
    if (ok) out.push_back(a->value.list[i].i);
  }
  if (!ok) return error(ErrorCode::Verify, std::string("'") + name + "' must hold " + std::to_string(n) + " positive integers", a->loc);
  return out;
}

Result<GemmPlan> get_gemm_plan(const Stmt& s) {
  GemmPlan p;
  const Attr* inst = find_attr(s.attrs, "mma.inst");
  const Attr* kind = find_attr(s.attrs, "mma.kind");
  if (!inst || !kind) return error(ErrorCode::Verify, "gemm has no instruction plan (mma.inst, mma.kind)", s.loc);
  p.inst = inst->value.s;
  auto k = parse_instruction_kind(kind->value.s);
  if (!k) return error(ErrorCode::Verify, "unknown mma.kind '" + kind->value.s + "'", kind->loc);
  p.kind = *k;
  TG_ASSIGN_OR_RETURN(auto atom, ints(s, "mma.atom", 3));
  TG_ASSIGN_OR_RETURN(auto groups, ints(s, "mma.groups", 2));
  TG_ASSIGN_OR_RETURN(auto repeat, ints(s, "mma.repeat", 2));
  TG_ASSIGN_OR_RETURN(auto padded, ints(s, "mma.padded", 3));
  const Attr* gt = find_attr(s.attrs, "mma.group_threads");
  if (!gt || gt->value.kind != AttrValue::Kind::Int || gt->value.i < 1 || gt->value.i > 1024)
    return error(ErrorCode::Verify, "gemm lacks a valid 'mma.group_threads'", s.loc);
  p.m = atom[0], p.n = atom[1], p.k = atom[2];
  p.gm = groups[0], p.gn = groups[1];
  p.rm = repeat[0], p.rn = repeat[1];
  p.Mp = padded[0], p.Np = padded[1], p.Kp = padded[2];
  p.group_threads = gt->value.i;
  for (const char* name : {"mma.a", "mma.b"}) {
    const Attr* a = find_attr(s.attrs, name);
    auto loc = a ? parse_operand_location(a->value.s) : std::nullopt;
    if (!loc) return error(ErrorCode::Verify, std::string("gemm lacks a valid '") + name + "'", s.loc);
    (name[4] == 'a' ? p.a_from : p.b_from) = *loc;
  }
  if (p.Mp != p.gm * p.rm * p.m || p.Np != p.gn * p.rn * p.n || p.Kp % p.k)
    return error(ErrorCode::Verify, "gemm plan tiles do not add up to mma.padded", s.loc);
  return p;
}

Result<Distribution> atom_distribution(const Layout& layout, const MmaShape& atom, int64_t rows, int64_t cols, bool swap) {
  TG_ASSIGN_OR_RETURN(BoundLayout bound, layout.bind(shape_symbols(atom)));
  if (bound.rank() != 2) return error(ErrorCode::Verify, "an operand layout must have a thread mode and a value mode");
  Distribution d;
  for (int mode = 0; mode < 2; ++mode) {
    for (const BoundLayout::Leaf& leaf : bound.mode(mode)) {
      Factor f{leaf.shape, -1, 0};
      if (leaf.stride != 0 && leaf.shape > 1) {
        if (leaf.stride < rows) {
          if (leaf.stride * (leaf.shape - 1) >= rows)
            return error(ErrorCode::Verify, "layout " + layout.to_string() + " has a stride that wraps across rows");
          f.dim = 0;
          f.stride = leaf.stride;
        } else if (leaf.stride % rows == 0) {
          f.dim = 1;
          f.stride = leaf.stride / rows;
          if (f.stride * (leaf.shape - 1) >= cols)
            return error(ErrorCode::Verify, "layout " + layout.to_string() + " reaches past the tile's columns");
        } else {
          return error(ErrorCode::Verify, "layout " + layout.to_string() + " has a stride that moves both dimensions");
        }
        if (swap) f.dim = 1 - f.dim;
      } else if (leaf.shape == 1) {
        continue;
      }
      (mode == 0 ? d.threads : d.values).push_back(f);
    }
  }
  return d;
}

static const Layout* register_layout(const Operand& op) {
  const OperandPlacement* p = op.find(OperandLocation::Registers);
  if (p && p->form == OperandPlacement::Form::ThreadValue) return &p->layout;
  return nullptr;
}

static const Layout* accumulator_layout(const MatrixInstruction& mi) {
  if (const Layout* l = register_layout(mi.acc)) return l;
  const OperandPlacement* t = mi.acc.find(OperandLocation::TensorMemory);
  if (t && t->readback_layout) return &*t->readback_layout;
  return nullptr;
}

static void add_leftover(Distribution& d, int64_t threads) {
  int64_t used = d.thread_count();
  if (used < threads && threads % used == 0) d.threads.push_back({threads / used, -1, 0});
}

Result<Distribution> accumulator_distribution(const GemmPlan& p, const MatrixInstruction* mi, int64_t threads) {
  Distribution d;
  if (p.is_fma()) {
    d.threads = {{p.gn, 1, p.rn}, {p.gm, 0, p.rm}};
    d.values = {{p.rn, 1, 1}, {p.rm, 0, 1}};
    add_leftover(d, threads);
    return d;
  }
  if (!mi) return error(ErrorCode::Verify, "unknown instruction '" + p.inst + "'");
  const Layout* layout = accumulator_layout(*mi);
  if (!layout) return error(ErrorCode::Unsupported, "instruction '" + p.inst + "' has no per-thread accumulator layout");
  TG_ASSIGN_OR_RETURN(Distribution atom, atom_distribution(*layout, MmaShape{int(p.m), int(p.n), int(p.k)}, p.m, p.n, false));
  if (atom.thread_count() != p.group_threads)
    return error(ErrorCode::Verify, "accumulator layout of '" + p.inst + "' spans " + std::to_string(atom.thread_count()) + " threads, not " +
                                        std::to_string(p.group_threads));
  d = atom;
  d.threads.push_back({p.gm, 0, p.rm * p.m});
  d.threads.push_back({p.gn, 1, p.rn * p.n});
  d.values.push_back({p.rm, 0, p.m});
  d.values.push_back({p.rn, 1, p.n});
  add_leftover(d, threads);
  return d;
}

Result<Distribution> operand_distribution(const GemmPlan& p, const MatrixInstruction* mi, int64_t threads, bool is_a, bool trans) {
  // Dimension of the buffer that holds M (or N) and the one that holds K.
  int dim_mn = is_a ? (trans ? 1 : 0) : (trans ? 0 : 1);
  int dim_k = 1 - dim_mn;
  int64_t ksteps = p.Kp / p.k;
  Distribution d;
  if (p.is_fma()) {
    Factor mine = is_a ? Factor{p.gm, dim_mn, p.rm} : Factor{p.gn, dim_mn, p.rn};
    Factor other = is_a ? Factor{p.gn, -1, 0} : Factor{p.gm, -1, 0};
    d.threads = is_a ? std::vector<Factor>{other, mine} : std::vector<Factor>{mine, other};
    d.values = {{p.Kp, dim_k, 1}, {is_a ? p.rm : p.rn, dim_mn, 1}};
    add_leftover(d, threads);
    return d;
  }
  if (!mi) return error(ErrorCode::Verify, "unknown instruction '" + p.inst + "'");
  const Layout* layout = register_layout(is_a ? mi->a : mi->b);
  if (!layout) return error(ErrorCode::Unsupported, "instruction '" + p.inst + "' takes " + (is_a ? "A" : "B") + " only from shared memory");
  int64_t rows = is_a ? p.m : p.n;
  // The layout is over (rows, K) column-major: dimension 0 is M (or N), 1 is K.
  TG_ASSIGN_OR_RETURN(Distribution atom, atom_distribution(*layout, MmaShape{int(p.m), int(p.n), int(p.k)}, rows, p.k, false));
  for (auto* fs : {&atom.threads, &atom.values})
    for (Factor& f : *fs)
      if (f.dim >= 0) f.dim = f.dim == 0 ? dim_mn : dim_k;
  d = atom;
  if (is_a) {
    d.threads.push_back({p.gm, dim_mn, p.rm * p.m});
    d.threads.push_back({p.gn, -1, 0});
    d.values.push_back({p.rm, dim_mn, p.m});
  } else {
    d.threads.push_back({p.gm, -1, 0});
    d.threads.push_back({p.gn, dim_mn, p.rn * p.n});
    d.values.push_back({p.rn, dim_mn, p.n});
  }
  d.values.push_back({ksteps, dim_k, p.k});
  add_leftover(d, threads);
  return d;
}

}  // namespace tegula::ir
