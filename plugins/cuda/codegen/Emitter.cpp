/// \file
/// The kernel skeleton (signature, buffers, shared-memory plan, block indices and their
/// rasterisation), distributions turned into per-thread element lists, and the control-flow
/// statements (for, if, parallel, store, barrier).
#include "plugins/cuda/codegen/Emitter.h"

#include "ir/lower/SharedPlacement.h"

#include <algorithm>
#include <cstdint>
#include <unordered_map>

#include "ir/Printer.h"
#include "ir/lower/Lowered.h"
#include "plugins/cuda/DriverApi.h"

namespace tegula::cuda::gen {

Emitter::Emitter(const ir::Kernel& kernel, const TargetDescription& target, std::string arch)
    : k_(kernel), target_(target), arch_(std::move(arch)) {
  // "sm_90a" -> 90, "sm_100a" -> 100.
  int n = 0;
  for (char c : arch_)
    if (c >= '0' && c <= '9') n = n * 10 + (c - '0');
  sm_ = n ? n : 80;
  // The generator's own feature choices follow the architecture family.
  if (sm_ >= 100 && sm_ < 120) sm_ = 100;
  else if (sm_ >= 90 && sm_ < 100) sm_ = 90;
  else if (sm_ == 89 || sm_ >= 120) sm_ = 89;
  else sm_ = 80;
}

// --- output ------------------------------------------------------------------------------

void Emitter::line(const std::string& s) {
  body_.append(size_t(indent_) * 2, ' ');
  body_ += s;
  body_ += '\n';
}

void Emitter::open(const std::string& s) {
  line(s.empty() ? "{" : s + " {");
  ++indent_;
}

void Emitter::close(const std::string& tail) {
  --indent_;
  line("}" + tail);
}

std::string Emitter::fresh(const std::string& prefix) { return prefix + itos(counter_++); }

Status Emitter::unsupported(const ir::Stmt& s, const std::string& what) const {
  return error(ErrorCode::Unsupported, "cuda (" + arch_ + "): " + what, s.loc);
}

// --- buffers -----------------------------------------------------------------------------

const Buffer* Emitter::buffer(const std::string& name) const {
  auto it = buffer_index_.find(name);
  return it == buffer_index_.end() ? nullptr : &buffers_[it->second];
}

std::string Emitter::var_name(const std::string& ir_name) const {
  for (auto it = scopes_.rbegin(); it != scopes_.rend(); ++it) {
    auto f = it->find(ir_name);
    if (f != it->end()) return f->second;
  }
  return ir_name;
}

Status Emitter::declare_buffers() {
  std::vector<std::string> symbols = k_.symbols();
  info.arg_count = uint32_t(k_.params.size() + symbols.size());
  info.arg_is_tensor.assign(info.arg_count, 0);
  push_scope();
  for (size_t i = 0; i < symbols.size(); ++i) bind_var(symbols[i], "y_" + symbols[i]);
  bind_var("bx", "bx");
  bind_var("by", "by");
  bind_var("bz", "bz");
  for (size_t i = 0; i < k_.params.size(); ++i) {
    const ir::Param& p = k_.params[i];
    if (!p.is_tensor) {
      if (p.dtype == DType::Bool) bind_var(p.name, "(s_" + p.name + " != 0)");
      else bind_var(p.name, "s_" + p.name);
      continue;
    }
    info.arg_is_tensor[i] = 1;
    Buffer b;
    b.name = p.name;
    b.cname = "g_" + p.name;
    b.scope = ir::Scope::Global;
    b.dtype = p.dtype;
    b.arg = int(i);
    for (const ir::Expr& d : p.shape) {
      DimSpec spec;
      if (d->kind == ir::ExprKind::IntImm) {
        spec.value = d->int_value;
        b.dims.push_back("(" + itos(d->int_value) + "LL)");
        b.shape.push_back(d->int_value);
      } else {
        auto it = std::find(symbols.begin(), symbols.end(), d->name);
        spec.arg = int32_t(k_.params.size() + size_t(it - symbols.begin()));
        b.dims.push_back("y_" + d->name);
        b.shape.push_back(-1);
      }
      b.dim_specs.push_back(spec);
    }
    info.tensors.push_back({uint32_t(i), uint32_t(dtype_size(p.dtype)), b.dim_specs});
    add_local(b);
  }
  for (const ir::Stmt& s : k_.body.stmts) {
    if (s.op != ir::OpKind::Alloc) continue;
    Buffer b;
    b.name = s.name;
    b.scope = s.type.scope;
    b.dtype = s.type.dtype;
    b.shape = s.type.shape;
    if (b.scope == ir::Scope::Shared) {
      b.cname = "sh_" + s.name;
      // Placed by the lowering (place_shared): the offset is read, never chosen here.
      TG_ASSIGN_OR_RETURN(b.layout, ir::get_shared_layout(s.attrs));
      b.stage_bytes = ir::shared_stage_bytes(b.layout, b.shape, b.dtype);
      b.offset = b.layout.offset;
      smem_align_ = std::max<int64_t>(smem_align_, std::max<int64_t>(ir::kSharedBaseAlign, b.layout.align));
    } else if (b.scope == ir::Scope::Fragment) {
      b.cname = "f_" + s.name;
      auto d = ir::get_distribution(s.attrs, "layout");
      if (!d.is_ok()) return unsupported(s, "fragment '" + s.name + "' has no thread layout (was the kernel lowered?)");
      if (d->thread_count() != k_.threads)
        return unsupported(s, "fragment '" + s.name + "' is laid out over " + itos(d->thread_count()) + " threads, the block has " +
                                  itos(k_.threads));
      b.dist = *d;
      b.slots = d->value_count();
      if (b.slots > 4096) return unsupported(s, "fragment '" + s.name + "' needs " + itos(b.slots) + " registers per thread");
    } else {
      continue;  // local buffers are declared where their alloc is, inside a parallel loop
    }
    add_local(b);
  }
  return Status::ok();
}

std::string Emitter::stage_base(const Buffer& b) const {
  std::string base = itos(b.offset);
  if (b.layout.stages > 1) base = "(" + base + " + st_" + b.name + " * " + itos(b.stage_bytes) + ")";
  return base;
}

std::string Emitter::shared_offset_call(const Buffer& b, const std::vector<std::string>& coords) const {
  // Flatten every dimension but the last into the row.
  std::string row;
  for (size_t d = 0; d + 1 < coords.size(); ++d) row = row.empty() ? "(" + coords[d] + ")" : "(" + row + " * " + itos(b.shape[d]) + " + " + coords[d] + ")";
  if (row.empty()) row = "0";
  return "so_" + b.name + "((int)(" + row + "), (int)(" + coords.back() + "))";
}

std::string Emitter::shared_ptr(const Buffer& b, const std::vector<std::string>& coords) const {
  return "(smem + " + stage_base(b) + " + " + shared_offset_call(b, coords) + ")";
}

std::string Emitter::shared_addr(const Buffer& b, const std::vector<std::string>& coords) const {
  return "(smem_u32 + (unsigned)(" + stage_base(b) + ") + " + shared_offset_call(b, coords) + ")";
}

std::string Emitter::global_linear(const Buffer& b, const std::vector<std::string>& coords) const {
  std::string lin;
  for (size_t d = 0; d < coords.size(); ++d) {
    std::string c = "(long long)(" + coords[d] + ")";
    lin = lin.empty() ? c : "(" + lin + ") * gd_" + b.name + "_" + itos(int64_t(d)) + " + " + c;
  }
  return lin;
}

std::string Emitter::inside(const Buffer& b, const std::vector<std::string>& coords) const {
  std::vector<std::string> parts;
  for (size_t d = 0; d < coords.size(); ++d) {
    std::string bound = b.scope == ir::Scope::Global ? "gd_" + b.name + "_" + itos(int64_t(d)) : "(long long)" + itos(b.shape[d]);
    parts.push_back("(unsigned long long)(" + coords[d] + ") < (unsigned long long)" + bound);
  }
  return join(parts, " && ");
}

std::vector<std::string> Emitter::thread_part_exprs(const ir::Distribution& d, int rank, const std::string& tvar,
                                                    std::vector<int64_t>* max) const {
  std::vector<std::string> terms(static_cast<size_t>(rank));
  if (max) max->assign(size_t(rank), 0);
  int64_t pos = 1, total = d.thread_count();
  for (const ir::Factor& f : d.threads) {
    if (f.dim >= 0 && f.dim < rank && f.size > 1) {
      std::string digit = pos == 1 ? tvar : "(" + tvar + " / " + itos(pos) + ")";
      if (pos * f.size < total) digit = "(" + digit + " % " + itos(f.size) + ")";
      if (f.stride != 1) digit += " * " + itos(f.stride);
      std::string& term = terms[size_t(f.dim)];
      term += (term.empty() ? "" : " + ") + digit;
      if (max) (*max)[size_t(f.dim)] += (f.size - 1) * f.stride;
    }
    pos *= f.size;
  }
  for (std::string& term : terms)
    if (term.empty()) term = "0";
  return terms;
}

ThreadPart Emitter::thread_part(const ir::Distribution& d, int rank, const std::string& prefix) {
  ThreadPart tp;
  std::vector<std::string> terms = thread_part_exprs(d, rank, "t", &tp.max);
  for (int i = 0; i < rank; ++i) {
    std::string name = prefix + "_" + itos(i);
    line("const int " + name + " = " + terms[size_t(i)] + ";");
    tp.names.push_back(name);
  }
  return tp;
}

std::string Emitter::replica_guard(const ir::Distribution& d) const {
  std::vector<std::string> parts;
  int64_t pos = 1, total = d.thread_count();
  for (const ir::Factor& f : d.threads) {
    if (f.dim < 0 && f.size > 1) {
      std::string digit = pos == 1 ? "t" : "(t / " + itos(pos) + ")";
      if (pos * f.size < total) digit = "(" + digit + " % " + itos(f.size) + ")";
      parts.push_back(digit + " == 0");
    }
    pos *= f.size;
  }
  return join(parts, " && ");
}

static std::string plus(const std::string& a, int64_t c) {
  if (c == 0) return a;
  return "(" + a + (c > 0 ? " + " + itos(c) : " - " + itos(-c)) + ")";
}

static bool is_zero(const std::vector<int64_t>& v) {
  for (int64_t x : v)
    if (x) return false;
  return true;
}

Result<std::vector<Elem>> Emitter::fragment_elems(const ir::Stmt& s, const Buffer& frag, const std::vector<int64_t>& offsets,
                                                  const std::vector<int64_t>& extent, int64_t vec) {
  int rank = int(frag.shape.size());
  std::vector<int64_t> off = offsets.empty() ? std::vector<int64_t>(size_t(rank), 0) : offsets;
  ThreadPart tp = thread_part(frag.dist, rank, fresh("tp"));
  // A vector group must stay inside the tile and the fragment when its first element does.
  int64_t n = std::max<int64_t>(1, vec);
  if (n > 1) {
    bool ok = frag.dist.vector_width(rank) % n == 0 && frag.shape.back() % n == 0 && extent.back() % n == 0 && off.back() % n == 0;
    if (!ok) n = 1;
  }
  std::vector<Elem> out;
  for (int64_t v = 0; v < frag.slots; v += n) {
    std::vector<int64_t> vc = frag.dist.coords(0, v, rank);
    Elem e;
    e.slot = v;
    e.n = n;
    e.vcoord = vc;
    std::vector<std::string> guard;
    bool never = false;
    for (int d = 0; d < rank; ++d) {
      std::string c = plus(tp.names[size_t(d)], vc[size_t(d)]);
      int64_t lo = vc[size_t(d)], hi = tp.max[size_t(d)] + vc[size_t(d)];
      if (lo >= frag.shape[size_t(d)]) never = true;
      if (hi >= frag.shape[size_t(d)]) guard.push_back(c + " < " + itos(frag.shape[size_t(d)]));
      // the tile [off, off + extent) of the fragment
      int64_t o = off[size_t(d)];
      if (lo - o >= extent[size_t(d)] || hi < o) never = true;
      if (lo < o) guard.push_back(c + " >= " + itos(o));
      if (hi - o >= extent[size_t(d)]) guard.push_back(c + " < " + itos(o + extent[size_t(d)]));
      e.idx.push_back(plus(c, -o));
    }
    if (never) continue;
    e.guard = join(guard, " && ");
    out.push_back(e);
  }
  (void)s;
  return out;
}

Result<std::vector<Elem>> Emitter::free_elems(const ir::Stmt& s, const ir::Distribution& plan, const std::vector<int64_t>& extent,
                                              int64_t vec) {
  int rank = int(extent.size());
  if (plan.thread_count() != k_.threads) return unsupported(s, "a thread plan over " + itos(plan.thread_count()) + " threads");
  ThreadPart tp = thread_part(plan, rank, fresh("tp"));
  std::string rep = replica_guard(plan);
  int64_t n = std::max<int64_t>(1, vec);
  if (n > 1 && !(plan.vector_width(rank) % n == 0 && extent.back() % n == 0)) n = 1;
  std::vector<Elem> out;
  for (int64_t v = 0; v < plan.value_count(); v += n) {
    std::vector<int64_t> vc = plan.coords(0, v, rank);
    Elem e;
    e.n = n;
    e.vcoord = vc;
    std::vector<std::string> guard;
    if (!rep.empty()) guard.push_back(rep);
    bool never = false;
    for (int d = 0; d < rank; ++d) {
      std::string c = plus(tp.names[size_t(d)], vc[size_t(d)]);
      if (vc[size_t(d)] >= extent[size_t(d)]) never = true;
      if (tp.max[size_t(d)] + vc[size_t(d)] >= extent[size_t(d)]) guard.push_back(c + " < " + itos(extent[size_t(d)]));
      e.idx.push_back(c);
    }
    if (never) continue;
    e.guard = join(guard, " && ");
    out.push_back(e);
  }
  return out;
}

Result<std::vector<int64_t>> Emitter::slot_map(const ir::Stmt& s, const ir::Distribution& exec, const std::vector<int64_t>& shape,
                                               const Buffer& operand, const std::vector<int64_t>& offset) {
  int rank = int(shape.size());
  int64_t exec_slots = exec.value_count();
  std::vector<int64_t> map(static_cast<size_t>(exec_slots), -2);
  if (exec == operand.dist && shape == operand.shape && (offset.empty() || is_zero(offset))) {
    for (int64_t v = 0; v < exec_slots; ++v) map[size_t(v)] = v;
    return map;
  }
  // A lower-rank operand of a map: shapes align at the trailing axes (numpy's rule).
  int orank = int(operand.shape.size());
  if (orank > rank || (orank != rank && !offset.empty()))
    return unsupported(s, "fragments of different rank in one op");
  size_t lead = size_t(rank - orank);
  int64_t numel = 1;
  for (int64_t x : operand.shape) numel *= x;
  std::vector<int64_t> own(static_cast<size_t>(numel), -1);
  std::vector<int64_t> touched;
  auto linear = [&](const std::vector<int64_t>& c, const std::vector<int64_t>& sh, int64_t* out) {
    int64_t l = 0;
    for (size_t d = 0; d < sh.size(); ++d) {
      if (c[d] < 0 || c[d] >= sh[d]) return false;
      l = l * sh[d] + c[d];
    }
    *out = l;
    return true;
  };
  for (int64_t t = 0; t < k_.threads; ++t) {
    for (int64_t l : touched) own[size_t(l)] = -1;
    touched.clear();
    for (int64_t v = 0; v < operand.slots; ++v) {
      int64_t l;
      if (!linear(operand.dist.coords(t, v, orank), operand.shape, &l)) continue;
      if (own[size_t(l)] < 0) {
        own[size_t(l)] = v;
        touched.push_back(l);
      }
    }
    for (int64_t v = 0; v < exec_slots; ++v) {
      std::vector<int64_t> c = exec.coords(t, v, rank);
      int64_t l;
      if (!linear(c, shape, &l)) continue;  // padding
      for (int d = 0; d < rank; ++d)
        if (!offset.empty()) c[size_t(d)] += offset[size_t(d)];
      c.erase(c.begin(), c.begin() + std::ptrdiff_t(lead));
      for (int d = 0; d < orank; ++d)
        if (operand.shape[size_t(d)] == 1) c[size_t(d)] = 0;
      if (!linear(c, operand.shape, &l))
        return unsupported(s, "fragment '" + operand.name + "' does not cover the elements this op needs from it");
      int64_t w = own[size_t(l)];
      if (w < 0)
        return unsupported(s, "fragment '" + operand.name + "' holds an element in another thread than the one that needs it "
                              "(thread " + itos(t) + "); copy it through a shared buffer");
      if (map[size_t(v)] == -2) map[size_t(v)] = w;
      else if (map[size_t(v)] != w)
        return unsupported(s, "fragment '" + operand.name + "' keeps the element of slot " + itos(v) +
                                  " in a register that differs between threads");
    }
  }
  for (int64_t& m : map)
    if (m == -2) m = -1;
  return map;
}

// --- statements --------------------------------------------------------------------------

void Emitter::emit_barrier() {
  if (proxy_fence) line("tg_fence_proxy_async();");
  line("__syncthreads();");
}

Status Emitter::block(const ir::Block& b) {
  for (const ir::Stmt& s : b.stmts) TG_RETURN_IF_ERROR(stmt(s));
  return Status::ok();
}

Status Emitter::stmt(const ir::Stmt& s) {
  switch (s.op) {
    case ir::OpKind::Alloc:
      if (s.type.scope == ir::Scope::Local) {
        Buffer b;
        b.name = s.name;
        b.cname = fresh("l_" + s.name + "_");
        b.scope = ir::Scope::Local;
        b.dtype = s.type.dtype;
        b.shape = s.type.shape;
        int64_t n = s.type.elements();
        line(std::string(rep_type(frag_rep(b.dtype))) + " " + b.cname + "[" + itos(n) + "];");
        add_local(b);
      }
      return Status::ok();
    case ir::OpKind::Copy: return emit_copy(s);
    case ir::OpKind::Fill: return emit_fill(s);
    case ir::OpKind::Gemm: return emit_gemm(s);
    case ir::OpKind::Reduce: return emit_reduce(s);
    case ir::OpKind::Scan: return emit_scan(s);
    case ir::OpKind::Map: return emit_map(s);
    case ir::OpKind::Store: return emit_store(s);
    case ir::OpKind::AtomicAdd: return emit_atomic(s);
    case ir::OpKind::Barrier:
      emit_barrier();
      return Status::ok();
    case ir::OpKind::For: return emit_loop(s);
    case ir::OpKind::Pipelined:
      if (auto plan = ir::get_pipeline_plan(s); plan.is_ok() && plan->pipelined) return emit_pipelined(s);
      return emit_loop(s);
    case ir::OpKind::Parallel: return emit_parallel(s);
    case ir::OpKind::If: {
      TG_ASSIGN_OR_RETURN(std::string c, expr_as(s.cond(), Rep::Bool));
      open("if (" + c + ")");
      push_scope();
      Status st = block(s.blocks[0]);
      pop_scope();
      TG_RETURN_IF_ERROR(st);
      if (s.blocks.size() > 1) {
        close(" else {");
        ++indent_;
        push_scope();
        st = block(s.blocks[1]);
        pop_scope();
        TG_RETURN_IF_ERROR(st);
      }
      close();
      return Status::ok();
    }
  }
  return error(ErrorCode::Internal, "cuda codegen: unknown op", s.loc);
}

Status Emitter::emit_loop(const ir::Stmt& s) {
  TG_ASSIGN_OR_RETURN(std::string lo, index_expr(s.lo()));
  TG_ASSIGN_OR_RETURN(std::string hi, index_expr(s.hi()));
  std::string v = fresh("v_" + s.vars[0] + "_");
  std::string h = fresh("hi");
  open("");
  line("const long long " + h + " = " + hi + ";");
  open("for (long long " + v + " = " + lo + "; " + v + " < " + h + "; ++" + v + ")");
  push_scope();
  bind_var(s.vars[0], v);
  Status st = block(s.body());
  pop_scope();
  close();
  close();
  return st;
}

Status Emitter::emit_parallel(const ir::Stmt& s) {
  TG_ASSIGN_OR_RETURN(ir::Distribution plan, ir::get_distribution(s.attrs, "plan"));
  std::vector<int64_t> extent;
  for (const ir::Expr& e : s.exprs) extent.push_back(*ir::const_int(e));
  int rank = int(extent.size());
  if (plan.thread_count() != k_.threads) return unsupported(s, "a parallel loop planned over the wrong thread count");
  open("");
  ThreadPart tp = thread_part(plan, rank, fresh("tp"));
  std::string rep = replica_guard(plan);
  if (!rep.empty()) open("if (" + rep + ")");
  // Value digits, computed from a loop counter the compiler unrolls.
  std::string pv = fresh("pv");
  open("#pragma unroll\n" + std::string(size_t(indent_) * 2, ' ') + "for (int " + pv + " = 0; " + pv + " < " + itos(plan.value_count()) + "; ++" + pv + ")");
  std::vector<std::string> terms(static_cast<size_t>(rank));
  int64_t pos = 1;
  for (const ir::Factor& f : plan.values) {
    if (f.dim >= 0 && f.size > 1) {
      std::string digit = pos == 1 ? pv : "(" + pv + " / " + itos(pos) + ")";
      if (pos * f.size < plan.value_count()) digit = "(" + digit + " % " + itos(f.size) + ")";
      if (f.stride != 1) digit += " * " + itos(f.stride);
      terms[size_t(f.dim)] += " + " + digit;
    }
    pos *= f.size;
  }
  push_scope();
  std::vector<std::string> guard;
  for (int d = 0; d < rank; ++d) {
    std::string v = fresh("v_" + s.vars[size_t(d)] + "_");
    line("const long long " + v + " = (long long)(" + tp.names[size_t(d)] + terms[size_t(d)] + ");");
    guard.push_back(v + " < " + itos(extent[size_t(d)]));
    bind_var(s.vars[size_t(d)], v);
  }
  open("if (" + join(guard, " && ") + ")");
  Status st = block(s.body());
  close();
  pop_scope();
  close();
  if (!rep.empty()) close();
  close();
  return st;
}

Status Emitter::emit_store(const ir::Stmt& s) {
  const Buffer* b = buffer(s.target().buffer);
  if (!b) return error(ErrorCode::Internal, "cuda codegen: unknown store target", s.loc);
  if (b->scope == ir::Scope::Fragment)
    return unsupported(s, "store into fragment '" + b->name + "' inside a parallel loop (its elements live in other threads' registers)");
  std::vector<std::string> coords;
  for (const ir::Expr& e : s.target().offsets) {
    TG_ASSIGN_OR_RETURN(std::string c, index_expr(e));
    coords.push_back(c);
  }
  TG_ASSIGN_OR_RETURN(Value v, value_for(s.value(), b->dtype));
  write_element(*b, coords, v, true);
  return Status::ok();
}

// --- the kernel ----------------------------------------------------------------------------

static std::string shared_offset_function(const Buffer& b) {
  const ir::SharedLayout& l = b.layout;
  int64_t rows = 1;
  for (size_t d = 0; d + 1 < b.shape.size(); ++d) rows *= b.shape[d];
  int64_t cols = b.shape.back(), es = int64_t(dtype_size(b.dtype));
  std::string f = "static __device__ __forceinline__ unsigned so_" + b.name + "(int i, int j) {\n";
  if (l.block)
    f += "  unsigned e = (unsigned)((j / " + itos(l.block) + ") * " + itos(rows * l.block) + " + i * " + itos(l.block) + " + (j % " +
         itos(l.block) + "));\n";
  else
    f += "  unsigned e = (unsigned)(i * " + itos(cols + l.pad) + " + j);\n";
  f += "  unsigned b = e * " + itos(es) + "u;\n";
  if (l.swizzle_bits)
    f += "  b ^= ((b >> " + itos(l.swizzle_base + l.swizzle_shift) + ") & " + itos((int64_t(1) << l.swizzle_bits) - 1) + "u) << " +
         itos(l.swizzle_base) + ";\n";
  f += "  return b;\n}\n";
  return f;
}

Result<Generated> Emitter::run() {
  TG_RETURN_IF_ERROR(declare_buffers());
  // Every shared region (each buffer's stages, barriers, slots) ends by placed_end.
  TG_ASSIGN_OR_RETURN(placed_end_, ir::placed_end(k_, target_));
  if (k_.threads < 1 || k_.threads > 1024) return error(ErrorCode::Unsupported, "cuda: a block of " + itos(k_.threads) + " threads");
  info.name = "tg_" + k_.name;
  info.threads = k_.threads;

  // Pre-pass: which loops use mbarriers (bulk copies), which gemms use tensor memory.
  TG_RETURN_IF_ERROR(prepare_resources());

  // Body first: it decides the tensor maps, which join the signature.
  std::string body;
  std::swap(body, body_);
  indent_ = 1;
  line("const int t = threadIdx.x;");
  if (placed_end_ > 0) {
    line("extern __shared__ __align__(16) unsigned char tg_smem_raw[];");
    if (smem_align_ > 16) {
      line("const unsigned tg_pad = (" + itos(smem_align_) + "u - (tg_smem_u32(tg_smem_raw) & " + itos(smem_align_ - 1) + "u)) & " +
           itos(smem_align_ - 1) + "u;");
      line("unsigned char* const smem = tg_smem_raw + tg_pad;");
    } else {
      line("unsigned char* const smem = tg_smem_raw;");
    }
    line("const unsigned smem_u32 = tg_smem_u32(smem);");
    line("(void)smem_u32;");
  }
  line("long long bx = blockIdx.x, by = blockIdx.y, bz = blockIdx.z;");
  TG_ASSIGN_OR_RETURN(ir::KernelPlan kernel_plan, ir::get_kernel_plan(k_));
  if (kernel_plan.raster > 1) {
    // ir::raster_remap, the same bijection the interpreter applies.
    int64_t g = kernel_plan.raster;
    open("");
    line("const long long gx = gridDim.x, gy = gridDim.y, pid = bx + gx * by, per = " + itos(g) + "LL * gx;");
    line("const long long first = (pid / per) * " + itos(g) + "LL, rest = gy - first;");
    line("const long long size = rest < " + itos(g) + "LL ? rest : " + itos(g) + "LL, in_group = pid % per;");
    line("by = first + in_group % size;");
    line("bx = in_group / size;");
    close();
  }
  line("(void)bx; (void)by; (void)bz;");
  for (const Buffer& b : buffers_) {
    if (b.scope == ir::Scope::Global) {
      for (size_t d = 0; d < b.dims.size(); ++d) line("const long long gd_" + b.name + "_" + itos(int64_t(d)) + " = " + b.dims[d] + ";");
    } else if (b.scope == ir::Scope::Fragment) {
      line(std::string(rep_type(frag_rep(b.dtype))) + " " + b.cname + "[" + itos(b.slots) + "];");
    } else if (b.scope == ir::Scope::Shared && b.layout.stages > 1) {
      line("int st_" + b.name + " = 0;");
    }
  }
  TG_RETURN_IF_ERROR(emit_setup());
  TG_RETURN_IF_ERROR(block(k_.body));
  TG_RETURN_IF_ERROR(emit_teardown());
  std::swap(body, body_);

  // Assemble: prelude, shared offset functions, signature, body.
  Generated g;
  std::string& src = g.source;
  src = prelude(sm_, uses_wgmma);
  for (const Buffer& b : buffers_)
    if (b.scope == ir::Scope::Shared) src += shared_offset_function(b);
  src += extra_functions;
  src += "\nextern \"C\" __global__ void __launch_bounds__(" + itos(k_.threads) + ", " + itos(options.min_blocks_per_sm) + ") " + info.name + "(";
  std::vector<std::string> params;
  std::vector<std::string> symbols = k_.symbols();
  for (size_t i = 0; i < k_.params.size(); ++i) {
    const ir::Param& p = k_.params[i];
    ParamSlot slot;
    slot.arg = uint32_t(i);
    slot.dtype = uint8_t(p.dtype);
    if (p.is_tensor) {
      slot.kind = ParamSlot::Kind::Pointer;
      params.push_back("unsigned char* __restrict__ g_" + p.name);
    } else if (p.dtype == DType::F64) {
      slot.kind = ParamSlot::Kind::F64;
      params.push_back("double s_" + p.name);
    } else if (dtype_is_float(p.dtype)) {
      slot.kind = ParamSlot::Kind::F32;
      params.push_back("float s_" + p.name);
    } else {
      slot.kind = ParamSlot::Kind::I64;
      params.push_back("long long s_" + p.name);
    }
    info.params.push_back(slot);
  }
  for (size_t i = 0; i < symbols.size(); ++i) {
    ParamSlot slot;
    slot.kind = ParamSlot::Kind::I64;
    slot.arg = uint32_t(k_.params.size() + i);
    slot.dtype = kSymbolDType;
    info.params.push_back(slot);
    params.push_back("long long y_" + symbols[i]);
  }
  for (size_t i = 0; i < info.tensor_maps.size(); ++i) {
    ParamSlot slot;
    slot.kind = ParamSlot::Kind::TensorMap;
    slot.arg = uint32_t(i);
    info.params.push_back(slot);
    params.push_back("const __grid_constant__ tg_tmap tm" + itos(int64_t(i)));
  }
  src += join(params, ", ") + ") {\n" + body + "}\n";

  // Dynamic shared memory: what the lowering placed (lower.shared_bytes, the base slack
  // included; the shared copies of fragments read by index are lowering's allocs too).
  TG_ASSIGN_OR_RETURN(ir::KernelPlan plan, ir::get_kernel_plan(k_));
  int64_t bytes = plan.shared_bytes;
  // Whether that fits the target is place_shared's decision, and read_lowered refuses a kernel
  // over the budget; what is checked here is that the regions this code addresses lie inside
  // what the launch requests.
  if (placed_end_ > bytes)
    return error(ErrorCode::Internal,
                 "cuda codegen: kernel '" + k_.name + "' addresses shared memory up to byte " + itos(placed_end_) +
                     ", past the " + itos(bytes) + " bytes it requests (lower.shared_bytes)",
                 k_.loc);
  info.shared_bytes = bytes;
  for (const ir::Assumption& a : plan.assume) {
    auto it = std::find(symbols.begin(), symbols.end(), a.symbol);
    if (it == symbols.end()) continue;
    info.assume.push_back({uint32_t(k_.params.size() + size_t(it - symbols.begin())), a.divisor});
  }
  for (auto& [arg, bytes_needed] : align_needed) info.align.push_back({arg, bytes_needed});
  g.info = info;
  return g;
}

}  // namespace tegula::cuda::gen
