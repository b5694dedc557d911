#include "ir/lower/SharedLayout.h"

#include <algorithm>
#include <cstdint>

namespace tegula::ir {

void set_shared_layout(std::vector<Attr>& attrs, const SharedLayout& l) {
  if (l.block) set_attr(attrs, "layout.block", AttrValue::of_int(l.block));
  if (l.pad) set_attr(attrs, "layout.pad", AttrValue::of_int(l.pad));
  if (l.swizzle_bits) set_attr(attrs, "layout.swizzle", AttrValue::of_ints({l.swizzle_bits, l.swizzle_base, l.swizzle_shift}));
  set_attr(attrs, "layout.align", AttrValue::of_int(l.align));
  // One stage is the default: a layout shrunk back to it (pipeline fitting) drops the attribute.
  if (l.stages > 1) set_attr(attrs, "layout.stages", AttrValue::of_int(l.stages));
  else std::erase_if(attrs, [](const Attr& a) { return a.name == "layout.stages"; });
  if (l.offset >= 0) set_attr(attrs, "layout.offset", AttrValue::of_int(l.offset));
}

static Result<int64_t> int_attr(const std::vector<Attr>& attrs, const char* name, int64_t fallback, int64_t lo, int64_t hi) {
  const Attr* a = find_attr(attrs, name);
  if (!a) return fallback;
  if (a->value.kind != AttrValue::Kind::Int || a->value.i < lo || a->value.i > hi)
    return error(ErrorCode::Verify, std::string("'") + name + "' must be an integer in " + std::to_string(lo) + ".." + std::to_string(hi), a->loc);
  return a->value.i;
}

Result<SharedLayout> get_shared_layout(const std::vector<Attr>& attrs) {
  SharedLayout l;
  TG_ASSIGN_OR_RETURN(l.block, int_attr(attrs, "layout.block", 0, 0, 1 << 20));
  TG_ASSIGN_OR_RETURN(l.pad, int_attr(attrs, "layout.pad", 0, 0, 1 << 10));
  TG_ASSIGN_OR_RETURN(l.align, int_attr(attrs, "layout.align", 16, 1, 4096));
  TG_ASSIGN_OR_RETURN(l.stages, int_attr(attrs, "layout.stages", 1, 1, 16));
  TG_ASSIGN_OR_RETURN(l.offset, int_attr(attrs, "layout.offset", -1, 0, int64_t(1) << 40));
  if (const Attr* a = find_attr(attrs, "layout.swizzle")) {
    const AttrValue& v = a->value;
    bool ok = v.kind == AttrValue::Kind::List && v.list.size() == 3;
    for (size_t i = 0; ok && i < 3; ++i) ok = v.list[i].kind == AttrValue::Kind::Int && v.list[i].i >= 0 && v.list[i].i <= 8;
    if (!ok) return error(ErrorCode::Verify, "'layout.swizzle' must be [bits, base, shift] with small integers", a->loc);
    l.swizzle_bits = v.list[0].i;
    l.swizzle_base = v.list[1].i;
    l.swizzle_shift = v.list[2].i;
  }
  if ((l.align & (l.align - 1)) != 0) return error(ErrorCode::Verify, "'layout.align' must be a power of two");
  return l;
}

int64_t shared_offset(const SharedLayout& l, const std::vector<int64_t>& shape, DType dtype, const std::vector<int64_t>& coords) {
  int64_t rows = 1, i = 0;
  for (size_t d = 0; d + 1 < shape.size(); ++d) {
    rows *= shape[d];
    i = i * shape[d] + coords[d];
  }
  int64_t cols = shape.back(), j = coords.back();
  int64_t elem = l.block ? (j / l.block) * (rows * l.block) + i * l.block + (j % l.block) : i * (cols + l.pad) + j;
  int64_t b = elem * int64_t(dtype_size(dtype));
  if (l.swizzle_bits) b ^= ((b >> (l.swizzle_base + l.swizzle_shift)) & ((int64_t(1) << l.swizzle_bits) - 1)) << l.swizzle_base;
  return b;
}

int64_t shared_stage_bytes(const SharedLayout& l, const std::vector<int64_t>& shape, DType dtype) {
  int64_t rows = 1;
  for (size_t d = 0; d + 1 < shape.size(); ++d) rows *= shape[d];
  int64_t cols = shape.back();
  int64_t elems = l.block ? ((cols + l.block - 1) / l.block) * rows * l.block : rows * (cols + l.pad);
  int64_t bytes = elems * int64_t(dtype_size(dtype));
  // A swizzle permutes within aligned groups of 2^(base+shift+bits) bytes; keep whole groups.
  if (l.swizzle_bits) {
    int64_t group = int64_t(1) << (l.swizzle_base + l.swizzle_shift + l.swizzle_bits);
    bytes = (bytes + group - 1) / group * group;
  }
  return (bytes + l.align - 1) / l.align * l.align;
}

Status check_shared_layout(const SharedLayout& l, const std::vector<int64_t>& shape, DType dtype) {
  if (shape.empty()) return error(ErrorCode::Verify, "shared buffer without dimensions");
  if (l.block && shape.back() % l.block) return error(ErrorCode::Verify, "layout.block does not divide the last dimension");
  if (l.block && l.pad) return error(ErrorCode::Verify, "layout.block and layout.pad cannot be combined");
  int64_t total = 1;
  for (int64_t s : shape) total *= s;
  int64_t size = shared_stage_bytes(l, shape, dtype);
  if (total > (int64_t(1) << 22)) return Status::ok();  // too big to enumerate; the formula is a bijection by construction
  std::vector<uint8_t> used(size_t(size), 0);
  std::vector<int64_t> c(shape.size(), 0);
  int64_t esize = int64_t(dtype_size(dtype));
  for (int64_t n = 0; n < total; ++n) {
    int64_t off = shared_offset(l, shape, dtype, c);
    if (off < 0 || off + esize > size) return error(ErrorCode::Verify, "shared layout places an element outside its buffer");
    for (int64_t b = 0; b < esize; ++b)
      if (used[size_t(off + b)]++) return error(ErrorCode::Verify, "shared layout places two elements on the same bytes");
    for (size_t d = shape.size(); d-- > 0;) {
      if (++c[d] < shape[d]) break;
      c[d] = 0;
    }
  }
  return Status::ok();
}

bool shared_vectors_contiguous(const SharedLayout& l, const std::vector<int64_t>& shape, DType dtype, const Distribution& plan,
                               const std::vector<int64_t>& origin, int64_t n, int64_t threads) {
  int64_t es = int64_t(dtype_size(dtype));
  if (n * es > 16 || (n * es) & (n * es - 1)) return false;
  // Buffers start 16-byte aligned (PlaceShared.cpp); every stage must too.
  if (shared_stage_bytes(l, shape, dtype) % 16) return false;
  int rank = int(shape.size());
  for (int64_t t = 0; t < threads; ++t) {
    for (int64_t v = 0; v < plan.value_count(); v += n) {
      std::vector<int64_t> c = plan.coords(t, v, rank);
      bool in = true;
      for (int i = 0; i < rank; ++i) {
        c[size_t(i)] += origin.empty() ? 0 : origin[size_t(i)];
        in = in && c[size_t(i)] < shape[size_t(i)];
      }
      if (!in) continue;
      int64_t base = shared_offset(l, shape, dtype, c);
      if (base % (n * es)) return false;
      for (int64_t i = 1; i < n; ++i) {
        std::vector<int64_t> ci = c;
        ci.back() += i;
        if (ci.back() >= shape.back()) return false;
        if (shared_offset(l, shape, dtype, ci) != base + i * es) return false;
      }
    }
  }
  return true;
}

}  // namespace tegula::ir
