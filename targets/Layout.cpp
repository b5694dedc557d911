/// \file
/// Printing, binding and evaluation of layouts, and the bijectivity check that target
/// validation runs on every register fragment.
#include "targets/Layout.h"

#include <algorithm>
#include <cstdint>

namespace tegula {

std::string LayoutTree::to_string() const {
  if (is_leaf()) return leaf.to_string();
  std::string out = "(";
  for (size_t i = 0; i < children.size(); ++i) {
    if (i > 0) out += ",";
    out += children[i].to_string();
  }
  return out + ")";
}

std::string Layout::to_string() const { return shape_.to_string() + ":" + stride_.to_string(); }

static void collect(const LayoutTree& t, std::vector<std::string>& out) {
  if (t.is_leaf()) t.leaf.collect_symbols(out);
  for (const LayoutTree& c : t.children) collect(c, out);
}

std::vector<std::string> Layout::symbols() const {
  std::vector<std::string> out;
  collect(shape_, out);
  collect(stride_, out);
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

// Flatten one top-level mode into (shape, stride) leaves, in colexicographic order.
static Status flatten(const LayoutTree& shape, const LayoutTree& stride, const Symbols& symbols,
                      std::vector<BoundLayout::Leaf>& out) {
  if (!shape.is_leaf()) {
    for (size_t i = 0; i < shape.children.size(); ++i) {
      TG_RETURN_IF_ERROR(flatten(shape.children[i], stride.children[i], symbols, out));
    }
    return Status::ok();
  }
  TG_ASSIGN_OR_RETURN(int64_t extent, shape.leaf.eval(symbols));
  if (extent <= 0) {
    return error(ErrorCode::InvalidArgument,
                 "shape '" + shape.leaf.to_string() + "' evaluates to " + std::to_string(extent) +
                     "; shapes must be positive");
  }
  TG_ASSIGN_OR_RETURN(int64_t step, stride.leaf.eval(symbols));
  out.push_back({extent, step});
  return Status::ok();
}

// Keeps size() and every index far from int64 overflow; real fragments are tiny.
static Status check_magnitude(const std::vector<std::vector<BoundLayout::Leaf>>& modes) {
  constexpr int64_t kLimit = int64_t(1) << 40;
  int64_t size = 1;
  for (const auto& mode : modes) {
    for (const BoundLayout::Leaf& leaf : mode) {
      if (__builtin_mul_overflow(size, leaf.shape, &size) || size > kLimit ||
          leaf.stride > kLimit || leaf.stride < -kLimit) {
        return error(ErrorCode::InvalidArgument, "layout size or stride exceeds 2^40");
      }
    }
  }
  return Status::ok();
}

Result<BoundLayout> Layout::bind(const Symbols& symbols) const {
  std::vector<std::vector<BoundLayout::Leaf>> modes;
  if (shape_.is_leaf()) {
    modes.emplace_back();
    TG_RETURN_IF_ERROR(flatten(shape_, stride_, symbols, modes.back()));
  }
  for (size_t i = 0; i < shape_.children.size(); ++i) {
    modes.emplace_back();
    TG_RETURN_IF_ERROR(flatten(shape_.children[i], stride_.children[i], symbols, modes.back()));
  }
  TG_RETURN_IF_ERROR(check_magnitude(modes));
  return BoundLayout(std::move(modes));
}

Result<int64_t> Layout::index(const Symbols& symbols, int64_t t, int64_t v) const {
  TG_ASSIGN_OR_RETURN(BoundLayout bound, bind(symbols));
  if (bound.rank() != 2) {
    return error(ErrorCode::InvalidArgument, "index(t, v) needs a layout with 2 modes, got " +
                                                 std::to_string(bound.rank()));
  }
  if (t < 0 || t >= bound.mode_size(0) || v < 0 || v >= bound.mode_size(1)) {
    return error(ErrorCode::OutOfRange, "(t=" + std::to_string(t) + ", v=" + std::to_string(v) +
                                            ") is outside the layout's " +
                                            std::to_string(bound.mode_size(0)) + " threads x " +
                                            std::to_string(bound.mode_size(1)) + " values");
  }
  return bound.index(t, v);
}

Status Layout::check_bijective(const Symbols& symbols, int64_t rows, int64_t cols) const {
  TG_ASSIGN_OR_RETURN(BoundLayout bound, bind(symbols));
  return bound.check_bijective(rows, cols);
}

int64_t BoundLayout::mode_size(int i) const {
  int64_t n = 1;
  for (const Leaf& leaf : modes_[size_t(i)]) n *= leaf.shape;
  return n;
}

int64_t BoundLayout::size() const {
  int64_t n = 1;
  for (int i = 0; i < rank(); ++i) n *= mode_size(i);
  return n;
}

int64_t BoundLayout::mode_offset(int i, int64_t coord) const {
  int64_t offset = 0;
  for (const Leaf& leaf : modes_[size_t(i)]) {
    offset += (coord % leaf.shape) * leaf.stride;
    coord /= leaf.shape;
  }
  return offset;
}

std::vector<int64_t> BoundLayout::mode_offsets(int i) const {
  std::vector<int64_t> out(size_t(mode_size(i)));
  for (size_t c = 0; c < out.size(); ++c) out[c] = mode_offset(i, int64_t(c));
  return out;
}

static std::string tv(int64_t t, int64_t v) {
  return "(t=" + std::to_string(t) + ", v=" + std::to_string(v) + ")";
}

static std::string element(int64_t index, int64_t rows) {
  return "(row " + std::to_string(index % rows) + ", col " + std::to_string(index / rows) + ")";
}

Status BoundLayout::check_bijective(int64_t rows, int64_t cols) const {
  if (rank() != 2) {
    return error(ErrorCode::InvalidArgument,
                 "expected a (thread, value) layout with 2 modes, got " + std::to_string(rank()));
  }
  constexpr int64_t kMaxElements = int64_t(1) << 24;  // far above any instruction tile
  if (rows <= 0 || cols <= 0 || rows * cols > kMaxElements) {
    return error(ErrorCode::InvalidArgument, "tile " + std::to_string(rows) + "x" +
                                                 std::to_string(cols) + " is empty or too large");
  }
  int64_t threads = mode_size(0), values = mode_size(1);
  std::string tile = std::to_string(rows) + "x" + std::to_string(cols) + " tile";
  // owner[i] = 1 + the flat (t, v) that reached element i, 0 while unreached.
  std::vector<int64_t> owner(size_t(rows * cols), 0);
  std::vector<int64_t> thread_offsets = mode_offsets(0), value_offsets = mode_offsets(1);
  for (int64_t t = 0; t < threads; ++t) {
    for (int64_t v = 0; v < values; ++v) {
      int64_t i = thread_offsets[size_t(t)] + value_offsets[size_t(v)];
      if (i < 0 || i >= rows * cols) {
        return error(ErrorCode::InvalidArgument, tv(t, v) + " maps to index " + std::to_string(i) +
                                                     ", outside the " + tile);
      }
      int64_t& slot = owner[size_t(i)];
      if (slot != 0) {
        int64_t first = slot - 1;
        return error(ErrorCode::InvalidArgument,
                     "element " + element(i, rows) + " of the " + tile + " is covered twice: by " +
                         tv(first / values, first % values) + " and " + tv(t, v));
      }
      slot = 1 + t * values + v;
    }
  }
  for (int64_t i = 0; i < rows * cols; ++i) {
    if (owner[size_t(i)] == 0) {
      return error(ErrorCode::InvalidArgument,
                   "element " + element(i, rows) + " of the " + tile + " is not covered (" +
                       std::to_string(threads) + " threads x " + std::to_string(values) +
                       " values = " + std::to_string(threads * values) + " for " +
                       std::to_string(rows * cols) + " elements)");
    }
  }
  return Status::ok();
}

}  // namespace tegula
