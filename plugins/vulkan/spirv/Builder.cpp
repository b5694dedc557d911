#include "plugins/vulkan/spirv/Builder.h"

#include <cstdint>
#include <functional>

namespace tegula::vulkan::spv {

Value Builder::op(Op o, T ty, const std::vector<uint32_t>& args) {
  Value r{m.id(), ty};
  std::vector<uint32_t> ops{t(ty), r.id};
  ops.insert(ops.end(), args.begin(), args.end());
  m.emit(o, ops);
  return r;
}

Value Builder::op_type(Op o, uint32_t type, const std::vector<uint32_t>& args) {
  Value r{m.id(), T::Void, type};
  std::vector<uint32_t> ops{type, r.id};
  ops.insert(ops.end(), args.begin(), args.end());
  m.emit(o, ops);
  return r;
}

Value Builder::glsl(Glsl inst, T ty, const std::vector<Value>& args) {
  std::vector<uint32_t> ops{m.glsl(), uint32_t(inst)};
  for (const Value& a : args) ops.push_back(a.id);
  return op(OpExtInst, ty, ops);
}

Value Builder::add(Value a, Value b) { return op(is_float(a.ty) ? OpFAdd : OpIAdd, a.ty, {a.id, b.id}); }
Value Builder::sub(Value a, Value b) { return op(is_float(a.ty) ? OpFSub : OpISub, a.ty, {a.id, b.id}); }
Value Builder::mul(Value a, Value b) { return op(is_float(a.ty) ? OpFMul : OpIMul, a.ty, {a.id, b.id}); }
Value Builder::fdiv(Value a, Value b) { return op(OpFDiv, a.ty, {a.id, b.id}); }
Value Builder::neg(Value a) { return op(is_float(a.ty) ? OpFNegate : OpSNegate, a.ty, {a.id}); }

Value Builder::fma(Value a, Value b, Value c) {
  if (is_float(a.ty)) return glsl(GlslFma, a.ty, {a, b, c});
  return add(mul(a, b), c);
}

Value Builder::floor_div(Value a, Value b) {
  Value zero = c(a.ty, 0), one = c(a.ty, 1);
  Value bz = eq(b, zero);
  Value safe_b = select(bz, one, b);
  Value q = op(OpSDiv, a.ty, {a.id, safe_b.id});
  Value r = sub(a, mul(q, safe_b));
  // Truncation rounds toward zero; floor needs one less when the signs differ and r != 0.
  Value adjust = land(ne(r, zero), op(OpLogicalNotEqual, T::Bool, {lt(a, zero).id, lt(safe_b, zero).id}));
  Value fq = select(adjust, sub(q, one), q);
  return select(bz, zero, fq);
}

Value Builder::floor_mod(Value a, Value b) {
  Value zero = c(a.ty, 0);
  Value q = floor_div(a, b);
  return select(eq(b, zero), zero, sub(a, mul(q, b)));
}

Value Builder::eq(Value a, Value b) {
  if (a.ty == T::Bool) return op(OpLogicalEqual, T::Bool, {a.id, b.id});
  return op(is_float(a.ty) ? OpFOrdEqual : OpIEqual, T::Bool, {a.id, b.id});
}

Value Builder::ne(Value a, Value b) {
  if (a.ty == T::Bool) return op(OpLogicalNotEqual, T::Bool, {a.id, b.id});
  // Unordered: NaN != x is true, as in C.
  return op(is_float(a.ty) ? OpFUnordNotEqual : OpINotEqual, T::Bool, {a.id, b.id});
}

Value Builder::lt(Value a, Value b) {
  if (is_float(a.ty)) return op(OpFOrdLessThan, T::Bool, {a.id, b.id});
  return op(is_signed_int(a.ty) ? OpSLessThan : OpULessThan, T::Bool, {a.id, b.id});
}

Value Builder::le(Value a, Value b) {
  if (is_float(a.ty)) return op(OpFOrdLessThanEqual, T::Bool, {a.id, b.id});
  return op(is_signed_int(a.ty) ? OpSLessThanEqual : OpULessThanEqual, T::Bool, {a.id, b.id});
}

Value Builder::select(Value cond, Value a, Value b) {
  if (a.ty == T::Void) return op_type(OpSelect, a.type, {cond.id, a.id, b.id});
  return op(OpSelect, a.ty, {cond.id, a.id, b.id});
}

/// NMax/NMin decide everything except which of two equal operands comes out, and equal
/// floats differ only as +0 and -0: the AND of the bits is +0 unless both are -0 (max), the
/// OR is -0 unless both are +0 (min). The bits are read whatever the float controls say.
static Value max_min_number(Builder& b, Value x, Value y, bool max) {
  T u = x.ty == T::F64 ? T::U64 : x.ty == T::F16 ? T::U16 : T::U32;
  Value xi = b.bitcast(x, u), yi = b.bitcast(y, u);
  Value zero = b.bitcast(max ? b.band(xi, yi) : b.bor(xi, yi), x.ty);
  return b.select(b.eq(x, y), zero, b.glsl(max ? GlslNMax : GlslNMin, x.ty, {x, y}));
}

Value Builder::max_number(Value a, Value b) { return max_min_number(*this, a, b, true); }
Value Builder::min_number(Value a, Value b) { return max_min_number(*this, a, b, false); }

Value Builder::convert(Value v, T to) {
  if (v.ty == to) return v;
  if (to == T::Bool) {
    if (is_float(v.ty)) return ne(v, c(v.ty, 0));
    return op(OpINotEqual, T::Bool, {v.id, c(v.ty, 0).id});
  }
  if (v.ty == T::Bool) return select(v, c(to, 1), c(to, 0));
  bool from_f = is_float(v.ty), to_f = is_float(to);
  if (from_f && to_f) return op(OpFConvert, to, {v.id});
  if (from_f) return op(is_signed_int(to) ? OpConvertFToS : OpConvertFToU, to, {v.id});
  if (to_f) return op(is_signed_int(v.ty) ? OpConvertSToF : OpConvertUToF, to, {v.id});
  // Integer to integer: change the width with the source's signedness, then reinterpret.
  int wf = bit_width(v.ty), wt = bit_width(to);
  if (wf == wt) return bitcast(v, to);
  T same_sign_wide;
  bool s = is_signed_int(v.ty);
  switch (wt) {
    case 8: same_sign_wide = s ? T::I8 : T::U8; break;
    case 16: same_sign_wide = T::U16; s = false; break;
    case 32: same_sign_wide = s ? T::I32 : T::U32; break;
    default: same_sign_wide = T::U64; s = false; break;
  }
  if (wt == 16 || wt == 64) {
    // Only unsigned types of these widths exist in the generator: zero-extend or truncate
    // through the unsigned source.
    Value u = v;
    if (is_signed_int(v.ty)) u = bitcast(v, wf == 8 ? T::U8 : T::U32);
    return bitcast(op(OpUConvert, same_sign_wide, {u.id}), to);
  }
  Value r = op(s ? OpSConvert : OpUConvert, same_sign_wide, {v.id});
  return bitcast(r, to);
}

uint32_t Builder::chain(StorageClass sc, uint32_t elem_type, uint32_t base, const std::vector<uint32_t>& indices) {
  uint32_t ptr = m.type_pointer(sc, elem_type);
  uint32_t r = m.id();
  std::vector<uint32_t> ops{ptr, r, base};
  ops.insert(ops.end(), indices.begin(), indices.end());
  m.emit(OpAccessChain, ops);
  return r;
}

uint32_t Builder::var(T ty) { return m.local_variable(t(ty)); }

uint32_t Builder::var(T ty, Value init) {
  uint32_t v = var(ty);
  store(v, init);
  return v;
}

void Builder::if_(Value cond, const std::function<void()>& then_fn, const std::function<void()>& else_fn) {
  uint32_t then_l = m.id(), merge = m.id();
  uint32_t else_l = else_fn ? m.id() : merge;
  m.emit(OpSelectionMerge, {merge, SelectionControlNone});
  m.emit(OpBranchConditional, {cond.id, then_l, else_l});
  m.label(then_l);
  then_fn();
  if (!m.terminated()) m.emit(OpBranch, {merge});
  if (else_fn) {
    m.label(else_l);
    else_fn();
    if (!m.terminated()) m.emit(OpBranch, {merge});
  }
  m.label(merge);
}

void Builder::for_(Value lo, Value hi, int32_t step, const std::function<void(Value)>& body, LoopControl control) {
  uint32_t counter = var(T::I32, lo);
  uint32_t header = m.id(), check = m.id(), body_l = m.id(), cont = m.id(), merge = m.id();
  m.emit(OpBranch, {header});
  m.label(header);
  m.emit(OpLoopMerge, {merge, cont, uint32_t(control)});
  m.emit(OpBranch, {check});
  m.label(check);
  Value i = load(counter, T::I32);
  m.emit(OpBranchConditional, {lt(i, hi).id, body_l, merge});
  m.label(body_l);
  body(i);
  if (!m.terminated()) m.emit(OpBranch, {cont});
  m.label(cont);
  store(counter, add(load(counter, T::I32), ci(step)));
  m.emit(OpBranch, {header});
  m.label(merge);
}

void Builder::do_while(const std::function<Value()>& body) {
  uint32_t header = m.id(), body_l = m.id(), cont = m.id(), merge = m.id();
  m.emit(OpBranch, {header});
  m.label(header);
  m.emit(OpLoopMerge, {merge, cont, LoopControlNone});
  m.emit(OpBranch, {body_l});
  m.label(body_l);
  Value again = body();
  m.emit(OpBranch, {cont});
  m.label(cont);
  m.emit(OpBranchConditional, {again.id, header, merge});
  m.label(merge);
}

Value Builder::load_shared(uint32_t ptr, T ty) {
  std::vector<uint32_t> ops{ptr};
  for (uint32_t w : shared_access()) ops.push_back(w);
  return op(OpLoad, ty, ops);
}

void Builder::store_shared(uint32_t ptr, Value v) {
  std::vector<uint32_t> ops{ptr, v.id};
  for (uint32_t w : shared_access()) ops.push_back(w);
  m.emit(OpStore, ops);
}

std::vector<uint32_t> Builder::shared_access() const {
  if (!vulkan_memory_model) return {};
  return {AccessNonPrivatePointer};
}

uint32_t Builder::barrier_semantics(uint32_t storage) const {
  uint32_t s = SemAcquireRelease | storage;
  if (vulkan_memory_model) s |= SemMakeAvailable | SemMakeVisible;
  return s;
}

void Builder::barrier() {
  m.emit(OpControlBarrier, {cu(ScopeWorkgroup).id, cu(ScopeWorkgroup).id,
                            cu(barrier_semantics(SemWorkgroupMemory | SemUniformMemory)).id});
}

}  // namespace tegula::vulkan::spv
