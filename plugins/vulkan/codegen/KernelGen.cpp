#include "plugins/vulkan/codegen/KernelGen.h"

#include <algorithm>
#include <cstdint>
#include <functional>
#include <map>
#include <set>

#include "ir/Analysis.h"
#include "ir/lower/Forwarding.h"
#include "ir/lower/Lowered.h"

namespace tegula::vulkan {

using namespace spv;

KernelGen::KernelGen(const ir::Kernel& k, const CodegenTarget& t) : k_(k), t_(t) {}

Status KernelGen::fail(const SourceLoc& loc, const std::string& what) {
  return error(ErrorCode::Unsupported, "vulkan: " + what, loc);
}

Buf* KernelGen::find_buf(const std::string& name) {
  for (auto it = buf_scopes_.rbegin(); it != buf_scopes_.rend(); ++it) {
    auto f = it->find(name);
    if (f != it->end()) return f->second;
  }
  return nullptr;
}

// --- interface ---------------------------------------------------------------------------

Status KernelGen::declare_interface(int64_t raster) {
  // Built-in inputs.
  uint32_t uvec3 = m_.type_vector(T::U32, 3);
  in_workgroup_id_ = m_.global_variable(SCInput, uvec3);
  m_.decorate(in_workgroup_id_, DecBuiltIn, {BuiltInWorkgroupId});
  in_local_index_ = m_.global_variable(SCInput, m_.type(T::U32));
  m_.decorate(in_local_index_, DecBuiltIn, {BuiltInLocalInvocationIndex});
  m_.name(in_workgroup_id_, "tg_workgroup_id");
  m_.name(in_local_index_, "tg_local_index");

  // Push constants: tensor offsets, then scalars, then symbols.
  std::vector<std::string> symbols = k_.symbols();
  struct Member {
    uint32_t arg, kind;
    T ty;
  };
  std::vector<Member> members;
  for (size_t i = 0; i < k_.params.size(); ++i)
    if (k_.params[i].is_tensor) members.push_back({uint32_t(i), PushTensorOffset, T::U32});
  for (size_t i = 0; i < k_.params.size(); ++i) {
    const ir::Param& p = k_.params[i];
    if (p.is_tensor) continue;
    if (p.dtype == DType::F64) members.push_back({uint32_t(i), PushF64, T::F64});
    else if (dtype_is_float(p.dtype)) members.push_back({uint32_t(i), PushF32, T::F32});
    else members.push_back({uint32_t(i), PushI32, T::I32});
  }
  for (size_t i = 0; i < symbols.size(); ++i) members.push_back({uint32_t(k_.params.size() + i), PushI32, T::I32});
  // Where this dispatch's blocks start in the grid, and the whole grid that the rasterised
  // order is computed over: a device's group counts (65535 per dimension on many) can be
  // smaller than a grid, which the launch then runs as several dispatches.
  for (uint32_t d = 0; d < 3; ++d) members.push_back({d, PushBlockBase, T::U32});
  if (rasterised(raster))
    for (uint32_t d = 0; d < 2; ++d) members.push_back({d, PushGridCount, T::U32});
  uint32_t offset = 0;
  std::vector<uint32_t> types;
  for (const Member& mb : members) {
    uint32_t size = mb.ty == T::F64 ? 8 : 4;
    offset = (offset + size - 1) / size * size;
    iface_.push.push_back({mb.arg, mb.kind, offset});
    types.push_back(m_.type(mb.ty));
    offset += size;
  }
  iface_.push_bytes = offset;
  if (offset > t_.push_constant_bytes)
    return fail(k_.loc, "kernel '" + k_.name + "' needs " + std::to_string(offset) + " bytes of push constants; the target offers " +
                            std::to_string(t_.push_constant_bytes));
  if (!types.empty()) {
    uint32_t block = m_.type_struct(types);
    m_.decorate(block, DecBlock);
    std::vector<std::string> symbols_list = k_.symbols();
    for (size_t i = 0; i < types.size(); ++i) {
      m_.member_decorate(block, uint32_t(i), DecOffset, {iface_.push[i].offset});
      uint32_t arg = iface_.push[i].arg;
      uint32_t kind = iface_.push[i].kind;
      std::string what = push_entry_is_grid(kind)  ? std::string(kind == PushBlockBase ? "tg_block_base_" : "tg_grid_") + "xyz"[arg]
                         : arg < k_.params.size() ? k_.params[arg].name
                                                  : symbols_list[arg - k_.params.size()];
      m_.member_name(block, uint32_t(i), kind == PushTensorOffset ? what + "_offset" : what);
    }
    push_var_ = m_.global_variable(SCPushConstant, block);
    m_.name(push_var_, "tg_push");
    push_member_types_ = types;
  }

  // Storage buffers, one per tensor parameter.
  std::set<std::string> written = ir::written_buffers(k_.body);
  uint32_t binding = 0;
  size_t member = 0;
  buf_scopes_.emplace_back();
  var_scopes_.emplace_back();
  for (size_t i = 0; i < k_.params.size(); ++i) {
    const ir::Param& p = k_.params[i];
    if (!p.is_tensor) continue;
    Buf& b = bufs_.emplace_back();
    b.name = p.name;
    b.scope = ir::Scope::Global;
    b.dtype = p.dtype;
    b.elem = Conversions::storage_type(p.dtype);
    b.elem_type = m_.type(b.elem);
    uint32_t stride = uint32_t(dtype_size(p.dtype));
    uint32_t rarr = m_.type_runtime_array(b.elem_type, stride);
    uint32_t block = m_.type_struct({rarr});
    m_.decorate(block, DecBlock);
    m_.member_decorate(block, 0, DecOffset, {0});
    m_.member_name(block, 0, "elements");
    // Tensors the kernel never writes are NonWritable: drivers may then read them through
    // the read-only data path.
    b.read_only = !written.count(p.name);
    if (b.read_only) m_.member_decorate(block, 0, DecNonWritable);
    b.var = m_.global_variable(SCStorageBuffer, block);
    m_.decorate(b.var, DecDescriptorSet, {0});
    m_.decorate(b.var, DecBinding, {binding});
    m_.name(b.var, p.name);
    b.offset_member = uint32_t(member++);
    b.binding = binding;
    iface_.bindings.push_back(uint32_t(i));
    ++binding;
    buf_scopes_.back()[p.name] = &b;
  }
  return Status::ok();
}

/// A 16-bit tensor that atomic_add writes needs a u32 view of its binding for CAS loops.
static void find_atomic_targets(const ir::Block& b, std::set<std::string>& out) {
  ir::for_each_stmt(b, [&](const ir::Stmt& s) {
    if (s.op == ir::OpKind::AtomicAdd) out.insert(s.atomic_dst().buffer);
  });
}

Status KernelGen::declare_alloc(const ir::Stmt& s) {
  Buf& b = bufs_.emplace_back();
  b.name = s.name;
  b.scope = s.type.scope;
  b.dtype = s.type.dtype;
  b.shape = s.type.shape;
  switch (s.type.scope) {
    case ir::Scope::Shared: {
      if (ir::is_forwarded(s)) {
        b.forwarded = true;
        break;
      }
      TG_ASSIGN_OR_RETURN(b.layout, ir::get_shared_layout(s.attrs));
      int64_t esize = int64_t(dtype_size(b.dtype));
      b.elem = Conversions::storage_type(b.dtype);
      // Cooperative-matrix loads read f16 tiles as f16 (not as 16-bit integers to convert).
      if (uses_coopmat_ && b.dtype == DType::F16) b.elem = T::F16;
      b.elem_type = m_.type(b.elem);
      b.stage_elems = ir::shared_stage_bytes(b.layout, b.shape, b.dtype) / esize;
      int64_t total = b.stage_elems * std::max<int64_t>(1, b.layout.stages);
      TG_ASSIGN_OR_RETURN(int64_t word_bytes, ir::packed_word_bytes(s));
      if (word_bytes > 0) {
        b.packed = true;
        b.word_type = m_.type_vector(T::U32, 4);
        b.var = m_.global_variable(SCWorkgroup, m_.type_array(b.word_type, uint32_t(total * esize / 16)));
      } else {
        b.var = m_.global_variable(SCWorkgroup, m_.type_array(b.elem_type, uint32_t(total)));
      }
      iface_.shared_bytes += uint32_t(total * esize);
      break;
    }
    case ir::Scope::Fragment: {
      if (ir::is_opaque(s)) {
        TG_RETURN_IF_ERROR(declare_opaque(b, s));
        break;
      }
      auto d = ir::get_distribution(s.attrs, "layout");
      if (!d.is_ok()) return fail(s.loc, "fragment '" + s.name + "' has no layout (was the kernel lowered?)");
      b.dist = *d;
      if (b.dist.thread_count() != k_.threads)
        return fail(s.loc, "fragment '" + s.name + "' is laid out over " + std::to_string(b.dist.thread_count()) + " threads, not " +
                               std::to_string(k_.threads));
      b.slots = b.dist.value_count();
      if (b.slots > 4096) return fail(s.loc, "fragment '" + s.name + "' holds " + std::to_string(b.slots) + " values per thread");
      b.elem = Conversions::value_type(b.dtype);
      b.elem_type = m_.type(b.elem);
      b.var = m_.local_variable(m_.type_array(b.elem_type, uint32_t(b.slots)));
      break;
    }
    case ir::Scope::Local: {
      int64_t n = 1;
      for (int64_t d : b.shape) n *= d;
      if (n > 4096) return fail(s.loc, "local buffer '" + s.name + "' is too large");
      b.elem = Conversions::value_type(b.dtype);
      b.elem_type = m_.type(b.elem);
      b.var = m_.local_variable(m_.type_array(b.elem_type, uint32_t(n)));
      break;
    }
    case ir::Scope::Global: return fail(s.loc, "alloc of a global buffer");
  }
  if (b.var) m_.name(b.var, s.name);
  buf_scopes_.back()[s.name] = &b;
  return Status::ok();
}

// --- distributions -----------------------------------------------------------------------

Value KernelGen::thread_digit(int64_t radix, int64_t size) {
  Value d = tid_;
  if (radix > 1) d = b_.udiv(d, b_.cu(uint32_t(radix)));
  if (radix * size < k_.threads) d = b_.umod(d, b_.cu(uint32_t(size)));
  return d;
}

Exec KernelGen::bind(const ir::Distribution& dist, int rank) {
  Exec e;
  e.dist = dist;
  e.rank = rank;
  e.tc.assign(size_t(rank), b_.ci(0));
  e.tc_max.assign(size_t(rank), 0);
  Value primary = b_.cb(true);
  int64_t radix = 1;
  for (const ir::Factor& f : dist.threads) {
    if (f.size > 1) {
      Value digit = thread_digit(radix, f.size);
      if (f.dim < 0) {
        e.replicated = true;
        primary = b_.land(primary, b_.eq(digit, b_.cu(0)));
      } else if (f.dim < rank) {
        e.tc[size_t(f.dim)] = b_.add(e.tc[size_t(f.dim)], b_.bitcast(b_.mul(digit, b_.cu(uint32_t(f.stride))), T::I32));
        e.tc_max[size_t(f.dim)] += (f.size - 1) * f.stride;
      }
    }
    radix *= f.size;
  }
  e.primary = primary;
  int64_t slots = dist.value_count();
  e.vc.assign(size_t(slots), std::vector<int64_t>(size_t(rank), 0));
  for (int64_t v = 0; v < slots; ++v) {
    int64_t rest = v;
    for (const ir::Factor& f : dist.values) {
      int64_t digit = rest % f.size;
      rest /= f.size;
      if (f.dim >= 0 && f.dim < rank) e.vc[size_t(v)][size_t(f.dim)] += digit * f.stride;
    }
  }
  return e;
}

int KernelGen::slot_inside(const Exec& e, int64_t v, const std::vector<int64_t>& extent) const {
  bool always = true;
  for (int d = 0; d < e.rank; ++d) {
    int64_t lo = e.vc[size_t(v)][size_t(d)];
    if (lo >= extent[size_t(d)]) return 0;
    if (lo + e.tc_max[size_t(d)] >= extent[size_t(d)]) always = false;
  }
  return always ? 1 : -1;
}

std::vector<Value> KernelGen::slot_coords(const Exec& e, int64_t v) {
  std::vector<Value> c;
  for (int d = 0; d < e.rank; ++d) {
    int64_t off = e.vc[size_t(v)][size_t(d)];
    c.push_back(off ? b_.add(e.tc[size_t(d)], b_.ci(int32_t(off))) : e.tc[size_t(d)]);
  }
  return c;
}

Value KernelGen::coords_inside(const std::vector<Value>& c, const std::vector<int64_t>& extent) {
  Value ok = b_.cb(true);
  for (size_t d = 0; d < c.size(); ++d) ok = b_.land(ok, b_.lt(c[d], b_.ci(int32_t(extent[d]))));
  return ok;
}

void KernelGen::for_slots(const Exec& e, const std::vector<int64_t>& extent,
                          const std::function<void(int64_t, const std::vector<Value>&)>& body) {
  for (int64_t v = 0; v < e.slots(); ++v) {
    int in = slot_inside(e, v, extent);
    if (in == 0) continue;
    std::vector<Value> c = slot_coords(e, v);
    if (in == 1) {
      body(v, c);
      continue;
    }
    b_.if_(coords_inside(c, extent), [&] { body(v, c); });
  }
}

Result<std::vector<int64_t>> KernelGen::map_slots(const ir::Distribution& exec, const std::vector<int64_t>& exec_shape,
                                                  const ir::Distribution& other, const std::vector<int64_t>& other_shape) {
  int rank = int(exec_shape.size());
  // Shapes align at the trailing axes: a lower-rank operand (a map's) lacks the leading ones.
  int other_rank = int(other_shape.size());
  if (other_rank > rank) return error(ErrorCode::Internal, "vulkan: an operand of higher rank than the op");
  size_t lead = size_t(rank - other_rank);
  int64_t threads = exec.thread_count(), vs = exec.value_count(), os = other.value_count();
  std::vector<int64_t> result(size_t(vs), -2);
  for (int64_t t = 0; t < threads; ++t) {
    std::map<std::vector<int64_t>, int64_t> held;
    for (int64_t w = os; w-- > 0;) held[other.coords(t, w, other_rank)] = w;
    for (int64_t v = 0; v < vs; ++v) {
      std::vector<int64_t> c = exec.coords(t, v, rank);
      bool inside = true;
      for (int d = 0; d < rank; ++d) inside = inside && c[size_t(d)] < exec_shape[size_t(d)];
      c.erase(c.begin(), c.begin() + std::ptrdiff_t(lead));
      for (int d = 0; d < other_rank; ++d)
        if (other_shape[size_t(d)] == 1) c[size_t(d)] = 0;
      if (!inside) continue;
      auto it = held.find(c);
      if (it == held.end() || (result[size_t(v)] >= 0 && result[size_t(v)] != it->second))
        return error(ErrorCode::Unsupported, "vulkan: an operand's element is not held in the same register by every thread");
      result[size_t(v)] = it->second;
    }
  }
  for (int64_t& r : result)
    if (r == -2) r = -1;
  return result;
}

// --- statements --------------------------------------------------------------------------

Status KernelGen::gen_block(const ir::Block& block) {
  buf_scopes_.emplace_back();
  var_scopes_.emplace_back();
  Status st;
  for (const ir::Stmt& s : block.stmts) {
    st = gen_stmt(s);
    if (!st.is_ok()) break;
  }
  buf_scopes_.pop_back();
  var_scopes_.pop_back();
  return st;
}

Status KernelGen::gen_stmt(const ir::Stmt& s) {
  switch (s.op) {
    case ir::OpKind::Alloc: return declare_alloc(s);
    case ir::OpKind::Copy: return gen_copy(s, false);
    case ir::OpKind::AtomicAdd: return gen_copy(s, true);
    case ir::OpKind::Fill: return gen_fill(s);
    case ir::OpKind::Gemm: return gen_gemm(s);
    case ir::OpKind::Reduce: return gen_reduce(s);
    case ir::OpKind::Scan: return gen_scan(s);
    case ir::OpKind::Map: return gen_map(s);
    case ir::OpKind::Store: return gen_store(s);
    case ir::OpKind::Barrier: b_.barrier(); return Status::ok();
    case ir::OpKind::For:
    case ir::OpKind::Pipelined: return gen_for(s);
    case ir::OpKind::Parallel: return gen_parallel(s);
    case ir::OpKind::If: return gen_if(s);
  }
  return fail(s.loc, "unknown op");
}

Status KernelGen::gen_for(const ir::Stmt& s) {
  TG_ASSIGN_OR_RETURN(Value lo, expr_as(s.lo(), T::I32));
  TG_ASSIGN_OR_RETURN(Value hi, expr_as(s.hi(), T::I32));
  ir::PipelinePlan plan;
  if (s.op == ir::OpKind::Pipelined) {
    TG_ASSIGN_OR_RETURN(plan, ir::get_pipeline_plan(s));
  }
  // Copies the plan prefetches through registers load one iteration ahead (Prefetch.cpp).
  std::vector<RegPrefetch> ahead;
  TG_RETURN_IF_ERROR(bind_register_prefetch(s, plan, ahead));
  // Copies it prefetches by a copy engine (a description that claims one; Vulkan has none)
  // run in order here, so each is fenced by barriers.
  std::set<size_t> prefetched;
  if (ahead.empty())
    for (int64_t i : plan.prefetch) prefetched.insert(size_t(i));
  std::map<size_t, RegPrefetch*> ahead_at;
  for (RegPrefetch& p : ahead) ahead_at[p.index] = &p;
  Status st;
  if (!ahead.empty() && plan.stages == 2) return gen_double_buffered_loop(s, lo, hi, ahead);
  if (!ahead.empty()) {
    b_.if_(b_.lt(lo, hi), [&] {
      for (RegPrefetch& p : ahead)
        if (st.is_ok()) st = prefetch_load(p, s.vars[0], lo);
    });
    TG_RETURN_IF_ERROR(st);
  }
  // A pipelined loop around a workgroup-matrix gemm has nothing to prefetch (the driver
  // stages the tiles); its stages unroll it instead, so the loads of later K steps can issue
  // while earlier ones compute. The iterations left over run one at a time.
  int64_t unroll = s.op == ir::OpKind::Pipelined && ahead.empty() && prefetched.empty() ? workgroup_unroll(s) : 1;
  if (unroll > 1) {
    auto body = [&](Value i) {
      buf_scopes_.emplace_back();
      var_scopes_.emplace_back();
      var_scopes_.back()[s.vars[0]] = Var{i, 0, T::I32};
      for (const ir::Stmt& x : s.body().stmts)
        if (st.is_ok()) st = gen_stmt(x);
      buf_scopes_.pop_back();
      var_scopes_.pop_back();
    };
    Value u = b_.ci(int32_t(unroll));
    Value main_hi = b_.add(lo, b_.mul(b_.op(OpSDiv, T::I32, {b_.sub(hi, lo).id, u.id}), u));
    b_.for_(lo, main_hi, int32_t(unroll), [&](Value i0) {
      for (int64_t j = 0; j < unroll && st.is_ok(); ++j) body(b_.add(i0, b_.ci(int32_t(j))));
    });
    b_.for_(main_hi, hi, 1, [&](Value i) { body(i); });
    return st;
  }
  b_.for_(lo, hi, 1, [&](Value i) {
    buf_scopes_.emplace_back();
    var_scopes_.emplace_back();
    var_scopes_.back()[s.vars[0]] = Var{i, 0, T::I32};
    const auto& stmts = s.body().stmts;
    for (size_t j = 0; j < stmts.size() && st.is_ok(); ++j) {
      bool pre = prefetched.count(j) > 0;
      if (pre && (j == 0 || !prefetched.count(j - 1))) b_.barrier();
      auto it = ahead_at.find(j);
      if (it == ahead_at.end()) {
        st = gen_stmt(stmts[j]);
      } else {
        st = prefetch_store(*it->second);
        if (st.is_ok() && it->second == &ahead.back()) {
          // The next iteration's elements, in flight during the barrier and the compute.
          Value next = b_.add(i, b_.ci(1));
          b_.if_(b_.lt(next, hi), [&] {
            for (RegPrefetch& p : ahead)
              if (st.is_ok()) st = prefetch_load(p, s.vars[0], next);
          });
        }
      }
      if (pre && (j + 1 == stmts.size() || !prefetched.count(j + 1))) b_.barrier();
    }
    buf_scopes_.pop_back();
    var_scopes_.pop_back();
  });
  return st;
}

int64_t KernelGen::workgroup_unroll(const ir::Stmt& loop) {
  int64_t stages = ir::stmt_attr_int(loop, "stages");
  if (stages < 2) return 1;
  bool workgroup_gemm = false;
  for (const ir::Stmt& x : loop.body().stmts) {
    if (x.op != ir::OpKind::Gemm) continue;
    const Buf* c = find_buf(x.gemm_c().buffer);
    workgroup_gemm = workgroup_gemm || (c && c->workgroup);
  }
  return workgroup_gemm ? std::min<int64_t>(stages, 8) : 1;
}

Status KernelGen::gen_parallel(const ir::Stmt& s) {
  std::vector<int64_t> extent;
  for (const ir::Expr& e : s.exprs) extent.push_back(*ir::const_int(e));
  auto d = ir::get_distribution(s.attrs, "plan");
  ir::Distribution dist;
  if (d.is_ok()) dist = *d;
  else dist = ir::free_distribution(extent, k_.threads, 1);
  int rank = int(extent.size());
  Exec e = bind(dist, rank);
  // Iterations run once each: replicated threads leave them to the first copy. Value slots
  // become a runtime loop (a parallel body can be long; unrolling it gains nothing).
  int64_t slots = dist.value_count();
  Status st;
  auto body = [&](const std::vector<Value>& coords) {
    buf_scopes_.emplace_back();
    var_scopes_.emplace_back();
    for (int i = 0; i < rank; ++i) var_scopes_.back()[s.vars[size_t(i)]] = Var{coords[size_t(i)], 0, T::I32};
    for (const ir::Stmt& inner : s.body().stmts) {
      st = gen_stmt(inner);
      if (!st.is_ok()) break;
    }
    buf_scopes_.pop_back();
    var_scopes_.pop_back();
  };
  auto run = [&] {
    b_.for_(b_.ci(0), b_.ci(int32_t(slots)), 1, [&](Value v) {
      std::vector<Value> coords = e.tc;
      Value rest = b_.bitcast(v, T::U32);
      for (const ir::Factor& f : dist.values) {
        Value digit = b_.umod(rest, b_.cu(uint32_t(f.size)));
        rest = b_.udiv(rest, b_.cu(uint32_t(f.size)));
        if (f.dim >= 0 && f.dim < rank)
          coords[size_t(f.dim)] = b_.add(coords[size_t(f.dim)], b_.bitcast(b_.mul(digit, b_.cu(uint32_t(f.stride))), T::I32));
      }
      b_.if_(coords_inside(coords, extent), [&] { body(coords); });
    });
  };
  if (e.replicated) b_.if_(e.primary, run);
  else run();
  return st;
}

Status KernelGen::gen_if(const ir::Stmt& s) {
  TG_ASSIGN_OR_RETURN(Value c, expr_as(s.cond(), T::Bool));
  Status st;
  std::function<void()> else_fn;
  if (s.blocks.size() > 1) else_fn = [&] { if (st.is_ok()) st = gen_block(s.blocks[1]); };
  b_.if_(c, [&] { st = gen_block(s.blocks[0]); }, else_fn);
  return st;
}

// --- the whole kernel --------------------------------------------------------------------
//
// run() plans the module (plan_module: what the kernel needs of SPIR-V and of the lowered
// plan, read once), then emits it in module order: capabilities and the memory model, the
// interface (emit_interface), the entry function (emit_main) and the entry point with its
// execution modes (emit_entry_point). The order of the emitting calls is the order of the
// ids in the module.

KernelGen::ModulePlan KernelGen::plan_module() {
  ModulePlan mp;
  auto note_dtype = [&](DType d) {
    mp.any8 = mp.any8 || dtype_size(d) == 1;
    mp.any16 = mp.any16 || dtype_size(d) == 2;
    mp.any64 = mp.any64 || d == DType::F64;
  };
  for (const ir::Param& p : k_.params) note_dtype(p.dtype);
  std::function<void(const ir::Expr&)> walk = [&](const ir::Expr& e) {
    if (e->kind == ir::ExprKind::Cast || e->kind == ir::ExprKind::Bitcast) note_dtype(e->cast_to);
    for (const ir::Expr& a : e->args) walk(a);
  };
  ir::for_each_stmt(k_.body, [&](const ir::Stmt& s) {
    if (s.op == ir::OpKind::Alloc) note_dtype(s.type.dtype);
    for (const ir::Expr& e : s.exprs) walk(e);
    for (const ir::TileRef& t : s.tiles)
      for (const ir::Expr& e : t.offsets) walk(e);
  });
  // Cooperative matrices require the Vulkan memory model; other kernels keep GLSL450.
  ir::for_each_stmt(k_.body, [&](const ir::Stmt& s) { mp.coop = mp.coop || ir::is_opaque(s); });
  find_atomic_targets(k_.body, mp.atomic_targets);
  // Element loads or stores of a tensor bind the fault word (Generate.h).
  auto is_tensor = [&](const std::string& name) {
    const ir::Param* p = k_.find_param(name);
    return p && p->is_tensor;
  };
  for (const std::string& name : ir::element_loads(k_.body)) mp.element_access = mp.element_access || is_tensor(name);
  ir::for_each_stmt(k_.body, [&](const ir::Stmt& s) {
    mp.element_access = mp.element_access || (s.op == ir::OpKind::Store && is_tensor(s.target().buffer));
  });
  return mp;
}

Result<GeneratedShader> KernelGen::run() {
  if (k_.threads < 1 || k_.threads > 1024) return fail(k_.loc, "kernel '" + k_.name + "' has " + std::to_string(k_.threads) + " threads");
  m_.capability(CapShader);
  ModulePlan mp = plan_module();
  if (mp.any8 && t_.int8) {
    m_.capability(CapInt8);
    m_.capability(CapStorageBuffer8BitAccess);
    m_.extension("SPV_KHR_8bit_storage");
  }
  if (mp.any16 && t_.int16) {
    m_.capability(CapInt16);
    m_.capability(CapStorageBuffer16BitAccess);
    m_.extension("SPV_KHR_16bit_storage");
  }
  if (mp.any64 && t_.float64) {
    m_.capability(CapFloat64);
    m_.capability(CapInt64);
  }
  uses_coopmat_ = mp.coop;
  TG_ASSIGN_OR_RETURN(mp.kernel, ir::get_kernel_plan(k_));
  if (mp.kernel.tensor_align) tensor_align_ = mp.kernel.tensor_align;
  if (mp.coop) {
    b_.vulkan_memory_model = true;
    m_.capability(CapVulkanMemoryModel);
    m_.extension("SPV_KHR_vulkan_memory_model");
    m_.memory_model(AddressingLogical, MemoryModelVulkan);
  } else {
    m_.memory_model(AddressingLogical, MemoryModelGLSL450);
  }
  TG_RETURN_IF_ERROR(emit_interface(mp));
  TG_ASSIGN_OR_RETURN(uint32_t main_fn, emit_main(mp));
  TG_RETURN_IF_ERROR(emit_entry_point(main_fn));
  GeneratedShader out;
  out.words = m_.finish(iface_.spirv_version);
  out.iface = iface_;
  return out;
}

Status KernelGen::emit_interface(const ModulePlan& mp) {
  TG_RETURN_IF_ERROR(declare_interface(mp.kernel.raster));
  if (mp.element_access) {
    // The fault word (Generate.h), bound after the tensors.
    uint32_t rarr = m_.type_runtime_array(m_.type(T::U32), 4);
    uint32_t block = m_.type_struct({rarr});
    m_.decorate(block, DecBlock);
    m_.member_decorate(block, 0, DecOffset, {0});
    m_.member_name(block, 0, "fault");
    fault_var_ = m_.global_variable(SCStorageBuffer, block);
    m_.decorate(fault_var_, DecDescriptorSet, {0});
    m_.decorate(fault_var_, DecBinding, {uint32_t(iface_.bindings.size())});
    m_.name(fault_var_, "tg_fault");
    iface_.fault_word = true;
  }
  for (Buf& b : bufs_) {
    if (b.scope != ir::Scope::Global || !mp.atomic_targets.count(b.name)) continue;
    bool cas = b.elem == T::U16 || (b.dtype == DType::F32 && !t_.atomic_float32_add) ||
               (b.dtype == DType::F64 && !t_.atomic_float64_add);
    if (!cas) continue;
    // Same binding, seen as words: compare-and-swap loops work on 32-bit (or 64-bit) words.
    T word = b.dtype == DType::F64 ? T::U64 : T::U32;
    if (word == T::U64 && !t_.int64_atomics)
      return fail(k_.loc, "atomic_add on f64 needs 64-bit float or integer atomics, which the target lacks");
    if (word == T::U64) m_.capability(CapInt64Atomics);
    uint32_t rarr = m_.type_runtime_array(m_.type(word), word == T::U64 ? 8 : 4);
    uint32_t block = m_.type_struct({rarr});
    m_.decorate(block, DecBlock);
    m_.member_decorate(block, 0, DecOffset, {0});
    b.word_var = m_.global_variable(SCStorageBuffer, block);
    size_t binding = 0;
    for (size_t i = 0; i < iface_.bindings.size(); ++i)
      if (k_.params[iface_.bindings[i]].name == b.name) binding = i;
    m_.decorate(b.word_var, DecDescriptorSet, {0});
    m_.decorate(b.word_var, DecBinding, {uint32_t(binding)});
  }
  return Status::ok();
}

Result<uint32_t> KernelGen::emit_main(const ModulePlan& mp) {
  uint32_t main_fn = m_.begin_function(m_.type(T::Void), {}, nullptr);
  m_.name(main_fn, "main");
  tid_ = b_.load(in_local_index_, T::U32);
  // Scalars, shape symbols and the dispatch's place in the grid from the push constants.
  Value block_base[3], grid_count[2];
  std::vector<std::string> symbols = k_.symbols();
  for (size_t m = 0; m < iface_.push.size(); ++m) {
    const PushEntry& pe = iface_.push[m];
    uint32_t ptr = b_.chain(SCPushConstant, push_member_types_[m], push_var_, {b_.cu(uint32_t(m)).id});
    T ty = pe.kind == PushF64 ? T::F64 : pe.kind == PushF32 ? T::F32 : pe.kind == PushI32 ? T::I32 : T::U32;
    Value v = b_.load(ptr, ty);
    if (push_entry_is_grid(pe.kind)) {
      (pe.kind == PushBlockBase ? block_base : grid_count)[pe.arg] = b_.bitcast(v, T::I32);
      continue;
    }
    if (pe.kind == PushTensorOffset) {
      if (Buf* b = find_buf(k_.params[pe.arg].name)) b->offset = b_.bitcast(v, T::I32);
      continue;
    }
    if (pe.arg >= k_.params.size()) {
      var_scopes_.front()[symbols[pe.arg - k_.params.size()]] = Var{v, 0, T::I32};
      continue;
    }
    const ir::Param& p = k_.params[pe.arg];
    if (p.dtype == DType::Bool) v = b_.convert(v, T::Bool);
    var_scopes_.front()[p.name] = Var{v, 0, v.ty};
  }
  emit_block_indices(mp.kernel.raster, block_base, grid_count);
  // Global tensor shapes.
  for (Buf& b : bufs_) {
    if (b.scope != ir::Scope::Global) continue;
    const ir::Param* p = k_.find_param(b.name);
    for (const ir::Expr& d : p->shape) {
      if (d->kind == ir::ExprKind::IntImm) {
        b.shape.push_back(d->int_value);
        b.dims.push_back(b_.ci(int32_t(d->int_value)));
      } else {
        b.shape.push_back(-1);
        b.dims.push_back(var_scopes_.front().at(d->name).value);
      }
    }
  }
  TG_RETURN_IF_ERROR(gen_block(k_.body));
  if (packed_misuse_) return error(ErrorCode::Internal, "vulkan codegen: an element access reached a packed shared tile", k_.loc);
  m_.emit(OpReturn, {});
  m_.end_function();
  return main_fn;
}

bool KernelGen::rasterised(int64_t raster) const { return raster > 1 && k_.grid.size() == 2; }

void KernelGen::emit_block_indices(int64_t raster, const Value* block_base, const Value* grid_count) {
  // Block indices: the dispatch's workgroup plus where the dispatch starts (a grid in
  // several dispatches; launch_grid keeps every index below 2^31), with the rasterised
  // order over the whole grid when the lowering asked for it.
  uint32_t uvec3 = m_.type_vector(T::U32, 3);
  Value wg = b_.op_type(OpLoad, uvec3, {in_workgroup_id_});
  Value idx[3];
  for (uint32_t i = 0; i < 3; ++i) idx[i] = b_.add(b_.bitcast(b_.op(OpCompositeExtract, T::U32, {wg.id, i}), T::I32), block_base[i]);
  if (rasterised(raster)) {
    Value gx = grid_count[0];
    Value gy = grid_count[1];
    Value g = b_.ci(int32_t(raster));
    Value pid = b_.add(idx[0], b_.mul(gx, idx[1]));
    Value per_group = b_.mul(g, gx);
    Value first = b_.mul(b_.op(OpSDiv, T::I32, {pid.id, per_group.id}), g);
    Value size = b_.smin(b_.sub(gy, first), g);
    Value in_group = b_.op(OpSRem, T::I32, {pid.id, per_group.id});
    idx[1] = b_.add(first, b_.op(OpSRem, T::I32, {in_group.id, size.id}));
    idx[0] = b_.op(OpSDiv, T::I32, {in_group.id, size.id});
  }
  for (int i = 0; i < 3; ++i) var_scopes_.front()[ir::kBlockIndexNames[i]] = Var{idx[i], 0, T::I32};
}

Status KernelGen::emit_entry_point(uint32_t main_fn) {
  std::vector<uint32_t> interface{in_workgroup_id_, in_local_index_};
  m_.entry_point(ModelGLCompute, main_fn, "main", interface);
  m_.execution_mode(main_fn, ModeLocalSize, {uint32_t(k_.threads), 1, 1});
  // The IR keeps subnormals; ask drivers that would flush them not to (SPV_KHR_float_controls).
  if (!t_.denorm_preserve.empty()) {
    m_.capability(CapDenormPreserve);
    m_.extension("SPV_KHR_float_controls");
    for (uint32_t w : t_.denorm_preserve) m_.execution_mode(main_fn, ModeDenormPreserve, {w});
  }
  if (!t_.signed_zero_preserve.empty()) {
    m_.capability(CapSignedZeroInfNanPreserve);
    m_.extension("SPV_KHR_float_controls");
    for (uint32_t w : t_.signed_zero_preserve) m_.execution_mode(main_fn, ModeSignedZeroInfNanPreserve, {w});
  }
  iface_.workgroup_size = uint32_t(k_.threads);
  // Shared memory is the lowering's decision (place_shared, with what the driver keeps for
  // workgroup matrices): the shader declares exactly the regions it placed.
  TG_ASSIGN_OR_RETURN(ir::KernelPlan plan, ir::get_kernel_plan(k_));
  if (int64_t(iface_.shared_bytes) != plan.shared_bytes)
    return error(ErrorCode::Internal, "vulkan codegen: kernel '" + k_.name + "' declares " + std::to_string(iface_.shared_bytes) +
                                          " bytes of shared memory, the lowering placed " + std::to_string(plan.shared_bytes),
                 k_.loc);
  if (uses_subgroup_) iface_.subgroup_size = uint32_t(t_.subgroup_width);
  return Status::ok();
}

Result<GeneratedShader> generate_shader(const ir::Kernel& kernel, const CodegenTarget& target) {
  TG_ASSIGN_OR_RETURN(ir::KernelPlan plan, ir::get_kernel_plan(kernel));
  if (plan.target != target.name)
    return error(ErrorCode::InvalidArgument, "vulkan: kernel '" + kernel.name + "' was lowered for target '" + plan.target + "', not '" +
                                                 target.name + "'");
  return KernelGen(kernel, target).run();
}

}  // namespace tegula::vulkan
