/// \file
/// Element-wise tile ops: copy, fill, map and atomic_add, per their thread plans
/// (plan.kind=fragment: each thread handles its own slots of the fragment; plan.kind=free:
/// the plan's distribution over the tile), with the plan's vector width where both sides
/// allow it, global tiles masked at the tensor's edges (reads give `pad`).
#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <set>

#include "ir/Analysis.h"
#include "ir/lower/Lowered.h"
#include "plugins/cuda/codegen/Emitter.h"
#include "plugins/cuda/codegen/TileAccess.h"

namespace tegula::cuda::gen {

Result<std::vector<int64_t>> Emitter::extent_of(const ir::Stmt& s) {
  ir::BufferMap m = ir::kernel_buffers(k_);
  return ir::tile_op_extent(s, m);
}

bool Emitter::shared_vector_ok(const Buffer& b, const ir::Distribution& d, const std::vector<int64_t>& off, int64_t n,
                               int64_t threads_used) {
  if (b.offset % 16) return false;
  return ir::shared_vectors_contiguous(b.layout, b.shape, b.dtype, d, off, n, threads_used);
}

static std::string vec_type(int64_t bytes) {
  switch (bytes) {
    case 16: return "tg_v16";
    case 8: return "tg_v8";
    case 4: return "unsigned";
    case 2: return "unsigned short";
    default: return "unsigned char";
  }
}

Value Emitter::read_element(const Buffer& b, const std::vector<std::string>& coords, double pad, bool checked) {
  std::string es = itos(int64_t(dtype_size(b.dtype)));
  std::string raw_t = raw_type(b.dtype);
  switch (b.scope) {
    case ir::Scope::Global: {
      Value v = decode("(*(const " + raw_t + "*)(" + b.cname + " + (" + global_linear(b, coords) + ") * " + es + "))", b.dtype);
      // The pad is exact in the value's representation, or both widen to double.
      Rep r = exact_rep(pad, v.rep);
      return {"((" + inside(b, coords) + ") ? " + convert(v, r) + " : " + exact_literal(pad, r) + ")", r};
    }
    case ir::Scope::Shared: {
      Value v = decode("(*(const " + raw_t + "*)" + shared_ptr(b, coords) + ")", b.dtype);
      if (!checked) return v;
      std::string zero = v.rep == Rep::Bool ? "false" : v.rep == Rep::I32 ? "0" : float_literal(0, v.rep);
      return {"((" + inside(b, coords) + ") ? " + v.code + " : " + zero + ")", v.rep};
    }
    case ir::Scope::Local: {
      std::string lin;
      for (size_t d = 0; d < coords.size(); ++d)
        lin = lin.empty() ? "(" + coords[d] + ")" : "(" + lin + ") * " + itos(b.shape[d]) + " + (" + coords[d] + ")";
      Rep r = frag_rep(b.dtype);
      std::string e = b.cname + "[" + lin + "]";
      Value v = b.dtype == DType::Bool ? Value{"(" + e + " != 0)", Rep::Bool} : Value{e, r};
      if (!checked) return v;
      std::string zero = v.rep == Rep::Bool ? "false" : v.rep == Rep::I32 ? "0" : float_literal(0, v.rep);
      return {"((" + inside(b, coords) + ") ? " + v.code + " : " + zero + ")", v.rep};
    }
    case ir::Scope::Fragment: break;
  }
  return {"0", Rep::I32};
}

void Emitter::write_element(const Buffer& b, const std::vector<std::string>& coords, const Value& v, bool checked) {
  std::string es = itos(int64_t(dtype_size(b.dtype)));
  std::string raw_t = raw_type(b.dtype);
  switch (b.scope) {
    case ir::Scope::Global:
      line("if (" + inside(b, coords) + ") *(" + raw_t + "*)(" + b.cname + " + (" + global_linear(b, coords) + ") * " + es + ") = " +
           encode(v, b.dtype) + ";");
      return;
    case ir::Scope::Shared: {
      std::string st = "*(" + raw_t + "*)" + shared_ptr(b, coords) + " = " + encode(v, b.dtype) + ";";
      line(checked ? "if (" + inside(b, coords) + ") " + st : st);
      return;
    }
    case ir::Scope::Local: {
      std::string lin;
      for (size_t d = 0; d < coords.size(); ++d)
        lin = lin.empty() ? "(" + coords[d] + ")" : "(" + lin + ") * " + itos(b.shape[d]) + " + (" + coords[d] + ")";
      std::string st = b.cname + "[" + lin + "] = " + round_to(v, b.dtype).code + ";";
      line(checked ? "if (" + inside(b, coords) + ") " + st : st);
      return;
    }
    case ir::Scope::Fragment: return;
  }
}

namespace {

/// The element coordinates of tile index idx: offsets plus index, one per axis of the
/// buffer. A rank-dropping view (ir::leading_axes) has more offsets than idx has entries:
/// its leading offsets are the element's indices there (tested like any other axis), and
/// idx aligns to the trailing axes.
std::vector<std::string> add(const std::vector<std::string>& off, const std::vector<std::string>& idx) {
  size_t lead = ir::leading_axes(off.size(), idx.size());
  std::vector<std::string> c(off.begin(), off.begin() + std::ptrdiff_t(lead));
  for (size_t d = 0; d < idx.size(); ++d) {
    const std::string& o = off[d + lead];
    c.push_back(o == "0" ? idx[d] : "(" + o + " + " + idx[d] + ")");
  }
  return c;
}

}  // namespace

static Result<Side> make_side(Emitter& E, const ir::TileRef& t, const ir::Stmt& s) {
  Side side;
  side.b = E.buffer(t.buffer);
  if (!side.b) return error(ErrorCode::Internal, "cuda codegen: unknown buffer '" + t.buffer + "'", s.loc);
  size_t rank = side.b->shape.size();
  bool all_const = true;
  for (size_t d = 0; d < rank; ++d) {
    if (t.offsets.empty()) {
      side.off.push_back("0");
      side.const_off.push_back(0);
      continue;
    }
    auto c = ir::const_int(t.offsets[d]);
    if (c) {
      side.off.push_back(*c == 0 ? "0" : "(" + itos(*c) + "LL)");
      side.const_off.push_back(*c);
      continue;
    }
    all_const = false;
    TG_ASSIGN_OR_RETURN(std::string e, E.index_expr(t.offsets[d]));
    std::string name = E.fresh("o");
    E.line("const long long " + name + " = " + e + ";");
    side.off.push_back(name);
  }
  if (!all_const) side.const_off.clear();
  return side;
}

namespace {

/// Per dimension of a global side: the bounds test of every element access, the dimensions
/// lowering proved inside (plan.inbounds) left out; "true" when none is left.
std::string inside_of(const Side& side, const std::vector<bool>& known, const std::vector<std::string>& c) {
  std::vector<std::string> parts;
  for (size_t d = 0; d < c.size(); ++d) {
    if (known[d]) continue;
    parts.push_back("(unsigned long long)(" + c[d] + ") < (unsigned long long)gd_" + side.b->name + "_" + itos(int64_t(d)));
  }
  return parts.empty() ? std::string("true") : join(parts, " && ");
}

std::vector<std::string> shifted(std::vector<std::string> c, int64_t i) {
  if (i) c.back() = "(" + c.back() + " + " + itos(i) + ")";
  return c;
}

/// A tensor whose address is not a multiple of the vector (an odd launch offset) takes the
/// element-by-element path: one uniform test of the base pointer.
std::string aligned(const Side& side, int64_t n) {
  int64_t bytes = n * int64_t(dtype_size(side.b->dtype));
  return "(((unsigned long long)" + side.b->cname + " & " + itos(bytes - 1) + "ull) == 0)";
}

/// The dimensions of a global side lowering proved inside its tensor (plan.inbounds): no
/// run-time check there.
std::vector<bool> provable(const Side& side, const ir::InBounds& in_bounds, size_t tile_rank) {
  // One entry per axis of the side's buffer: a view has more than the tile (and no proof).
  size_t rank = std::max(tile_rank, side.b->shape.size());
  std::vector<bool> in(rank, false);
  if (side.b->scope != ir::Scope::Global) return in;
  for (size_t d = 0; d < rank; ++d) in[d] = in_bounds.at(d);
  return in;
}

}  // namespace

CopyAccess plan_copy_access(const Side& src, const Side& dst, std::vector<Elem> elems, const ir::CopyPlan& plan, size_t rank,
                            const std::array<bool, 2>& shared_vectors_ok) {
  CopyAccess a;
  a.n = elems.empty() ? 1 : elems.front().n;
  // Shared sides may only move whole vectors when the layout keeps them contiguous.
  const Side* sides[2] = {&src, &dst};
  for (size_t i = 0; i < 2; ++i) {
    if (a.n == 1 || sides[i]->b->scope != ir::Scope::Shared) continue;
    if (sides[i]->const_off.empty() || !shared_vectors_ok[i]) a.n = 1;
  }
  if (a.n == 1) {
    // Split vector groups into single elements.
    for (const Elem& e : elems) {
      for (int64_t i = 0; i < e.n; ++i) {
        Elem x = e;
        x.n = 1;
        if (x.slot >= 0) x.slot += i;
        if (i) x.idx.back() = "(" + x.idx.back() + " + " + itos(i) + ")";
        a.elems.push_back(x);
      }
    }
  } else {
    a.elems = std::move(elems);
  }
  // e5m2 stores saturate infinities, so even same-dtype e5m2 copies go through a conversion.
  a.raw = src.b->dtype == dst.b->dtype && src.b->dtype != DType::E5M2 && src.b->scope != ir::Scope::Fragment &&
          dst.b->scope != ir::Scope::Fragment;
  a.src_in = provable(src, plan.src_in, rank);
  a.dst_in = provable(dst, plan.dst_in, rank);
  return a;
}

Status Emitter::emit_copy(const ir::Stmt& s) {
  TG_ASSIGN_OR_RETURN(std::vector<int64_t> extent, extent_of(s));
  TG_ASSIGN_OR_RETURN(ir::CopyPlan op_plan, ir::get_copy_plan(s));
  int64_t vec = op_plan.vector();
  open("");
  TG_ASSIGN_OR_RETURN(Side src, make_side(*this, s.copy_src(), s));
  TG_ASSIGN_OR_RETURN(Side dst, make_side(*this, s.copy_dst(), s));
  // The pad stands for a read value that the store rounds to the destination: round it
  // once, here, from its full double (never through float: an f64 pad of 0.1 stays 0.1).
  double pad = round_to_dtype(dst.b->dtype, ir::stmt_attr_float(s, "pad"));
  std::vector<Elem> elems;
  ir::Distribution exec_dist;
  if (op_plan.kind == ir::ThreadPlanKind::Fragment) {
    const std::string& layout = op_plan.layout;
    Side* ex = dst.b->name == layout && dst.b->scope == ir::Scope::Fragment ? &dst : src.b->name == layout ? &src : nullptr;
    if (!ex || ex->b->scope != ir::Scope::Fragment) return unsupported(s, "copy planned over '" + layout + "', which is not an operand fragment");
    if (ex->const_off.empty()) return unsupported(s, "a fragment tile at a run-time offset");
    ex->exec = true;
    exec_dist = ex->b->dist;
    TG_ASSIGN_OR_RETURN(elems, fragment_elems(s, *ex->b, ex->const_off, extent, vec));
    Side* other = ex == &dst ? &src : &dst;
    if (other->b->scope == ir::Scope::Fragment) {
      if (other->const_off.empty()) return unsupported(s, "a fragment tile at a run-time offset");
      // other coordinate = exec coordinate - exec offset + other offset
      std::vector<int64_t> delta;
      for (size_t d = 0; d < extent.size(); ++d) delta.push_back(other->const_off[d] - ex->const_off[d]);
      TG_ASSIGN_OR_RETURN(other->slots, slot_map(s, ex->b->dist, ex->b->shape, *other->b, delta));
    }
  } else {
    if (src.b->scope == ir::Scope::Fragment || dst.b->scope == ir::Scope::Fragment)
      return unsupported(s, "a fragment copied under a free thread plan");
    TG_ASSIGN_OR_RETURN(exec_dist, ir::get_distribution(s.attrs, "plan"));
    TG_ASSIGN_OR_RETURN(elems, free_elems(s, exec_dist, extent, vec));
  }
  int64_t n = elems.empty() ? 1 : elems.front().n;
  std::array<bool, 2> shared_ok{};
  const Side* sides[2] = {&src, &dst};
  for (size_t i = 0; i < 2; ++i)
    shared_ok[i] = n > 1 && sides[i]->b->scope == ir::Scope::Shared && !sides[i]->const_off.empty() &&
                   shared_vector_ok(*sides[i]->b, exec_dist, sides[i]->const_off, n, threads());
  CopyAccess a = plan_copy_access(src, dst, std::move(elems), op_plan, extent.size(), shared_ok);
  a.pad = pad;
  CopyValues v;
  TG_RETURN_IF_ERROR(emit_copy_reads(s, src, a, v));
  TG_RETURN_IF_ERROR(emit_copy_writes(dst, a, v));
  close();
  return Status::ok();
}

std::string Emitter::global_address(const Side& side, const std::vector<std::string>& c, int64_t es) const {
  return "(" + side.b->cname + " + (" + global_linear(*side.b, c) + ") * " + itos(es) + ")";
}

// Phase 1: every read, so that all of a thread's loads are in flight before the first use.
Status Emitter::emit_copy_reads(const ir::Stmt& s, const Side& src, const CopyAccess& a, CopyValues& v) {
  const std::vector<Elem>& elems = a.elems;
  int64_t n = a.n;
  int64_t es_src = int64_t(dtype_size(src.b->dtype));
  std::string rt_src = raw_type(src.b->dtype), vt_src = vec_type(n * es_src);
  v.vals.assign(elems.size(), {});
  v.rvs.assign(elems.size(), "");
  v.pre.assign(elems.size(), "");
  for (size_t ei = 0; ei < elems.size(); ++ei) {
    const Elem& e = elems[ei];
    std::vector<std::string> sc = add(src.off, e.idx);
    std::string guard = e.guard.empty() ? "" : "if (" + e.guard + ") ";
    if (src.b->scope == ir::Scope::Fragment) {
      for (int64_t i = 0; i < n; ++i) {
        int64_t slot = src.exec ? e.slot + i : src.slots[size_t(e.slot + i)];
        if (slot < 0) return unsupported(s, "a source element missing from fragment '" + src.b->name + "'");
        v.vals[ei].push_back({src.b->cname + "[" + itos(slot) + "]", frag_rep(src.b->dtype)});
      }
      continue;
    }
    if (n > 1 || a.raw) {
      // A vector (or one raw element) of the source's bytes.
      std::string rv = fresh("rv");
      v.rvs[ei] = rv;
      line(vt_src + " " + rv + ";");
      if (!e.guard.empty()) open("if (" + e.guard + ")");
      else open("");
      if (src.b->scope == ir::Scope::Global) {
        std::string all_in = inside_of(src, a.src_in, sc);
        if (n > 1) all_in = all_in + " && " + inside_of(src, a.src_in, shifted(sc, n - 1)) + " && " + aligned(src, n);
        if (all_in == "true && true" || all_in == "true") {
          line(rv + " = *(const " + vt_src + "*)" + global_address(src, sc, es_src) + ";");
        } else {
          open("if (" + all_in + ")");
          line(rv + " = *(const " + vt_src + "*)" + global_address(src, sc, es_src) + ";");
          close(" else {");
          ++indent_;
          for (int64_t i = 0; i < n; ++i) {
            std::vector<std::string> ci = shifted(sc, i);
            line("((" + rt_src + "*)&" + rv + ")[" + itos(i) + "] = (" + inside_of(src, a.src_in, ci) + ") ? *(const " + rt_src + "*)" +
                 global_address(src, ci, es_src) + " : " + raw_literal(a.raw ? a.pad : 0, src.b->dtype) + ";");
          }
          close();
        }
      } else {
        line(rv + " = *(const " + vt_src + "*)" + shared_ptr(*src.b, sc) + ";");
      }
      close();
      if (!a.raw) decode_read_vector(src, a, sc, rv, v.vals[ei], v.pre[ei]);
      continue;
    }
    // One element, converted on the way.
    Value x = read_element(*src.b, sc, a.pad);
    std::string name = fresh("ev");
    line(std::string(rep_type(x.rep)) + " " + name + ";");
    line(guard + name + " = " + x.code + ";");
    v.vals[ei].push_back({name, x.rep});
  }
  return Status::ok();
}

/// The values of a read vector `rv` of `src`'s encoding: 16-bit floats decode two at a time
/// (in phase 2, so that no use waits on a load here: `pre` holds those statements), a pad
/// replaces elements outside a global source.
void Emitter::decode_read_vector(const Side& src, const CopyAccess& a, const std::vector<std::string>& sc, const std::string& rv,
                                 std::vector<Value>& vals, std::string& pre) {
  int64_t n = a.n;
  std::string rt_src = raw_type(src.b->dtype);
  bool pairs = n % 2 == 0 && (src.b->dtype == DType::F16 || src.b->dtype == DType::BF16);
  std::vector<std::string> pair_names;
  if (pairs) {
    for (int64_t i = 0; i < n; i += 2) {
      std::string x = fresh("dv"), y = fresh("dv");
      pre += "float " + x + ", " + y + ";\n";
      pre += std::string(src.b->dtype == DType::F16 ? "tg_dec2_f16(" : "tg_dec2_bf16(") + "((const unsigned*)&" + rv + ")[" + itos(i / 2) +
             "], " + x + ", " + y + ");\n";
      pair_names.push_back(x);
      pair_names.push_back(y);
    }
  }
  for (int64_t i = 0; i < n; ++i) {
    Value v = pairs ? Value{pair_names[size_t(i)], Rep::F32} : decode("((const " + rt_src + "*)&" + rv + ")[" + itos(i) + "]", src.b->dtype);
    if ((a.pad != 0 || std::signbit(a.pad)) && src.b->scope == ir::Scope::Global) {
      std::vector<std::string> ci = shifted(sc, i);
      Rep r = exact_rep(a.pad, v.rep);
      v = {"((" + inside_of(src, a.src_in, ci) + ") ? " + convert(v, r) + " : " + exact_literal(a.pad, r) + ")", r};
    }
    vals.push_back(v);
  }
}

// Phase 2: every write.
Status Emitter::emit_copy_writes(const Side& dst, const CopyAccess& a, const CopyValues& v) {
  const std::vector<Elem>& elems = a.elems;
  int64_t n = a.n;
  for (size_t ei = 0; ei < elems.size(); ++ei) {
    const Elem& e = elems[ei];
    std::vector<std::string> dc = add(dst.off, e.idx);
    if (!e.guard.empty()) open("if (" + e.guard + ")");
    else open("");
    for (size_t at = 0; at < v.pre[ei].size();) {
      size_t end = v.pre[ei].find('\n', at);
      line(v.pre[ei].substr(at, end - at));
      at = end + 1;
    }
    if (dst.b->scope == ir::Scope::Fragment) {
      for (int64_t i = 0; i < n; ++i) {
        int64_t slot = dst.exec ? e.slot + i : dst.slots[size_t(e.slot + i)];
        if (slot < 0) continue;
        line(dst.b->cname + "[" + itos(slot) + "] = " + round_to(v.vals[ei][size_t(i)], dst.b->dtype).code + ";");
      }
      close();
      continue;
    }
    std::string wv = a.raw ? v.rvs[ei] : encode_write_vector(dst, n, v.vals[ei]);
    if (dst.b->scope == ir::Scope::Global) store_global_vector(dst, a, dc, wv);
    else if (dst.b->scope == ir::Scope::Shared) line("*(" + vec_type(n * int64_t(dtype_size(dst.b->dtype))) + "*)" + shared_ptr(*dst.b, dc) + " = " + wv + ";");
    close();
  }
  return Status::ok();
}

/// A vector of `dst`'s encoding holding `vals` (16-bit floats encoded two at a time); its name.
std::string Emitter::encode_write_vector(const Side& dst, int64_t n, const std::vector<Value>& vals) {
  std::string rt_dst = raw_type(dst.b->dtype), vt_dst = vec_type(n * int64_t(dtype_size(dst.b->dtype)));
  std::string wv = fresh("wv");
  line(vt_dst + " " + wv + ";");
  bool pairs = n % 2 == 0 && (dst.b->dtype == DType::F16 || dst.b->dtype == DType::BF16);
  for (int64_t i = 0; i < n && pairs; ++i) pairs = vals[size_t(i)].rep == Rep::F32;
  if (pairs) {
    for (int64_t i = 0; i < n; i += 2)
      line("((unsigned*)&" + wv + ")[" + itos(i / 2) + "] = " + (dst.b->dtype == DType::F16 ? "tg_enc2_f16(" : "tg_enc2_bf16(") +
           vals[size_t(i)].code + ", " + vals[size_t(i + 1)].code + ");");
  } else {
    for (int64_t i = 0; i < n; ++i) line("((" + rt_dst + "*)&" + wv + ")[" + itos(i) + "] = " + encode(vals[size_t(i)], dst.b->dtype) + ";");
  }
  return wv;
}

/// The store of vector `wv` at `dc` of a global destination: whole where every element is
/// inside and the address aligned, element by element (each tested) otherwise.
void Emitter::store_global_vector(const Side& dst, const CopyAccess& a, const std::vector<std::string>& dc, const std::string& wv) {
  int64_t n = a.n, es_dst = int64_t(dtype_size(dst.b->dtype));
  std::string rt_dst = raw_type(dst.b->dtype), vt_dst = vec_type(n * es_dst);
  std::string all_in = inside_of(dst, a.dst_in, dc);
  if (n > 1) all_in = all_in + " && " + inside_of(dst, a.dst_in, shifted(dc, n - 1)) + " && " + aligned(dst, n);
  if (all_in == "true && true" || all_in == "true") {
    line("*(" + vt_dst + "*)" + global_address(dst, dc, es_dst) + " = " + wv + ";");
  } else if (n == 1) {
    line("if (" + all_in + ") *(" + vt_dst + "*)" + global_address(dst, dc, es_dst) + " = " + wv + ";");
  } else {
    open("if (" + all_in + ")");
    line("*(" + vt_dst + "*)" + global_address(dst, dc, es_dst) + " = " + wv + ";");
    close(" else {");
    ++indent_;
    for (int64_t i = 0; i < n; ++i) {
      std::vector<std::string> ci = shifted(dc, i);
      line("if (" + inside_of(dst, a.dst_in, ci) + ") *(" + rt_dst + "*)" + global_address(dst, ci, es_dst) + " = ((const " + rt_dst + "*)&" +
           wv + ")[" + itos(i) + "];");
    }
    close();
  }
}

Status Emitter::emit_fill(const ir::Stmt& s) {
  TG_ASSIGN_OR_RETURN(std::vector<int64_t> extent, extent_of(s));
  TG_ASSIGN_OR_RETURN(ir::CopyPlan op_plan, ir::get_copy_plan(s));
  open("");
  TG_ASSIGN_OR_RETURN(Side dst, make_side(*this, s.target(), s));
  TG_ASSIGN_OR_RETURN(Value v, value_for(s.value(), dst.b->dtype));
  std::string fv = fresh("fv");
  line(std::string("const ") + rep_type(v.rep) + " " + fv + " = " + v.code + ";");
  Value val{fv, v.rep};
  if (dst.b->scope == ir::Scope::Fragment) {
    if (dst.const_off.empty()) return unsupported(s, "a fragment tile at a run-time offset");
    TG_ASSIGN_OR_RETURN(std::vector<Elem> elems, fragment_elems(s, *dst.b, dst.const_off, extent, 1));
    std::string r = round_to(val, dst.b->dtype).code;
    std::string rv = fresh("rv");
    line(std::string("const ") + rep_type(frag_rep(dst.b->dtype)) + " " + rv + " = " + r + ";");
    for (const Elem& e : elems) {
      // Padding slots too: they are never stored, and a uniform fill keeps the code short.
      (void)e;
      line(dst.b->cname + "[" + itos(e.slot) + "] = " + rv + ";");
    }
    close();
    return Status::ok();
  }
  if (op_plan.kind == ir::ThreadPlanKind::Fragment) return unsupported(s, "a fill planned over a fragment that is not its destination");
  TG_ASSIGN_OR_RETURN(ir::Distribution plan, ir::get_distribution(s.attrs, "plan"));
  TG_ASSIGN_OR_RETURN(std::vector<Elem> elems, free_elems(s, plan, extent, 1));
  for (const Elem& e : elems) {
    if (!e.guard.empty()) open("if (" + e.guard + ")");
    else open("");
    write_element(*dst.b, add(dst.off, e.idx), val);
    close();
  }
  close();
  return Status::ok();
}

static void tile_operands(const ir::Expr& e, std::vector<std::string>& out) {
  if (e->kind == ir::ExprKind::Tile && std::find(out.begin(), out.end(), e->name) == out.end()) out.push_back(e->name);
  for (const ir::Expr& a : e->args) tile_operands(a, out);
}

Status Emitter::emit_map(const ir::Stmt& s) {
  const Buffer* dst = buffer(s.target().buffer);
  if (!dst) return error(ErrorCode::Internal, "cuda codegen: unknown map destination", s.loc);
  TG_ASSIGN_OR_RETURN(ir::CopyPlan op_plan, ir::get_copy_plan(s));
  std::vector<std::string> names;
  tile_operands(s.value(), names);
  open("");
  std::vector<Elem> elems;
  const Buffer* exec = nullptr;
  if (op_plan.kind == ir::ThreadPlanKind::Fragment) {
    exec = buffer(op_plan.layout);
    if (!exec || exec->scope != ir::Scope::Fragment) return unsupported(s, "map planned over something that is not a fragment");
    if (exec->shape != dst->shape) return unsupported(s, "map planned over a fragment of another shape than its destination");
    TG_ASSIGN_OR_RETURN(elems, fragment_elems(s, *exec, {}, dst->shape, 1));
  } else {
    if (dst->scope == ir::Scope::Fragment) return unsupported(s, "a fragment written under a free thread plan");
    TG_ASSIGN_OR_RETURN(ir::Distribution plan, ir::get_distribution(s.attrs, "plan"));
    TG_ASSIGN_OR_RETURN(elems, free_elems(s, plan, dst->shape, 1));
  }
  // Fragment operands: which of their slots each exec slot reads.
  std::map<std::string, std::vector<int64_t>> maps;
  for (const std::string& n : names) {
    const Buffer* b = buffer(n);
    if (!b) return error(ErrorCode::Internal, "cuda codegen: unknown map operand '" + n + "'", s.loc);
    if (b->scope != ir::Scope::Fragment) continue;
    if (!exec) return unsupported(s, "map reads fragment '" + n + "' under a free thread plan");
    TG_ASSIGN_OR_RETURN(maps[n], slot_map(s, exec->dist, exec->shape, *b));
  }
  for (const Elem& e : elems) {
    if (!e.guard.empty()) open("if (" + e.guard + ")");
    else open("");
    std::map<std::string, Value> operands;
    for (const std::string& n : names) {
      const Buffer* b = buffer(n);
      if (b->scope == ir::Scope::Fragment) {
        int64_t slot = maps[n][size_t(e.slot)];
        if (slot < 0) return unsupported(s, "map operand '" + n + "' lacks an element this thread needs");
        operands[n] = b->dtype == DType::Bool ? Value{"(" + b->cname + "[" + itos(slot) + "] != 0)", Rep::Bool}
                                              : Value{b->cname + "[" + itos(slot) + "]", frag_rep(b->dtype)};
      } else {
        // Shapes align at the trailing axes: a lower-rank operand broadcasts along the leading ones.
        size_t lead = e.idx.size() - b->shape.size();
        std::vector<std::string> c;
        for (size_t d = 0; d < b->shape.size(); ++d) c.push_back(b->shape[d] == 1 ? "0" : e.idx[d + lead]);
        Value v = read_element(*b, c, 0.0);
        std::string name = fresh("mv");
        line(std::string("const ") + rep_type(v.rep) + " " + name + " = " + v.code + ";");
        operands[n] = {name, v.rep};
      }
      if (operands[n].rep == Rep::I32) operands[n] = {"((long long)" + operands[n].code + ")", Rep::I64};
    }
    MapContext ctx{&operands, &e.idx};
    TG_ASSIGN_OR_RETURN(Value v, value_for(s.value(), dst->dtype, &ctx));
    if (dst->scope == ir::Scope::Fragment) {
      line(dst->cname + "[" + itos(e.slot) + "] = " + round_to(v, dst->dtype).code + ";");
    } else {
      std::string name = fresh("mr");
      line(std::string("const ") + rep_type(v.rep) + " " + name + " = " + v.code + ";");
      write_element(*dst, e.idx, {name, v.rep});
    }
    close();
  }
  close();
  return Status::ok();
}

Status Emitter::emit_atomic(const ir::Stmt& s) {
  TG_ASSIGN_OR_RETURN(std::vector<int64_t> extent, extent_of(s));
  TG_ASSIGN_OR_RETURN(ir::CopyPlan op_plan, ir::get_copy_plan(s));
  open("");
  TG_ASSIGN_OR_RETURN(Side src, make_side(*this, s.atomic_src(), s));
  TG_ASSIGN_OR_RETURN(Side dst, make_side(*this, s.atomic_dst(), s));
  std::vector<Elem> elems;
  if (op_plan.kind == ir::ThreadPlanKind::Fragment) {
    if (src.b->scope != ir::Scope::Fragment || src.b->name != op_plan.layout)
      return unsupported(s, "atomic_add planned over a fragment that is not its source");
    if (src.const_off.empty()) return unsupported(s, "a fragment tile at a run-time offset");
    TG_ASSIGN_OR_RETURN(elems, fragment_elems(s, *src.b, src.const_off, extent, 1));
  } else {
    if (src.b->scope == ir::Scope::Fragment) return unsupported(s, "a fragment read under a free thread plan");
    TG_ASSIGN_OR_RETURN(ir::Distribution plan, ir::get_distribution(s.attrs, "plan"));
    TG_ASSIGN_OR_RETURN(elems, free_elems(s, plan, extent, 1));
  }
  // Replicated fragment slots must add once: only the first holder of each element adds.
  std::string rep = src.b->scope == ir::Scope::Fragment ? replica_guard(src.b->dist) : "";
  if (!rep.empty()) open("if (" + rep + ")");
  std::set<std::vector<int64_t>> seen;  // replicated values of one thread add once too
  for (const Elem& e : elems) {
    if (src.b->scope == ir::Scope::Fragment && !seen.insert(e.vcoord).second) continue;
    if (!e.guard.empty()) open("if (" + e.guard + ")");
    else open("");
    Value v = src.b->scope == ir::Scope::Fragment ? Value{src.b->cname + "[" + itos(e.slot) + "]", frag_rep(src.b->dtype)}
                                                  : read_element(*src.b, add(src.off, e.idx), 0.0);
    std::vector<std::string> dc = add(dst.off, e.idx);
    std::string p = "(" + dst.b->cname + " + (" + global_linear(*dst.b, dc) + ") * " + itos(int64_t(dtype_size(dst.b->dtype))) + ")";
    std::string op;
    switch (dst.b->dtype) {
      case DType::F32: op = "atomicAdd((float*)" + p + ", " + convert(v, Rep::F32) + ");"; break;
      case DType::F64: op = "atomicAdd((double*)" + p + ", " + convert(v, Rep::F64) + ");"; break;
      case DType::F16: op = "tg_atomic_add_f16(" + p + ", " + convert(v, Rep::F32) + ", false);"; break;
      case DType::BF16: op = "tg_atomic_add_f16(" + p + ", " + convert(v, Rep::F32) + ", true);"; break;
      case DType::I32: op = "tg_atomic_add_i32(" + p + ", " + convert(v, Rep::F64) + ");"; break;
      default: return unsupported(s, std::string("atomic_add into a ") + dtype_name(dst.b->dtype) + " tensor");
    }
    line("if (" + inside(*dst.b, dc) + ") " + op);
    close();
  }
  if (!rep.empty()) close();
  close();
  return Status::ok();
}

}  // namespace tegula::cuda::gen
