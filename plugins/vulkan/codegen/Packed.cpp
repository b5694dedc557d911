// Packed shared tiles: the tiles the lowering stores as 16-byte words (layout.words;
// ir/lower/PackSharedTiles.cpp decides which, read_lowered checks the rules) are declared as
// arrays of uvec4 (KernelGen.cpp); each invocation stores the words it loaded as they are,
// and OpCooperativeMatrixLoadKHR reads the words with its stride counted in words
// (SPV_KHR_cooperative_matrix: the pointee type may differ from the component type). An
// element access that still reaches a packed tile is reported as a generator error, never
// silently wrong. This file has the word addressing and packing.
#include <cstdint>
#include <vector>

#include "plugins/vulkan/codegen/KernelGen.h"

namespace tegula::vulkan {

using namespace spv;

uint32_t KernelGen::packed_ptr(const Buf& b, Value index) {
  Value word = b_.bitcast(b_.udiv(b_.bitcast(index, T::U32), b_.cu(per_word(b))), T::I32);
  return b_.chain(SCWorkgroup, b.word_type, b.var, {word.id});
}

Value KernelGen::pack_word(const std::vector<Value>& raws, DType d) {
  uint32_t esize = uint32_t(dtype_size(d));
  uint32_t per = 4 / esize;
  std::vector<uint32_t> words;
  for (uint32_t w = 0; w < 4; ++w) {
    Value word = b_.cu(0);
    for (uint32_t p = 0; p < per; ++p) {
      Value part = b_.convert(raws[size_t(w * per + p)], T::U32);
      word = p == 0 ? part : b_.bor(word, b_.shl(part, b_.cu(p * esize * 8)));
    }
    words.push_back(word.id);
  }
  return b_.op_type(OpCompositeConstruct, m_.type_vector(T::U32, 4), words);
}

}  // namespace tegula::vulkan
