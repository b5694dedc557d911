/// \file
/// The generator's infrastructure: the kernel function and its arguments, control flow,
/// barriers, dtype conversions and buffer addressing (see Emitter.h).
#include "plugins/hip/codegen/Emitter.h"

#include "llvm/IR/IntrinsicsAMDGPU.h"

namespace tegula::hip {

using llvm::Value;

Status not_implemented(const ir::Stmt* s, const std::string& what) {
  return error(ErrorCode::Unsupported, "the hip backend does not implement " + what + " yet", s ? s->loc : SourceLoc{});
}

Emitter::Emitter(const ir::Kernel& k, const TargetDescription& t, llvm::LLVMContext& c, llvm::Module& m)
    : ctx(c), mod(m), b(c), kernel(k), target(t) {
  i1 = b.getInt1Ty();
  i8 = b.getInt8Ty();
  i16 = b.getInt16Ty();
  i32 = b.getInt32Ty();
  i64 = b.getInt64Ty();
  f16 = b.getHalfTy();
  bf16 = b.getBFloatTy();
  f32 = b.getFloatTy();
  f64 = b.getDoubleTy();
  global_ptr = llvm::PointerType::get(c, 1);
  lds_ptr = llvm::PointerType::get(c, 3);
  private_ptr = llvm::PointerType::get(c, 5);
}

llvm::Value* Emitter::entry_alloca(llvm::Type* type, const std::string& name) {
  llvm::IRBuilder<> eb(entry_, entry_->begin());
  return eb.CreateAlloca(type, 5u, nullptr, name);
}

Status Emitter::run() {
  // One 8-byte kernel argument per launch argument (Executable.cpp fills them).
  std::vector<std::string> symbols = kernel.symbols();
  std::vector<llvm::Type*> types;
  for (const ir::Param& p : kernel.params)
    types.push_back(p.is_tensor ? global_ptr : dtype_is_float(p.dtype) ? f64 : i64);
  for (size_t i = 0; i < symbols.size(); ++i) types.push_back(i64);
  auto* fty = llvm::FunctionType::get(b.getVoidTy(), types, false);
  auto* fn = llvm::Function::Create(fty, llvm::GlobalValue::ExternalLinkage, kernel.name, mod);
  fn->setCallingConv(llvm::CallingConv::AMDGPU_KERNEL);
  fn->addFnAttr("amdgpu-flat-work-group-size", "1," + std::to_string(kernel.threads));
  fn->addFnAttr("uniform-work-group-size", "true");
  for (size_t i = 0; i < kernel.params.size(); ++i)
    if (kernel.params[i].is_tensor) fn->addParamAttr(unsigned(i), llvm::Attribute::NoUndef);
  entry_ = llvm::BasicBlock::Create(ctx, "entry", fn);
  b.SetInsertPoint(entry_);
  TG_RETURN_IF_ERROR(prologue(fn));
  TG_RETURN_IF_ERROR(block(kernel.body));
  b.CreateRetVoid();
  return Status::ok();
}

/// Rasterised block order (lower.raster = g): ir::raster_remap, the bijection the interpreter
/// and the CUDA backend apply, on the workgroup ids. The grid's extents come from the kernel's
/// grid expressions over the shape symbols and scalars (bound before this), as the launch
/// computed them.
Status Emitter::raster_blocks(int64_t g, llvm::Value*& bx, llvm::Value*& by) {
  if (kernel.grid.size() < 2) return Status::ok();  // lowering rasterises 2-D grids only
  TG_ASSIGN_OR_RETURN(Val gxv, expr_as(kernel.grid[0], VK::Index));
  TG_ASSIGN_OR_RETURN(Val gyv, expr_as(kernel.grid[1], VK::Index));
  llvm::Value* gx = gxv.v;
  llvm::Value* gy = gyv.v;
  llvm::Value* pid = b.CreateAdd(bx, b.CreateMul(gx, by), "pid");
  llvm::Value* per = b.CreateMul(ci(g), gx, "per");
  llvm::Value* first = b.CreateMul(b.CreateSDiv(pid, per), ci(g), "first");
  llvm::Value* rest = b.CreateSub(gy, first);
  llvm::Value* size = b.CreateSelect(b.CreateICmpSLT(rest, ci(g)), rest, ci(g), "size");
  llvm::Value* in_group = b.CreateSRem(pid, per, "in_group");
  by = b.CreateAdd(first, b.CreateSRem(in_group, size), "by");
  bx = b.CreateSDiv(in_group, size, "bx");
  return Status::ok();
}

Status Emitter::prologue(llvm::Function* fn) {
  push_scope();
  std::vector<std::string> symbols = kernel.symbols();
  for (size_t i = 0; i < symbols.size(); ++i)
    bind_var(symbols[i], {fn->getArg(unsigned(kernel.params.size() + i)), VK::Index});
  tid_ = b.CreateZExt(b.CreateIntrinsic(llvm::Intrinsic::amdgcn_workitem_id_x, {}, {}), i64, "t");
  llvm::Intrinsic::ID groups[3] = {llvm::Intrinsic::amdgcn_workgroup_id_x, llvm::Intrinsic::amdgcn_workgroup_id_y,
                                   llvm::Intrinsic::amdgcn_workgroup_id_z};
  TG_ASSIGN_OR_RETURN(ir::KernelPlan plan, ir::get_kernel_plan(kernel));
  llvm::Value* block[3];
  for (int d = 0; d < 3; ++d) block[d] = b.CreateZExt(b.CreateIntrinsic(groups[d], {}, {}), i64);
  for (size_t i = 0; i < kernel.params.size(); ++i) {
    const ir::Param& p = kernel.params[i];
    Value* arg = fn->getArg(unsigned(i));
    if (!p.is_tensor) {
      // Scalars arrive rounded to their dtype (as a double or an i64).
      VK k = kind_of(p.dtype);
      bind_var(p.name, k == VK::F32    ? Val{b.CreateFPTrunc(arg, f32), k}
                       : k == VK::Bool ? Val{b.CreateICmpNE(arg, ci(0)), k}
                                       : Val{arg, k});
      continue;
    }
    Buffer* buf = new_buffer();
    buf->name = p.name;
    buf->scope = ir::Scope::Global;
    buf->dtype = p.dtype;
    buf->base = arg;
    for (const ir::Expr& d : p.shape) {
      std::optional<int64_t> c = ir::const_int(d);
      buf->shape.push_back(c ? *c : -1);
      if (c) {
        buf->dims.push_back(ci(*c));
      } else {
        TG_ASSIGN_OR_RETURN(Val v, find_var(d->name));
        buf->dims.push_back(v.v);
      }
    }
    bind_buffer(buf);
  }
  // After the parameters: a grid expression may read integer scalars as well as symbols.
  if (plan.raster > 1) TG_RETURN_IF_ERROR(raster_blocks(plan.raster, block[0], block[1]));
  for (int d = 0; d < 3; ++d) bind_var(ir::kBlockIndexNames[d], {block[d], VK::Index});
  if (plan.shared_bytes > 0) {
    auto* type = llvm::ArrayType::get(i8, uint64_t(plan.shared_bytes));
    auto* g =
        new llvm::GlobalVariable(mod, type, false, llvm::GlobalValue::InternalLinkage, llvm::UndefValue::get(type),
                                 "tg_lds", nullptr, llvm::GlobalValue::NotThreadLocal, 3u);
    g->setAlignment(llvm::Align(16));
    lds_ = g;
  }
  return Status::ok();
}

Status Emitter::loop(Value* lo, Value* hi, const std::function<Status(Value*)>& body) {
  llvm::Function* fn = function();
  llvm::BasicBlock* pre = b.GetInsertBlock();
  auto* head = llvm::BasicBlock::Create(ctx, "loop", fn);
  auto* inner = llvm::BasicBlock::Create(ctx, "body", fn);
  auto* done = llvm::BasicBlock::Create(ctx, "done", fn);
  b.CreateBr(head);
  b.SetInsertPoint(head);
  llvm::PHINode* i = b.CreatePHI(i64, 2, "i");
  i->addIncoming(lo, pre);
  b.CreateCondBr(b.CreateICmpSLT(i, hi), inner, done);
  b.SetInsertPoint(inner);
  TG_RETURN_IF_ERROR(body(i));
  Value* next = b.CreateAdd(i, ci(1));
  i->addIncoming(next, b.GetInsertBlock());
  b.CreateBr(head);
  b.SetInsertPoint(done);
  return Status::ok();
}

Status Emitter::if_then(Value* cond, const std::function<Status()>& then_body,
                        const std::function<Status()>& else_body) {
  llvm::Function* fn = function();
  auto* then_bb = llvm::BasicBlock::Create(ctx, "then", fn);
  auto* else_bb = else_body ? llvm::BasicBlock::Create(ctx, "else", fn) : nullptr;
  auto* done = llvm::BasicBlock::Create(ctx, "endif", fn);
  b.CreateCondBr(cond, then_bb, else_bb ? else_bb : done);
  b.SetInsertPoint(then_bb);
  TG_RETURN_IF_ERROR(then_body());
  b.CreateBr(done);
  if (else_bb) {
    b.SetInsertPoint(else_bb);
    TG_RETURN_IF_ERROR(else_body());
    b.CreateBr(done);
  }
  b.SetInsertPoint(done);
  return Status::ok();
}

void Emitter::barrier() {
  // LDS and global writes before the barrier are visible to the workgroup after it.
  b.CreateFence(llvm::AtomicOrdering::Release, ctx.getOrInsertSyncScopeID("workgroup"));
  b.CreateIntrinsic(llvm::Intrinsic::amdgcn_s_barrier, {}, {});
  b.CreateFence(llvm::AtomicOrdering::Acquire, ctx.getOrInsertSyncScopeID("workgroup"));
}

VK Emitter::kind_of(const ir::Type& t) {
  if (t.is_bool()) return VK::Bool;
  if (t.is_float()) return t.dtype == DType::F64 ? VK::F64 : VK::F32;
  return VK::Index;
}

VK Emitter::kind_of(DType d) {
  if (d == DType::F64) return VK::F64;
  if (dtype_is_float(d)) return VK::F32;
  if (d == DType::Bool) return VK::Bool;
  return VK::Index;
}

Result<llvm::Type*> Emitter::storage_type(DType d) {
  switch (d) {
    case DType::F64: return f64;
    case DType::F32: return f32;
    case DType::F16: return f16;
    case DType::BF16: return bf16;
    case DType::I32: return i32;
    case DType::TF32: return f32;  // an f32 whose low 13 mantissa bits are zero
    case DType::I8:
    case DType::U8:
    case DType::E4M3:
    case DType::E5M2:
    case DType::Bool:
    case DType::E4M3FNUZ:
    case DType::E5M2FNUZ:
    case DType::E2M3:
    case DType::E3M2:
    case DType::E2M1:
    case DType::E8M0:
    case DType::UE4M3: return i8;
    default: break;
  }
  return error(ErrorCode::Unsupported,
               std::string("the hip backend does not implement the dtype ") + dtype_name(d) + " yet");
}

Val Emitter::convert(Val v, VK to) {
  if (v.k == to) return v;
  switch (to) {
    case VK::F32:
    case VK::F64: {
      llvm::Type* t = to == VK::F32 ? f32 : f64;
      if (v.k == VK::Index) return {b.CreateSIToFP(v.v, t), to};
      if (v.k == VK::Bool) return {b.CreateUIToFP(v.v, t), to};
      return {to == VK::F32 ? b.CreateFPTrunc(v.v, t) : b.CreateFPExt(v.v, t), to};
    }
    case VK::Index:
      if (v.k == VK::Bool) return {b.CreateZExt(v.v, i64), to};
      return {b.CreateFPToSI(v.v, i64), to};  // the verifier only lets integers flow here
    case VK::Bool:
      if (v.k == VK::Index) return {b.CreateICmpNE(v.v, ci(0)), to};
      return {b.CreateFCmpUNE(v.v, llvm::ConstantFP::get(v.v->getType(), 0.0)), to};
  }
  return v;
}

Result<Val> Emitter::decode(DType d, Value* raw) {
  switch (d) {
    case DType::F64: return Val{raw, VK::F64};
    case DType::F32: return Val{raw, VK::F32};
    case DType::F16:
    case DType::BF16: return Val{b.CreateFPExt(raw, f32), VK::F32};
    case DType::I32:
    case DType::I8: return Val{b.CreateSExt(raw, i64), VK::Index};
    case DType::U8: return Val{b.CreateZExt(raw, i64), VK::Index};
    case DType::Bool: return Val{b.CreateICmpNE(raw, llvm::ConstantInt::get(i8, 0)), VK::Bool};
    case DType::TF32: return Val{raw, VK::F32};
    case DType::E5M2:
      // The top byte of an f16: exact, NaN and infinities included.
      return Val{b.CreateFPExt(b.CreateBitCast(b.CreateShl(b.CreateZExt(raw, i16), 8), f16), f32), VK::F32};
    case DType::E4M3: return Val{decode_e4m3(raw), VK::F32};
    case DType::E4M3FNUZ:
    case DType::E5M2FNUZ:
    case DType::E2M3:
    case DType::E3M2:
    case DType::E2M1:
    case DType::E8M0:
    case DType::UE4M3: return Val{decode_generic(d, raw), VK::F32};
    default: break;
  }
  return error(ErrorCode::Unsupported,
               std::string("the hip backend does not implement the dtype ") + dtype_name(d) + " yet");
}

Value* Emitter::decode_e4m3(Value* raw) {
  // OCP E4M3 (FN): s.eeee.mmm, bias 7, no infinities, s.1111.111 is NaN; exact in f32.
  Value* bits = b.CreateZExt(raw, i32);
  Value* exp = b.CreateAnd(b.CreateLShr(bits, 3), 15);
  Value* mant = b.CreateAnd(bits, 7);
  Value* sign = b.CreateShl(b.CreateAnd(bits, 0x80), 24);
  // Normal: f32 exponent exp - 7 + 127, mantissa << 20. Subnormal: mant * 2^-9.
  Value* normal =
      b.CreateBitCast(b.CreateOr(b.CreateShl(b.CreateAdd(exp, b.getInt32(120)), 23), b.CreateShl(mant, 20)), f32);
  Value* sub = b.CreateFMul(b.CreateUIToFP(mant, f32), llvm::ConstantFP::get(f32, 1.0 / 512.0));
  Value* mag = b.CreateSelect(b.CreateICmpEQ(exp, b.getInt32(0)), sub, normal);
  Value* nan = b.CreateAnd(b.CreateICmpEQ(exp, b.getInt32(15)), b.CreateICmpEQ(mant, b.getInt32(7)));
  mag = b.CreateSelect(nan, llvm::ConstantFP::getNaN(f32), mag);
  return b.CreateBitCast(b.CreateOr(b.CreateBitCast(mag, i32), sign), f32);
}

Result<Value*> Emitter::encode(DType d, Val v) {
  switch (d) {
    case DType::F64: return convert(v, VK::F64).v;
    case DType::F32:
      // An f64 value rounds once to f32; f32 values are already there.
      return convert(v, VK::F32).v;
    case DType::F16:
    case DType::BF16:
    case DType::TF32:
    case DType::E4M3:
    case DType::E5M2: return encode_narrow(d, v);  // Narrow.cpp
    case DType::E4M3FNUZ:
    case DType::E5M2FNUZ:
    case DType::E2M3:
    case DType::E3M2:
    case DType::E2M1:
    case DType::E8M0:
    case DType::UE4M3: return encode_generic(d, v);              // NarrowGeneric.cpp
    case DType::Bool: return b.CreateZExt(convert(v, VK::Bool).v, i8);
    case DType::I32:
    case DType::I8:
    case DType::U8: {
      int64_t lo = d == DType::I32 ? INT32_MIN : d == DType::I8 ? -128 : 0;
      int64_t hi = d == DType::I32 ? INT32_MAX : d == DType::I8 ? 127 : 255;
      llvm::Type* t = d == DType::I32 ? i32 : i8;
      if (v.k == VK::Index || v.k == VK::Bool) {
        Value* x = convert(v, VK::Index).v;
        x = b.CreateBinaryIntrinsic(llvm::Intrinsic::smax, x, ci(lo));
        x = b.CreateBinaryIntrinsic(llvm::Intrinsic::smin, x, ci(hi));
        return b.CreateTrunc(x, t);
      }
      // Round to nearest even, saturate, NaN to 0 (core/DType.h round_to_int_range).
      Value* x = b.CreateUnaryIntrinsic(llvm::Intrinsic::rint, v.v);
      llvm::Type* ft = v.v->getType();
      x = b.CreateBinaryIntrinsic(llvm::Intrinsic::maxnum, x, llvm::ConstantFP::get(ft, double(lo)));
      x = b.CreateBinaryIntrinsic(llvm::Intrinsic::minnum, x, llvm::ConstantFP::get(ft, double(hi)));
      x = b.CreateSelect(b.CreateFCmpUNO(v.v, v.v), llvm::ConstantFP::get(ft, 0.0), x);
      return b.CreateTrunc(b.CreateFPToSI(x, i64), t);
    }
    default: break;
  }
  return error(ErrorCode::Unsupported,
               std::string("the hip backend does not implement rounding to ") + dtype_name(d) + " yet");
}

Value* Emitter::slot_address(const Buffer& buf, int64_t slot) {
  llvm::Type* t = *storage_type(buf.dtype);  // checked when the buffer was made
  return b.CreateConstInBoundsGEP1_64(t, buf.base, uint64_t(slot));
}

Result<Value*> Emitter::address(const Buffer& buf, const std::vector<Value*>& coords) {
  TG_ASSIGN_OR_RETURN(llvm::Type * t, storage_type(buf.dtype));
  if (buf.scope == ir::Scope::Fragment) return error(ErrorCode::Internal, "hip: a fragment is addressed by slot");
  if (buf.scope != ir::Scope::Shared) {
    Value* linear = ci(0);
    for (int d = 0; d < buf.rank(); ++d)
      linear = b.CreateAdd(b.CreateMul(linear, buf.dims[size_t(d)]), coords[size_t(d)]);
    return b.CreateGEP(t, buf.base, linear);
  }
  // SharedLayout.h's shared_offset, on run-time coordinates.
  const ir::SharedLayout& l = buf.layout;
  Value* rows_i = ci(0);
  for (int d = 0; d + 1 < buf.rank(); ++d)
    rows_i = b.CreateAdd(b.CreateMul(rows_i, ci(buf.shape[size_t(d)])), coords[size_t(d)]);
  int64_t rows = 1;
  for (int d = 0; d + 1 < buf.rank(); ++d) rows *= buf.shape[size_t(d)];
  Value* j = coords.back();
  Value* elem = nullptr;
  if (l.block) {
    elem = b.CreateAdd(
        b.CreateAdd(b.CreateMul(b.CreateUDiv(j, ci(l.block)), ci(rows * l.block)), b.CreateMul(rows_i, ci(l.block))),
        b.CreateURem(j, ci(l.block)));
  } else {
    elem = b.CreateAdd(b.CreateMul(rows_i, ci(buf.shape.back() + l.pad)), j);
  }
  Value* bytes = b.CreateMul(elem, ci(int64_t(dtype_size(buf.dtype))));
  if (l.swizzle_bits) {
    Value* bits =
        b.CreateAnd(b.CreateLShr(bytes, ci(l.swizzle_base + l.swizzle_shift)), ci((int64_t(1) << l.swizzle_bits) - 1));
    bytes = b.CreateXor(bytes, b.CreateShl(bits, ci(l.swizzle_base)));
  }
  return b.CreateGEP(i8, buf.base, b.CreateTrunc(bytes, i32));
}

Value* Emitter::in_bounds(const Buffer& buf, const std::vector<Value*>& coords) {
  Value* ok = nullptr;
  for (int d = 0; d < buf.rank(); ++d) {
    // One unsigned compare tests 0 <= c < dim.
    Value* c = b.CreateICmpULT(coords[size_t(d)], buf.dims[size_t(d)]);
    ok = ok ? b.CreateAnd(ok, c) : c;
  }
  return ok ? ok : b.getTrue();
}

Result<Val> Emitter::load_at(const Buffer& buf, Value* addr) {
  TG_ASSIGN_OR_RETURN(llvm::Type * t, storage_type(buf.dtype));
  return decode(buf.dtype, b.CreateLoad(t, addr));
}

Result<Value*> Emitter::masked_load_raw(const Buffer& buf, Value* addr, Value* inside, llvm::Constant* otherwise) {
  TG_ASSIGN_OR_RETURN(llvm::Type * t, storage_type(buf.dtype));
  auto* vt = llvm::FixedVectorType::get(t, 1);
  Value* mask = b.CreateVectorSplat(1, inside);
  Value* pass = llvm::ConstantVector::getSplat(llvm::ElementCount::getFixed(1),
                                               otherwise ? otherwise : llvm::Constant::getNullValue(t));
  Value* raw = b.CreateMaskedLoad(vt, addr, llvm::Align(dtype_size(buf.dtype)), mask, pass);
  return b.CreateExtractElement(raw, uint64_t(0));
}

Result<Val> Emitter::masked_load(const Buffer& buf, Value* addr, Value* inside) {
  TG_ASSIGN_OR_RETURN(Value * raw, masked_load_raw(buf, addr, inside, nullptr));
  return decode(buf.dtype, raw);
}

Result<llvm::Constant*> Emitter::encoded_constant(DType d, double x) {
  TG_ASSIGN_OR_RETURN(llvm::Type * t, storage_type(d));
  alignas(8) unsigned char bytes[8] = {0};
  store_element(d, x, bytes);
  uint64_t bits = 0;
  for (size_t i = 0; i < dtype_size(d); ++i) bits |= uint64_t(bytes[i]) << (8 * i);
  llvm::Constant* c = llvm::ConstantInt::get(b.getIntNTy(unsigned(dtype_size(d) * 8)), bits);
  return llvm::ConstantExpr::getBitCast(c, t);
}

Status Emitter::store_at(const Buffer& buf, Value* addr, Val v) {
  TG_ASSIGN_OR_RETURN(Value * raw, encode(buf.dtype, v));
  b.CreateStore(raw, addr);
  return Status::ok();
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
  return error(ErrorCode::Internal, "hip: unknown name '" + name + "'");
}

}  // namespace tegula::hip
