// The typed readers of the lowered form (Lowered.h): one function per record, each checking
// the kinds and ranges of the attributes it reads, so no backend has to.
#include "ir/lower/Lowered.h"

#include <algorithm>

#include "ir/Printer.h"

namespace tegula::ir {
namespace {

using K = AttrValue::Kind;

Status bad(const Attr& a, const std::string& what) {
  return error(ErrorCode::Verify, "'" + a.name + "' must be " + what + ", found " + print_attr_value(a.value), a.loc);
}

bool is_pow2(int64_t x) { return x > 0 && (x & (x - 1)) == 0; }

bool is_text(const AttrValue& v) { return v.kind == K::Ident || v.kind == K::String; }

/// An optional integer attribute in [lo, hi]; `fallback` when absent.
Result<int64_t> int_in(const std::vector<Attr>& attrs, const char* name, int64_t fallback, int64_t lo, int64_t hi) {
  const Attr* a = find_attr(attrs, name);
  if (!a) return fallback;
  if (a->value.kind != K::Int || a->value.i < lo || a->value.i > hi)
    return bad(*a, "an integer in " + std::to_string(lo) + ".." + std::to_string(hi));
  return a->value.i;
}

/// An optional list of integers, each in [lo, hi].
Result<std::vector<int64_t>> ints_in(const std::vector<Attr>& attrs, const char* name, int64_t lo, int64_t hi) {
  std::vector<int64_t> out;
  const Attr* a = find_attr(attrs, name);
  if (!a) return out;
  bool ok = a->value.kind == K::List;
  for (size_t i = 0; ok && i < a->value.list.size(); ++i) {
    const AttrValue& x = a->value.list[i];
    ok = x.kind == K::Int && x.i >= lo && x.i <= hi;
    if (ok) out.push_back(x.i);
  }
  if (!ok) return bad(*a, "a list of integers in " + std::to_string(lo) + ".." + std::to_string(hi));
  return out;
}

/// A list of exactly n positive integers (required).
Result<std::vector<int64_t>> positive_ints(const Stmt& s, const char* name, size_t n) {
  const Attr* a = find_attr(s.attrs, name);
  if (!a) return error(ErrorCode::Verify, std::string("the alloc lacks '") + name + "'", s.loc);
  TG_ASSIGN_OR_RETURN(std::vector<int64_t> v, ints_in(s.attrs, name, 1, 1 << 20));
  if (v.size() != n) return bad(*a, std::to_string(n) + " positive integers");
  return v;
}

/// An optional identifier among `names`: its position in them, -1 when absent.
Result<int> one_of(const std::vector<Attr>& attrs, const char* name, std::initializer_list<const char*> names) {
  const Attr* a = find_attr(attrs, name);
  if (!a) return -1;
  int i = 0;
  if (is_text(a->value))
    for (const char* n : names) {
      if (a->value.s == n) return i;
      ++i;
    }
  std::string list;
  for (const char* n : names) list += (list.empty() ? "" : " | ") + std::string(n);
  return bad(*a, list);
}

Result<std::string> text_attr(const std::vector<Attr>& attrs, const char* name) {
  const Attr* a = find_attr(attrs, name);
  if (!a) return std::string();
  if (!is_text(a->value) || a->value.s.empty()) return bad(*a, "a non-empty name");
  return a->value.s;
}

Result<bool> bool_attr(const std::vector<Attr>& attrs, const char* name) {
  const Attr* a = find_attr(attrs, name);
  if (!a) return false;
  if (a->value.kind != K::Bool) return bad(*a, "true or false");
  return a->value.b;
}

Result<std::vector<Assumption>> read_assumptions(const Kernel& k) {
  std::vector<Assumption> out;
  const Attr* a = find_attr(k.attrs, "lower.assume");
  if (!a) return out;
  std::vector<std::string> symbols = k.symbols();
  if (a->value.kind != K::List) return bad(*a, "a list of [symbol, divisor] pairs");
  for (const AttrValue& item : a->value.list) {
    bool pair = item.kind == K::List && item.list.size() == 2 && is_text(item.list[0]) && item.list[1].kind == K::Int;
    if (!pair) return bad(*a, "a list of [symbol, divisor] pairs");
    if (std::find(symbols.begin(), symbols.end(), item.list[0].s) == symbols.end())
      return error(ErrorCode::Verify, "'lower.assume' names '" + item.list[0].s + "', which is no shape symbol of kernel '" + k.name + "'",
                   a->loc);
    if (!is_pow2(item.list[1].i) || item.list[1].i > (int64_t(1) << 30))
      return error(ErrorCode::Verify, "'lower.assume' divisor of '" + item.list[0].s + "' must be a power of two, found " +
                                          std::to_string(item.list[1].i),
                   a->loc);
    out.push_back({item.list[0].s, item.list[1].i});
  }
  return out;
}

}  // namespace

Result<KernelPlan> get_kernel_plan(const Kernel& k) {
  KernelPlan p;
  TG_ASSIGN_OR_RETURN(p.target, text_attr(k.attrs, "lower.target"));
  TG_ASSIGN_OR_RETURN(p.target_hash, text_attr(k.attrs, "lower.target_hash"));
  TG_ASSIGN_OR_RETURN(p.subgroup, int_in(k.attrs, "lower.subgroup", 0, 1, 1024));
  TG_ASSIGN_OR_RETURN(p.assume, read_assumptions(k));
  TG_ASSIGN_OR_RETURN(p.tensor_align, int_in(k.attrs, "lower.tensor_align", 0, 1, 4096));
  if (p.tensor_align && !is_pow2(p.tensor_align)) return bad(*find_attr(k.attrs, "lower.tensor_align"), "a power of two");
  TG_ASSIGN_OR_RETURN(p.shared_bytes, int_in(k.attrs, "lower.shared_bytes", 0, 0, int64_t(1) << 40));
  // Rasterize.cpp's own limit: backends remap blocks in 32-bit indices.
  TG_ASSIGN_OR_RETURN(p.raster, int_in(k.attrs, "lower.raster", 0, 1, 65535));
  TG_ASSIGN_OR_RETURN(p.tmem_slot, int_in(k.attrs, "lower.tmem_slot", -1, 0, int64_t(1) << 40));
  TG_ASSIGN_OR_RETURN(p.opaque_staging, int_in(k.attrs, "lower.opaque_staging", -1, 0, int64_t(1) << 40));
  return p;
}

/// plan.inbounds=[[b, ...], [b, ...]]: two lists of bools, the source's and the destination's.
static Status read_in_bounds(const Stmt& s, CopyPlan& p) {
  const Attr* a = find_attr(s.attrs, "plan.inbounds");
  if (!a) return Status::ok();
  auto bad = [&] {
    return error(ErrorCode::Verify, "'plan.inbounds' must be [[source dims], [destination dims]], lists of true/false", a->loc);
  };
  if (a->value.kind != AttrValue::Kind::List || a->value.list.size() != 2) return bad();
  InBounds* sides[2] = {&p.src_in, &p.dst_in};
  for (size_t i = 0; i < 2; ++i) {
    const AttrValue& side = a->value.list[i];
    if (side.kind != AttrValue::Kind::List) return bad();
    for (const AttrValue& d : side.list) {
      if (d.kind != AttrValue::Kind::Bool) return bad();
      sides[i]->dims.push_back(d.b);
    }
  }
  return Status::ok();
}

Result<CopyPlan> get_copy_plan(const Stmt& s) {
  CopyPlan p;
  constexpr ThreadPlanKind kKinds[] = {ThreadPlanKind::Free, ThreadPlanKind::Fragment, ThreadPlanKind::Opaque};
  TG_ASSIGN_OR_RETURN(int kind, one_of(s.attrs, "plan.kind", {"free", "fragment", "opaque"}));
  if (kind >= 0) p.kind = kKinds[kind];
  TG_ASSIGN_OR_RETURN(p.layout, text_attr(s.attrs, "plan.layout"));
  TG_ASSIGN_OR_RETURN(p.vec, int_in(s.attrs, "plan.vec", 0, 1, 1 << 20));
  TG_ASSIGN_OR_RETURN(p.async, bool_attr(s.attrs, "plan.async"));
  constexpr CopyEngine kEngines[] = {CopyEngine::Async, CopyEngine::Bulk, CopyEngine::Registers};
  TG_ASSIGN_OR_RETURN(int engine, one_of(s.attrs, "plan.engine", {"async", "bulk", "registers"}));
  if (engine >= 0) p.engine = kEngines[engine];
  TG_ASSIGN_OR_RETURN(int forward, one_of(s.attrs, "plan.forward", {"a", "b"}));
  p.forward = forward == 0 ? ForwardedOperand::A : forward == 1 ? ForwardedOperand::B : ForwardedOperand::None;
  TG_RETURN_IF_ERROR(read_in_bounds(s, p));
  bool has_threads = find_attr(s.attrs, "plan.threads") || find_attr(s.attrs, "plan.values");
  if (p.kind == ThreadPlanKind::Free || has_threads) {
    auto d = get_distribution(s.attrs, "plan");
    if (!d.is_ok()) return error(ErrorCode::Verify, "a free plan needs plan.threads and plan.values: " + d.status().message(), s.loc);
    p.threads = std::move(*d);
  }
  if ((p.kind == ThreadPlanKind::Fragment || p.kind == ThreadPlanKind::Opaque) && p.layout.empty())
    return error(ErrorCode::Verify, std::string("plan.kind=") + (kind == 1 ? "fragment" : "opaque") + " names no fragment (plan.layout)", s.loc);
  if (p.kind == ThreadPlanKind::Free && !p.layout.empty())
    return error(ErrorCode::Verify, "a free plan cannot name a fragment (plan.layout)", s.loc);
  if (p.async != (p.engine != CopyEngine::None))
    return error(ErrorCode::Verify, "plan.async and plan.engine go together (a prefetched copy names its engine)", s.loc);
  return p;
}

int64_t ReducePlan::partials() const {
  int64_t n = 1;
  for (const Factor& f : exec.values)
    if (f.dim != axis) n *= f.size;
  return n;
}

int64_t ReducePlan::partial_of(int64_t v) const {
  int64_t rest = v, p = 0, radix = 1;
  for (const Factor& f : exec.values) {
    int64_t digit = rest % f.size;
    rest /= f.size;
    if (f.dim == axis) continue;
    p += digit * radix;
    radix *= f.size;
  }
  return p;
}

Result<ReducePlan> get_reduce_plan(const Stmt& s) {
  ReducePlan p;
  constexpr ReducePlanKind kKinds[] = {ReducePlanKind::Local, ReducePlanKind::Tree, ReducePlanKind::Shared};
  TG_ASSIGN_OR_RETURN(int kind, one_of(s.attrs, "plan.kind", {"local", "tree", "shared"}));
  if (kind < 0) return error(ErrorCode::Verify, "a reduce without a plan (plan.kind; was the kernel lowered?)", s.loc);
  p.kind = kKinds[kind];
  auto d = get_distribution(s.attrs, "plan");
  if (!d.is_ok()) return error(ErrorCode::Verify, "a reduce plan needs plan.threads and plan.values: " + d.status().message(), s.loc);
  p.exec = std::move(*d);
  TG_ASSIGN_OR_RETURN(p.shuffle, ints_in(s.attrs, "plan.shuffle", 1, 1 << 20));
  TG_ASSIGN_OR_RETURN(p.cross, ints_in(s.attrs, "plan.cross", 1, 1 << 20));
  TG_ASSIGN_OR_RETURN(p.scratch, text_attr(s.attrs, "plan.scratch"));
  p.axis = int(stmt_attr_int(s, "axis"));
  if (p.kind == ReducePlanKind::Shared && !(p.shuffle.empty() && p.cross.empty()))
    return error(ErrorCode::Verify, "a reduce through shared memory (plan.kind=shared) takes no xor steps", s.loc);
  if (p.kind == ReducePlanKind::Local && !(p.shuffle.empty() && p.cross.empty()))
    return error(ErrorCode::Verify, "a reduce within each thread (plan.kind=local) takes no xor steps", s.loc);
  if (p.uses_scratch() && p.scratch.empty())
    return error(ErrorCode::Verify, "a reduce across subgroups without its scratch buffer (plan.scratch)", s.loc);
  return p;
}

Result<PipelinePlan> get_pipeline_plan(const Stmt& loop) {
  PipelinePlan p;
  p.pipelined = find_attr(loop.attrs, "plan.prefetch") != nullptr;
  TG_ASSIGN_OR_RETURN(p.prefetch, ints_in(loop.attrs, "plan.prefetch", 0, int64_t(loop.body().stmts.size()) - 1));
  int64_t source_stages = stmt_attr_int(loop, "stages");
  TG_ASSIGN_OR_RETURN(p.stages, int_in(loop.attrs, "plan.stages", source_stages, 1, 1 << 20));
  TG_ASSIGN_OR_RETURN(p.inflight, int_in(loop.attrs, "plan.inflight", -1, 0, int64_t(loop.body().stmts.size()) - 1));
  if (p.inflight >= 0 && loop.body().stmts[size_t(p.inflight)].op != OpKind::Gemm)
    return bad(*find_attr(loop.attrs, "plan.inflight"), "the index of a gemm in the loop body");
  return p;
}

bool is_opaque(const Stmt& alloc) { return alloc.op == OpKind::Alloc && find_attr(alloc.attrs, "layout.opaque"); }

Result<OpaqueFragment> get_opaque_fragment(const Stmt& alloc) {
  OpaqueFragment f;
  TG_ASSIGN_OR_RETURN(f.inst, text_attr(alloc.attrs, "layout.opaque"));
  if (f.inst.empty()) return error(ErrorCode::Verify, "'" + alloc.name + "' is no opaque fragment (layout.opaque)", alloc.loc);
  TG_ASSIGN_OR_RETURN(auto atom, positive_ints(alloc, "layout.atom", 3));
  TG_ASSIGN_OR_RETURN(auto groups, positive_ints(alloc, "layout.groups", 2));
  TG_ASSIGN_OR_RETURN(auto repeat, positive_ints(alloc, "layout.repeat", 2));
  f.m = atom[0], f.n = atom[1], f.k = atom[2];
  f.gm = groups[0], f.gn = groups[1];
  f.rm = repeat[0], f.rn = repeat[1];
  return f;
}

}  // namespace tegula::ir
