/// \file
/// The CPU code generator's frame: the entry function, the arena, loops, runtime error
/// flags, alias metadata, element access, names, and the control-flow statements.
#include "plugins/cpu/codegen/Emitter.h"

#include <algorithm>
#include <cstdint>
#include <functional>

#include "ir/lower/Lowered.h"
#include "llvm/IR/Intrinsics.h"

namespace tegula::cpu {

VK kind_of(const ir::Type& t) {
  if (t.is_index()) return VK::Index;
  if (t.is_bool()) return VK::Bool;
  return t.dtype == DType::F64 ? VK::F64 : VK::F32;
}

VK kind_of(DType d) {
  if (d == DType::Bool) return VK::Bool;
  if (dtype_is_int(d)) return VK::Index;
  return d == DType::F64 ? VK::F64 : VK::F32;
}

int64_t Buffer::elements() const {
  int64_t n = 1;
  for (int64_t d : shape) n *= d;
  return n;
}

Emitter::Emitter(const ir::Kernel& k, const CodegenOptions& o, llvm::LLVMContext& c, llvm::Module& m)
    : ctx(c), mod(m), b(c), kernel(k), opts(o) {
  i1 = b.getInt1Ty();
  i8 = b.getInt8Ty();
  i16 = b.getInt16Ty();
  i32 = b.getInt32Ty();
  i64 = b.getInt64Ty();
  f32 = b.getFloatTy();
  f64 = b.getDoubleTy();
  ptr = b.getPtrTy();
}

// --- arena and alias scopes -----------------------------------------------------------

static uint64_t align_up(uint64_t x) { return (x + kAlignment - 1) / kAlignment * kAlignment; }

Status Emitter::plan_arena() {
  uint64_t offset = 0;
  for (const ir::Stmt& s : kernel.body.stmts) {
    if (s.op != ir::OpKind::Alloc || s.type.scope == ir::Scope::Local) continue;
    arena_offset_[s.name] = offset;
    offset = align_up(offset + uint64_t(s.type.elements()) * dtype_size(s.type.dtype));
  }
  scratch_base_ = offset;
  // Alias scopes: 0 global tensors, 1 scratch, then one per shared or fragment buffer.
  scratch_alias_ = 1;
  make_alias_scopes(2 + int(arena_offset_.size()));
  return Status::ok();
}

void Emitter::make_alias_scopes(int count) {
  llvm::MDBuilder md(ctx);
  llvm::MDNode* domain = md.createAliasScopeDomain("tegula.buffers");
  std::vector<llvm::MDNode*> scopes;
  for (int i = 0; i < count; ++i) scopes.push_back(md.createAliasScope("tegula.buffer." + std::to_string(i), domain));
  for (int i = 0; i < count; ++i) {
    scope_lists_.push_back(llvm::MDNode::get(ctx, {scopes[size_t(i)]}));
    std::vector<llvm::Metadata*> others;
    for (int j = 0; j < count; ++j)
      if (j != i) others.push_back(scopes[size_t(j)]);
    noalias_lists_.push_back(llvm::MDNode::get(ctx, others));
  }
}

void Emitter::annotate(llvm::Instruction* inst, int alias) {
  if (alias < 0 || size_t(alias) >= scope_lists_.size()) return;
  inst->setMetadata(llvm::LLVMContext::MD_alias_scope, scope_lists_[size_t(alias)]);
  inst->setMetadata(llvm::LLVMContext::MD_noalias, noalias_lists_[size_t(alias)]);
}

uint64_t Emitter::arena_bytes() const { return align_up(scratch_base_ + scratch_peak_); }

llvm::Value* Emitter::scratch(uint64_t bytes) {
  uint64_t offset = scratch_top_;
  scratch_top_ = align_up(scratch_top_ + bytes);
  scratch_peak_ = std::max(scratch_peak_, scratch_top_);
  return b.CreateConstInBoundsGEP1_64(i8, arena_, scratch_base_ + offset);
}

Buffer* Emitter::constant_buffer(const std::string& name, ir::Scope scope, DType dtype, const std::vector<int64_t>& shape) {
  Buffer& buf = storage_.emplace_back();
  buf.name = name;
  buf.scope = scope;
  buf.dtype = dtype;
  buf.shape = shape;
  int64_t stride = 1;
  buf.strides.assign(shape.size(), nullptr);
  for (size_t d = shape.size(); d-- > 0;) {
    buf.strides[d] = ci(stride);
    stride *= shape[d];
  }
  for (int64_t d : shape) buf.dims.push_back(ci(d));
  return &buf;
}

Buffer* Emitter::scratch_buffer(const std::string& name, DType dtype, const std::vector<int64_t>& shape, ir::Scope scope) {
  Buffer* buf = constant_buffer(name, scope, dtype, shape);
  buf->base = scratch(uint64_t(buf->elements()) * dtype_size(dtype));
  buf->alias = scratch_alias_;
  return buf;
}

// --- loops and branches ------------------------------------------------------------------

Status Emitter::loop(llvm::Value* lo, llvm::Value* hi, const std::function<Status(llvm::Value*)>& body, const char* name) {
  llvm::Function* f = function();
  llvm::BasicBlock* pre = b.GetInsertBlock();
  llvm::BasicBlock* header = llvm::BasicBlock::Create(ctx, "loop", f);
  llvm::BasicBlock* inside = llvm::BasicBlock::Create(ctx, "body", f);
  llvm::BasicBlock* exit = llvm::BasicBlock::Create(ctx, "done", f);
  b.CreateBr(header);
  b.SetInsertPoint(header);
  llvm::PHINode* i = b.CreatePHI(i64, 2, name);
  i->addIncoming(lo, pre);
  b.CreateCondBr(b.CreateICmpSLT(i, hi), inside, exit);
  b.SetInsertPoint(inside);
  TG_RETURN_IF_ERROR(body(i));
  llvm::Value* next = b.CreateAdd(i, ci(1), "", /*HasNUW=*/false, /*HasNSW=*/true);
  i->addIncoming(next, b.GetInsertBlock());
  b.CreateBr(header);
  b.SetInsertPoint(exit);
  return Status::ok();
}

Status Emitter::loop_nest(const std::vector<int64_t>& extent,
                          const std::function<Status(const std::vector<llvm::Value*>&)>& body) {
  std::vector<llvm::Value*> idx(extent.size(), nullptr);
  std::function<Status(size_t)> level = [&](size_t d) -> Status {
    if (d == extent.size()) return body(idx);
    return loop(ci(0), ci(extent[d]), [&](llvm::Value* i) {
      idx[d] = i;
      return level(d + 1);
    });
  };
  return level(0);
}

Status Emitter::if_then(llvm::Value* cond, const std::function<Status()>& then_body, const std::function<Status()>& else_body) {
  llvm::Function* f = function();
  llvm::BasicBlock* then_block = llvm::BasicBlock::Create(ctx, "then", f);
  llvm::BasicBlock* else_block = else_body ? llvm::BasicBlock::Create(ctx, "else", f) : nullptr;
  llvm::BasicBlock* join = llvm::BasicBlock::Create(ctx, "endif", f);
  b.CreateCondBr(cond, then_block, else_block ? else_block : join);
  b.SetInsertPoint(then_block);
  TG_RETURN_IF_ERROR(then_body());
  b.CreateBr(join);
  if (else_block) {
    b.SetInsertPoint(else_block);
    TG_RETURN_IF_ERROR(else_body());
    b.CreateBr(join);
  }
  b.SetInsertPoint(join);
  return Status::ok();
}

void Emitter::flag_error(llvm::Value* cond, RuntimeError code) {
  llvm::Value* old = b.CreateLoad(i32, err_);
  b.CreateStore(b.CreateSelect(cond, b.getInt32(uint32_t(code)), old), err_);
}

// --- element access ----------------------------------------------------------------------

llvm::Value* Emitter::elem_ptr(const Buffer& buf, llvm::Value* linear) {
  return b.CreateInBoundsGEP(storage_type(buf.dtype), buf.base, linear);
}

llvm::Value* Emitter::load_raw(const Buffer& buf, llvm::Value* linear) {
  llvm::LoadInst* l = b.CreateLoad(storage_type(buf.dtype), elem_ptr(buf, linear));
  annotate(l, buf.alias);
  return l;
}

void Emitter::store_raw(const Buffer& buf, llvm::Value* linear, llvm::Value* raw) {
  llvm::StoreInst* s = b.CreateStore(raw, elem_ptr(buf, linear));
  annotate(s, buf.alias);
}

Val Emitter::load(const Buffer& buf, llvm::Value* linear) { return decode(buf.dtype, load_raw(buf, linear)); }

void Emitter::store(const Buffer& buf, llvm::Value* linear, Val v) { store_raw(buf, linear, encode(buf.dtype, v)); }

llvm::Value* Emitter::linear_index(const Buffer& buf, const std::vector<llvm::Value*>& coords) {
  llvm::Value* linear = ci(0);
  for (size_t d = 0; d < coords.size(); ++d)
    linear = b.CreateAdd(linear, b.CreateMul(coords[d], buf.strides[d], "", false, true), "", false, true);
  return linear;
}

llvm::Value* Emitter::in_bounds(const Buffer& buf, const std::vector<llvm::Value*>& coords) {
  llvm::Value* ok = b.getTrue();
  for (size_t d = 0; d < coords.size(); ++d) ok = b.CreateAnd(ok, b.CreateICmpULT(coords[d], buf.dims[d]));
  return ok;
}

// --- names ---------------------------------------------------------------------------------

void Emitter::push_scope() {
  vars_.emplace_back();
  bufs_.emplace_back();
}

void Emitter::pop_scope() {
  vars_.pop_back();
  bufs_.pop_back();
}

Buffer* Emitter::find_buffer(const std::string& name) {
  for (auto it = bufs_.rbegin(); it != bufs_.rend(); ++it) {
    auto f = it->find(name);
    if (f != it->end()) return f->second;
  }
  return nullptr;
}

Result<Val> Emitter::find_var(const std::string& name) {
  for (auto it = vars_.rbegin(); it != vars_.rend(); ++it) {
    auto f = it->find(name);
    if (f != it->end()) return f->second;
  }
  return error(ErrorCode::Internal, "unbound name '" + name + "' (was the kernel verified?)");
}

ir::BufferMap Emitter::visible_buffers(const ir::Stmt& s) {
  ir::BufferMap m;
  for (const ir::TileRef& t : s.tiles) {
    const Buffer* buf = find_buffer(t.buffer);
    if (buf) m[t.buffer] = ir::BufferInfo{buf->scope, buf->dtype, buf->shape, {}};
  }
  return m;
}

// --- the entry function ------------------------------------------------------------------

Status Emitter::emit_entry_prologue(llvm::Value* launch) {
  llvm::StructType* launch_type =
      llvm::StructType::get(ctx, {ptr, ptr, ptr, llvm::ArrayType::get(i64, 3), ptr});
  auto field = [&](unsigned i) { return b.CreateStructGEP(launch_type, launch, i); };
  llvm::Value* ptrs = b.CreateLoad(ptr, field(0), "ptrs");
  llvm::Value* ints = b.CreateLoad(ptr, field(1), "ints");
  llvm::Value* floats = b.CreateLoad(ptr, field(2), "floats");
  size_t np = kernel.params.size();
  std::vector<std::string> symbols = kernel.symbols();
  for (size_t j = 0; j < symbols.size(); ++j) {
    llvm::Value* v = b.CreateLoad(i64, b.CreateConstInBoundsGEP1_64(i64, ints, np + j), symbols[j]);
    bind_var(symbols[j], Val{v, VK::Index});
  }
  // The launch guarantees these divisibilities (the runtime compiles a variant per set):
  // tell LLVM, so vector loops over such extents need no remainder code.
  TG_ASSIGN_OR_RETURN(ir::KernelPlan plan, ir::get_kernel_plan(kernel));
  for (const ir::Assumption& a : plan.assume) {
    if (a.divisor < 2) continue;  // the reader checked it is a power of two
    Result<Val> sym = find_var(a.symbol);
    if (!sym.is_ok() || sym->k != VK::Index) continue;
    b.CreateAssumption(b.CreateICmpEQ(b.CreateAnd(sym->v, ci(a.divisor - 1)), ci(0)));
  }
  for (size_t i = 0; i < np; ++i) {
    const ir::Param& p = kernel.params[i];
    if (!p.is_tensor) {
      VK k = kind_of(p.dtype);
      if (k == VK::Index) {
        bind_var(p.name, Val{b.CreateLoad(i64, b.CreateConstInBoundsGEP1_64(i64, ints, i), p.name), k});
      } else if (k == VK::Bool) {
        llvm::Value* v = b.CreateLoad(i64, b.CreateConstInBoundsGEP1_64(i64, ints, i));
        bind_var(p.name, Val{b.CreateICmpNE(v, ci(0), p.name), k});
      } else {
        llvm::Value* v = b.CreateLoad(f64, b.CreateConstInBoundsGEP1_64(f64, floats, i), p.name);
        bind_var(p.name, Val{k == VK::F32 ? b.CreateFPTrunc(v, f32) : v, k});
      }
      continue;
    }
    Buffer& buf = storage_.emplace_back();
    buf.name = p.name;
    buf.scope = ir::Scope::Global;
    buf.dtype = p.dtype;
    buf.alias = 0;
    buf.base = b.CreateLoad(ptr, b.CreateConstInBoundsGEP1_64(ptr, ptrs, i), p.name);
    for (const ir::Expr& d : p.shape) {
      if (d->kind == ir::ExprKind::IntImm) {
        buf.shape.push_back(d->int_value);
        buf.dims.push_back(ci(d->int_value));
        continue;
      }
      TG_ASSIGN_OR_RETURN(Val v, find_var(d->name));
      buf.shape.push_back(-1);
      buf.dims.push_back(v.v);
    }
    buf.strides.assign(buf.dims.size(), nullptr);
    llvm::Value* stride = ci(1);
    for (size_t d = buf.dims.size(); d-- > 0;) {
      buf.strides[d] = stride;
      stride = b.CreateMul(stride, buf.dims[d], "", false, true);
    }
    bind_buffer(&buf);
  }
  return Status::ok();
}

Status Emitter::run(const std::string& name) {
  TG_RETURN_IF_ERROR(plan_arena());
  llvm::FunctionType* type = llvm::FunctionType::get(b.getVoidTy(), {ptr, i64, i64, ptr}, false);
  llvm::Function* f = llvm::Function::Create(type, llvm::Function::ExternalLinkage, name, mod);
  f->addFnAttr(llvm::Attribute::NoUnwind);
  if (!opts.cpu_name.empty()) f->addFnAttr("target-cpu", opts.cpu_name);
  if (!opts.cpu_features.empty()) f->addFnAttr("target-features", opts.cpu_features);
  f->addFnAttr("prefer-vector-width", std::to_string(opts.vector_bits));
  f->addFnAttr("min-legal-vector-width", std::to_string(opts.vector_bits));
  for (unsigned i : {0u, 3u}) f->addParamAttr(i, llvm::Attribute::NoAlias);
  llvm::Value* launch = f->getArg(0);
  llvm::Value* begin = f->getArg(1);
  llvm::Value* end = f->getArg(2);
  arena_ = f->getArg(3);
  entry_block_ = llvm::BasicBlock::Create(ctx, "entry", f);
  b.SetInsertPoint(entry_block_);
  err_ = b.CreateAlloca(i32, nullptr, "err");
  b.CreateStore(b.getInt32(0), err_);
  push_scope();
  TG_RETURN_IF_ERROR(emit_entry_prologue(launch));
  llvm::StructType* launch_type =
      llvm::StructType::get(ctx, {ptr, ptr, ptr, llvm::ArrayType::get(i64, 3), ptr});
  llvm::Value* grid = b.CreateStructGEP(launch_type, launch, 3);
  llvm::Value* gx = b.CreateLoad(i64, b.CreateConstInBoundsGEP2_32(llvm::ArrayType::get(i64, 3), grid, 0, 0), "gx");
  llvm::Value* gy = b.CreateLoad(i64, b.CreateConstInBoundsGEP2_32(llvm::ArrayType::get(i64, 3), grid, 0, 1), "gy");
  Status body = loop(begin, end, [&](llvm::Value* flat) -> Status {
    push_scope();
    llvm::Value* bx = b.CreateURem(flat, gx, "bx");
    llvm::Value* rest = b.CreateUDiv(flat, gx);
    bind_var("bx", Val{bx, VK::Index});
    bind_var("by", Val{b.CreateURem(rest, gy, "by"), VK::Index});
    bind_var("bz", Val{b.CreateUDiv(rest, gy, "bz"), VK::Index});
    Status st = block(kernel.body);
    pop_scope();
    return st;
  }, "block");
  TG_RETURN_IF_ERROR(body);
  // Report this call's first runtime error, unless an earlier one is already there.
  llvm::Value* err = b.CreateLoad(i32, err_);
  TG_RETURN_IF_ERROR(if_then(b.CreateICmpNE(err, b.getInt32(0)), [&]() -> Status {
    llvm::Value* status = b.CreateLoad(ptr, b.CreateStructGEP(launch_type, launch, 4));
    b.CreateAtomicCmpXchg(status, b.getInt32(0), err, llvm::MaybeAlign(4), llvm::AtomicOrdering::Monotonic,
                          llvm::AtomicOrdering::Monotonic);
    return Status::ok();
  }));
  b.CreateRetVoid();
  pop_scope();
  return Status::ok();
}

// --- statements ----------------------------------------------------------------------------

Status Emitter::block(const ir::Block& blk) {
  for (const ir::Stmt& s : blk.stmts) TG_RETURN_IF_ERROR(stmt(s));
  return Status::ok();
}

Status Emitter::stmt(const ir::Stmt& s) {
  switch (s.op) {
    case ir::OpKind::Alloc: return emit_alloc(s);
    case ir::OpKind::Copy: return emit_copy(s);
    case ir::OpKind::Fill: return emit_fill(s);
    case ir::OpKind::Gemm: return emit_gemm(s);
    case ir::OpKind::Reduce: return emit_reduce(s);
    case ir::OpKind::Scan: return emit_scan(s);
    case ir::OpKind::Map: return emit_map(s);
    case ir::OpKind::Store: return emit_store(s);
    case ir::OpKind::AtomicAdd: return emit_atomic_add(s);
    case ir::OpKind::Barrier: return Status::ok();  // one core runs the whole block
    case ir::OpKind::For:
    case ir::OpKind::Pipelined: return emit_for(s);  // prefetching changes nothing on a CPU
    case ir::OpKind::Parallel: return emit_parallel(s);
    case ir::OpKind::If: return emit_if(s);
  }
  return error(ErrorCode::Internal, "unknown op", s.loc);
}

Status Emitter::emit_alloc(const ir::Stmt& s) {
  const ir::BufferType& t = s.type;
  uint64_t bytes = uint64_t(t.elements()) * dtype_size(t.dtype);
  if (t.scope == ir::Scope::Local && bytes <= 512) {
    // Small per-iteration buffers live on the stack, where LLVM keeps them in registers.
    Buffer* buf = constant_buffer(s.name, t.scope, t.dtype, t.shape);
    llvm::IRBuilder<> entry(entry_block_, entry_block_->begin());
    buf->base = entry.CreateAlloca(storage_type(t.dtype), ci(t.elements()), s.name);
    bind_buffer(buf);
    return Status::ok();
  }
  if (t.scope == ir::Scope::Local) {
    bind_buffer(scratch_buffer(s.name, t.dtype, t.shape, t.scope));
    return Status::ok();
  }
  auto offset = arena_offset_.find(s.name);
  if (offset == arena_offset_.end())
    return error(ErrorCode::Internal, "buffer '" + s.name + "' is not at the top of the kernel body", s.loc);
  Buffer* buf = constant_buffer(s.name, t.scope, t.dtype, t.shape);
  buf->base = b.CreateConstInBoundsGEP1_64(i8, arena_, offset->second, s.name);
  buf->alias = 2 + int(std::distance(arena_offset_.begin(), offset));
  bind_buffer(buf);
  return Status::ok();
}

Status Emitter::emit_for(const ir::Stmt& s) {
  TG_ASSIGN_OR_RETURN(llvm::Value* lo, index_expr(s.lo()));
  TG_ASSIGN_OR_RETURN(llvm::Value* hi, index_expr(s.hi()));
  return loop(lo, hi, [&](llvm::Value* i) -> Status {
    push_scope();
    bind_var(s.vars[0], Val{i, VK::Index});
    Status st = block(s.body());
    pop_scope();
    return st;
  }, s.vars[0].c_str());
}

Status Emitter::emit_parallel(const ir::Stmt& s) {
  std::vector<int64_t> extent;
  for (const ir::Expr& e : s.exprs) {
    std::optional<int64_t> c = ir::const_int(e);
    if (!c) return error(ErrorCode::Internal, "parallel extent is not a constant", e->loc);
    extent.push_back(*c);
  }
  uint64_t mark = scratch_mark();
  Status st = loop_nest(extent, [&](const std::vector<llvm::Value*>& idx) -> Status {
    push_scope();
    for (size_t d = 0; d < idx.size(); ++d) bind_var(s.vars[d], Val{idx[d], VK::Index});
    Status inner = block(s.body());
    pop_scope();
    return inner;
  });
  scratch_release(mark);
  return st;
}

Status Emitter::emit_if(const ir::Stmt& s) {
  TG_ASSIGN_OR_RETURN(Val c, expr_as(s.cond(), VK::Bool));
  auto then_body = [&]() -> Status {
    push_scope();
    Status st = block(s.blocks[0]);
    pop_scope();
    return st;
  };
  if (s.blocks.size() < 2) return if_then(c.v, then_body);
  return if_then(c.v, then_body, [&]() -> Status {
    push_scope();
    Status st = block(s.blocks[1]);
    pop_scope();
    return st;
  });
}

}  // namespace tegula::cpu
