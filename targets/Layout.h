/// \file
/// Hierarchical shape:stride layouts in CuTe's notation, e.g.
/// "((4,8),(2,2,2)):((32,1),(16,8,128))". A layout maps a coordinate to a linear index:
/// each top-level mode takes a 1-D coordinate, splits it colexicographically (first element
/// fastest) over the mode's flattened shape, and adds coordinate times stride; the modes'
/// offsets are summed. Shapes and strides may be integer expressions over symbols (M, N, K)
/// so that one layout describes a whole range of instruction shapes.
///
/// Target descriptions use two-mode layouts: a thread-value (TV) layout maps (thread t,
/// value v) to the column-major index of an element in an operand tile, which is exactly
/// how CuTe writes MMA fragment layouts.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "core/Status.h"
#include "targets/IntExpr.h"

namespace tegula {

/// A node of a shape or stride tree: a leaf expression, or a tuple of at least two nodes.
struct LayoutTree {
  IntExpr leaf;
  std::vector<LayoutTree> children;  ///< empty for a leaf

  bool is_leaf() const { return children.empty(); }
  std::string to_string() const;
  bool operator==(const LayoutTree& other) const = default;
};

/// A layout whose expressions have all been evaluated. Each top-level mode keeps its
/// flattened leaves; nesting below the top level does not change the mapping.
class BoundLayout {
public:
  struct Leaf {
    int64_t shape = 1;
    int64_t stride = 0;
  };

  explicit BoundLayout(std::vector<std::vector<Leaf>> modes) : modes_(std::move(modes)) {}

  int rank() const { return int(modes_.size()); }
  const std::vector<Leaf>& mode(int i) const { return modes_[size_t(i)]; }
  int64_t mode_size(int i) const;
  int64_t size() const;
  /// For a TV layout: the number of threads (mode 0) and of values per thread (mode 1).
  int64_t thread_size() const { return mode_size(0); }
  int64_t value_size() const { return mode_size(1); }
  /// The offset that 1-D coordinate `coord` (0 <= coord < mode_size(i)) of mode i adds.
  int64_t mode_offset(int i, int64_t coord) const;
  /// mode_offset(i, c) for every c in [0, mode_size(i)): what loops over a whole tile use,
  /// so that each element costs one addition.
  std::vector<int64_t> mode_offsets(int i) const;
  /// The index of (a, b) in a rank-2 layout: for a TV layout a is the thread and b the value.
  int64_t index(int64_t a, int64_t b) const {
    TG_ASSERT(rank() == 2, "BoundLayout::index needs two modes");
    return mode_offset(0, a) + mode_offset(1, b);
  }

  /// For a rank-2 TV layout: ok when every (t, v) lands on a distinct element of a
  /// rows x cols column-major tile and every element is reached. Otherwise the error names
  /// the first coordinate that is out of the tile, covered twice, or not covered.
  Status check_bijective(int64_t rows, int64_t cols) const;

private:
  std::vector<std::vector<Leaf>> modes_;
};

class Layout {
public:
  Layout() = default;  ///< the empty layout 0:0, a placeholder until assigned

  /// Parse "shape:stride". Errors name the column and what was expected there.
  static Result<Layout> parse(std::string_view text);

  const LayoutTree& shape() const { return shape_; }
  const LayoutTree& stride() const { return stride_; }
  /// Number of top-level modes (1 when the shape is a single leaf).
  int rank() const { return shape_.is_leaf() ? 1 : int(shape_.children.size()); }

  /// Canonical text: no spaces, minimal parentheses; parse(to_string()) gives this layout.
  std::string to_string() const;
  /// Distinct symbol names used, sorted.
  std::vector<std::string> symbols() const;

  /// Evaluate every shape and stride. Shapes must come out positive.
  Result<BoundLayout> bind(const Symbols& symbols) const;
  /// index(t, v) of a rank-2 layout under `symbols`.
  Result<int64_t> index(const Symbols& symbols, int64_t t, int64_t v) const;
  /// bind() then BoundLayout::check_bijective().
  Status check_bijective(const Symbols& symbols, int64_t rows, int64_t cols) const;

  bool operator==(const Layout& other) const = default;

private:
  Layout(LayoutTree shape, LayoutTree stride)
      : shape_(std::move(shape)), stride_(std::move(stride)) {}

  LayoutTree shape_;
  LayoutTree stride_;
};

}  // namespace tegula
