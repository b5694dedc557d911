/// \file
/// Typed instruction helpers over a Module: arithmetic that picks the integer or float
/// opcode from the operand type, conversions, loads and stores through access chains, and
/// structured control flow (if/else and counted loops with the merge and continue blocks
/// SPIR-V requires). Everything mutable lives in Function variables; the driver's compiler
/// promotes them to registers.
#pragma once

#include <cstdint>
#include <functional>
#include <vector>

#include "plugins/vulkan/spirv/Module.h"

namespace tegula::vulkan::spv {

class Builder {
public:
  explicit Builder(Module& m) : m(m) {}

  Module& m;
  /// The module uses the Vulkan memory model: shared and storage-buffer accesses are
  /// non-private, and barriers make writes available and visible.
  bool vulkan_memory_model = false;

  // --- constants ----------------------------------------------------------------------
  Value c(T t, double v) { return m.constant(t, v); }
  Value cu(uint32_t v) { return m.const_u32(v); }
  Value ci(int32_t v) { return m.const_i32(v); }
  Value cf(float v) { return m.const_f32(v); }
  Value cb(bool v) { return m.const_bool(v); }

  // --- generic --------------------------------------------------------------------------
  Value op(Op o, T ty, const std::vector<uint32_t>& args);
  Value op_type(Op o, uint32_t type, const std::vector<uint32_t>& args);
  Value glsl(Glsl inst, T ty, const std::vector<Value>& args);

  // --- arithmetic (integer or float by type; both operands of one type) ------------------
  Value add(Value a, Value b);
  Value sub(Value a, Value b);
  Value mul(Value a, Value b);
  Value fdiv(Value a, Value b);
  Value neg(Value a);
  Value fma(Value a, Value b, Value c);
  /// Floor division and modulo of signed integers (b == 0 gives 0).
  Value floor_div(Value a, Value b);
  Value floor_mod(Value a, Value b);
  Value udiv(Value a, Value b) { return op(OpUDiv, a.ty, {a.id, b.id}); }
  Value umod(Value a, Value b) { return op(OpUMod, a.ty, {a.id, b.id}); }
  Value band(Value a, Value b) { return op(OpBitwiseAnd, a.ty, {a.id, b.id}); }
  Value bor(Value a, Value b) { return op(OpBitwiseOr, a.ty, {a.id, b.id}); }
  Value bxor(Value a, Value b) { return op(OpBitwiseXor, a.ty, {a.id, b.id}); }
  Value shl(Value a, Value n) { return op(OpShiftLeftLogical, a.ty, {a.id, n.id}); }
  Value shr(Value a, Value n) { return op(is_signed_int(a.ty) ? OpShiftRightArithmetic : OpShiftRightLogical, a.ty, {a.id, n.id}); }
  Value smin(Value a, Value b) { return glsl(GlslSMin, a.ty, {a, b}); }
  Value smax(Value a, Value b) { return glsl(GlslSMax, a.ty, {a, b}); }
  Value umin(Value a, Value b) { return glsl(GlslUMin, a.ty, {a, b}); }
  Value umax(Value a, Value b) { return glsl(GlslUMax, a.ty, {a, b}); }
  /// max and min of floats as ir/OpList.h defines them (IEEE 754-2019 maximumNumber and
  /// minimumNumber: -0 < +0, a NaN loses to a number). GLSL's NMax/NMin leave the sign of a
  /// zero result open.
  Value max_number(Value a, Value b);
  Value min_number(Value a, Value b);

  // --- comparisons and logic ---------------------------------------------------------------
  Value eq(Value a, Value b);
  Value ne(Value a, Value b);
  Value lt(Value a, Value b);
  Value le(Value a, Value b);
  Value gt(Value a, Value b) { return lt(b, a); }
  Value ge(Value a, Value b) { return le(b, a); }
  Value land(Value a, Value b) { return op(OpLogicalAnd, T::Bool, {a.id, b.id}); }
  Value lor(Value a, Value b) { return op(OpLogicalOr, T::Bool, {a.id, b.id}); }
  Value lnot(Value a) { return op(OpLogicalNot, T::Bool, {a.id}); }
  Value select(Value cond, Value a, Value b);
  Value is_nan(Value a) { return op(OpIsNan, T::Bool, {a.id}); }

  // --- conversions ---------------------------------------------------------------------
  /// Numeric conversion between scalar types: int widths (sign- or zero-extending by the
  /// source), int <-> float (float -> int truncates; callers round first), float widths,
  /// bool <-> numbers (nonzero is true; true is 1).
  Value convert(Value v, T to);
  Value bitcast(Value v, T to) { return v.ty == to ? v : op(OpBitcast, to, {v.id}); }

  // --- memory --------------------------------------------------------------------------
  /// A pointer to an element: base pointer, the storage class and the element type id.
  uint32_t chain(StorageClass sc, uint32_t elem_type, uint32_t base, const std::vector<uint32_t>& indices);
  Value load(uint32_t ptr, T ty) { return op(OpLoad, ty, {ptr}); }
  void store(uint32_t ptr, Value v) { m.emit(OpStore, {ptr, v.id}); }
  /// Loads and stores of memory other invocations see (shared, storage buffers).
  Value load_shared(uint32_t ptr, T ty);
  void store_shared(uint32_t ptr, Value v);
  /// The memory operand of accesses to memory other invocations see (none, or NonPrivate).
  std::vector<uint32_t> shared_access() const;
  /// Semantics of a barrier over `storage` (WorkgroupMemory | UniformMemory bits).
  uint32_t barrier_semantics(uint32_t storage) const;
  /// The scope of atomics on storage buffers.
  uint32_t atomic_scope() const { return vulkan_memory_model ? ScopeQueueFamily : ScopeDevice; }
  /// A Function variable of scalar type, optionally initialised.
  uint32_t var(T ty);
  uint32_t var(T ty, Value init);

  // --- control flow -----------------------------------------------------------------------
  void if_(Value cond, const std::function<void()>& then_fn, const std::function<void()>& else_fn = {});
  /// for (i = lo; i < hi; i += step) body(i), with i32 bounds.
  void for_(Value lo, Value hi, int32_t step, const std::function<void(Value)>& body, LoopControl control = LoopControlNone);
  /// do { cond = body(); } while (cond): `body` returns whether to go round again.
  void do_while(const std::function<Value()>& body);
  /// Workgroup-wide execution and memory barrier (shared and storage-buffer memory).
  void barrier();

private:
  uint32_t t(T ty) { return m.type(ty); }
};

}  // namespace tegula::vulkan::spv
