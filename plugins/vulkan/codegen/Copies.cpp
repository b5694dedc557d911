// Vectorised global -> shared copies: when the lowering proved plan.vec consecutive elements
// share a row and start on a multiple of the vector (the tensor's row length and the tile's
// column offset), each invocation moves them with one 4-, 8- or 16-byte load through a view
// of the tensor's binding, then stores the elements to shared memory. The tensor's element
// offset is only known at launch: when it is not a multiple of the vector, the same copy
// runs element by element. An 8-byte element (f64) is two words of the load. A packed
// destination (Packed.cpp) takes the loaded words as they are.
#include "plugins/vulkan/codegen/KernelGen.h"

#include <cstdint>
#include <cstring>
#include <functional>
#include <vector>

#include "core/DType.h"
#include "ir/lower/Lowered.h"

namespace tegula::vulkan {

using namespace spv;

uint32_t KernelGen::vector_view(Buf& b, uint32_t bytes) {
  if (auto it = b.views.find(bytes); it != b.views.end()) return it->second;
  uint32_t elem = bytes == 4 ? m_.type(T::U32) : m_.type_vector(T::U32, bytes / 4);
  uint32_t rarr = m_.type_runtime_array(elem, bytes);
  uint32_t block = m_.type_struct({rarr});
  m_.decorate(block, DecBlock);
  m_.member_decorate(block, 0, DecOffset, {0});
  if (b.read_only) m_.member_decorate(block, 0, DecNonWritable);
  uint32_t var = m_.global_variable(SCStorageBuffer, block);
  m_.decorate(var, DecDescriptorSet, {0});
  m_.decorate(var, DecBinding, {b.binding});
  m_.name(var, b.name + "_x" + std::to_string(bytes));
  m_.member_name(block, 0, "words");
  b.views[bytes] = var;
  return var;
}

/// The encoding of `pad` repeated over `words` 32-bit words, as the buffer holds them
/// (little-endian); an 8-byte element spans two words.
static std::vector<uint32_t> pad_words(DType d, double pad, uint32_t words) {
  size_t esize = dtype_size(d);
  alignas(8) unsigned char elem[8] = {};
  store_element(d, pad, elem);
  std::vector<unsigned char> bytes(size_t(words) * 4);
  for (size_t i = 0; i < bytes.size(); ++i) bytes[i] = elem[i % esize];
  std::vector<uint32_t> out(words);
  std::memcpy(out.data(), bytes.data(), bytes.size());
  return out;
}

Value KernelGen::load_words(Buf& src, Value index, Value inside, int64_t vec, double pad) {
  uint32_t esize = uint32_t(dtype_size(src.dtype));
  uint32_t bytes = uint32_t(vec) * esize, words = bytes / 4;
  uint32_t view = vector_view(src, bytes);
  uint32_t word_type = words == 1 ? m_.type(T::U32) : m_.type_vector(T::U32, words);
  auto load = [&]() {
    Value vi = b_.bitcast(b_.udiv(b_.bitcast(index, T::U32), b_.cu(uint32_t(vec))), T::I32);
    uint32_t ptr = b_.chain(SCStorageBuffer, word_type, view, {b_.cu(0).id, vi.id});
    std::vector<uint32_t> ops{ptr};
    for (uint32_t w : b_.shared_access()) ops.push_back(w);
    return b_.op_type(OpLoad, word_type, ops);
  };
  // Proven inside (tile_within): no test, no pad.
  if (inside.id == b_.cb(true).id) return load();
  // Outside the tensor: the pad value in every element.
  std::vector<uint32_t> pad_ids;
  for (uint32_t w : pad_words(src.dtype, pad, words)) pad_ids.push_back(b_.cu(w).id);
  Value pad_vec = words == 1 ? Value{pad_ids[0], T::U32} : b_.op_type(OpCompositeConstruct, word_type, pad_ids);
  uint32_t tmp = m_.local_variable(word_type);
  b_.store(tmp, pad_vec);
  b_.if_(inside, [&] { b_.store(tmp, load()); });
  return b_.op_type(OpLoad, word_type, {tmp});
}

std::vector<Value> KernelGen::unpack_words(Value loaded, uint32_t count, DType d, T elem) {
  uint32_t esize = uint32_t(dtype_size(d));
  auto word = [&](uint32_t w) { return count == 1 ? Value{loaded.id, T::U32} : b_.op(OpCompositeExtract, T::U32, {loaded.id, w}); };
  std::vector<Value> out;
  if (esize == 8) {
    // Two words make one element: a uvec2 bitcast to the 64-bit type.
    uint32_t pair = m_.type_vector(T::U32, 2);
    for (uint32_t w = 0; w < count; w += 2) {
      Value lo = word(w), hi = word(w + 1);
      Value v2 = b_.op_type(OpCompositeConstruct, pair, {lo.id, hi.id});
      out.push_back(cv_.restore(d, b_.op(OpBitcast, elem, {v2.id})));
    }
    return out;
  }
  for (uint32_t w = 0; w < count; ++w) {
    Value x = word(w);
    for (uint32_t p = 0; p < 4 / esize; ++p) {
      Value part = esize == 4 ? x : b_.band(b_.shr(x, b_.cu(p * esize * 8)), b_.cu((1u << (esize * 8)) - 1));
      out.push_back(cv_.restore(d, esize == 4 ? b_.bitcast(part, elem) : b_.convert(part, elem)));
    }
  }
  return out;
}

bool KernelGen::gen_vector_copy(const ir::Stmt& s, Buf& src, Buf& dst, const Exec& e, const std::vector<int64_t>& extent,
                                const std::vector<Value>& so, const std::vector<Value>& dso, double pad) {
  auto plan = ir::get_copy_plan(s);
  int64_t vec = plan.is_ok() ? plan->vec : 0;
  int rank = e.rank;
  uint32_t esize = uint32_t(dtype_size(src.dtype));
  uint32_t bytes = uint32_t(vec) * esize;
  if (bytes != 4 && bytes != 8 && bytes != 16) return false;
  if (e.dist.values.empty() || e.dist.values[0].size != vec || e.dist.values[0].dim != rank - 1 || e.dist.values[0].stride != 1) return false;
  if (extent.back() % vec) return false;
  for (size_t d = 0; d < src.shape.size(); ++d)
    if (d + 1 == src.shape.size() && src.shape[d] > 0 && src.shape[d] % vec) return false;
  if (dst.packed && !copies_whole_words(s, e.dist, extent, src, dst)) return false;
  Value aligned = b_.eq(b_.umod(b_.bitcast(src.offset, T::U32), b_.cu(uint32_t(vec))), b_.cu(0));
  bool within = tile_within(s.copy_src(), src);
  // Each vector of slots v0 .. v0 + vec - 1, inside the tile.
  auto each_vector = [&](const std::function<void(const std::vector<Value>& gc, const std::vector<Value>& sc)>& fn) {
    for (int64_t v0 = 0; v0 < e.slots(); v0 += vec) {
      int in = slot_inside(e, v0, extent);
      if (in == 0) continue;
      std::vector<Value> c = slot_coords(e, v0);
      auto body = [&] { fn(add_origin(so, c), add_origin(dso, c)); };
      if (in == 1) body();
      else b_.if_(coords_inside(c, extent), body);
    }
  };
  auto vector_path = [&] {
    each_vector([&](const std::vector<Value>& gc, const std::vector<Value>& sc) {
      Value words = load_words(src, global_index(src, gc), within ? b_.cb(true) : global_inside(src, gc), vec, pad);
      if (dst.packed) {
        b_.store_shared(packed_ptr(dst, shared_index(dst, sc)), words);
        return;
      }
      std::vector<Value> raws = unpack_words(words, bytes / 4, src.dtype, src.elem);
      for (int64_t u = 0; u < vec; ++u) {
        std::vector<Value> cu = sc;
        cu[size_t(rank - 1)] = b_.add(cu[size_t(rank - 1)], b_.ci(int32_t(u)));
        store_raw(dst, shared_index(dst, cu), raws[size_t(u)]);
      }
    });
  };
  auto scalar_path = [&] {
    if (dst.packed) {
      // Element by element from global memory, one word into the tile.
      each_vector([&](const std::vector<Value>& gc, const std::vector<Value>& sc) {
        std::vector<Value> raws;
        for (int64_t u = 0; u < vec; ++u) {
          std::vector<Value> cu = gc;
          cu[size_t(rank - 1)] = b_.add(cu[size_t(rank - 1)], b_.ci(int32_t(u)));
          raws.push_back(read_memory_raw(src, cu, pad));
        }
        b_.store_shared(packed_ptr(dst, shared_index(dst, sc)), pack_word(raws, src.dtype));
      });
      return;
    }
    for_slots(e, extent, [&](int64_t, const std::vector<Value>& c) {
      write_memory_raw(dst, add_origin(dso, c), read_memory_raw(src, add_origin(so, c), pad));
    });
  };
  // A variant compiled for aligned tensors (lower.tensor_align) needs no run-time choice:
  // the element-by-element path would only cost instruction cache in the loop.
  if (tensor_align_ >= int64_t(bytes)) vector_path();
  else b_.if_(aligned, vector_path, scalar_path);
  return true;
}

}  // namespace tegula::vulkan
