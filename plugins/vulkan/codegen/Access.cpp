// Element access: addresses of global and shared elements (the SharedLayout formula), masked
// reads and writes at tensor edges, register slots, and atomic adds (native where the target
// has them, compare-and-swap loops on the containing word otherwise).
#include <cstdint>
#include <cstring>
#include <functional>
#include <string>

#include "plugins/vulkan/codegen/KernelGen.h"

#include "ir/Analysis.h"
#include "ir/Printer.h"
#include "ir/lower/Lowered.h"

namespace tegula::vulkan {

using namespace spv;

std::vector<Value> KernelGen::add_origin(const std::vector<Value>& origin, const std::vector<Value>& coords) {
  // A rank-dropping view (ir::leading_axes) has more offsets than the tile has coordinates:
  // its leading offsets are the element's indices there, and the tile's coordinates align
  // to the trailing axes, so global_index and global_inside see the tensor's full rank.
  size_t lead = ir::leading_axes(origin.size(), coords.size());
  std::vector<Value> out(origin.begin(), origin.begin() + std::ptrdiff_t(lead));
  for (size_t d = 0; d < coords.size(); ++d)
    out.push_back(d + lead < origin.size() ? b_.add(origin[d + lead], coords[d]) : coords[d]);
  return out;
}

Value KernelGen::global_index(const Buf& b, const std::vector<Value>& coords) {
  Value lin = coords[0];
  for (size_t d = 1; d < coords.size(); ++d) lin = b_.add(b_.mul(lin, b.dims[d]), coords[d]);
  return b.offset.id ? b_.add(lin, b.offset) : lin;
}

Value KernelGen::global_inside(const Buf& b, const std::vector<Value>& coords) {
  Value ok = b_.cb(true);
  for (size_t d = 0; d < coords.size(); ++d)
    ok = b_.land(ok, b_.lt(b_.bitcast(coords[d], T::U32), b_.bitcast(b.dims[d], T::U32)));
  return ok;
}

bool KernelGen::tile_within(const ir::TileRef& t, const Buf& b) const {
  if (b.scope != ir::Scope::Global) return false;
  if (!within_) {
    // The kernel was read through read_lowered, so every plan reads back.
    within_.emplace();
    ir::for_each_stmt(k_.body, [&](const ir::Stmt& s) {
      if (s.op != ir::OpKind::Copy && s.op != ir::OpKind::AtomicAdd) return;
      auto p = ir::get_copy_plan(s);
      if (!p.is_ok()) return;
      (*within_)[&s.tiles[0]] = p->src_in.all();
      (*within_)[&s.tiles[1]] = p->dst_in.all();
    });
  }
  auto it = within_->find(&t);
  return it != within_->end() && it->second;
}

Value KernelGen::shared_index(const Buf& b, const std::vector<Value>& coords) {
  const ir::SharedLayout& l = b.layout;
  int64_t rows = 1;
  Value i = b_.ci(0);
  for (size_t d = 0; d + 1 < b.shape.size(); ++d) {
    rows *= b.shape[d];
    i = d == 0 ? coords[0] : b_.add(b_.mul(i, b_.ci(int32_t(b.shape[d]))), coords[d]);
  }
  Value j = coords.back();
  int64_t cols = b.shape.back();
  Value elem;
  if (l.block) {
    Value ju = b_.bitcast(j, T::U32);
    Value blk = b_.bitcast(b_.udiv(ju, b_.cu(uint32_t(l.block))), T::I32);
    Value in_blk = b_.bitcast(b_.umod(ju, b_.cu(uint32_t(l.block))), T::I32);
    elem = b_.add(b_.add(b_.mul(blk, b_.ci(int32_t(rows * l.block))), b_.mul(i, b_.ci(int32_t(l.block)))), in_blk);
  } else {
    elem = b_.add(b_.mul(i, b_.ci(int32_t(cols + l.pad))), j);
  }
  // A double-buffered tile (never swizzled): the stage the loop is at.
  if (b.stage_base.id) elem = b_.add(elem, b.stage_base);
  if (!l.swizzle_bits) return elem;
  int64_t esize = int64_t(dtype_size(b.dtype));
  Value bytes = b_.bitcast(b_.mul(elem, b_.ci(int32_t(esize))), T::U32);
  Value bits = b_.band(b_.shr(bytes, b_.cu(uint32_t(l.swizzle_base + l.swizzle_shift))), b_.cu(uint32_t((1 << l.swizzle_bits) - 1)));
  bytes = b_.bxor(bytes, b_.shl(bits, b_.cu(uint32_t(l.swizzle_base))));
  return b_.bitcast(b_.udiv(bytes, b_.cu(uint32_t(esize))), T::I32);
}

uint32_t KernelGen::element_ptr(const Buf& b, Value index) {
  switch (b.scope) {
    case ir::Scope::Global: return b_.chain(SCStorageBuffer, b.elem_type, b.var, {b_.cu(0).id, index.id});
    case ir::Scope::Shared:
      packed_misuse_ = packed_misuse_ || b.packed;
      return b_.chain(SCWorkgroup, b.elem_type, b.var, {index.id});
    case ir::Scope::Fragment:
    case ir::Scope::Local: return b_.chain(SCFunction, b.elem_type, b.var, {index.id});
  }
  return 0;
}

// Raw values are always in the dtype's storage type (f16 as u16 bits); a shared tile that
// cooperative matrices read is declared f16 and bitcast here.
Value KernelGen::load_raw(const Buf& b, Value index) {
  bool shared = b.scope == ir::Scope::Global || b.scope == ir::Scope::Shared;
  Value v = shared ? b_.load_shared(element_ptr(b, index), b.elem) : b_.load(element_ptr(b, index), b.elem);
  return b.elem == T::F16 ? b_.bitcast(v, T::U16) : v;
}

void KernelGen::store_raw(const Buf& b, Value index, Value raw) {
  bool shared = b.scope == ir::Scope::Global || b.scope == ir::Scope::Shared;
  if (b.elem == T::F16) raw = b_.bitcast(raw, T::F16);
  if (shared) b_.store_shared(element_ptr(b, index), raw);
  else b_.store(element_ptr(b, index), raw);
}

Value KernelGen::read_slot(const Buf& b, int64_t slot) { return load_raw(b, b_.ci(int32_t(slot))); }

void KernelGen::write_slot(const Buf& b, int64_t slot, Value value) {
  store_raw(b, b_.ci(int32_t(slot)), cv_.round(b.dtype, value));
}

Value KernelGen::raw_constant(DType d, double v) {
  alignas(8) unsigned char bytes[8] = {};
  store_element(d, v, bytes);
  switch (Conversions::storage_type(d)) {
    case T::F64: {
      double x;
      std::memcpy(&x, bytes, 8);
      return b_.m.const_f64(x);
    }
    case T::F32: {
      float x;
      std::memcpy(&x, bytes, 4);
      return b_.m.const_f32(x);
    }
    case T::U32: {
      uint32_t x;
      std::memcpy(&x, bytes, 4);
      return b_.cu(x);
    }
    case T::I32: {
      int32_t x;
      std::memcpy(&x, bytes, 4);
      return b_.ci(x);
    }
    case T::U16: {
      uint16_t x;
      std::memcpy(&x, bytes, 2);
      return b_.c(T::U16, x);
    }
    case T::I8: return b_.c(T::I8, double(int8_t(bytes[0])));
    default: return b_.c(T::U8, bytes[0]);
  }
}

Value KernelGen::read_memory_raw(const Buf& b, const std::vector<Value>& coords, double pad) {
  if (b.scope == ir::Scope::Shared) return cv_.restore(b.dtype, load_raw(b, shared_index(b, coords)));
  uint32_t tmp = b_.var(b.elem, raw_constant(b.dtype, pad));
  Value index = global_index(b, coords);
  b_.if_(global_inside(b, coords), [&] { b_.store(tmp, load_raw(b, index)); });
  return cv_.restore(b.dtype, b_.load(tmp, b.elem));
}

void KernelGen::write_memory_raw(const Buf& b, const std::vector<Value>& coords, Value raw) {
  if (b.scope == ir::Scope::Shared) {
    store_raw(b, shared_index(b, coords), raw);
    return;
  }
  Value index = global_index(b, coords);
  b_.if_(global_inside(b, coords), [&] { store_raw(b, index, raw); });
}

Value KernelGen::read_memory(const Buf& b, const std::vector<Value>& coords, double pad, uint32_t fault) {
  if (b.scope == ir::Scope::Shared) return cv_.decode(b.dtype, load_raw(b, shared_index(b, coords)));
  T vt = Conversions::value_type(b.dtype);
  Value pad_value = vt == T::Bool ? b_.cb(pad != 0) : (vt == T::I32 ? b_.ci(int32_t(round_to_dtype(DType::I32, pad))) : b_.c(vt, pad));
  uint32_t tmp = b_.var(vt, pad_value);
  Value index = global_index(b, coords);
  std::function<void()> outside;
  if (fault) outside = [&] { record_fault(fault); };
  b_.if_(global_inside(b, coords), [&] { b_.store(tmp, cv_.decode(b.dtype, load_raw(b, index))); }, outside);
  return b_.load(tmp, vt);
}

void KernelGen::write_memory(const Buf& b, const std::vector<Value>& coords, Value value, uint32_t fault) {
  if (b.scope == ir::Scope::Shared) {
    store_raw(b, shared_index(b, coords), cv_.encode(b.dtype, value));
    return;
  }
  Value index = global_index(b, coords);
  std::function<void()> outside;
  if (fault) outside = [&] { record_fault(fault); };
  b_.if_(global_inside(b, coords), [&] { store_raw(b, index, cv_.encode(b.dtype, value)); }, outside);
}

uint32_t KernelGen::fault_site(const std::string& buffer, const std::vector<ir::Expr>& index, bool store) {
  if (!fault_var_) return 0;
  // Named as the program writes it: the lowered form's line numbers are not the user's.
  std::string site = std::string(store ? "store to " : "load of ") + buffer + "[";
  for (size_t d = 0; d < index.size(); ++d) site += (d ? ", " : "") + ir::print_expr(index[d]);
  site += "]";
  for (size_t i = 0; i < iface_.fault_sites.size(); ++i)
    if (iface_.fault_sites[i] == site) return uint32_t(i + 1);
  iface_.fault_sites.push_back(site);
  return uint32_t(iface_.fault_sites.size());
}

void KernelGen::record_fault(uint32_t fault) {
  // Any one number among racing invocations is a true report: a plain store is enough.
  b_.store_shared(b_.chain(SCStorageBuffer, m_.type(T::U32), fault_var_, {b_.cu(0).id, b_.cu(0).id}), b_.cu(fault));
}

void KernelGen::atomic_add_global(const Buf& b, const std::vector<Value>& coords, Value value) {
  Value index = global_index(b, coords);
  Value device = b_.cu(b_.atomic_scope()), relaxed = b_.cu(SemNone);
  b_.if_(global_inside(b, coords), [&] {
    if (b.dtype == DType::I32) {
      Value v = cv_.round(DType::I32, value);
      b_.op(OpAtomicIAdd, T::I32, {element_ptr(b, index), device.id, relaxed.id, v.id});
      return;
    }
    bool native = (b.dtype == DType::F32 && t_.atomic_float32_add) || (b.dtype == DType::F64 && t_.atomic_float64_add);
    if (native) {
      m_.extension("SPV_EXT_shader_atomic_float_add");
      m_.capability(b.dtype == DType::F32 ? CapAtomicFloat32AddEXT : CapAtomicFloat64AddEXT);
      Value v = cv_.to_float(value, b.elem);
      b_.op(OpAtomicFAddEXT, b.elem, {element_ptr(b, index), device.id, relaxed.id, v.id});
      return;
    }
    // Compare-and-swap on the word that holds the element.
    T word = b.dtype == DType::F64 ? T::U64 : T::U32;
    bool half = b.elem == T::U16;
    Value word_index = half ? b_.bitcast(b_.shr(b_.bitcast(index, T::U32), b_.cu(1)), T::I32) : index;
    Value shift = half ? b_.mul(b_.band(b_.bitcast(index, T::U32), b_.cu(1)), b_.cu(16)) : b_.cu(0);
    uint32_t ptr = b_.chain(SCStorageBuffer, m_.type(word), b.word_var, {b_.cu(0).id, word_index.id});
    uint32_t expected = b_.var(word, b_.load_shared(ptr, word));
    b_.do_while([&] {
      Value old = b_.load(expected, word);
      Value next;
      if (half) {
        Value bits = b_.convert(b_.band(b_.shr(old, shift), b_.cu(0xffff)), T::U16);
        Value sum = b_.add(cv_.decode(b.dtype, bits), cv_.to_float(value, T::F32));
        Value enc = b_.convert(cv_.encode(b.dtype, sum), T::U32);
        Value mask = b_.op(OpNot, T::U32, {b_.shl(b_.cu(0xffff), shift).id});
        next = b_.bor(b_.band(old, mask), b_.shl(enc, shift));
      } else {
        T ft = b.dtype == DType::F64 ? T::F64 : T::F32;
        Value sum = b_.add(b_.bitcast(old, ft), cv_.to_float(value, ft));
        next = b_.bitcast(sum, word);
      }
      Value got = b_.op(OpAtomicCompareExchange, word, {ptr, device.id, relaxed.id, relaxed.id, next.id, old.id});
      b_.store(expected, got);
      return b_.ne(got, old);
    });
  });
}

}  // namespace tegula::vulkan
